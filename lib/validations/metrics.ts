/**
 * Metric names used by tasks (primary metric), leaderboards and stored Score rows: the
 * scorer's metric registry (`scoring/metrics/registry.ts`: ids, kinds, CoNLL members, optional
 * metrics, labels) plus the derived `conll`, with what lib adds on top of it: a position on
 * boards ({@link METRIC_DISPLAY}).
 *
 * Every list of metrics in lib/ and app/ is derived here; `metrics.test.ts` here fails when
 * a registry metric lacks a label, a board position or an explanation page, and when another
 * file writes a list of metric ids out. Adding a metric to the registry then means a board
 * position here and one explanation in `lib/content/metrics/`.
 *
 * Optional metrics (`mcf`, `mor`, `zero`) are computed only by tasks that switch them on; pages
 * hide them when no run shown has them ({@link shownMetrics}).
 */
import { z } from "zod";
import { CONLL_METRICS, METRIC_REGISTRY, type AnyCountMetric, type MetricId } from "../../scoring/metrics/registry";

/** Any metric a leaderboard can rank by: a registry metric or the derived CoNLL F1. */
export type LeaderboardMetric = MetricId | "conll";

/** How pages show a registry metric. */
export interface MetricDisplay {
  /** Short name for table headers, e.g. "B³" (the registry's `label`). */
  label: string;
  /** Place on boards, selectors and metric tables: smaller first, distinct. */
  position: number;
}

/** Board position of every registry metric (the compiler checks that each has one); optional metrics come after the standard ones. */
const BOARD_POSITION: Readonly<Record<MetricId, number>> = { mentions: 0, muc: 1, bcub: 2, ceafm: 3, ceafe: 4, lea: 5, blanc: 6, mcf: 7, mor: 8, zero: 9 };

/** Label (the registry's) and board position of every registry metric. */
export const METRIC_DISPLAY: Readonly<Record<MetricId, MetricDisplay>> = Object.fromEntries(
  METRIC_REGISTRY.map((metric) => [metric.id, { label: metric.label, position: BOARD_POSITION[metric.id] }]),
) as Record<MetricId, MetricDisplay>;

/** Registry metrics in board order. */
const BOARD_ORDER: readonly MetricId[] = METRIC_REGISTRY.map((m) => m.id).sort((a, b) => METRIC_DISPLAY[a].position - METRIC_DISPLAY[b].position);

/** Every metric a leaderboard can rank by: the registry's in board order, then `conll`. */
export const LEADERBOARD_METRICS: readonly LeaderboardMetric[] = [...BOARD_ORDER, "conll"];

/** Metrics with recall/precision numerators and denominators (registry kind `counts`), in board order. */
export const COUNT_METRIC_NAMES: readonly AnyCountMetric[] = BOARD_ORDER.filter((m): m is AnyCountMetric => METRIC_REGISTRY.some((r) => r.id === m && r.kind === "counts"));

/** One of {@link COUNT_METRIC_NAMES}. */
export type CountMetricName = AnyCountMetric;

/** Metrics only some tasks compute, in board order; pages hide them when no run has them. */
export const OPTIONAL_METRIC_NAMES: readonly LeaderboardMetric[] = BOARD_ORDER.filter((m) => METRIC_REGISTRY.some((r) => r.id === m && r.optional));

/** The metrics whose F1 the CoNLL F1 averages (MUC, B³, CEAFe), from the registry. */
export const CONLL_PARTS: readonly AnyCountMetric[] = CONLL_METRICS;

/** Every metric with an explanation page (`/metrics/<id>`, `lib/content/metrics-explained.ts`): every leaderboard metric. */
export const METRIC_IDS: readonly LeaderboardMetric[] = LEADERBOARD_METRICS;

/** Default primary metric of a task: the CoNLL F1 (mean of MUC, B³ and CEAFe F1). */
export const DEFAULT_PRIMARY_METRIC: LeaderboardMetric = "conll";

/** Person-readable names, e.g. for table headers: the registry metrics' labels and "CoNLL". */
export const METRIC_LABELS: Readonly<Record<LeaderboardMetric, string>> = {
  ...(Object.fromEntries(BOARD_ORDER.map((m) => [m, METRIC_DISPLAY[m].label])) as Record<MetricId, string>),
  conll: "CoNLL",
};

/** A metric name from a form or query string. */
export const metricSchema = z.enum(LEADERBOARD_METRICS as [LeaderboardMetric, ...LeaderboardMetric[]], {
  error: `must be one of ${LEADERBOARD_METRICS.join(", ")}`,
});

/** True when `name` is one of {@link LEADERBOARD_METRICS}. */
export function isLeaderboardMetric(name: string): name is LeaderboardMetric {
  return (LEADERBOARD_METRICS as readonly string[]).includes(name);
}

/** True for the optional metrics ({@link OPTIONAL_METRIC_NAMES}). */
export function isOptionalMetric(metric: LeaderboardMetric): boolean {
  return OPTIONAL_METRIC_NAMES.includes(metric);
}

/**
 * The metrics a page shows: `metrics` in their order, without the optional ones that no run
 * shown has (see {@link OPTIONAL_METRIC_NAMES}).
 *
 * @param metrics candidate metrics, in display order
 * @param has whether some run shown has the metric (or the page ranks by it)
 */
export function shownMetrics(metrics: readonly LeaderboardMetric[], has: (metric: LeaderboardMetric) => boolean): LeaderboardMetric[] {
  return metrics.filter((m) => !isOptionalMetric(m) || has(m));
}

/**
 * The score columns of a leaderboard, in order: the standard metrics in board order (Mentions
 * only when the board ranks by it), the CoNLL F1, then the optional metrics that some row has or
 * that the board ranks by.
 *
 * @param ranked the board's ranking metric
 * @param has whether some row of the board has the metric
 */
export function boardColumns(ranked: LeaderboardMetric, has: (metric: LeaderboardMetric) => boolean): LeaderboardMetric[] {
  const standard = BOARD_ORDER.filter((m) => !isOptionalMetric(m) && (m !== "mentions" || m === ranked));
  return [...standard, "conll", ...OPTIONAL_METRIC_NAMES.filter((m) => m === ranked || has(m))];
}
