/**
 * Links to the metric explanation pages (`/metrics/<id>`), for table headers and texts.
 * Server-safe and light: it imports only the metric ids' type from lib/metrics-explained
 * (not the explanations, which pull in the scorer), so client components may use it too.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import type { MetricId } from "../../lib/metrics-explained";
import { isLeaderboardMetric, METRIC_LABELS } from "../../lib/validations/metrics";

/** Every page id; `Record` makes the compiler check that this list matches `METRIC_IDS`. */
const PAGE_IDS: Record<MetricId, true> = {
  mentions: true,
  muc: true,
  bcub: true,
  ceafm: true,
  ceafe: true,
  lea: true,
  blanc: true,
  conll: true,
  mcf: true,
};

/**
 * Other names of the metrics, as they occur in stored scores, the CLI and other scorers
 * (lower case, without spaces, dashes or underscores), mapped to page ids. Leaderboard
 * metric ids (lib/validations/metrics) are page ids already.
 */
const ALIASES: Record<string, MetricId> = {
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
};

/** The page id for a metric name, or null when there is no page for it. */
function pageId(metric: string): MetricId | null {
  if (Object.hasOwn(PAGE_IDS, metric)) return metric as MetricId;
  const folded = metric.toLowerCase().replace(/[\s_-]/g, "");
  if (Object.hasOwn(PAGE_IDS, folded)) return folded as MetricId;
  return Object.hasOwn(ALIASES, folded) ? ALIASES[folded] : null;
}

/**
 * The explanation page of a metric.
 *
 * @param metric a leaderboard metric id (`mentions`, `muc`, `bcub`, `ceafm`, `ceafe`, `lea`,
 *   `blanc`, `conll`, `mcf`) or another common name of one (`b3`, `blanc_coref`, …)
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
