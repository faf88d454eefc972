/**
 * The worked examples of the metric papers (the seed texts Corefboard is built from), as
 * data: each example's key and responses as entities, and the figures the paper prints for
 * them. `scoring/test/papers.test.ts` checks the scorer against them, and the metric
 * explanation pages (`lib/content/metrics-explained.ts`) score them live.
 *
 * - Vilain, Burger, Aberdeen, Connolly & Hirschman (1995), MUC: four key/response link sets
 *   with their MUC recall and precision.
 * - Bagga & Baldwin (1998), as given in the UPenn CAMP MUC-7 system description: the key
 *   {1 2 3 4 5} {6 7} {8 9 A B C} against two responses that MUC cannot tell apart
 *   (precision 9/10 for both) but B³ can (precision 16/21 vs 7/12; with equal weight per
 *   entity 39/49 vs 3/4); B³ recall is 1 for both.
 *
 * The papers name their mentions with single characters. Here each character is a
 * one-token mention at its own token index in {@link ELEMENTS}: "1" is token 0, "9" token
 * 8, "A" token 9, and so on. Framework-free, like the rest of `scoring/`.
 */
import type { Entity, Mention } from "../types.js";

/** The element names in token order: element `ELEMENTS[i]` is the mention `[i, i]`. */
export const ELEMENTS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * The one-token mention of an element.
 *
 * @param element one character of {@link ELEMENTS}
 * @returns `[i, i]` where `i` is the element's index
 * @throws RangeError for any other string
 */
export function elementMention(element: string): Mention {
  const i = element.length === 1 ? ELEMENTS.indexOf(element) : -1;
  if (i < 0) throw new RangeError(`not an example element: ${JSON.stringify(element)}`);
  return [i, i];
}

/**
 * The element a mention stands for.
 *
 * @returns the character of {@link ELEMENTS} at the mention's token, or null when the
 *   mention is not a one-token mention inside {@link ELEMENTS}
 */
export function elementOf(mention: Mention): string | null {
  const [start, end] = mention;
  return start === end && start >= 0 && start < ELEMENTS.length ? ELEMENTS[start] : null;
}

/**
 * Entities from a paper's notation: groups separated by spaces, each group either a run of
 * elements ("12345", one entity) or a link ("A-B"). Groups that share an element are merged,
 * so the link list "A-B B-C B-D" is the one entity {A B C D}. Each entity's elements are in
 * {@link ELEMENTS} order.
 *
 * @param spec e.g. "12345 67 89ABC" or "A-B B-C D-E"
 * @returns the entities, in the order their last merge completed
 * @throws RangeError when an element is not in {@link ELEMENTS}
 */
export function entitiesFromSpec(spec: string): Entity[] {
  const groups = spec.split(" ").map((g) => g.replace(/-/g, "").split(""));
  // Merge groups sharing an element (so link lists like "A-B B-C" become one chain).
  const merged: Set<string>[] = [];
  for (const g of groups) {
    const hits = merged.filter((m) => g.some((x) => m.has(x)));
    const union = new Set<string>(g);
    for (const h of hits) {
      for (const x of h) union.add(x);
      merged.splice(merged.indexOf(h), 1);
    }
    merged.push(union);
  }
  return merged.map((m) => [...m].sort().map((x) => elementMention(x)));
}

/** Metrics (and variants) for which the papers print figures. */
export type FigureMetric = "muc" | "bcub" | "bcub-entity";

/** A recall or precision a paper prints for one response. */
export interface PublishedFigure {
  /** `bcub` is B³ with equal weight per mention; `bcub-entity` with equal weight per entity. */
  metric: FigureMetric;
  part: "recall" | "precision";
  /** The figure as a fraction (`num/den`, not reduced: 3/6 stays 3/6). */
  num: number;
  den: number;
  /**
   * True when `num` and `den` are the scorer's own counts (MUC's link counts: 2/3 means 2
   * correct links out of 3), so they must match exactly; false when only the value is
   * printed (B³'s 16/21 is a ratio of averages, 100% is 1/1).
   */
  countsExact: boolean;
  /** How the paper prints it, e.g. "2/3", "16/21 (76%)", "100%". */
  printed: string;
  /** Where the figure comes from, when the seed text does not show it plainly. */
  note?: string;
}

/** One response of an example, with the figures the paper gives for it. */
export interface PaperResponse {
  /** e.g. "Response" or "Figure 2" */
  label: string;
  /** The paper's notation (see {@link entitiesFromSpec}). */
  spec: string;
  entities: Entity[];
  figures: readonly PublishedFigure[];
}

/** A worked example of a paper: one key, one or more responses. */
export interface PaperExample {
  /** Stable id, e.g. `vilain-1995-1`. */
  id: string;
  /** Short reference, e.g. "Vilain et al. (1995)". */
  paper: string;
  /** Where in the paper, e.g. "the first example (Sundheim et al.'s problematic case)". */
  location: string;
  /** What the example shows, in a sentence or two. */
  description: string;
  /** The paper's notation of the key (see {@link entitiesFromSpec}). */
  keySpec: string;
  key: Entity[];
  responses: readonly PaperResponse[];
}

/** A response from its spec. */
function response(label: string, spec: string, figures: PublishedFigure[]): PaperResponse {
  return { label, spec, entities: entitiesFromSpec(spec), figures };
}

/** A MUC figure printed as links (`num/den` are link counts). */
function mucLinks(part: "recall" | "precision", num: number, den: number, printed = `${num}/${den}`): PublishedFigure {
  return { metric: "muc", part, num, den, countsExact: true, printed };
}

const VILAIN = "Vilain et al. (1995)";

/**
 * Vilain et al. (1995), "A Model-Theoretic Coreference Scoring Scheme": the four examples
 * with their MUC figures, in the paper's order.
 */
export const VILAIN_1995: readonly PaperExample[] = [
  {
    id: "vilain-1995-1",
    paper: VILAIN,
    location: "the first example (key links <A-B B-C B-D>, response links <A-B C-D>)",
    description:
      "The key makes A, B, C and D one entity; the response splits it in two. Both response links are right (precision 2/2), " +
      "but one of the three links needed to join the key entity is missing (recall 2/3).",
    keySpec: "A-B B-C B-D",
    key: entitiesFromSpec("A-B B-C B-D"),
    responses: [response("Response", "A-B C-D", [mucLinks("recall", 2, 3), mucLinks("precision", 2, 2, "2/2 = 1")])],
  },
  {
    id: "vilain-1995-2",
    paper: VILAIN,
    location: "the second example (key links <A-B B-C>, response links <A-C>)",
    description: "The response links A and C but leaves B out: p(S) = {A C} {B}, so recall is (3 − 2)/(3 − 1) = 1/2.",
    keySpec: "A-B B-C",
    key: entitiesFromSpec("A-B B-C"),
    responses: [response("Response", "A-C", [mucLinks("recall", 1, 2)])],
  },
  {
    id: "vilain-1995-3",
    paper: VILAIN,
    location: "“Examples with more complexity”, the first one",
    description:
      "One key entity of seven elements against three response entities of three; J is missing from the response, and A, F and I " +
      "are not in the key. Three of the six links needed are found, and three of the six response links are right.",
    keySpec: "B-C C-D D-E E-G G-H H-J",
    key: entitiesFromSpec("B-C C-D D-E E-G G-H H-J"),
    responses: [response("Response", "A-B B-C D-E E-F G-H H-I", [mucLinks("recall", 3, 6), mucLinks("precision", 3, 6)])],
  },
  {
    id: "vilain-1995-4",
    paper: VILAIN,
    location: "“Examples with more complexity”, the second one (Figures 1–3)",
    description: "Two key entities against three response entities: two of the five key links are found, two of the four response links are right.",
    keySpec: "A-B B-C D-E E-F F-G",
    key: entitiesFromSpec("A-B B-C D-E E-F F-G"),
    responses: [response("Response", "A-B C-D F-G G-H", [mucLinks("recall", 2, 5), mucLinks("precision", 2, 4)])],
  },
];

/** A B³ figure (only its value is printed). */
function bcubValue(metric: "bcub" | "bcub-entity", part: "recall" | "precision", num: number, den: number, printed: string, note?: string): PublishedFigure {
  return { metric, part, num, den, countsExact: false, printed, ...(note ? { note } : {}) };
}

/** The B³ figures for equal weight per entity, which the seed text's extraction lost. */
const ENTITY_WEIGHT_NOTE =
  "The seed text lost these numbers in extraction; 39/49 and 3/4 are what the weighting it describes gives " +
  "(1/10 per element of the first response class and 1/14 per element of the second for Figure 2), as the scorer's tests record them.";

/**
 * Bagga & Baldwin (1998), as given in the UPenn CAMP MUC-7 system description: the key of
 * Figure 1 against the responses of Figures 2 and 4, with the MUC and B³ figures (Figure 6).
 */
export const BAGGA_BALDWIN_1998: PaperExample = {
  id: "bagga-baldwin-1998",
  paper: "Bagga & Baldwin (1998)",
  location: "Figures 1, 2, 4 and 6 of the UPenn CAMP MUC-7 description",
  description:
    "Two large entities and a small one. Figure 2 wrongly joins the small entity {6 7} to the large {8 9 A B C}; Figure 4 " +
    "wrongly joins the two large ones. MUC gives both the same precision (one wrong link out of ten); B³ penalises Figure 4 more, " +
    "since it makes more mentions coreferent that should not be.",
  keySpec: "12345 67 89ABC",
  key: entitiesFromSpec("12345 67 89ABC"),
  responses: [
    response("Figure 2", "12345 6789ABC", [
      mucLinks("precision", 9, 10, "90%"),
      bcubValue("bcub", "precision", 16, 21, "16/21 (76%)"),
      bcubValue("bcub", "recall", 1, 1, "100%"),
      bcubValue("bcub-entity", "precision", 39, 49, "39/49", ENTITY_WEIGHT_NOTE),
    ]),
    response("Figure 4", "1234589ABC 67", [
      mucLinks("precision", 9, 10, "90%"),
      bcubValue("bcub", "precision", 7, 12, "7/12 (58%)"),
      bcubValue("bcub", "recall", 1, 1, "100%"),
      bcubValue("bcub-entity", "precision", 3, 4, "3/4", ENTITY_WEIGHT_NOTE),
    ]),
  ],
};

/** Every paper example, Vilain et al.'s first. */
export const PAPER_EXAMPLES: readonly PaperExample[] = [...VILAIN_1995, BAGGA_BALDWIN_1998];
