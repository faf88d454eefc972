/**
 * What each metric means, for the metric explanation pages (`app/metrics/`): its name, a
 * one-line definition, its formulas (as a small MathML tree that the page renders), the
 * papers it comes from, the reference scorer's conventions, and a worked example from the
 * papers (`scoring/examples/papers.ts`) scored live by `scoring/` (`evaluate`, `toScore`,
 * `mappedClusterF`), with the scorer's exact numerators and denominators and, where the
 * paper prints figures, the comparison with them.
 *
 * The metrics defined by the CorefUD scorer (MOR and the zero anaphor score, flagged `corefud`
 * in the registry) are explained with its conventions and scored on examples in the CorefUD
 * format (`lib/content/corefud-examples.ts`), as the scorer scores CorefUD CoNLL-U files.
 *
 * The ids, labels and which metrics are optional come from `lib/validations/metrics.ts` (on
 * top of the scorer's registry); this file adds each metric's explanation.
 *
 * Nothing here is a hard-coded score: every number on a page comes from `example()`, which
 * runs the scorer. The exact fractions (e.g. 16/21) are recovered from the scorer's floating
 * counts by continued fractions and kept only when they reproduce the scorer's value.
 */
import { mappedClusterF, MAPPED_F_THRESHOLD } from "../../scoring/analysis/mapped-cluster-f";
import { BAGGA_BALDWIN_1998, elementOf, VILAIN_1995, type FigureMetric, type PaperExample, type PublishedFigure } from "../../scoring/examples/papers";
import { evaluate, toScore, type Corpus, type Counts, type Entity, type Mention, type Report } from "../../scoring";
import { isMetricId as isRegistryMetric, metricSpec, SELECTABLE_METRICS, type SelectableMetric } from "../../scoring/metrics/registry";
import { corefudCorpus, mentionText, MOR_EXAMPLE, sentenceLines, ZERO_EXAMPLE, type CorefUDExample, type ExampleNodeMention } from "./corefud-examples";
import { CONLL_PARTS, isLeaderboardMetric, METRIC_IDS, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";

// ---------------------------------------------------------------------------------------
// Metric ids

/** The metrics that have an explanation page, in display order: every leaderboard metric. */
export { METRIC_IDS };

/** One of {@link METRIC_IDS}; also the page's URL segment (`/metrics/<id>`). */
export type MetricId = LeaderboardMetric;

/** True when `id` is one of {@link METRIC_IDS}. */
export function isMetricId(id: string): id is MetricId {
  return isLeaderboardMetric(id);
}

// ---------------------------------------------------------------------------------------
// Formulas

/**
 * A formula as a tree of MathML Core elements: the page renders each node as the element
 * named by `kind` (`<mi>`, `<mfrac>`, …), so no layout decisions are left to it.
 */
export type MathNode =
  | { kind: "mi" | "mn" | "mo" | "mtext"; text: string }
  | { kind: "mrow"; children: MathNode[] }
  | { kind: "mfrac"; num: MathNode; den: MathNode }
  | { kind: "msub"; base: MathNode; sub: MathNode }
  | { kind: "msup"; base: MathNode; sup: MathNode }
  | { kind: "munder"; base: MathNode; under: MathNode };

/** One displayed equation. */
export interface Formula {
  /** What it defines, e.g. "Recall". */
  label: string;
  math: MathNode;
}

/** A symbol used in the formulas and what it stands for. */
export interface FormulaSymbol {
  math: MathNode;
  meaning: string;
}

/** Operators written with a space on each side in {@link mathText}. */
const SPACED_OPERATORS = new Set(["=", "+", "−", "∩", "·", "∈", ">"]);

/**
 * A formula as one line of plain text (for tests, logs and hover text), e.g.
 * `R = (|M_K ∩ M_S|)/(|M_K|)`.
 */
export function mathText(node: MathNode): string {
  switch (node.kind) {
    case "mi":
    case "mn":
    case "mtext":
      return node.text;
    case "mo":
      return node.text === "," ? ", " : SPACED_OPERATORS.has(node.text) ? ` ${node.text} ` : node.text;
    case "mrow":
      return node.children.map(mathText).join("");
    case "mfrac":
      return `(${mathText(node.num)})/(${mathText(node.den)})`;
    case "msub":
      return `${mathText(node.base)}_${mathText(node.sub)}`;
    case "msup":
      return `${mathText(node.base)}^${mathText(node.sup)}`;
    case "munder":
      return `${mathText(node.base)}_{${mathText(node.under)}} `;
  }
}

const mi = (text: string): MathNode => ({ kind: "mi", text });
const mtext = (text: string): MathNode => ({ kind: "mtext", text });
const mn = (text: string): MathNode => ({ kind: "mn", text });
const mo = (text: string): MathNode => ({ kind: "mo", text });
const row = (...children: MathNode[]): MathNode => ({ kind: "mrow", children });
const frac = (num: MathNode, den: MathNode): MathNode => ({ kind: "mfrac", num, den });
const sub = (base: MathNode, s: MathNode | string): MathNode => ({ kind: "msub", base, sub: typeof s === "string" ? mi(s) : s });
const sup = (base: MathNode, s: MathNode): MathNode => ({ kind: "msup", base, sup: s });
const eq = (lhs: MathNode, rhs: MathNode): MathNode => row(lhs, mo("="), rhs);
const card = (x: MathNode): MathNode => row(mo("|"), x, mo("|"));
const paren = (x: MathNode): MathNode => row(mo("("), x, mo(")"));
const cap = (a: MathNode, b: MathNode): MathNode => row(a, mo("∩"), b);
const plus = (a: MathNode, b: MathNode): MathNode => row(a, mo("+"), b);
const minus = (a: MathNode, b: MathNode): MathNode => row(a, mo("−"), b);
const times = (...xs: MathNode[]): MathNode => row(...xs.flatMap((x, i) => (i === 0 ? [x] : [mo("·"), x])));
const member = (x: MathNode, set: MathNode): MathNode => row(x, mo("∈"), set);
/** Σ with its index set written under it, then the summand. */
const sum = (index: MathNode, body: MathNode): MathNode => row({ kind: "munder", base: mo("∑"), under: index }, body);
/** A function application `name(a, b, …)`. */
const fn = (name: string | MathNode, ...args: MathNode[]): MathNode =>
  row(typeof name === "string" ? mi(name) : name, paren(row(...args.flatMap((a, i) => (i === 0 ? [a] : [mo(","), a])))));

const K = mi("K");
const S = mi("S");
const KEYS = mi("𝒦");
const RESPONSES = mi("𝒮");
const REC = mi("R");
const PREC = mi("P");
const ONE = mn("1");
const TWO = mn("2");
const overK = member(K, KEYS);
const overS = member(S, RESPONSES);
const PHI3 = sub(mi("φ"), mn("3"));
const PHI4 = sub(mi("φ"), mn("4"));
const P_PRIME = sup(mi("p"), mo("′"));
const G_STAR = fn("Φ", sup(mi("g"), mo("*")));
/** max over g, with g under "max". */
const MAX_G: MathNode = { kind: "munder", base: mi("max"), under: mi("g") };

/** F1 = 2PR / (P + R). */
const F1: Formula = { label: "F1", math: eq(sub(mi("F"), mn("1")), frac(times(TWO, PREC, REC), plus(PREC, REC))) };
const KEY_SYMBOLS: FormulaSymbol[] = [
  { math: overK, meaning: "a key (gold) entity, as the set of its mentions, among all key entities" },
  { math: overS, meaning: "a response (system) entity among all response entities" },
];

// ---------------------------------------------------------------------------------------
// Citations

/** A paper, for the "Source" section. */
export interface Citation {
  /** All authors, as in the paper. */
  authors: string;
  year: number;
  title: string;
  /** Where it appeared, e.g. "Proceedings of …". */
  venue: string;
  pages?: string;
  address?: string;
  /** A stable address of the paper (ACL Anthology where it has one). */
  url?: string;
  /** What this paper is for the metric, e.g. "defines the metric". */
  role: string;
}

/** The citation as one line of text: `Authors. Year. Title. Venue, pages P, Address.` */
export function formatCitation(c: Citation): string {
  const tail = [c.venue, c.pages ? `pages ${c.pages}` : null, c.address ?? null].filter(Boolean).join(", ");
  return `${c.authors}. ${c.year}. ${c.title}. ${tail}.`;
}

/** A short reference: "Luo (2005)", "Moosavi & Strube (2016)", "Vilain et al. (1995)". */
export function shortCitation(c: Pick<Citation, "authors" | "year">): string {
  const surnames = c.authors.split(/, | and /).map((name) => name.trim().split(" ").at(-1) ?? name);
  if (surnames.length === 1) return `${surnames[0]} (${c.year})`;
  if (surnames.length === 2) return `${surnames[0]} & ${surnames[1]} (${c.year})`;
  return `${surnames[0]} et al. (${c.year})`;
}

const VILAIN_1995_CITE: Omit<Citation, "role"> = {
  authors: "Marc Vilain, John Burger, John Aberdeen, Dennis Connolly and Lynette Hirschman",
  year: 1995,
  title: "A Model-Theoretic Coreference Scoring Scheme",
  venue: "In Sixth Message Understanding Conference (MUC-6): Proceedings of a Conference Held in Columbia, Maryland, November 6–8, 1995",
  pages: "45–52",
  url: "https://aclanthology.org/M95-1005/",
};
const BAGGA_BALDWIN_1998_CITE: Omit<Citation, "role"> = {
  authors: "Amit Bagga and Breck Baldwin",
  year: 1998,
  title: "Algorithms for Scoring Coreference Chains",
  venue: "In The First International Conference on Language Resources and Evaluation Workshop on Linguistic Coreference",
  pages: "563–566",
  address: "Granada, Spain",
};
const CAMP_1998_CITE: Omit<Citation, "role"> = {
  authors: "Breck Baldwin, Tom Morton, Amit Bagga, Jason Baldridge, Raman Chandraseker, Alexis Dimitriadis, Kieran Snyder and Magdalena Wolska",
  year: 1998,
  title: "Description of the UPenn CAMP System as Used for Coreference",
  venue: "In Seventh Message Understanding Conference (MUC-7): Proceedings of a Conference Held in Fairfax, Virginia, April 29 – May 1, 1998",
  url: "https://aclanthology.org/M98-1022/",
};
const LUO_2005_CITE: Omit<Citation, "role"> = {
  authors: "Xiaoqiang Luo",
  year: 2005,
  title: "On Coreference Resolution Performance Metrics",
  venue: "In Proceedings of Human Language Technology Conference and Conference on Empirical Methods in Natural Language Processing (HLT/EMNLP)",
  pages: "25–32",
  address: "Vancouver, British Columbia, Canada",
  url: "https://aclanthology.org/H05-1004/",
};
const MOOSAVI_STRUBE_2016_CITE: Omit<Citation, "role"> = {
  authors: "Nafise Sadat Moosavi and Michael Strube",
  year: 2016,
  title: "Which Coreference Evaluation Metric Do You Trust? A Proposal for a Link-based Entity Aware Metric",
  venue: "In Proceedings of the 54th Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)",
  pages: "632–642",
  address: "Berlin, Germany",
  url: "https://aclanthology.org/P16-1060/",
};
const RECASENS_HOVY_2011_CITE: Omit<Citation, "role"> = {
  authors: "Marta Recasens and Eduard Hovy",
  year: 2011,
  title: "BLANC: Implementing the Rand index for coreference evaluation",
  venue: "Natural Language Engineering 17(4)",
  pages: "485–510",
};
const LUO_2014_CITE: Omit<Citation, "role"> = {
  authors: "Xiaoqiang Luo, Sameer Pradhan, Marta Recasens and Eduard Hovy",
  year: 2014,
  title: "An Extension of BLANC to System Mentions",
  venue: "In Proceedings of the 52nd Annual Meeting of the Association for Computational Linguistics (Volume 2: Short Papers)",
  pages: "24–29",
  address: "Baltimore, Maryland",
  url: "https://aclanthology.org/P14-2005/",
};
const PRADHAN_2014_CITE: Omit<Citation, "role"> = {
  authors: "Sameer Pradhan, Xiaoqiang Luo, Marta Recasens, Eduard Hovy, Vincent Ng and Michael Strube",
  year: 2014,
  title: "Scoring Coreference Partitions of Predicted Mentions: A Reference Implementation",
  venue: "In Proceedings of the 52nd Annual Meeting of the Association for Computational Linguistics (Volume 2: Short Papers)",
  pages: "30–35",
  address: "Baltimore, Maryland",
  url: "https://aclanthology.org/P14-2006/",
};
const PRADHAN_2011_CITE: Omit<Citation, "role"> = {
  authors: "Sameer Pradhan, Lance Ramshaw, Mitchell Marcus, Martha Palmer, Ralph Weischedel and Nianwen Xue",
  year: 2011,
  title: "CoNLL-2011 Shared Task: Modeling Unrestricted Coreference in OntoNotes",
  venue: "In Proceedings of the Fifteenth Conference on Computational Natural Language Learning: Shared Task",
  pages: "1–27",
  address: "Portland, Oregon, USA",
  url: "https://aclanthology.org/W11-1901/",
};
const PRADHAN_2012_CITE: Omit<Citation, "role"> = {
  authors: "Sameer Pradhan, Alessandro Moschitti, Nianwen Xue, Olga Uryupina and Yuchen Zhang",
  year: 2012,
  title: "CoNLL-2012 Shared Task: Modeling Multilingual Unrestricted Coreference in OntoNotes",
  venue: "In Joint Conference on EMNLP and CoNLL – Shared Task",
  pages: "1–40",
  address: "Jeju Island, Korea",
  url: "https://aclanthology.org/W12-4501/",
};
const AGARWAL_1995_CITE: Omit<Citation, "role"> = {
  authors: "Rajeev Agarwal",
  year: 1995,
  title: "Evaluation of Semantic Clusters",
  venue: "In Proceedings of the 33rd Annual Meeting of the Association for Computational Linguistics",
  pages: "284–286",
  address: "Cambridge, Massachusetts, USA",
  url: "https://aclanthology.org/P95-1038/",
};

const ZABOKRTSKY_2022_CITE: Omit<Citation, "role"> = {
  authors: "Zdeněk Žabokrtský, Miloslav Konopík, Anna Nedoluzhko, Michal Novák, Maciej Ogrodniczuk, Martin Popel, Ondřej Pražák, Jakub Sido, Daniel Zeman and Yilun Zhu",
  year: 2022,
  title: "Findings of the Shared Task on Multilingual Coreference Resolution",
  venue: "In Proceedings of the CRAC 2022 Shared Task on Multilingual Coreference Resolution",
  pages: "1–17",
  address: "Gyeongju, Republic of Korea",
  url: "https://aclanthology.org/2022.crac-mcr.1/",
};

const cite = (c: Omit<Citation, "role">, role: string): Citation => ({ ...c, role });
const REFERENCE_IMPLEMENTATION = cite(PRADHAN_2014_CITE, "the reference scorer whose conventions Corefboard follows");

// ---------------------------------------------------------------------------------------
// Worked examples: data types

/** A fraction of whole numbers (reduced where it is a result). */
export interface Fraction {
  num: number;
  den: number;
}

/** A fraction as text: `16/21`, or `1` when the denominator is 1. */
export function fractionText(f: Fraction): string {
  return f.den === 1 ? String(f.num) : `${f.num}/${f.den}`;
}

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

/** One recall, precision or F1 of a worked example. */
export interface ScorePart {
  /** The value the scorer computed, a fraction in [0, 1]. */
  value: number;
  /** The same value as a reduced fraction, or null when none with a small denominator matches it. */
  exact: Fraction | null;
  /**
   * How the scorer got it: its numerator and denominator (`2/3`, `(64/7)/12` when the
   * numerator is a sum of fractions), or the combination rule (`(21/21 + 35/45)/2`, `2PR/(P + R)`).
   */
  expression: string;
}

/** Which score a row shows. */
export type ScoreRowId = MetricId | "bcub-entity" | "blanc-coref" | "blanc-noncoref";

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
  /** How the page writes mentions (one-token letters, or word sets with positions). */
  notation: string;
  /** The example's sentences as text lines (CorefUD examples), or null. */
  sentences: string[] | null;
  /** The paper's notation of the key. */
  keySpec: string;
  key: ExampleMention[][];
  responses: ExampleResponse[];
  /** What the page's reader should look at in the numbers. */
  takeaway: string;
}

/** Everything a metric's page shows. */
export interface MetricExplanation {
  id: MetricId;
  /** Short name as in table headers, e.g. "B³" (`METRIC_LABELS`). */
  label: string;
  /** Whose conventions it follows: the CoNLL reference scorer's, or the CorefUD scorer's (registry flag `corefud`). */
  scorer: "reference" | "corefud";
  /** Full name, e.g. "B³ (B-cubed)". */
  name: string;
  /** One line: what the metric measures. */
  definition: string;
  /** A few paragraphs. */
  description: string[];
  formulas: Formula[];
  symbols: FormulaSymbol[];
  /** How the reference scorer (and so Corefboard) computes it where papers leave room. */
  conventions: string[];
  /** The defining paper first. */
  citations: Citation[];
  /** True for metrics that only some tasks compute (the registry's optional metrics). */
  optional: boolean;
  /** The label of its row in the worked examples' score tables (default: `label`). */
  rowLabel?: string;
  /** The worked example, scored now by `scoring/`. */
  example(): WorkedExample;
}

// ---------------------------------------------------------------------------------------
// Exact fractions

/** A rational with BigInt parts, denominator > 0. */
interface Rational {
  n: bigint;
  d: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduce(r: Rational): Rational {
  const g = gcd(r.n, r.d) || 1n;
  return { n: r.n / g, d: r.d / g };
}

const rat = (n: number, d = 1): Rational => reduce({ n: BigInt(n), d: BigInt(d) });
const addR = (a: Rational, b: Rational): Rational => reduce({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
const mulR = (a: Rational, b: Rational): Rational => reduce({ n: a.n * b.n, d: a.d * b.d });
const divR = (a: Rational, b: Rational): Rational | null => (b.n === 0n ? null : reduce({ n: a.n * b.d * (b.n < 0n ? -1n : 1n), d: a.d * (b.n < 0n ? -b.n : b.n) }));

/** Largest denominator accepted when recovering a fraction from a float. */
const MAX_DENOMINATOR = 1_000_000;

/** True when `r` equals `x` up to floating-point error. */
function matches(r: Rational, x: number): boolean {
  return Math.abs(Number(r.n) / Number(r.d) - x) <= 1e-12 * Math.max(1, Math.abs(x));
}

/**
 * The fraction with the smallest denominator (at most {@link MAX_DENOMINATOR}) that a
 * non-negative float equals up to rounding, by continued fractions; null when there is none.
 */
function rationalize(x: number): Rational | null {
  if (!Number.isFinite(x) || x < 0) return null;
  if (Number.isInteger(x)) return rat(x);
  // Convergents h/k of the continued fraction of x.
  let [h0, h1] = [1n, BigInt(Math.floor(x))];
  let [k0, k1] = [0n, 1n];
  let rest = x - Math.floor(x);
  for (let i = 0; i < 40 && rest > 0; i++) {
    const inv = 1 / rest;
    const a = Math.floor(inv);
    rest = inv - a;
    [h0, h1] = [h1, BigInt(a) * h1 + h0];
    [k0, k1] = [k1, BigInt(a) * k1 + k0];
    if (k1 > BigInt(MAX_DENOMINATOR)) return null;
    const r = { n: h1, d: k1 };
    if (matches(r, x)) return reduce(r);
  }
  return null;
}

/** A rational as a plain fraction, when both parts are safe integers. */
function toFraction(r: Rational | null): Fraction | null {
  if (!r) return null;
  const num = Number(r.n);
  const den = Number(r.d);
  return Number.isSafeInteger(num) && Number.isSafeInteger(den) ? { num, den } : null;
}

/** A count as the page writes it: an integer as is, a sum of fractions as `(64/7)`. */
function countText(x: number, exact: Rational | null): string {
  if (Number.isInteger(x)) return String(x);
  if (exact) return `(${exact.n}/${exact.d})`;
  return String(Number(x.toPrecision(10)));
}

/** A part from a value and its exact form; the exact form is dropped unless it reproduces the value. */
function part(value: number, exact: Rational | null, expression: string): ScorePart & { rational: Rational | null } {
  const ok = exact && matches(exact, value) ? exact : null;
  return { value, exact: toFraction(ok), expression, rational: ok };
}

/** Recall or precision from the scorer's numerator and denominator. */
function ratioPart(num: number, den: number, value: number) {
  const numExact = rationalize(num);
  if (den === 0) return part(value, rat(0), `${countText(num, numExact)}/0 (taken as 0)`);
  const exact = numExact ? divR(numExact, rat(den)) : null;
  return part(value, exact, `${countText(num, numExact)}/${den}`);
}

/** F1 = 2PR/(P + R) from exact recall and precision. */
function f1Part(value: number, r: Rational | null, p: Rational | null) {
  let exact: Rational | null = null;
  if (r && p) {
    const s = addR(r, p);
    exact = s.n === 0n ? rat(0) : divR(mulR(rat(2), mulR(r, p)), s);
  }
  return part(value, exact, "2PR/(P + R)");
}

/** Strips the internal rational. */
function publicPart(p: ScorePart & { rational: Rational | null }): ScorePart {
  return { value: p.value, exact: p.exact, expression: p.expression };
}

// ---------------------------------------------------------------------------------------
// Worked examples: scoring

/** Labels of the example rows that are parts or variants of a metric. */
const PART_ROW_LABELS: Record<Exclude<ScoreRowId, MetricId>, string> = {
  "bcub-entity": "B³, equal weight per entity",
  "blanc-coref": "Coreference links",
  "blanc-noncoref": "Non-coreference links",
};

/** A score row's label: a part's own, else the metric's row label or short label. */
function rowLabel(id: ScoreRowId): string {
  return isMetricId(id) ? (EXPLANATIONS[id].rowLabel ?? METRIC_LABELS[id]) : PART_ROW_LABELS[id];
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

/** The rows each page shows, the page's own metric marked main. */
const PAGE_ROWS: Record<MetricId, { rows: ScoreRowId[]; main: ScoreRowId }> = {
  mentions: { rows: ["mentions"], main: "mentions" },
  muc: { rows: ["muc"], main: "muc" },
  bcub: { rows: ["bcub", "bcub-entity", "muc"], main: "bcub" },
  ceafm: { rows: ["ceafm"], main: "ceafm" },
  ceafe: { rows: ["ceafe"], main: "ceafe" },
  lea: { rows: ["lea"], main: "lea" },
  blanc: { rows: ["blanc-coref", "blanc-noncoref", "blanc"], main: "blanc" },
  conll: { rows: [...CONLL_PARTS, "conll"], main: "conll" },
  mcf: { rows: ["mcf"], main: "mcf" },
  mor: { rows: ["mentions", "mor"], main: "mor" },
  zero: { rows: ["zero"], main: "zero" },
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
 */
function scoreExample(example: PaperExample, metric: MetricId, takeaway: string): WorkedExample {
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
    notation: PAPER_NOTATION,
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

/** How the page writes the mentions of a paper example. */
const PAPER_NOTATION =
  "Each element is a one-token mention named after its token: tokens are numbered 0, 1, 2, … and read 1 … 9, A, B, C, … (so “1” is the span [0, 0] and “A” the span [9, 9]). Mentions are coloured by the key entity that holds them; a dashed white mention is not in the key.";

/** How the page writes the mentions of a CorefUD example. */
const COREFUD_NOTATION =
  "A mention is a set of nodes, written with its words and, under them, its position: sentence:IDs (so 1:1,2,3 is words 1 to 3 of sentence 1). ∅ is an empty node, a dropped pronoun the annotation restores; its ID follows the word it comes after (2:0.1 comes before word 1 of sentence 2). Mentions are coloured by the key entity that holds them; a dashed white mention is not in the key.";

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
 */
function scoreCorefUDExample(example: CorefUDExample, metric: MetricId, takeaway: string): WorkedExample {
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
    notation: COREFUD_NOTATION,
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

// ---------------------------------------------------------------------------------------
// The explanations

const VILAIN_FIRST = VILAIN_1995[0];
const VILAIN_COMPLEX = VILAIN_1995[2];

const BB_TAKEAWAY_NOTE = "Bagga & Baldwin's key and responses; the papers print no figures for this metric, so every number here is the scorer's.";

/** Each metric's explanation; the label, the scorer whose conventions apply and whether it is optional come from the registry and lib's labels. */
const EXPLANATIONS: Record<MetricId, Omit<MetricExplanation, "id" | "label" | "scorer" | "optional">> = {
  mentions: {
    name: "Mention identification",
    rowLabel: "Mention identification",
    definition: "How many key mentions the response found (recall) and how many response mentions are in the key (precision), matching spans exactly.",
    description: [
      "Before any coreference metric, a system has to find the mentions. Mention identification compares the set of mention spans of the response with that of the key, ignoring which entity each mention belongs to.",
      "It is not a coreference score, but it explains many of them: a key mention the response misses lowers every recall, and a response mention that is not in the key (a “twinless” mention) lowers every precision.",
    ],
    formulas: [
      { label: "Recall", math: eq(REC, frac(card(cap(sub(mi("M"), "K"), sub(mi("M"), "S"))), card(sub(mi("M"), "K")))) },
      { label: "Precision", math: eq(PREC, frac(card(cap(sub(mi("M"), "K"), sub(mi("M"), "S"))), card(sub(mi("M"), "S")))) },
      F1,
    ],
    symbols: [
      { math: sub(mi("M"), "K"), meaning: "the set of distinct mention spans [start, end] of the key" },
      { math: sub(mi("M"), "S"), meaning: "the set of distinct mention spans of the response" },
    ],
    conventions: [
      "Spans must match exactly: the same first and last token. There is no partial credit and no head matching.",
      "Spans are counted once each: a span that occurs twice in the key or in the response counts once.",
      "Corpus scores add the counts of all documents, then divide once (micro-average), as for every count metric.",
    ],
    citations: [cite(PRADHAN_2014_CITE, "the reference implementation, which reports mention identification alongside each metric")],
    example: () =>
      scoreExample(
        VILAIN_COMPLEX,
        "mentions",
        "J is a key mention the response never found, and A, F and I are response mentions the key does not have. Mention identification counts only these, whatever the entities.",
      ),
  },
  muc: {
    name: "MUC (link-based)",
    definition: "Counts links: of the links needed to join each key entity, how many the response provides (recall), and the converse (precision).",
    description: [
      "Vilain et al. (1995) score coreference as equivalence classes. A key entity K needs |K| − 1 links to hold together. The response cuts K into |p(K)| pieces, so |p(K)| − 1 of those links are missing; recall is the share of needed links that are present. Precision swaps the roles of key and response.",
      "Because it only looks at links, MUC gives no credit for singletons and treats all wrong links alike: joining two large entities costs as much as attaching one mention to the wrong entity (see the B³ page).",
    ],
    formulas: [
      {
        label: "Recall",
        math: eq(REC, frac(sum(overK, paren(minus(card(K), card(fn("p", K))))), sum(overK, paren(minus(card(K), ONE))))),
      },
      {
        label: "Precision",
        math: eq(PREC, frac(sum(overS, paren(minus(card(S), card(fn(P_PRIME, S))))), sum(overS, paren(minus(card(S), ONE))))),
      },
      F1,
    ],
    symbols: [
      ...KEY_SYMBOLS,
      { math: fn("p", K), meaning: "the partition of K by the response entities; a mention of K that the response lacks is a piece of its own" },
      { math: fn(P_PRIME, S), meaning: "the partition of S by the key entities, likewise" },
    ],
    conventions: [
      "MUC ignores singletons: an entity of one mention needs no link (|K| − 1 = 0), so it adds nothing to either count.",
      "Mentions are matched by exact span; a key mention missing from the response (or a response mention missing from the key) is a piece of its own in the partition.",
      "Numerators and denominators are whole link counts, summed over documents before dividing.",
    ],
    citations: [cite(VILAIN_1995_CITE, "defines the metric; the worked example is its first one"), REFERENCE_IMPLEMENTATION],
    example: () =>
      scoreExample(
        VILAIN_FIRST,
        "muc",
        "The key entity {A B C D} needs 3 links; the response's two entities {A B} and {C D} supply 2 of them, and both are right.",
      ),
  },
  bcub: {
    name: "B³ (B-cubed)",
    definition: "Mention-based: for each mention, how much its key entity and its response entity overlap, averaged over all mentions.",
    description: [
      "Bagga & Baldwin (1998) designed B³ to fix MUC's two blind spots: it scores every mention, singletons included, and a wrong merge costs more the more mentions it wrongly joins.",
      "For a mention m, let K(m) and S(m) be the key and response entities that hold it. Its recall is the share of K(m) that S(m) also holds; its precision is the share of S(m) that K(m) holds. B³ averages these over the mentions (equal weight per mention); the paper also describes equal weight per entity.",
    ],
    formulas: [
      {
        label: "Recall",
        math: eq(REC, row(frac(ONE, card(sub(mi("M"), "K"))), sum(member(mi("m"), sub(mi("M"), "K")), frac(card(cap(fn("K", mi("m")), fn("S", mi("m")))), card(fn("K", mi("m"))))))),
      },
      {
        label: "Precision",
        math: eq(PREC, row(frac(ONE, card(sub(mi("M"), "S"))), sum(member(mi("m"), sub(mi("M"), "S")), frac(card(cap(fn("K", mi("m")), fn("S", mi("m")))), card(fn("S", mi("m"))))))),
      },
      F1,
    ],
    symbols: [
      { math: sub(mi("M"), "K"), meaning: "the key mentions" },
      { math: sub(mi("M"), "S"), meaning: "the response mentions" },
      { math: fn("K", mi("m")), meaning: "the key entity holding mention m (empty when the key lacks m)" },
      { math: fn("S", mi("m")), meaning: "the response entity holding mention m (empty when the response lacks m)" },
    ],
    conventions: [
      "Equal weight per mention, as the reference scorer: the numerators are sums of per-mention fractions, the denominators are mention counts.",
      "Singletons count, and so do twinless mentions: a key mention the response lacks has recall 0, a response mention the key lacks has precision 0.",
      "Equal weight per entity is available in the command-line scorer (--bcub-weighting entity) but is not used on leaderboards.",
    ],
    citations: [
      cite(BAGGA_BALDWIN_1998_CITE, "defines the metric"),
      cite(CAMP_1998_CITE, "gives the algorithm and the worked example (Figures 1, 2, 4 and 6) used here"),
      REFERENCE_IMPLEMENTATION,
    ],
    example: () =>
      scoreExample(
        BAGGA_BALDWIN_1998,
        "bcub",
        "MUC cannot tell the two responses apart (compare the MUC rows), B³ can: joining the two large entities (Figure 4) costs more precision than attaching the small entity to a large one (Figure 2).",
      ),
  },
  ceafm: {
    name: "CEAFm (mention-based CEAF)",
    definition: "Aligns key and response entities one to one so that aligned pairs share the most mentions; scores the shared mentions per key mention and per response mention.",
    description: [
      "Luo (2005) observed that B³ and MUC let one entity be credited several times. CEAF (Constrained Entity-Alignment F-Measure) first finds the best one-to-one alignment g* between key and response entities, then scores only aligned pairs.",
      "With the similarity φ3(K, S) = |K ∩ S|, the total similarity Φ(g*) is the number of mentions that aligned pairs share, and recall and precision divide it by the numbers of key and response mentions.",
    ],
    formulas: [
      { label: "Similarity", math: eq(fn(PHI3, K, S), card(cap(K, S))) },
      {
        label: "Best alignment",
        math: eq(G_STAR, row(MAX_G, sum(overK, fn(PHI3, K, fn("g", K))))),
      },
      { label: "Recall", math: eq(REC, frac(G_STAR, sum(overK, card(K)))) },
      { label: "Precision", math: eq(PREC, frac(G_STAR, sum(overS, card(S)))) },
      F1,
    ],
    symbols: [...KEY_SYMBOLS, { math: mi("g"), meaning: "a one-to-one map between some key entities and some response entities (each used at most once)" }],
    conventions: [
      "The alignment is optimal (Kuhn–Munkres), computed exactly.",
      "Denominators are mention counts (the reference scorer's; some other scorers divide CEAFm by entity counts by mistake).",
      "Singletons and twinless mentions count.",
    ],
    citations: [cite(LUO_2005_CITE, "defines the metric (φ3)"), REFERENCE_IMPLEMENTATION],
    example: () =>
      scoreExample(BAGGA_BALDWIN_1998, "ceafm", `Each response entity can be credited to one key entity only, so the mentions it shares with a second key entity are lost. ${BB_TAKEAWAY_NOTE}`),
  },
  ceafe: {
    name: "CEAFe (entity-based CEAF)",
    definition: "Aligns key and response entities one to one by their similarity φ4; scores the total similarity per key entity and per response entity.",
    description: [
      "Entity-based CEAF uses the similarity φ4(K, S) = 2|K ∩ S| / (|K| + |S|), the F-measure of the two mention sets, so every entity weighs the same however large it is.",
      "Recall divides the best alignment's total similarity by the number of key entities, precision by the number of response entities. CEAFe is one of the three parts of the CoNLL F1.",
    ],
    formulas: [
      { label: "Similarity", math: eq(fn(PHI4, K, S), frac(times(TWO, card(cap(K, S))), plus(card(K), card(S)))) },
      {
        label: "Best alignment",
        math: eq(G_STAR, row(MAX_G, sum(overK, fn(PHI4, K, fn("g", K))))),
      },
      { label: "Recall", math: eq(REC, frac(G_STAR, card(KEYS))) },
      { label: "Precision", math: eq(PREC, frac(G_STAR, card(RESPONSES))) },
      F1,
    ],
    symbols: [...KEY_SYMBOLS, { math: mi("g"), meaning: "a one-to-one map between some key entities and some response entities" }],
    conventions: [
      "CEAFe uses φ4 (Luo's entity-based similarity); φ4(K, K) = 1, so the denominators are entity counts.",
      "The alignment is optimal (Kuhn–Munkres), computed exactly; the numerators are sums of fractions.",
      "Singletons count as entities.",
    ],
    citations: [cite(LUO_2005_CITE, "defines the metric (φ4)"), REFERENCE_IMPLEMENTATION],
    example: () =>
      scoreExample(BAGGA_BALDWIN_1998, "ceafe", `CEAFe weighs every entity the same: in Figure 2 the small entity {6 7} is left unaligned, and it costs a whole entity's share of recall, as much as a large one would. ${BB_TAKEAWAY_NOTE}`),
  },
  lea: {
    name: "LEA (link-based entity-aware)",
    definition: "Each key entity weighs its size and is scored by the share of its coreference links the response keeps; precision swaps key and response.",
    description: [
      "Moosavi & Strube (2016) combine what MUC and B³ get right: like MUC, LEA looks at links (so an entity is resolved only as far as its mentions are linked together), and like B³ it weighs entities by importance, so large entities matter more.",
      "An entity E has link(E) = |E|(|E| − 1)/2 coreference links. Its resolution score is the share of those links that fall inside one entity of the other side. Recall averages the key entities' resolution scores weighted by their size; precision does the same for the response entities.",
    ],
    formulas: [
      {
        label: "Recall",
        math: eq(REC, frac(sum(overK, times(card(K), sum(overS, frac(fn("link", cap(K, S)), fn("link", K))))), sum(overK, card(K)))),
      },
      {
        label: "Precision",
        math: eq(PREC, frac(sum(overS, times(card(S), sum(overK, frac(fn("link", cap(S, K)), fn("link", S))))), sum(overS, card(S)))),
      },
      { label: "Links", math: eq(fn("link", mi("E")), frac(times(card(mi("E")), paren(minus(card(mi("E")), ONE))), TWO)) },
      F1,
    ],
    symbols: [...KEY_SYMBOLS, { math: fn("link", mi("E")), meaning: "the number of coreference links (pairs of mentions) of a set of mentions E" }],
    conventions: [
      "Importance is the entity size, |E|, as in the paper's main proposal and the reference scorer's LEA.",
      "A singleton has one self-link: it counts as resolved exactly when the other side has the same mention as a singleton too.",
      "Numerators are sums of fractions, denominators mention counts.",
    ],
    citations: [cite(MOOSAVI_STRUBE_2016_CITE, "defines the metric"), cite(PRADHAN_2014_CITE, "the reference scorer, whose LEA branch Corefboard follows")],
    example: () =>
      scoreExample(BAGGA_BALDWIN_1998, "lea", `Figure 4's wrong entity is the larger one, and LEA weighs entities by size: Figure 4 loses more precision than Figure 2. ${BB_TAKEAWAY_NOTE}`),
  },
  blanc: {
    name: "BLANC (BiLateral Assessment of Noun-phrase Coreference)",
    definition: "A Rand index for coreference: coreference links and non-coreference links are scored separately, then averaged.",
    description: [
      "Recasens & Hovy (2011) look at every pair of mentions. A pair is a coreference link if one entity holds both mentions and a non-coreference link if they are in different entities. BLANC scores the two kinds of links separately, so the many easy non-coreference pairs cannot drown out the coreference pairs, then averages the two parts.",
      "Luo et al. (2014) extended BLANC to system mentions: links are taken over each side's own mentions, so a pair with a mention the other side lacks simply is not in both sets.",
    ],
    formulas: [
      { label: "Coreference recall", math: eq(sub(REC, "c"), frac(card(cap(sub(mi("C"), "K"), sub(mi("C"), "S"))), card(sub(mi("C"), "K")))) },
      { label: "Coreference precision", math: eq(sub(PREC, "c"), frac(card(cap(sub(mi("C"), "K"), sub(mi("C"), "S"))), card(sub(mi("C"), "S")))) },
      { label: "Non-coreference recall", math: eq(sub(REC, "n"), frac(card(cap(sub(mi("N"), "K"), sub(mi("N"), "S"))), card(sub(mi("N"), "K")))) },
      { label: "Non-coreference precision", math: eq(sub(PREC, "n"), frac(card(cap(sub(mi("N"), "K"), sub(mi("N"), "S"))), card(sub(mi("N"), "S")))) },
      { label: "Recall", math: eq(REC, frac(plus(sub(REC, "c"), sub(REC, "n")), TWO)) },
      { label: "Precision", math: eq(PREC, frac(plus(sub(PREC, "c"), sub(PREC, "n")), TWO)) },
      { label: "F", math: eq(mi("F"), frac(plus(sub(mi("F"), "c"), sub(mi("F"), "n")), TWO)) },
    ],
    symbols: [
      { math: sub(mi("C"), "K"), meaning: "the coreference links of the key: pairs of mentions inside one key entity (C_S: of the response)" },
      { math: sub(mi("N"), "K"), meaning: "the non-coreference links of the key: pairs of mentions in two different key entities (N_S: of the response)" },
      { math: sub(mi("F"), "c"), meaning: "the F1 of the coreference part, 2P_cR_c/(P_c + R_c); F_n likewise" },
    ],
    conventions: [
      "BLANC's F is the mean of the two parts' F1, not the harmonic mean of BLANC's recall and precision.",
      "When the key has no coreference links, only the non-coreference part counts; when it has no non-coreference links, only the coreference part; when it has neither, all scores are 0.",
      "Link counts are summed over documents, then the rules above are applied once (the reference scorer's totals).",
    ],
    citations: [cite(RECASENS_HOVY_2011_CITE, "defines the metric"), cite(LUO_2014_CITE, "extends it to system mentions, as computed here"), REFERENCE_IMPLEMENTATION],
    example: () =>
      scoreExample(BAGGA_BALDWIN_1998, "blanc", `Both responses keep every coreference link of the key but add wrong ones, and Figure 4 adds more than twice as many as Figure 2. ${BB_TAKEAWAY_NOTE}`),
  },
  conll: {
    name: "CoNLL F1",
    rowLabel: "CoNLL F1",
    definition: "The unweighted mean of the MUC, B³ and CEAFe F1: the official score of the CoNLL-2011 and CoNLL-2012 shared tasks.",
    description: [
      "No single metric captures everything: MUC looks at links, B³ at mentions, CEAFe at entities. The CoNLL shared tasks ranked systems by the plain average of the three F1 scores, and most coreference papers since report it.",
      "It has no recall or precision of its own.",
    ],
    formulas: [
      {
        label: "CoNLL F1",
        math: eq(sub(mi("F"), mtext("CoNLL")), frac(plus(plus(sub(mi("F"), mtext("MUC")), sub(mi("F"), mtext("B³"))), sub(mi("F"), mtext("CEAFe"))), mn("3"))),
      },
    ],
    symbols: [{ math: sub(mi("F"), mtext("MUC")), meaning: "the MUC F1 of the whole corpus (its counts summed over documents); F_B³ and F_CEAFe likewise" }],
    conventions: [
      "Unweighted mean of the three F1 scores, each computed from corpus totals (micro-average over documents), not a mean of per-document scores.",
      "B³ with equal weight per mention and CEAFe with φ4, as in the reference scorer.",
    ],
    citations: [cite(PRADHAN_2011_CITE, "introduces the score (CoNLL-2011 shared task)"), cite(PRADHAN_2012_CITE, "the CoNLL-2012 shared task, which uses it too"), REFERENCE_IMPLEMENTATION],
    example: () =>
      scoreExample(BAGGA_BALDWIN_1998, "conll", `MUC scores the two responses alike, so only B³ and CEAFe separate them. ${BB_TAKEAWAY_NOTE}`),
  },
  mcf: {
    name: "Mapped cluster F",
    rowLabel: "Mapped cluster F",
    definition: `Maps each response entity to at most one key entity by their F-measure (which must exceed ${MAPPED_F_THRESHOLD}), then scores all mapped pairs in one contingency table.`,
    description: [
      "Agarwal (1995) evaluated semantic classes that may overlap. Each system class is compared with each expert class by the F-measure of their elements; each system class is mapped to its best expert class, conflicts (two system classes on one expert class) are resolved by re-mapping the class that loses the least F, and a pair maps only if its F exceeds a threshold.",
      "Applied to coreference, the classes are entities and the elements are mention spans. All mapped pairs fill one contingency table: shared mentions are hits, the rest of a mapped response entity and every mention of an unmapped response entity are false positives, the rest of a mapped key entity and every mention of an unmapped key entity are misses.",
    ],
    formulas: [
      { label: "Pair F", math: eq(fn("F", S, K), frac(times(TWO, card(cap(S, K))), plus(card(S), card(K)))) },
      { label: "Recall", math: eq(REC, frac(sum(overS, card(cap(S, fn("g", S)))), sum(overK, card(K)))) },
      { label: "Precision", math: eq(PREC, frac(sum(overS, card(cap(S, fn("g", S)))), sum(overS, card(S)))) },
      F1,
    ],
    symbols: [
      ...KEY_SYMBOLS,
      {
        math: fn("g", S),
        meaning: `the key entity S is mapped to (empty when S is unmapped); F(S, g(S)) > ${MAPPED_F_THRESHOLD} and each key entity is mapped at most once`,
      },
    ],
    conventions: [
      `A pair maps only if its F strictly exceeds the paper's threshold ${MAPPED_F_THRESHOLD}; ties on F go to the earlier key entity.`,
      "Conflicts are resolved one column at a time (lowest key entity first) by moving the response entity that loses the least F to its next-best key entity; ties move the later response entity.",
      "Overlapping entities are scored as they are (a span in two entities counts in both), unlike the CoNLL metrics.",
      "Optional: only tasks that switch it on compute it, and it is not part of the CoNLL F1.",
    ],
    citations: [cite(AGARWAL_1995_CITE, "defines the mapping, the 0.20 threshold and the single contingency table")],
    example: () =>
      scoreExample(
        BAGGA_BALDWIN_1998,
        "mcf",
        "Each response entity maps to one key entity, and the key entity left over counts as missed. In Figure 4, S1 is as close to K1 as to K3 " +
          `(equal F), and the tie goes to the earlier key entity. ${BB_TAKEAWAY_NOTE}`,
      ),
  },
  mor: {
    name: "MOR (mention overlap ratio)",
    definition: "How many words of the key mentions the response's mentions cover (recall), and how many words of the response mentions the key's cover (precision), pairing key and response mentions one to one.",
    description: [
      "The CRAC 2022 shared task on multilingual coreference added MOR as a supplementary measure of mention detection. Mention identification gives credit only for mentions found exactly; MOR also credits a mention found in part, by the number of words the two mentions share.",
      "Each key mention is paired with at most one response mention, and each response mention with at most one key mention, so that the paired mentions share the most words in total. The words shared by the pairs are the numerator of both recall and precision; recall divides by the number of words in all key mentions, precision by the number in all response mentions. Entities play no part: MOR scores mention boundaries, not coreference.",
    ],
    formulas: [
      { label: "Best pairing", math: eq(G_STAR, row(MAX_G, sum(member(mi("k"), sub(mi("M"), "K")), card(cap(mi("k"), fn("g", mi("k"))))))) },
      { label: "Recall", math: eq(REC, frac(G_STAR, sum(member(mi("k"), sub(mi("M"), "K")), card(mi("k"))))) },
      { label: "Precision", math: eq(PREC, frac(G_STAR, sum(member(mi("s"), sub(mi("M"), "S")), card(mi("s"))))) },
      F1,
    ],
    symbols: [
      { math: sub(mi("M"), "K"), meaning: "the key mentions, each as the set of its words (M_S: the response mentions)" },
      { math: mi("g"), meaning: "a one-to-one pairing of some key mentions with some response mentions; g(k) is empty for an unpaired k" },
    ],
    conventions: [
      "As the CorefUD scorer v1.2 computes it (mention_overlap): a mention is the set of its words, empty nodes included, so a discontinuous mention counts only its own words.",
      "The pairing is found for each group of mentions whose word ranges overlap, by a maximum-weight one-to-one assignment weighted by shared words (the CorefUD scorer uses SciPy's linear_sum_assignment); pairs that share no word add nothing.",
      "MOR does not use the mention alignment of the other metrics, so the matching mode (exact, partial or head) and the zero matching do not change it.",
      "Counts are words, summed over documents before dividing.",
      "Optional: computed only when asked for (the command line's --metrics …,mor, or a task that switches it on), and not part of the CoNLL F1.",
    ],
    citations: [cite(ZABOKRTSKY_2022_CITE, "introduces the metric for the CRAC 2022 shared task; the CorefUD scorer computes it")],
    example: () =>
      scoreCorefUDExample(
        MOR_EXAMPLE,
        "mor",
        "Exact matching finds only “his”, so mention identification is 1/4. MOR pairs “The old man” with “old man”, “his” with “his”, “his dog” with “dog” and “the river bank” with “river bank”: 6 of the 9 key words are covered, and every response word lies in a key mention, so precision is 1.",
      ),
  },
  zero: {
    name: "Zero anaphor score (anaphor-decomposable)",
    rowLabel: "Zero anaphors",
    definition: "Scores each zero anaphor (a mention headed by an empty node that is not the first mention of its key entity) by whether the response links it to an antecedent in the right entity.",
    description: [
      "Pro-drop languages leave many subjects unexpressed; CorefUD restores them as empty nodes, and a mention whose head is an empty node is a zero. The CRAC 2022 shared task added an anaphor-decomposable score for zeros: each zero anaphor is judged on its own, by whether the response resolves it to the right entity.",
      "Each key entity is read in text order, and every mention after the first that is a zero is an anaphor. Its counterpart is the response mention at the same position, else the response mention aligned with it. The anaphor is missed (FN) when it has no counterpart or its counterpart opens a response entity (it has no antecedent there); it is a wrong link (WL) when the counterpart's response entity holds none of the counterparts of the anaphor's key antecedents; otherwise it is correct (TP). A response zero that is not first in its entity and is no anaphor's counterpart is a false positive (FP).",
    ],
    formulas: [
      { label: "Recall", math: eq(REC, frac(mi("TP"), plus(plus(mi("TP"), mi("FN")), mi("WL")))) },
      { label: "Precision", math: eq(PREC, frac(mi("TP"), plus(plus(mi("TP"), mi("FP")), mi("WL")))) },
      F1,
    ],
    symbols: [
      { math: mi("TP"), meaning: "key zero anaphors whose counterpart is in the response entity of one of their antecedents' counterparts" },
      { math: mi("FN"), meaning: "key zero anaphors without a counterpart, or whose counterpart is the first mention of its response entity" },
      { math: mi("WL"), meaning: "key zero anaphors whose counterpart is in another response entity (wrong links: they count against recall and precision)" },
      { math: mi("FP"), meaning: "response zeros, not first in their entity, that are no key anaphor's counterpart" },
    ],
    conventions: [
      "As the CorefUD scorer v1.2 computes it (als_zeros, anaphor_level_score): entities are ordered by position, and only zeros (mentions whose head is an empty node) are anaphors.",
      "An anaphor's counterpart is looked up by position first and through the alignment only then, as the CorefUD scorer does: a response zero at the same position wins even when the dependent zero matching paired the anaphor with another zero.",
      "The alignment matches zeros by their dependencies (DEPS) within the sentence by default, or by position (--zero-match linear); key and response may place their empty nodes differently.",
      "Counts are anaphors, summed over documents before dividing; documents without empty nodes add nothing (a corpus without zeros scores 0).",
      "Optional: computed only when asked for (the command line's --metrics …,zero, or a task that switches it on), and not part of the CoNLL F1.",
    ],
    citations: [cite(ZABOKRTSKY_2022_CITE, "introduces the anaphor-decomposable score for zeros for the CRAC 2022 shared task; the CorefUD scorer computes it")],
    example: () =>
      scoreCorefUDExample(
        ZERO_EXAMPLE,
        "zero",
        "The key has three zero anaphors. The one in sentence 2 is linked to Mary as in the key (TP); the one in sentence 3 is linked to Mary, not to John (WL); the one in sentence 4 has no counterpart (FN). Recall is 1/(1 + 1 + 1) and precision 1/(1 + 0 + 1): the wrong link costs both.",
      ),
  },
};

/**
 * The explanation of a metric.
 *
 * @param id a page id (see {@link METRIC_IDS}); anything else, including inherited object
 *   keys such as "constructor", is unknown
 * @returns the explanation, or null for an unknown id
 */
export function getMetricExplanation(id: string): MetricExplanation | null {
  if (!isMetricId(id)) return null;
  const spec = id === "conll" ? null : metricSpec(id);
  return { id, label: METRIC_LABELS[id], scorer: spec?.corefud ? "corefud" : "reference", optional: spec?.optional ?? false, ...EXPLANATIONS[id] };
}
