/**
 * Exact numbers for score tables (submission page, leaderboard): percentages with 2 decimals
 * on the page, the exact fraction behind each one in the `title` (hover) text. Server-safe.
 *
 * Counts are what the scorer stored: whole numbers for MUC, CEAFm, CEAFe links, mentions and
 * BLANC links; sums of fractions (printed to 10 significant digits, as the reference scorer
 * does) for B³, CEAFe similarity and LEA.
 */
import type { BoardMetricsJson, CountScoreJson, CountsJson } from "@/lib/boards";

/** BLANC as a board or run page shows it: link counts absent for a macro-average. */
type BoardBlancJson = NonNullable<BoardMetricsJson["blanc"]>;

/** A fraction in [0, 1] as a percentage with 2 decimals, e.g. `0.6315…` → `63.16%`. The one place scores become percentages. */
export function formatPercent(value: number): string {
  return `${(value * 100).toFixed(2)}%`;
}

/** A count as the reference scorer prints it: integers plainly, others to 10 significant digits. */
function formatCount(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)));
}

/** `num/den` of a stored count pair, e.g. `12/20`. */
export function formatFraction(num: number, den: number): string {
  return `${formatCount(num)}/${formatCount(den)}`;
}

/** Greatest common divisor of two non-negative integers. */
function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * The exact F1 of recall `rn/rd` and precision `pn/pd` as one fraction, when all four are
 * whole numbers: F1 = 2RP/(R+P) = 2·rn·pn / (rn·pd + pn·rd), reduced.
 *
 * @returns e.g. `"24/38"` reduced to `"12/19"`; null when a count is not whole or F1 is 0/0
 */
function exactF1Fraction(c: { recall_num: number; recall_den: number; precision_num: number; precision_den: number }): string | null {
  const { recall_num: rn, recall_den: rd, precision_num: pn, precision_den: pd } = c;
  if (![rn, rd, pn, pd].every(Number.isSafeInteger)) return null;
  const num = 2 * rn * pn;
  const den = rn * pd + pn * rd;
  if (!Number.isSafeInteger(num) || !Number.isSafeInteger(den) || den === 0) return null;
  const g = gcd(num, den) || 1;
  return `${num / g}/${den / g}`;
}

/** Full-precision value for hover text. */
function full(value: number): string {
  return String(value);
}

/** Hover text of a recall or precision cell: `"12/20 = 0.6"`. */
export function ratioTitle(num: number | null, den: number | null, value: number): string {
  if (num === null || den === null) return `= ${full(value)}`;
  return `${formatFraction(num, den)} = ${full(value)}`;
}

/**
 * Hover text of a count metric's F1 cell: the exact fraction and how it is made. A
 * macro-average over datasets has no counts (null): its F1 alone.
 */
export function f1Title(score: Omit<CountScoreJson, keyof CountsJson> & { [K in keyof CountsJson]: number | null }): string {
  const { recall_num: rn, recall_den: rd, precision_num: pn, precision_den: pd } = score;
  if (rn === null || rd === null || pn === null || pd === null) return `F1 = ${full(score.f1)}`;
  const exact = exactF1Fraction({ recall_num: rn, recall_den: rd, precision_num: pn, precision_den: pd });
  return `F1 = 2RP/(R+P)${exact ? ` = ${exact}` : ""} = ${full(score.f1)} (R = ${formatFraction(rn, rd)}, P = ${formatFraction(pn, pd)})`;
}

/** A BLANC link count's recall or precision as `num/den`, or "?" when it is not stored. */
function linkFraction(c: CountsJson | undefined, part: "recall" | "precision"): string {
  if (!c) return "?";
  return part === "recall" ? formatFraction(c.recall_num, c.recall_den) : formatFraction(c.precision_num, c.precision_den);
}

/**
 * Hover text of BLANC recall, precision or F1: the mean of the coreference-link and
 * non-coreference-link scores over the parts that count. Which parts count depends on the
 * scorer BLANC follows (a part without key links, or without links on either side for CorefUD
 * input, is left out; see `scoring/metrics/blanc.ts`), so the text gives the parts and the value.
 */
export function blancTitle(blanc: BoardBlancJson, part: "recall" | "precision" | "f1"): string {
  if (part === "f1") return `BLANC F1 = mean of the coreference-link and non-coreference-link F1 (over the parts that count) = ${full(blanc.f1)}`;
  return `BLANC ${part} = mean of the coreference-link ${part} ${linkFraction(blanc.coref_links, part)} and the non-coreference-link ${part} ${linkFraction(blanc.noncoref_links, part)} (over the parts that count) = ${full(blanc[part])}`;
}

/**
 * The counts shown under BLANC recall or precision: `"coref · non-coref"` link fractions,
 * e.g. `"3/4 · 10/12"`; undefined unless both link counts are stored.
 */
export function blancCounts(blanc: BoardBlancJson, part: "recall" | "precision"): string | undefined {
  if (!blanc.coref_links || !blanc.noncoref_links) return undefined;
  return `${linkFraction(blanc.coref_links, part)} · ${linkFraction(blanc.noncoref_links, part)}`;
}

/**
 * Hover text of a CoNLL F1 cell.
 *
 * @param value the CoNLL F1 (a fraction)
 * @param setting the evaluation setting it was computed under, for a secondary variant's cell
 *   (e.g. "partial match"); absent for the primary setting
 */
export function conllTitle(value: number, setting?: string): string {
  return `CoNLL F1${setting ? ` (${setting})` : ""} = (MUC F1 + B³ F1 + CEAFe F1) / 3 = ${full(value)}`;
}

/**
 * One score as a percentage with 2 decimals, in a `<span>` that keeps the digits aligned;
 * the exact value is in `data-exact`, and `title` is the hover text.
 *
 * @param value a fraction in [0, 1] (not a percentage)
 * @param counts optional text under the percentage, e.g. the fraction's `num/den`
 */
export function Percent({ value, title, counts }: { value: number; title: string; counts?: string }) {
  return (
    <span title={title} className="tabular-nums" data-exact={full(value)}>
      {formatPercent(value)}
      {counts !== undefined && <span className="block text-xs text-zinc-600">{counts}</span>}
    </span>
  );
}
