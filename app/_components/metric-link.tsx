/**
 * Links to the metric explanation pages (`/metrics/<id>`), for table headers and texts.
 * Server-safe and light: the addresses come from `lib/hrefs` ({@link metricHref}, re-exported
 * here for the components that import it from this file), not from lib/content/metrics-explained
 * (which pulls in the scorer), so client components may use it too.
 */
import Link from "./link";
import type { ReactNode } from "react";
import { metricHref } from "@/lib/hrefs";
import { isLeaderboardMetric, METRIC_LABELS } from "@/lib/validations/metrics";

export { metricHref };

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
