/**
 * Metric names used by tasks (primary metric), leaderboards and stored Score rows.
 * They are the scorer's metric names (`scoring/` METRICS) plus the derived `conll`.
 */
import { z } from "zod";

/**
 * Metrics with recall/precision numerators and denominators, in display order. `mcf`
 * (mapped cluster F) is optional: only tasks that switch it on have it.
 */
export const COUNT_METRIC_NAMES = ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "mcf"] as const;

/** Metrics only some tasks compute (see `Task.mappedClusterF`); pages hide them when no run has them. */
export const OPTIONAL_METRIC_NAMES: readonly LeaderboardMetric[] = ["mcf"];

/** Every metric a leaderboard can rank by, in display order. */
export const LEADERBOARD_METRICS = [...COUNT_METRIC_NAMES, "blanc", "conll"] as const;

/** One of {@link COUNT_METRIC_NAMES}. */
export type CountMetricName = (typeof COUNT_METRIC_NAMES)[number];
/** One of {@link LEADERBOARD_METRICS}. */
export type LeaderboardMetric = (typeof LEADERBOARD_METRICS)[number];

/** Default primary metric of a task: the CoNLL F1 (mean of MUC, B³ and CEAFe F1). */
export const DEFAULT_PRIMARY_METRIC: LeaderboardMetric = "conll";

/** Person-readable names, e.g. for table headers. */
export const METRIC_LABELS: Record<LeaderboardMetric, string> = {
  mentions: "Mentions",
  muc: "MUC",
  bcub: "B³",
  ceafm: "CEAFm",
  ceafe: "CEAFe",
  lea: "LEA",
  blanc: "BLANC",
  conll: "CoNLL",
  mcf: "Mapped F",
};

/** A metric name from a form or query string. */
export const metricSchema = z.enum(LEADERBOARD_METRICS, {
  error: `must be one of ${LEADERBOARD_METRICS.join(", ")}`,
});

/** True when `name` is one of {@link LEADERBOARD_METRICS}. */
export function isLeaderboardMetric(name: string): name is LeaderboardMetric {
  return (LEADERBOARD_METRICS as readonly string[]).includes(name);
}
