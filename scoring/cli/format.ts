/**
 * Rendering a `Report` for people (a table like the reference scorer's) and for programs
 * (the JSON shape shared with the web API: fractions in [0, 1], snake_case counts).
 */
import type { DocumentReport, MetricScores, Report } from "../evaluate.js";
import type { Score } from "../metrics/counts.js";

const COUNT_ROWS = [
  ["mentions", "Mentions"],
  ["muc", "MUC"],
  ["bcub", "B³"],
  ["ceafm", "CEAFm"],
  ["ceafe", "CEAFe"],
  ["lea", "LEA"],
] as const;

/** A count as the reference scorer prints it: integers plainly, fractions to 10 digits. */
function num(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(10)));
}

/** A fraction in [0, 1] as a percentage with 2 decimals (rounded). */
export function pct(x: number): string {
  return `${(x * 100).toFixed(2)}%`;
}

/**
 * A plain-text table: one row per metric with recall and precision (each with numerator
 * and denominator) and F1, then BLANC's link counts and the CoNLL F1.
 */
export function renderTable(scores: MetricScores, title?: string): string {
  const rows: string[][] = [["Metric", "Recall", "", "Precision", "", "F1"]];
  for (const [key, label] of COUNT_ROWS) {
    const s = scores[key];
    if (!s) continue;
    rows.push([label, pct(s.recall), `(${num(s.recallNum)} / ${num(s.recallDen)})`, pct(s.precision), `(${num(s.precisionNum)} / ${num(s.precisionDen)})`, pct(s.f1)]);
  }
  if (scores.blanc) {
    const b = scores.blanc;
    rows.push(["BLANC", pct(b.recall), "", pct(b.precision), "", pct(b.f1)]);
    rows.push(["  coref links", pct(ratioOf(b.coref.recallNum, b.coref.recallDen)), `(${b.coref.recallNum} / ${b.coref.recallDen})`, pct(ratioOf(b.coref.precisionNum, b.coref.precisionDen)), `(${b.coref.precisionNum} / ${b.coref.precisionDen})`, ""]);
    rows.push(["  non-coref links", pct(ratioOf(b.noncoref.recallNum, b.noncoref.recallDen)), `(${b.noncoref.recallNum} / ${b.noncoref.recallDen})`, pct(ratioOf(b.noncoref.precisionNum, b.noncoref.precisionDen)), `(${b.noncoref.precisionNum} / ${b.noncoref.precisionDen})`, ""]);
  }
  if (scores.conll) rows.push(["CoNLL F1", "", "", "", "", pct(scores.conll.f1)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ").trimEnd());
  lines.splice(1, 0, "-".repeat(Math.max(...lines.map((l) => l.length))));
  return (title ? `${title}\n` : "") + lines.join("\n") + "\n";
}

function ratioOf(n: number, d: number): number {
  return d === 0 ? 0 : n / d;
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
  return {
    recall: s.recall,
    precision: s.precision,
    f1: s.f1,
    recall_num: s.recallNum,
    recall_den: s.recallDen,
    precision_num: s.precisionNum,
    precision_den: s.precisionDen,
  };
}

/**
 * Metric scores in the public JSON shape:
 * `{"mentions"|"muc"|"bcub"|"ceafm"|"ceafe"|"lea": {recall, precision, f1, recall_num,
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

function countsJson(c: { recallNum: number; recallDen: number; precisionNum: number; precisionDen: number }) {
  return { recall_num: c.recallNum, recall_den: c.recallDen, precision_num: c.precisionNum, precision_den: c.precisionDen };
}

/**
 * The whole report as the CLI's `--format json` object:
 * `{"documents", "metrics", "warnings", "per_document"?}`.
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
