/**
 * The metric pages' formulas (`app/metrics/`): each metric's equations as small MathML trees,
 * which the page renders element by element, and the symbols they use with what each stands
 * for. The pages' prose is in Markdown (`lib/content/metrics/<metric>.md`).
 */
import { MAPPED_F_THRESHOLD } from "../../scoring/analysis/mapped-cluster-f";
import type { LeaderboardMetric } from "../validations/metrics";

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

/** A metric's formulas and the symbols they use. */
export interface MetricFormulas {
  formulas: Formula[];
  symbols: FormulaSymbol[];
}

/** Each metric's formulas, in the order the page shows them, and their symbols. */
export const METRIC_FORMULAS: Record<LeaderboardMetric, MetricFormulas> = {
  mentions: {
    formulas: [
      { label: "Recall", math: eq(REC, frac(card(cap(sub(mi("M"), "K"), sub(mi("M"), "S"))), card(sub(mi("M"), "K")))) },
      { label: "Precision", math: eq(PREC, frac(card(cap(sub(mi("M"), "K"), sub(mi("M"), "S"))), card(sub(mi("M"), "S")))) },
      F1,
    ],
    symbols: [
      { math: sub(mi("M"), "K"), meaning: "the set of distinct mention spans [start, end] of the key" },
      { math: sub(mi("M"), "S"), meaning: "the set of distinct mention spans of the response" },
    ],
  },
  muc: {
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
  },
  bcub: {
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
  },
  ceafm: {
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
  },
  ceafe: {
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
  },
  lea: {
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
  },
  blanc: {
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
  },
  conll: {
    formulas: [
      {
        label: "CoNLL F1",
        math: eq(sub(mi("F"), mtext("CoNLL")), frac(plus(plus(sub(mi("F"), mtext("MUC")), sub(mi("F"), mtext("B³"))), sub(mi("F"), mtext("CEAFe"))), mn("3"))),
      },
    ],
    symbols: [{ math: sub(mi("F"), mtext("MUC")), meaning: "the MUC F1 of the whole corpus (its counts summed over documents); F_B³ and F_CEAFe likewise" }],
  },
  mcf: {
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
  },
  mor: {
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
  },
  zero: {
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
  },
};
