/**
 * The metric registry: the one list of every metric the scorer computes. Every other list of
 * metrics (in `evaluate`, the CLI, the score JSON, `lib/` labels and board order, the pages) is
 * derived from it, so a metric is added here once.
 *
 * Each entry says:
 * - `id`: the metric's name in options, reports, score JSON and stored scores;
 * - `label`: its short name for people, as the CLI's score table prints it (`cli/format.ts`);
 * - `kind`: `counts` (recall and precision as numerator/denominator pairs, summed over
 *   documents: see `metrics/counts.ts`) or `blanc` (two such pairs, coreference and
 *   non-coreference links, averaged: see `metrics/blanc.ts`);
 * - `conll`: whether its F1 is one of the three the CoNLL F1 averages (MUC, B³, CEAFe; Pradhan
 *   et al. 2012, "CoNLL-2012 Shared Task", Section 5);
 * - `optional`: computed only when asked for by name (`EvaluateOptions.metrics`, or for `mcf` its
 *   own option), never by default, so reports without them are unchanged;
 * - `corefud`: defined by the CorefUD scorer (ufal/corefud-scorer v1.2) rather than the CoNLL
 *   reference scorer.
 *
 * The CoNLL F1 (`conll`) is derived, not listed: the mean of the `conll: true` metrics' F1.
 */

/** How a metric's counts are kept. */
export type MetricKind = "counts" | "blanc";

/** One metric of the registry. */
export interface MetricSpec {
  readonly id: string;
  /** Short name for people, e.g. "B³" (a row of the CLI's score table). */
  readonly label: string;
  readonly kind: MetricKind;
  readonly conll: boolean;
  readonly optional: boolean;
  readonly corefud: boolean;
}

/**
 * Every metric, in report order. Sources:
 * - `mentions`: mention identification (aligned mentions / key or response mentions);
 * - `muc`: Vilain et al. 1995; `bcub`: Bagga & Baldwin 1998; `ceafm`, `ceafe`: Luo 2005;
 * - `lea`: Moosavi & Strube 2016; `blanc`: Recasens & Hovy 2011, Luo et al. 2014;
 * - `mcf`: mapped cluster F, Bagga & Baldwin's P95-1038 (`analysis/mapped-cluster-f.ts`);
 * - `mor`: mention overlap ratio, and `zero`: the anaphor-decomposable score of zeros, both from
 *   Žabokrtský et al. 2022, "Findings of the Shared Task on Multilingual Coreference Resolution"
 *   (CRAC 2022), as the CorefUD scorer computes them (`corefud/mor.ts`, `corefud/zero.ts`).
 */
export const METRIC_REGISTRY = [
  { id: "mentions", label: "Mentions", kind: "counts", conll: false, optional: false, corefud: false },
  { id: "muc", label: "MUC", kind: "counts", conll: true, optional: false, corefud: false },
  { id: "bcub", label: "B³", kind: "counts", conll: true, optional: false, corefud: false },
  { id: "ceafm", label: "CEAFm", kind: "counts", conll: false, optional: false, corefud: false },
  { id: "ceafe", label: "CEAFe", kind: "counts", conll: true, optional: false, corefud: false },
  { id: "lea", label: "LEA", kind: "counts", conll: false, optional: false, corefud: false },
  { id: "blanc", label: "BLANC", kind: "blanc", conll: false, optional: false, corefud: false },
  { id: "mcf", label: "Mapped F", kind: "counts", conll: false, optional: true, corefud: false },
  { id: "mor", label: "MOR", kind: "counts", conll: false, optional: true, corefud: true },
  { id: "zero", label: "Zeros", kind: "counts", conll: false, optional: true, corefud: true },
] as const satisfies readonly MetricSpec[];

/** Any metric id of the registry. */
export type MetricId = (typeof METRIC_REGISTRY)[number]["id"];

type Spec = (typeof METRIC_REGISTRY)[number];

/** Metrics computed by default (not optional), in report order. */
export const METRICS = METRIC_REGISTRY.filter((m) => !m.optional).map((m) => m.id) as Extract<
  Spec,
  { optional: false }
>["id"][];
/** One of `METRICS`. */
export type MetricName = (typeof METRICS)[number];

/** Default metrics with recall/precision counts (every default metric but BLANC). */
export const COUNT_METRICS = METRIC_REGISTRY.filter((m) => !m.optional && m.kind === "counts").map(
  (m) => m.id,
) as Extract<Spec, { optional: false; kind: "counts" }>["id"][];
/** One of `COUNT_METRICS`. */
export type CountMetric = (typeof COUNT_METRICS)[number];

/** Metrics computed only when asked for, in report order. */
export const OPTIONAL_METRICS = METRIC_REGISTRY.filter((m) => m.optional).map((m) => m.id) as Extract<
  Spec,
  { optional: true }
>["id"][];
/** One of `OPTIONAL_METRICS`. */
export type OptionalMetric = (typeof OPTIONAL_METRICS)[number];

/** Every metric with recall/precision counts, default or optional, in report order. */
export const ALL_COUNT_METRICS = METRIC_REGISTRY.filter((m) => m.kind === "counts").map((m) => m.id) as Extract<
  Spec,
  { kind: "counts" }
>["id"][];
/** One of `ALL_COUNT_METRICS`. */
export type AnyCountMetric = (typeof ALL_COUNT_METRICS)[number];

/** The metrics whose F1 the CoNLL F1 averages (MUC, B³, CEAFe). */
export const CONLL_METRICS = METRIC_REGISTRY.filter((m) => m.conll).map((m) => m.id) as Extract<
  Spec,
  { conll: true }
>["id"][];

/** Metrics that `EvaluateOptions.metrics` (and the CLI's `--metrics`) may name: every metric but
 * `mcf`, which has its own option because it takes a threshold. */
export const SELECTABLE_METRICS = METRIC_REGISTRY.filter((m) => m.id !== "mcf").map((m) => m.id) as Exclude<
  MetricId,
  "mcf"
>[];
/** One of `SELECTABLE_METRICS`. */
export type SelectableMetric = (typeof SELECTABLE_METRICS)[number];

/** Every id plus the derived `conll`: the names a score report can hold, in report order. */
export const REPORTED_METRICS = [...METRIC_REGISTRY.map((m) => m.id), "conll"] as (MetricId | "conll")[];
/** One of `REPORTED_METRICS`. */
export type ReportedMetric = MetricId | "conll";

/**
 * The registry entry of `id`.
 *
 * @throws RangeError when `id` is not a registered metric
 */
export function metricSpec(id: string): MetricSpec {
  const spec = METRIC_REGISTRY.find((m) => m.id === id);
  if (!spec) throw new RangeError(`unknown metric "${id}"; known: ${METRIC_REGISTRY.map((m) => m.id).join(", ")}`);
  return spec;
}

/** True when `id` is a registered metric. */
export function isMetricId(id: string): id is MetricId {
  return METRIC_REGISTRY.some((m) => m.id === id);
}
