/**
 * The score JSON format: the one shape in which scores leave `scoring/` as data. The CLI prints
 * it (`--format json`), the worker's stored rows are read back into it (`lib/boards/scores`),
 * and the web API answers with it.
 *
 * Shape (every fraction in [0, 1], never a percentage; counts as the metrics return them:
 * integers for MUC, BLANC, mention identification and MOR, sums of fractions for B³, CEAF
 * and LEA):
 * ```
 * { "<count metric>": { recall, precision, f1, recall_num, recall_den, precision_num, precision_den },
 *   "blanc": { recall, precision, f1, coref_links: COUNTS, noncoref_links: COUNTS },
 *   "conll": { f1 } }
 * COUNTS = { recall_num, recall_den, precision_num, precision_den }
 * ```
 * The count metrics are the registry's `kind: "counts"` metrics (`metrics/registry.ts`):
 * `mentions`, `muc`, `bcub`, `ceafm`, `ceafe`, `lea`, and the optional `mcf`, `mor` and `zero`.
 * A metric that was not computed is absent; keys appear in registry order (count metrics,
 * then BLANC, then CoNLL). A whole report adds `documents`, `warnings` and, when asked for,
 * `per_document: [{ document, missing_in_response, metrics }]`.
 *
 * Converting: `metricsToJson` and `reportToJson` from `evaluate`'s scores; `metricsJsonFromCounts`
 * for per-document scores kept as counts only (BLANC by the averaging rule of the input's
 * format, see `metrics/blanc.ts`); `parseMetricsJson` and `parseReportJson` validate JSON read
 * back (throwing a `ScoreJsonError` that names the offending key), and `scoresFromJson` turns
 * it into `evaluate`'s camelCase scores again.
 */
import type { Warning } from "./types.js";
import { blancScore, type BlancCounts, type BlancRule } from "./metrics/blanc.js";
import { toScore, type Counts, type Score } from "./metrics/counts.js";
import { CONLL_METRICS, METRIC_REGISTRY, type AnyCountMetric, type ReportedMetric } from "./metrics/registry.js";

export type { BlancRule };

/** Exact counts, snake_case. */
export interface CountsJson {
  recall_num: number;
  recall_den: number;
  precision_num: number;
  precision_den: number;
}

/** A count metric: its fractions and the counts they come from. */
export interface CountScoreJson extends CountsJson {
  recall: number;
  precision: number;
  f1: number;
}

/** BLANC: its fractions and the link counts of its two parts. */
export interface BlancJson {
  recall: number;
  precision: number;
  f1: number;
  coref_links: CountsJson;
  noncoref_links: CountsJson;
}

/** The CoNLL F1: the mean of the MUC, B³ and CEAFe F1; it has no recall or precision. */
export interface ConllJson {
  f1: number;
}

/** The scores of a corpus or a document; metrics not computed are absent. */
export type MetricsJson = Partial<Record<AnyCountMetric, CountScoreJson>> & { blanc?: BlancJson; conll?: ConllJson };

/** One document of a report's `per_document`. */
export interface DocumentJson {
  document: string;
  missing_in_response: boolean;
  metrics: MetricsJson;
}

/** A whole report (the CLI's `--format json` object). */
export interface ReportJson {
  documents: number;
  metrics: MetricsJson;
  warnings: Warning[];
  per_document?: DocumentJson[];
}

/** Scores as `evaluate` gives them (`MetricScores`): camelCase counts with their fractions. */
export type MetricScoresLike = Partial<Record<AnyCountMetric, Score>> & {
  blanc?: BlancCounts & { recall: number; precision: number; f1: number };
  conll?: { f1: number };
};

/** Counts as `evaluate` keeps them per document (`DocumentReport.counts`). */
export type MetricCountsLike = Partial<Record<AnyCountMetric, Counts>> & { blanc?: BlancCounts };

/** What `reportToJson` reads of a `Report`. */
export interface ReportLike {
  documents: number;
  metrics: MetricScoresLike;
  warnings: readonly Warning[];
  perDocument: readonly { id: string; missingInResponse: boolean; scores: MetricScoresLike }[];
}

/** The count metrics, in registry (and JSON) order. */
const COUNT_KEYS = METRIC_REGISTRY.filter((m) => m.kind === "counts").map((m) => m.id) as AnyCountMetric[];
/** The keys a `MetricsJson` may have, in JSON order. */
export const SCORE_JSON_METRICS: readonly ReportedMetric[] = [
  ...COUNT_KEYS,
  ...METRIC_REGISTRY.filter((m) => m.kind === "blanc").map((m) => m.id),
  "conll",
];

// ---------------------------------------------------------------------------------------
// To JSON

/** Counts in snake_case. */
export function countsToJson(c: Counts): CountsJson {
  return { recall_num: c.recallNum, recall_den: c.recallDen, precision_num: c.precisionNum, precision_den: c.precisionDen };
}

/** Counts back in camelCase. */
export function countsFromJson(c: CountsJson): Counts {
  return { recallNum: c.recall_num, recallDen: c.recall_den, precisionNum: c.precision_num, precisionDen: c.precision_den };
}

/** A count metric's score (fractions and counts) in JSON. */
export function scoreToJson(s: Score): CountScoreJson {
  return { recall: s.recall, precision: s.precision, f1: s.f1, ...countsToJson(s) };
}

/**
 * Scores as JSON: the shape in the module header.
 *
 * @param scores corpus or document scores from `evaluate` (`Report.metrics`, `DocumentReport.scores`)
 * @returns the metrics present, in registry order; never throws
 */
export function metricsToJson(scores: MetricScoresLike): MetricsJson {
  const out: MetricsJson = {};
  for (const m of COUNT_KEYS) {
    const s = scores[m];
    if (s) out[m] = scoreToJson(s);
  }
  if (scores.blanc) {
    const b = scores.blanc;
    out.blanc = { recall: b.recall, precision: b.precision, f1: b.f1, coref_links: countsToJson(b.coref), noncoref_links: countsToJson(b.noncoref) };
  }
  if (scores.conll) out.conll = { f1: scores.conll.f1 };
  return out;
}

/**
 * A whole report as JSON: `{documents, metrics, warnings, per_document?}`.
 *
 * @param report from `evaluate`
 * @param perDocument add `per_document`: `[{document, missing_in_response, metrics}]` in key order
 */
export function reportToJson(report: ReportLike, perDocument: boolean): ReportJson {
  const out: ReportJson = { documents: report.documents, metrics: metricsToJson(report.metrics), warnings: [...report.warnings] };
  if (perDocument) {
    out.per_document = report.perDocument.map((d) => ({ document: d.id, missing_in_response: d.missingInResponse, metrics: metricsToJson(d.scores) }));
  }
  return out;
}

/**
 * Scores as JSON from counts alone (e.g. per-document counts stored without their fractions),
 * computed as `evaluate` computes them: each count metric by `toScore`, BLANC by `blancScore`
 * with `blancRule` (when both link parts are there), CoNLL as the mean F1 of MUC, B³ and CEAFe
 * (when all three are there).
 *
 * @param counts a document's (or a corpus's summed) counts
 * @param blancRule `reference` (CoNLL-2012 and JSON lines input) or `corefud` (CorefUD CoNLL-U
 *   input), as `evaluate` used for the same input
 * @returns the metrics present, in registry order; never throws
 */
export function metricsJsonFromCounts(counts: MetricCountsLike, blancRule: BlancRule = "reference"): MetricsJson {
  const out: MetricsJson = {};
  for (const m of COUNT_KEYS) {
    const c = counts[m];
    if (c) out[m] = scoreToJson(toScore(c));
  }
  const b = counts.blanc;
  if (b?.coref && b.noncoref) {
    out.blanc = { ...blancScore(b, blancRule), coref_links: countsToJson(b.coref), noncoref_links: countsToJson(b.noncoref) };
  }
  const parts = CONLL_METRICS.map((m) => out[m]);
  if (parts.every((p) => p !== undefined)) out.conll = { f1: parts.reduce((sum, p) => sum + p!.f1, 0) / parts.length };
  return out;
}

/**
 * JSON scores back as `evaluate`'s camelCase scores (the inverse of `metricsToJson`).
 *
 * @param json validated scores (see `parseMetricsJson`)
 */
export function scoresFromJson(json: MetricsJson): MetricScoresLike {
  const out: MetricScoresLike = {};
  for (const m of COUNT_KEYS) {
    const s = json[m];
    if (s) out[m] = { ...countsFromJson(s), recall: s.recall, precision: s.precision, f1: s.f1 };
  }
  if (json.blanc) {
    const b = json.blanc;
    out.blanc = { coref: countsFromJson(b.coref_links), noncoref: countsFromJson(b.noncoref_links), recall: b.recall, precision: b.precision, f1: b.f1 };
  }
  if (json.conll) out.conll = { f1: json.conll.f1 };
  return out;
}

// ---------------------------------------------------------------------------------------
// From JSON: validation

/**
 * Score JSON that does not have the documented shape. `path` names the offending value the way
 * JavaScript would reach it, e.g. `metrics.muc.recall_den` or `per_document[3].document`.
 */
export class ScoreJsonError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = "ScoreJsonError";
  }
}

/**
 * How far above 1 a stored fraction may be and still count as in [0, 1]: sums of fractions (B³,
 * CEAF, LEA numerators) can round a hair above their denominator.
 */
const FRACTION_SLACK = 1e-9;

/** A short, bounded description of a value for messages. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `value` as a plain object with exactly the keys `required` (plus any of `optional`). */
function record(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ScoreJsonError(path, `expected an object, got ${shown(value)}`);
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!required.includes(key) && !optional.includes(key)) {
      throw new ScoreJsonError(`${path}.${key}`, `unknown key; expected ${[...required, ...optional].join(", ")}`);
    }
  }
  for (const key of required) if (!Object.hasOwn(obj, key)) throw new ScoreJsonError(`${path}.${key}`, "missing");
  return obj;
}

/** A finite number ≥ 0. */
function count(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new ScoreJsonError(path, `expected a finite number ≥ 0, got ${shown(value)}`);
  return value;
}

/** A fraction in [0, 1] (up to `FRACTION_SLACK`). */
function fraction(value: unknown, path: string): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1 + FRACTION_SLACK)) throw new ScoreJsonError(path, `expected a fraction in [0, 1], got ${shown(value)}`);
  return value;
}

const COUNT_FIELDS = ["recall_num", "recall_den", "precision_num", "precision_den"] as const;
const FRACTION_FIELDS = ["recall", "precision", "f1"] as const;

function parseCounts(value: unknown, path: string): CountsJson {
  const o = record(value, path, COUNT_FIELDS);
  return { recall_num: count(o.recall_num, `${path}.recall_num`), recall_den: count(o.recall_den, `${path}.recall_den`), precision_num: count(o.precision_num, `${path}.precision_num`), precision_den: count(o.precision_den, `${path}.precision_den`) };
}

function parseCountScore(value: unknown, path: string): CountScoreJson {
  const o = record(value, path, [...FRACTION_FIELDS, ...COUNT_FIELDS]);
  const counts = parseCounts(Object.fromEntries(COUNT_FIELDS.map((f) => [f, o[f]])), path);
  return { recall: fraction(o.recall, `${path}.recall`), precision: fraction(o.precision, `${path}.precision`), f1: fraction(o.f1, `${path}.f1`), ...counts };
}

function parseBlanc(value: unknown, path: string): BlancJson {
  const o = record(value, path, [...FRACTION_FIELDS, "coref_links", "noncoref_links"]);
  return {
    recall: fraction(o.recall, `${path}.recall`),
    precision: fraction(o.precision, `${path}.precision`),
    f1: fraction(o.f1, `${path}.f1`),
    coref_links: parseCounts(o.coref_links, `${path}.coref_links`),
    noncoref_links: parseCounts(o.noncoref_links, `${path}.noncoref_links`),
  };
}

/**
 * Validates scores read back as JSON.
 *
 * @param value e.g. `JSON.parse(text).metrics`
 * @param path how messages name `value` (default `metrics`)
 * @returns the same scores, typed, keys in registry order
 * @throws ScoreJsonError naming the first offending key: not an object, an unknown metric or
 *   field, a missing field, a count that is not a finite number ≥ 0, a fraction outside [0, 1]
 */
export function parseMetricsJson(value: unknown, path = "metrics"): MetricsJson {
  const o = record(value, path, [], SCORE_JSON_METRICS);
  const out: MetricsJson = {};
  for (const m of COUNT_KEYS) if (Object.hasOwn(o, m)) out[m] = parseCountScore(o[m], `${path}.${m}`);
  if (Object.hasOwn(o, "blanc")) out.blanc = parseBlanc(o.blanc, `${path}.blanc`);
  if (Object.hasOwn(o, "conll")) out.conll = { f1: fraction(record(o.conll, `${path}.conll`, ["f1"]).f1, `${path}.conll.f1`) };
  return out;
}

function parseWarning(value: unknown, path: string): Warning {
  const o = record(value, path, ["code", "message"], ["file", "line", "document"]);
  const text = (key: string): string => {
    if (typeof o[key] !== "string") throw new ScoreJsonError(`${path}.${key}`, `expected a string, got ${shown(o[key])}`);
    return o[key];
  };
  const w: Warning = { code: text("code"), message: text("message") };
  if (Object.hasOwn(o, "file")) w.file = text("file");
  if (Object.hasOwn(o, "line")) {
    if (!Number.isSafeInteger(o.line) || (o.line as number) < 1) throw new ScoreJsonError(`${path}.line`, `expected a line number ≥ 1, got ${shown(o.line)}`);
    w.line = o.line as number;
  }
  if (Object.hasOwn(o, "document")) w.document = text("document");
  return w;
}

/**
 * Validates a whole report read back as JSON (the CLI's `--format json` output).
 *
 * @param value e.g. `JSON.parse(stdout)`
 * @returns the report, typed
 * @throws ScoreJsonError naming the first offending key (see `parseMetricsJson`; also
 *   `documents` not a whole number ≥ 0, malformed warnings or `per_document` entries)
 */
export function parseReportJson(value: unknown): ReportJson {
  const o = record(value, "report", ["documents", "metrics", "warnings"], ["per_document"]);
  if (!Number.isSafeInteger(o.documents) || (o.documents as number) < 0) throw new ScoreJsonError("report.documents", `expected a whole number ≥ 0, got ${shown(o.documents)}`);
  if (!Array.isArray(o.warnings)) throw new ScoreJsonError("report.warnings", `expected an array, got ${shown(o.warnings)}`);
  const out: ReportJson = {
    documents: o.documents as number,
    metrics: parseMetricsJson(o.metrics, "report.metrics"),
    warnings: o.warnings.map((w, i) => parseWarning(w, `report.warnings[${i}]`)),
  };
  if (Object.hasOwn(o, "per_document")) {
    if (!Array.isArray(o.per_document)) throw new ScoreJsonError("report.per_document", `expected an array, got ${shown(o.per_document)}`);
    out.per_document = o.per_document.map((d, i) => {
      const path = `report.per_document[${i}]`;
      const doc = record(d, path, ["document", "missing_in_response", "metrics"]);
      if (typeof doc.document !== "string") throw new ScoreJsonError(`${path}.document`, `expected a string, got ${shown(doc.document)}`);
      if (typeof doc.missing_in_response !== "boolean") throw new ScoreJsonError(`${path}.missing_in_response`, `expected true or false, got ${shown(doc.missing_in_response)}`);
      return { document: doc.document, missing_in_response: doc.missing_in_response, metrics: parseMetricsJson(doc.metrics, `${path}.metrics`) };
    });
  }
  return out;
}
