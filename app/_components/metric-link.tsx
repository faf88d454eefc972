/**
 * Links to the metric explanation pages (`/metrics/<id>`), for table headers and texts.
 * Server-safe and light: the page ids come from lib/validations/metrics (every leaderboard
 * metric has a page), not from lib/metrics-explained (which pulls in the scorer), so client
 * components may use it too.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { isLeaderboardMetric, METRIC_LABELS, type LeaderboardMetric } from "../../lib/validations/metrics";

/**
 * Other names of the metrics, as they occur in stored scores, the CLI and other scorers
 * (lower case, without spaces, dashes or underscores), mapped to page ids. Leaderboard
 * metric ids (lib/validations/metrics) are page ids already.
 */
const ALIASES: Record<string, LeaderboardMetric> = {
  mention: "mentions",
  mentionidentification: "mentions",
  b3: "bcub",
  "b³": "bcub",
  bcubed: "bcub",
  bcube: "bcub",
  ceafphi3: "ceafm",
  ceafphi4: "ceafe",
  blanccoref: "blanc",
  blancnoncoref: "blanc",
  conllf1: "conll",
  avg: "conll",
  mappedclusterf: "mcf",
  mappedf: "mcf",
  mentionoverlap: "mor",
  mentionoverlapratio: "mor",
  zeros: "zero",
  alszeros: "zero",
  zeroanaphora: "zero",
};

/** The page id for a metric name, or null when there is no page for it. */
function pageId(metric: string): LeaderboardMetric | null {
  if (isLeaderboardMetric(metric)) return metric;
  const folded = metric.toLowerCase().replace(/[\s_-]/g, "");
  if (isLeaderboardMetric(folded)) return folded;
  return Object.hasOwn(ALIASES, folded) ? ALIASES[folded] : null;
}

/**
 * The explanation page of a metric.
 *
 * @param metric a leaderboard metric id (`LEADERBOARD_METRICS`: `muc`, `bcub`, …, `conll`) or
 *   another common name of one (`b3`, `blanc_coref`, `als_zeros`, …)
 * @returns `/metrics/<id>`, or `/metrics` (the list of all metrics) for an unknown name
 */
export function metricHref(metric: string): string {
  const id = pageId(metric);
  return id ? `/metrics/${id}` : "/metrics";
}

/**
 * A link to a metric's explanation page, titled "What is <metric>?", for table headers.
 *
 * @param metric the metric id (see {@link metricHref})
 * @param children the link text (default: the metric's label, e.g. "B³")
 * @param className replaces the default dotted-underline style
 */
export function MetricLink({ metric, children, className }: { metric: string; children?: ReactNode; className?: string }) {
  const label = isLeaderboardMetric(metric) ? METRIC_LABELS[metric] : metric;
  return (
    <Link
      href={metricHref(metric)}
      title={`What is ${label}?`}
      className={className ?? "underline decoration-zinc-300 decoration-dotted underline-offset-2 hover:decoration-zinc-700"}
      data-testid={`metric-link-${metric}`}
    >
      {children ?? label}
    </Link>
  );
}
