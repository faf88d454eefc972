/**
 * Rendering a `Report` for people (a table like the reference scorer's) and for programs
 * (the JSON shape shared with the web API: fractions in [0, 1], snake_case counts).
 */
import type { DocumentReport, MetricScores, Report } from "../evaluate.js";
import { toScore, type Counts, type Score } from "../metrics/counts.js";

const COUNT_ROWS = [
  ["mentions", "Mentions"],
  ["muc", "MUC"],
  ["bcub", "B³"],
  ["ceafm", "CEAFm"],
  ["ceafe", "CEAFe"],
  ["lea", "LEA"],
  ["mcf", "Mapped F"],
] as const;

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
 * mapped cluster F, when computed, as "Mapped F" after LEA), then BLANC with its coreference
 * and non-coreference link counts, then the CoNLL F1.
 *
 * @param scores corpus or document scores (fractions in [0, 1]); metrics absent are left out
 * @param title an optional first line
 * @returns the table, columns separated by two spaces, ending with a newline
 */
export function renderTable(scores: MetricScores, title?: string): string {
  const rows: string[][] = [["Metric", "Recall", "", "Precision", "", "F1"]];
  for (const [key, label] of COUNT_ROWS) {
    const s = scores[key];
    if (s) rows.push([label, ...scoreCells(s), pct(s.f1)]);
  }
  if (scores.blanc) {
    const b = scores.blanc;
    rows.push(["BLANC", pct(b.recall), "", pct(b.precision), "", pct(b.f1)]);
    rows.push(["  coref links", ...scoreCells(toScore(b.coref)), ""]);
    rows.push(["  non-coref links", ...scoreCells(toScore(b.noncoref)), ""]);
  }
  if (scores.conll) rows.push(["CoNLL F1", "", "", "", "", pct(scores.conll.f1)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ").trimEnd());
  lines.splice(1, 0, "-".repeat(Math.max(...lines.map((l) => l.length))));
  return (title ? `${title}\n` : "") + lines.join("\n") + "\n";
}

/** The JSON shape of one metric with counts. */
export interface JsonScore {
  recall: number;
  precision: number;
  f1: number;
  recall_num: number;
  recall_den: number;
  precision_num: number;
  precision_den: number;
}

function jsonScore(s: Score): JsonScore {
  return { recall: s.recall, precision: s.precision, f1: s.f1, ...countsJson(s) };
}

/**
 * Metric scores in the public JSON shape:
 * `{"mentions"|"muc"|"bcub"|"ceafm"|"ceafe"|"lea"|"mcf": {recall, precision, f1, recall_num,
 * recall_den, precision_num, precision_den}, "blanc": {recall, precision, f1, coref_links,
 * noncoref_links}, "conll": {f1}}`, all fractions in [0, 1]. Metrics not computed are left out.
 */
export function metricsToJson(scores: MetricScores): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key] of COUNT_ROWS) {
    const s = scores[key];
    if (s) out[key] = jsonScore(s);
  }
  if (scores.blanc) {
    const b = scores.blanc;
    out.blanc = {
      recall: b.recall,
      precision: b.precision,
      f1: b.f1,
      coref_links: countsJson(b.coref),
      noncoref_links: countsJson(b.noncoref),
    };
  }
  if (scores.conll) out.conll = { f1: scores.conll.f1 };
  return out;
}

function countsJson(c: Counts) {
  return { recall_num: c.recallNum, recall_den: c.recallDen, precision_num: c.precisionNum, precision_den: c.precisionDen };
}

/**
 * The whole report as the CLI's `--format json` object:
 * `{"documents", "metrics", "warnings", "per_document"?}`, `metrics` (and each document's)
 * as `metricsToJson` gives them (fractions in [0, 1]).
 *
 * @param perDocument whether to add `per_document`: `[{document, missing_in_response, metrics}]`
 */
export function reportToJson(report: Report, perDocument: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    documents: report.documents,
    metrics: metricsToJson(report.metrics),
    warnings: report.warnings,
  };
  if (perDocument) {
    out.per_document = report.perDocument.map((d: DocumentReport) => ({
      document: d.id,
      missing_in_response: d.missingInResponse,
      metrics: metricsToJson(d.scores),
    }));
  }
  return out;
}
