/**
 * The worked examples of the metric pages (`app/metrics/`): an example from the papers
 * (`scoring/examples/papers.ts`) or in the CorefUD format (`corefud-examples.ts`), scored live
 * by `scoring/` (`evaluate`, `toScore`, `mappedClusterF`), with the scorer's exact numerators
 * and denominators (`exact-fractions.ts`) and, where the paper prints figures, the comparison
 * with them. Nothing here is a hard-coded score: every number comes from the scorer.
 *
 * The examples' prose (what to look at, how mentions are written) comes from the Markdown of
 * `lib/content/metrics/` (`metric-texts.ts`), passed in by `metrics-explained.ts`.
 */
import { mappedClusterF } from "../../scoring/analysis/mapped-cluster-f";
import { elementOf, type FigureMetric, type PaperExample, type PublishedFigure } from "../../scoring/examples/papers";
import { evaluate, toScore, type Corpus, type Counts, type Entity, type Mention, type Report } from "../../scoring";
import { isMetricId as isRegistryMetric, SELECTABLE_METRICS, type SelectableMetric } from "../../scoring/metrics/registry";
import { corefudCorpus, mentionText, sentenceLines, type CorefUDExample, type ExampleNodeMention } from "./corefud-examples";
import { addR, f1Part, fractionText, mulR, part, publicPart, rat, ratioPart, rationalize, type Fraction, type Rational, type ScorePart } from "./exact-fractions";
import { CONLL_PARTS, isLeaderboardMetric, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";

/** A mention of an example: its name or words, and where it is. */
export interface ExampleMention {
  /** The paper's name, e.g. "A" or "7" (the letter of its one token), or the mention's words ("The old man", "∅"). */
  token: string;
  /** The inclusive token span the scorer sees (paper examples); null for CorefUD examples, whose mentions are node sets. */
  span: Mention | null;
  /** Where it is, as the page writes it: the span `[9,9]`, or the nodes `2:0.1`, `1:1,2,3` (sentence:IDs). */
  position: string;
  /** Index of the key entity holding the same mention (for colouring), or null if none does. */
  keyEntity: number | null;
}


/** Which score a row shows. */
export type ScoreRowId = LeaderboardMetric | "bcub-entity" | "blanc-coref" | "blanc-noncoref";

/** A published figure next to what the scorer computed for it. */
export interface FigureCheck {
  part: "recall" | "precision";
  /** How the paper prints it. */
  printed: string;
  /** The paper's fraction, not reduced. */
  figure: Fraction;
  /** True when the paper's numerator and denominator are the scorer's counts (MUC links). */
  countsExact: boolean;
  /** True when the scorer agrees: same counts when `countsExact`, else the same value (to 1e-12). */
  agrees: boolean;
  note?: string;
}

/** One line of a worked example's score table. */
export interface ScoreRow {
  id: ScoreRowId;
  label: string;
  /** True for the page's own metric (the other rows are its parts or comparisons). */
  main: boolean;
  recall: ScorePart | null;
  precision: ScorePart | null;
  f1: ScorePart;
  /** The paper's figures for this row and response (empty when the paper gives none). */
  figures: FigureCheck[];
}

/** Where mapped cluster F put one response entity. */
export interface MappingLine {
  response: number;
  key: number | null;
  /** F(S, K) of the pair; 0 when unmapped. */
  f: ScorePart;
}

/** One response of a worked example, scored. */
export interface ExampleResponse {
  /** e.g. "Response" or "Figure 2". */
  label: string;
  /** The paper's notation. */
  spec: string;
  entities: ExampleMention[][];
  /** `overlap[k][s]` = |K_k ∩ S_s|, the number of spans key entity k and response entity s share. */
  overlap: number[][];
  rows: ScoreRow[];
  /** Mapped cluster F only: each response entity's mapping. */
  mapping?: MappingLine[];
}

/** A worked example from a paper (or made for the page), scored live. */
export interface WorkedExample {
  /** e.g. "Vilain et al. (1995)"; "Corefboard" for an example made for the page. */
  paper: string;
  /** Where in the paper. */
  location: string;
  /** Where the example comes from, as one sentence for the page. */
  source: string;
  /** What the example shows. */
  description: string;
  /** How the page writes mentions (one-token letters, or word sets with positions), in Markdown. */
  notation: string;
  /** The example's sentences as text lines (CorefUD examples), or null. */
  sentences: string[] | null;
  /** The paper's notation of the key. */
  keySpec: string;
  key: ExampleMention[][];
  responses: ExampleResponse[];
  /** What the page's reader should look at in the numbers, in Markdown. */
  takeaway: string;
}

/** A worked example's prose, in Markdown (from `lib/content/metrics/`). */
export interface ExampleTexts {
  /** How the page writes the example's mentions. */
  notation: string;
  /** What the page's reader should look at in the numbers. */
  takeaway: string;
}

/** Labels of the example rows that are parts or variants of a metric. */
const PART_ROW_LABELS: Record<Exclude<ScoreRowId, LeaderboardMetric>, string> = {
  "bcub-entity": "B³, equal weight per entity",
  "blanc-coref": "Coreference links",
  "blanc-noncoref": "Non-coreference links",
};

/** A score row's label: a part's own, else the metric's row label ({@link PAGE_ROWS}) or short label. */
function rowLabel(id: ScoreRowId): string {
  return isLeaderboardMetric(id) ? (PAGE_ROWS[id].rowLabel ?? METRIC_LABELS[id]) : PART_ROW_LABELS[id];
}

/** The paper figure metric a row shows, if any. */
const FIGURE_METRIC: Partial<Record<ScoreRowId, FigureMetric>> = { muc: "muc", bcub: "bcub", "bcub-entity": "bcub-entity" };

/** A one-document corpus of the example's entities (tokens are the element letters). */
function exampleCorpus(file: string, entities: readonly Entity[], tokens: string[]): Corpus {
  return {
    file,
    warnings: [],
    documents: [{ id: "example", name: "example", part: null, tokens, sentenceStarts: [0], entities: entities.map((e) => [...e]), line: 1 }],
  };
}

/** The tokens of a document holding every mention of `sides` (token i is the element at i). */
function exampleTokens(...sides: readonly (readonly Entity[])[]): string[] {
  let last = -1;
  for (const side of sides) for (const e of side) for (const [, end] of e) last = Math.max(last, end);
  return Array.from({ length: last + 1 }, (_, i) => elementOf([i, i]) ?? "");
}

/** Span key for maps. */
const spanId = (m: Mention): string => `${m[0]}:${m[1]}`;

/** Entities as displayed mentions, coloured by the key entity holding each span (the last one, as the scorer does). */
function displayEntities(entities: readonly Entity[], keyOf: Map<string, number>): ExampleMention[][] {
  return entities.map((e) => e.map((m) => ({ token: elementOf(m) ?? `${m[0]}–${m[1]}`, span: m, position: `[${m[0]},${m[1]}]`, keyEntity: keyOf.get(spanId(m)) ?? null })));
}

/** |K ∩ S| for every pair: the number of mentions (as `id` names them) both hold. */
function overlapTable<M>(key: readonly (readonly M[])[], response: readonly (readonly M[])[], id: (m: M) => string): number[][] {
  return key.map((k) => {
    const mentions = new Set(k.map(id));
    return response.map((s) => new Set(s.map(id).filter((x) => mentions.has(x))).size);
  });
}

/** A count metric's row from the scorer's counts. */
function countRow(id: ScoreRowId, counts: Counts, main: boolean, figures: readonly PublishedFigure[]): ScoreRow {
  const score = toScore(counts);
  const recall = ratioPart(counts.recallNum, counts.recallDen, score.recall);
  const precision = ratioPart(counts.precisionNum, counts.precisionDen, score.precision);
  const f1 = f1Part(score.f1, recall.rational, precision.rational);
  const metric = FIGURE_METRIC[id];
  const checks = metric
    ? figures
        .filter((f) => f.metric === metric)
        .map((f): FigureCheck => {
          const [num, den] = f.part === "recall" ? [counts.recallNum, counts.recallDen] : [counts.precisionNum, counts.precisionDen];
          const value = f.part === "recall" ? score.recall : score.precision;
          const agrees = f.countsExact ? num === f.num && den === f.den : Math.abs(value - f.num / f.den) <= 1e-12;
          return { part: f.part, printed: f.printed, figure: { num: f.num, den: f.den }, countsExact: f.countsExact, agrees, ...(f.note ? { note: f.note } : {}) };
        })
    : [];
  return { id, label: rowLabel(id), main, recall: publicPart(recall), precision: publicPart(precision), f1: publicPart(f1), figures: checks };
}

/**
 * The rows each page shows, the page's own metric marked main, and the label of the metric's
 * row wherever it is shown when not its short label (`METRIC_LABELS`).
 */
const PAGE_ROWS: Record<LeaderboardMetric, { rows: ScoreRowId[]; main: ScoreRowId; rowLabel?: string }> = {
  mentions: { rows: ["mentions"], main: "mentions", rowLabel: "Mention identification" },
  muc: { rows: ["muc"], main: "muc" },
  bcub: { rows: ["bcub", "bcub-entity", "muc"], main: "bcub" },
  ceafm: { rows: ["ceafm"], main: "ceafm" },
  ceafe: { rows: ["ceafe"], main: "ceafe" },
  lea: { rows: ["lea"], main: "lea" },
  blanc: { rows: ["blanc-coref", "blanc-noncoref", "blanc"], main: "blanc" },
  conll: { rows: [...CONLL_PARTS, "conll"], main: "conll", rowLabel: "CoNLL F1" },
  mcf: { rows: ["mcf"], main: "mcf", rowLabel: "Mapped cluster F" },
  mor: { rows: ["mentions", "mor"], main: "mor" },
  zero: { rows: ["zero"], main: "zero", rowLabel: "Zero anaphors" },
};

/** What the scorer computed for one response, kept for building rows (paper examples have all three). */
interface Computed {
  report: Report;
  entityWeighted?: Report;
  mcf?: ReturnType<typeof mappedClusterF>;
}

/** A required score of a report (evaluate computes every standard metric by default). */
function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the scorer returned no ${what} for a worked example`);
  return value;
}

/** The BLANC row: recall, precision and F1 as the mean of the two link parts (the reference scorer's rules). */
function blancRow(report: Report, main: boolean): ScoreRow {
  const blanc = required(report.metrics.blanc, "BLANC");
  const parts = [blanc.coref, blanc.noncoref].map((c) => {
    const s = toScore(c);
    const r = ratioPart(c.recallNum, c.recallDen, s.recall);
    const p = ratioPart(c.precisionNum, c.precisionDen, s.precision);
    return { r, p, f: f1Part(s.f1, r.rational, p.rational), keyLinks: c.recallDen };
  });
  const [coref, non] = parts;
  // Which parts count: both; only non-coreference when the key has no coreference links; only coreference when it has no non-coreference links.
  const used = coref.keyLinks === 0 && non.keyLinks === 0 ? [] : coref.keyLinks === 0 ? [non] : non.keyLinks === 0 ? [coref] : [coref, non];
  const mean = (pick: (x: (typeof parts)[number]) => ReturnType<typeof part>, value: number, names: [string, string]) => {
    if (used.length === 0) return part(value, rat(0), "0 (the key has no links)");
    const rs = used.map((u) => pick(u).rational);
    const exact = rs.every((x): x is Rational => x !== null) ? mulR(rs.reduce(addR), rat(1, rs.length)) : null;
    const expression =
      used.length === 2
        ? `(${names[0]} + ${names[1]})/2`
        : `${used[0] === coref ? names[0] : names[1]} (${used[0] === coref ? "the key has no non-coreference links" : "the key has no coreference links"})`;
    return part(value, exact, expression);
  };
  const text = (p: ScorePart) => (p.exact ? fractionText(p.exact) : String(p.value));
  return {
    id: "blanc",
    label: rowLabel("blanc"),
    main,
    recall: publicPart(mean((u) => u.r, blanc.recall, [text(coref.r), text(non.r)])),
    precision: publicPart(mean((u) => u.p, blanc.precision, [text(coref.p), text(non.p)])),
    f1: publicPart(mean((u) => u.f, blanc.f1, ["F_c", "F_n"])),
    figures: [],
  };
}

/** The CoNLL row: the mean of the MUC, B³ and CEAFe F1. */
function conllRow(report: Report, main: boolean): ScoreRow {
  const conll = required(report.metrics.conll, "CoNLL F1");
  const f1s = CONLL_PARTS.map((m) => countRow(m, required(report.metrics[m], m), false, []).f1.exact);
  const exact = f1s.every((x): x is Fraction => x !== null) ? mulR(f1s.map((f) => rat(f.num, f.den)).reduce(addR), rat(1, f1s.length)) : null;
  return {
    id: "conll",
    label: rowLabel("conll"),
    main,
    recall: null,
    precision: null,
    f1: publicPart(part(conll.f1, exact, "(F1 MUC + F1 B³ + F1 CEAFe)/3")),
    figures: [],
  };
}

/** One row of a response. */
function buildRow(id: ScoreRowId, computed: Computed, main: boolean, figures: readonly PublishedFigure[]): ScoreRow {
  const m = computed.report.metrics;
  switch (id) {
    case "mentions":
    case "muc":
    case "bcub":
    case "ceafm":
    case "ceafe":
    case "lea":
    case "mor":
    case "zero":
      return countRow(id, required(m[id], id), main, figures);
    case "bcub-entity":
      return countRow(id, required(computed.entityWeighted?.metrics.bcub, "B³ (entity weighting)"), main, figures);
    case "blanc-coref":
      return countRow(id, required(m.blanc, "BLANC").coref, main, figures);
    case "blanc-noncoref":
      return countRow(id, required(m.blanc, "BLANC").noncoref, main, figures);
    case "blanc":
      return blancRow(computed.report, main);
    case "conll":
      return conllRow(computed.report, main);
    case "mcf":
      return countRow(id, required(computed.mcf, "mapped cluster F").counts, main, figures);
  }
}

/**
 * Scores a paper example for one metric's page: every response against the key, with
 * `evaluate` (all standard metrics, and B³ with equal weight per entity) and
 * `mappedClusterF`, then the page's rows.
 *
 * @param texts the example's notation and takeaway (Markdown), shown with it
 * @throws Error when the scorer returns no score for one of the page's rows
 */
export function scoreExample(example: PaperExample, metric: LeaderboardMetric, { notation, takeaway }: ExampleTexts): WorkedExample {
  const tokens = exampleTokens(example.key, ...example.responses.map((r) => r.entities));
  const keyCorpus = exampleCorpus("key", example.key, tokens);
  const keyOf = new Map<string, number>();
  example.key.forEach((e, k) => e.forEach((m) => keyOf.set(spanId(m), k)));
  const { rows, main } = PAGE_ROWS[metric];
  return {
    paper: example.paper,
    location: example.location,
    source: `From ${example.paper}, ${example.location}.`,
    description: example.description,
    notation,
    sentences: null,
    keySpec: example.keySpec,
    key: displayEntities(example.key, keyOf),
    takeaway,
    responses: example.responses.map((r) => {
      const responseCorpus = exampleCorpus(`response (${r.label})`, r.entities, tokens);
      const computed: Computed = {
        report: evaluate(keyCorpus, responseCorpus),
        entityWeighted: evaluate(keyCorpus, responseCorpus, { metrics: ["bcub"], bcubWeighting: "entity" }),
        mcf: mappedClusterF(example.key, r.entities),
      };
      const out: ExampleResponse = {
        label: r.label,
        spec: r.spec,
        entities: displayEntities(r.entities, keyOf),
        overlap: overlapTable(example.key, r.entities, spanId),
        rows: rows.map((id) => buildRow(id, computed, id === main, r.figures)),
      };
      if (metric === "mcf" && computed.mcf) {
        out.mapping = computed.mcf.mapping.map((line) => ({ response: line.response, key: line.key, f: publicPart(part(line.f, rationalize(line.f), "2|S ∩ K|/(|S| + |K|)")) }));
      }
      return out;
    }),
  };
}

/** A CorefUD mention's identity for comparing key and response: its node references. */
const nodeSetId = (m: ExampleNodeMention): string => [...m.nodes].sort().join(" ");

/** A CorefUD mention's position as the page writes it: `1:1,2,3`, or per sentence joined by `+`. */
function nodePosition(m: ExampleNodeMention): string {
  const bySentence = new Map<string, string[]>();
  for (const ref of m.nodes) {
    const [s, id] = ref.split(":");
    bySentence.set(s, [...(bySentence.get(s) ?? []), id]);
  }
  return [...bySentence].map(([s, ids]) => `${s}:${ids.join(",")}`).join(" + ");
}

/** CorefUD example entities as displayed mentions, coloured by the key entity holding the same node set. */
function displayNodeEntities(example: CorefUDExample, entities: readonly ExampleNodeMention[][], keyOf: Map<string, number>): ExampleMention[][] {
  return entities.map((e) => e.map((m) => ({ token: mentionText(example, m), span: null, position: nodePosition(m), keyEntity: keyOf.get(nodeSetId(m)) ?? null })));
}

/**
 * Scores a CorefUD example for one metric's page: every response against the key with
 * `evaluate` on the CorefUD path (exact match, dependent zeros, singletons kept: the defaults),
 * computing the page's rows' metrics, then the rows.
 *
 * @param texts the example's notation and takeaway (Markdown), shown with it
 * @throws Error when the scorer returns no score for one of the page's rows; RangeError for a
 *   malformed example (see `corefudConllu`)
 */
export function scoreCorefUDExample(example: CorefUDExample, metric: LeaderboardMetric, { notation, takeaway }: ExampleTexts): WorkedExample {
  const keyCorpus = corefudCorpus(example, example.key, "key");
  const keyOf = new Map<string, number>();
  example.key.forEach((e, k) => e.forEach((m) => keyOf.set(nodeSetId(m), k)));
  const { rows, main } = PAGE_ROWS[metric];
  const metrics = rows.filter((id): id is SelectableMetric => isRegistryMetric(id) && (SELECTABLE_METRICS as readonly string[]).includes(id));
  return {
    paper: "Corefboard",
    location: "an example made for this page",
    source: example.source,
    description: example.description,
    notation,
    sentences: sentenceLines(example),
    keySpec: example.keySpec,
    key: displayNodeEntities(example, example.key, keyOf),
    takeaway,
    responses: example.responses.map((r) => {
      const computed: Computed = { report: evaluate(keyCorpus, corefudCorpus(example, r.entities, `response (${r.label})`), { metrics }) };
      return {
        label: r.label,
        spec: r.spec,
        entities: displayNodeEntities(example, r.entities, keyOf),
        overlap: overlapTable(example.key, r.entities, nodeSetId),
        rows: rows.map((id) => buildRow(id, computed, id === main, [])),
      };
    }),
  };
}
