/**
 * Score rows → the public JSON shape of scores (the CLI's `--format json` shape): fractions
 * in [0, 1], snake_case exact counts.
 *
 * Stored metric names (written by the scoring worker): `mentions`, `muc`, `bcub`, `ceafm`,
 * `ceafe`, `lea` (counts and fractions); `blanc` (fractions) with `blanc_coref` and
 * `blanc_noncoref` (the link counts); `conll` (f1 only). DocumentScore rows hold counts only,
 * so per-document fractions, BLANC and CoNLL are derived here the way `scoring/` does.
 */
import { blancScore, toScore, type Counts } from "../../scoring/index";
import { COUNT_METRIC_NAMES, type CountMetricName, type LeaderboardMetric } from "../validations/metrics";

/** Stored metric name of BLANC's coreference-link counts. */
export const BLANC_COREF = "blanc_coref";
/** Stored metric name of BLANC's non-coreference-link counts. */
export const BLANC_NONCOREF = "blanc_noncoref";

/** Exact counts in snake_case. */
export interface CountsJson {
  recall_num: number;
  recall_den: number;
  precision_num: number;
  precision_den: number;
}

/** A count metric: fractions and the counts they come from (counts null only if not stored). */
export interface CountScoreJson {
  recall: number;
  precision: number;
  f1: number;
  recall_num: number | null;
  recall_den: number | null;
  precision_num: number | null;
  precision_den: number | null;
}

/** BLANC: fractions, and the link counts when stored. */
export interface BlancJson {
  recall: number;
  precision: number;
  f1: number;
  coref_links?: CountsJson;
  noncoref_links?: CountsJson;
}

/** Scores of one submission (or document) by metric; metrics without rows are absent. */
export type MetricsJson = Partial<Record<CountMetricName, CountScoreJson>> & { blanc?: BlancJson; conll?: { f1: number } };

/** The columns of a Score row that matter here. */
export interface ScoreRowLike {
  metric: string;
  recallNum: number | null;
  recallDen: number | null;
  precisionNum: number | null;
  precisionDen: number | null;
  recall: number | null;
  precision: number | null;
  f1: number;
}

/** The columns of a DocumentScore row that matter here. */
export interface DocumentScoreRowLike {
  document: string;
  metric: string;
  recallNum: number;
  recallDen: number;
  precisionNum: number;
  precisionDen: number;
}

const isCountMetric = (m: string): m is CountMetricName => (COUNT_METRIC_NAMES as readonly string[]).includes(m);

function countsJson(c: Counts): CountsJson {
  return { recall_num: c.recallNum, recall_den: c.recallDen, precision_num: c.precisionNum, precision_den: c.precisionDen };
}

function storedCounts(row: ScoreRowLike): Counts | null {
  const { recallNum, recallDen, precisionNum, precisionDen } = row;
  if (recallNum === null || recallDen === null || precisionNum === null || precisionDen === null) return null;
  return { recallNum, recallDen, precisionNum, precisionDen };
}

/**
 * A submission's corpus scores from its Score rows. Stored fractions are used as they are
 * (they were computed from the same counts); unknown metric names are ignored.
 *
 * @param rows the submission's Score rows, any order
 * @returns `{mentions|muc|bcub|ceafm|ceafe|lea: {recall, precision, f1, recall_num, recall_den,
 *   precision_num, precision_den}, blanc: {recall, precision, f1, coref_links?, noncoref_links?},
 *   conll: {f1}}`, in display order
 */
export function scoresToJson(rows: readonly ScoreRowLike[]): MetricsJson {
  const byMetric = new Map(rows.map((r) => [r.metric, r]));
  const out: MetricsJson = {};
  for (const metric of COUNT_METRIC_NAMES) {
    const row = byMetric.get(metric);
    if (!row) continue;
    const c = storedCounts(row);
    const derived = c ? toScore(c) : null;
    out[metric] = {
      recall: row.recall ?? derived?.recall ?? 0,
      precision: row.precision ?? derived?.precision ?? 0,
      f1: row.f1,
      recall_num: row.recallNum,
      recall_den: row.recallDen,
      precision_num: row.precisionNum,
      precision_den: row.precisionDen,
    };
  }
  const blanc = byMetric.get("blanc");
  if (blanc) {
    const coref = byMetric.get(BLANC_COREF);
    const noncoref = byMetric.get(BLANC_NONCOREF);
    const corefCounts = coref && storedCounts(coref);
    const noncorefCounts = noncoref && storedCounts(noncoref);
    out.blanc = {
      recall: blanc.recall ?? 0,
      precision: blanc.precision ?? 0,
      f1: blanc.f1,
      ...(corefCounts ? { coref_links: countsJson(corefCounts) } : {}),
      ...(noncorefCounts ? { noncoref_links: countsJson(noncorefCounts) } : {}),
    };
  }
  const conll = byMetric.get("conll");
  if (conll) out.conll = { f1: conll.f1 };
  return out;
}

/**
 * Per-document scores from DocumentScore rows: fractions from the counts (as `toScore`),
 * BLANC from its link counts (as `blancScore`), CoNLL as the mean of the document's MUC, B³
 * and CEAFe F1 when all three are there.
 *
 * @returns one entry per document, in document-name order
 */
export function documentScoresToJson(rows: readonly DocumentScoreRowLike[]): { document: string; metrics: MetricsJson }[] {
  const docs = new Map<string, Map<string, Counts>>();
  for (const r of rows) {
    let m = docs.get(r.document);
    if (!m) docs.set(r.document, (m = new Map()));
    m.set(r.metric, { recallNum: r.recallNum, recallDen: r.recallDen, precisionNum: r.precisionNum, precisionDen: r.precisionDen });
  }
  return [...docs.keys()].sort().map((document) => {
    const counts = docs.get(document)!;
    const metrics: MetricsJson = {};
    for (const [metric, c] of counts) {
      if (!isCountMetric(metric)) continue;
      const s = toScore(c);
      metrics[metric] = { recall: s.recall, precision: s.precision, f1: s.f1, ...countsJson(c) };
    }
    const coref = counts.get(BLANC_COREF);
    const noncoref = counts.get(BLANC_NONCOREF);
    if (coref && noncoref) {
      metrics.blanc = { ...blancScore({ coref, noncoref }), coref_links: countsJson(coref), noncoref_links: countsJson(noncoref) };
    }
    if (metrics.muc && metrics.bcub && metrics.ceafe) metrics.conll = { f1: (metrics.muc.f1 + metrics.bcub.f1 + metrics.ceafe.f1) / 3 };
    return { document, metrics: orderMetrics(metrics) };
  });
}

/** The same metrics in display order. */
function orderMetrics(m: MetricsJson): MetricsJson {
  const out: Record<string, unknown> = {};
  for (const key of [...COUNT_METRIC_NAMES, "blanc", "conll"] as const) if (m[key]) out[key] = m[key];
  return out as MetricsJson;
}

/**
 * The value a leaderboard ranks by: the metric's F1 (for `conll`, its only number).
 *
 * @returns null when the scores lack the metric
 */
export function rankingValue(scores: MetricsJson, metric: LeaderboardMetric): number | null {
  return scores[metric]?.f1 ?? null;
}
