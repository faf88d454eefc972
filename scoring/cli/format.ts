/**
 * Rendering a `Report` for people (a table like the reference scorer's) and for programs
 * (the score JSON of `../score-json.ts`, shared with the worker and the web API: fractions in
 * [0, 1], snake_case counts).
 */
import { toScore, type Score } from "../metrics/counts.js";
import { ALL_COUNT_METRICS, METRIC_REGISTRY, type MetricId } from "../metrics/registry.js";
import type { MetricScoresLike } from "../score-json.js";

/** The JSON output (`--format json`) is the score JSON: see `../score-json.ts`. */
export { metricsToJson, reportToJson, type MetricsJson, type ReportJson } from "../score-json.js";

/** The table's row label of each metric (rows in registry order): its registry label. */
const ROW_LABELS = Object.fromEntries(METRIC_REGISTRY.map((m) => [m.id, m.label])) as Record<MetricId, string>;

/** A count as the reference scorer prints it: integers plainly, fractions to 10 digits. */
function num(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(10)));
}

/**
 * A fraction as a percentage for people.
 *
 * @param x a fraction, normally in [0, 1]
 * @returns `x * 100` with 2 decimals (rounded by `toFixed`) and a `%` sign, e.g. `"58.76%"`
 */
export function pct(x: number): string {
  return `${(x * 100).toFixed(2)}%`;
}

/** The recall, `(num / den)`, precision and `(num / den)` cells of a row. */
function scoreCells(s: Score): string[] {
  return [pct(s.recall), `(${num(s.recallNum)} / ${num(s.recallDen)})`, pct(s.precision), `(${num(s.precisionNum)} / ${num(s.precisionDen)})`];
}

/**
 * A plain-text table like the reference scorer's: one row per metric with recall and
 * precision as percentages (each with its numerator and denominator) and F1 (the optional
 * metrics, when computed, after LEA: mapped cluster F as "Mapped F", the mention overlap
 * ratio as "MOR", the zero anaphor score as "Zeros"), then BLANC with its coreference and
 * non-coreference link counts, then the CoNLL F1.
 *
 * @param scores corpus or document scores (fractions in [0, 1]); metrics absent are left out
 * @param title an optional first line
 * @returns the table, columns separated by two spaces, ending with a newline
 */
export function renderTable(scores: MetricScoresLike, title?: string): string {
  const rows: string[][] = [["Metric", "Recall", "", "Precision", "", "F1"]];
  for (const key of ALL_COUNT_METRICS) {
    const s = scores[key];
    if (s) rows.push([ROW_LABELS[key], ...scoreCells(s), pct(s.f1)]);
  }
  if (scores.blanc) {
    const b = scores.blanc;
    rows.push([ROW_LABELS.blanc, pct(b.recall), "", pct(b.precision), "", pct(b.f1)]);
    rows.push(["  coref links", ...scoreCells(toScore(b.coref)), ""]);
    rows.push(["  non-coref links", ...scoreCells(toScore(b.noncoref)), ""]);
  }
  if (scores.conll) rows.push(["CoNLL F1", "", "", "", "", pct(scores.conll.f1)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ").trimEnd());
  lines.splice(1, 0, "-".repeat(Math.max(...lines.map((l) => l.length))));
  return (title ? `${title}\n` : "") + lines.join("\n") + "\n";
}
