/** Names of ranking metrics for people. Server-safe. */
import { isLeaderboardMetric, METRIC_LABELS } from "@/lib/validations/metrics";

/**
 * A metric's F1 as a task describes its primary metric: "CoNLL F1 (mean of MUC, B³ and
 * CEAFe F1)", "MUC F1", …; an unknown name is returned as is.
 */
export function metricF1Name(metric: string): string {
  if (metric === "conll") return "CoNLL F1 (mean of MUC, B³ and CEAFe F1)";
  return isLeaderboardMetric(metric) ? `${METRIC_LABELS[metric]} F1` : metric;
}
