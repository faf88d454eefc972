/**
 * The compare page's data, shaped for display: the verdict on each metric ("Run A (sys-1) is
 * better (p = 0.003)" or "No significant difference (p = 0.412)"), differences in percentage
 * points, p-values, the headline on the primary metric, the per-document rows, the pickers'
 * options, the page title and the page's links. Pure functions of the services' results
 * (`compareRuns`, `listComparePhases`, `listPhaseRunsToCompare`, `listComparableRuns`), so
 * the page only lays them out.
 *
 * Numbers follow the site's rule: scores as percentages with 2 decimals, written `78.12`
 * under a "(%)" heading and `78.12 %` in prose; differences in points with a sign (`+1.23`).
 */
import type { ComparePage, ComparePhaseChoice, ComparePhaseRuns, CompareRunChoice, ComparableRun, ComparedRun, RunComparison } from "../boards";
import { isLeaderboardMetric, METRIC_LABELS } from "../validations/metrics";

/** A run's letter in a comparison. */
export type RunLetter = "A" | "B";

/** The compare page's address: the comparison of `a` with `b`, or the pickers (of a phase). */
export function compareHref(query: { a?: string; b?: string; phase?: string } = {}): string {
  const params = new URLSearchParams();
  if (query.phase) params.set("phase", query.phase);
  if (query.a) params.set("a", query.a);
  if (query.b) params.set("b", query.b);
  const s = params.toString();
  return s ? `/compare?${s}` : "/compare";
}

/** A run's page address. */
function runHref(id: string): string {
  return `/submissions/${encodeURIComponent(id)}`;
}

/**
 * A difference of fractions in percentage points with 2 decimals and a sign: `+1.23`,
 * `-0.40`, and `0.00` for anything that rounds to zero.
 */
export function formatPoints(delta: number): string {
  const text = (Math.abs(delta) * 100).toFixed(2);
  if (Number(text) === 0) return "0.00";
  return `${delta > 0 ? "+" : "-"}${text}`;
}

/** A p-value with 3 decimals, or "< 0.001". */
export function formatPValue(p: number): string {
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** A p-value in prose: "p = 0.003", "p < 0.001". */
export function pValueProse(p: number): string {
  return p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;
}

/** A fraction as a percentage number for a "(%)" column: `0.78123` → `"78.12"`. */
export function percentNumber(fraction: number): string {
  return (fraction * 100).toFixed(2);
}

/** A metric's short name ("CoNLL", "MUC", …; an unknown name as it is). */
export function metricLabel(metric: string): string {
  return isLeaderboardMetric(metric) ? METRIC_LABELS[metric] : metric;
}

/** Which run is better on a metric, if either is significantly. */
export interface Verdict {
  /** p < level and the runs differ */
  significant: boolean;
  /** the better run's letter; null when not significant */
  better: RunLetter | null;
  /** the badge: "Run A (sys-1) is better (p = 0.003)" or "No significant difference (p = 0.412)" */
  text: string;
}

/**
 * The verdict of one metric's paired bootstrap.
 *
 * @param delta A − B (fractions)
 * @param pValue two-sided p-value of the difference
 * @param level significance level, e.g. 0.05 (significant when p < level)
 * @param names the runs' system names, by letter
 */
export function verdict(delta: number, pValue: number, level: number, names: Record<RunLetter, string>): Verdict {
  if (!(pValue < level) || delta === 0) return { significant: false, better: null, text: `No significant difference (${pValueProse(pValue)})` };
  const better: RunLetter = delta > 0 ? "A" : "B";
  return { significant: true, better, text: `Run ${better} (${names[better]}) is better (${pValueProse(pValue)})` };
}

/** One row of the metrics table. */
export interface CompareMetricRow {
  metric: string;
  label: string;
  primary: boolean;
  /** F1 of A and B (fractions) */
  a: number;
  b: number;
  /** A − B in points, signed ("+1.23"), and its full value for the hover text */
  delta: string;
  deltaExact: number;
  /** "[-0.40, +2.10]" */
  interval: string;
  intervalExact: [number, number];
  /** "0.003" or "< 0.001" */
  p: string;
  pExact: number;
  verdict: Verdict;
}

/** One row of the per-document table. */
export interface CompareDocumentRow {
  key: string;
  document: string;
  dataset: string | null;
  a: number;
  b: number;
  delta: string;
  deltaExact: number;
  /** which run did better on the document (null: the same to 2 decimals) */
  better: RunLetter | null;
}

/** One run of the comparison, as the page lists it. */
export interface CompareRunView {
  letter: RunLetter;
  id: string;
  href: string;
  systemName: string;
  team: string;
  submittedAt: Date;
  /** how it was scored: "gold version 2", or the datasets of a macro-average */
  scoredWith: string;
}

/** The whole comparison as the page shows it. */
export interface CompareView {
  task: { title: string; href: string };
  board: { label: string; href: string };
  runs: [CompareRunView, CompareRunView];
  swapHref: string;
  /** the pickers of the runs' phase */
  pickHref: string;
  /** the sentence on the task's primary metric, e.g. "On CoNLL F1, run A (sys-1) is better by 3.20 points (p = 0.003)." */
  headline: string;
  metrics: CompareMetricRow[];
  level: number;
  bootstrap: { documents: number; samples: number; seed: number; smallestP: string };
  documentMetric: string;
  /** null when hidden from the viewer */
  documents: CompareDocumentRow[] | null;
}

/** How a compared run was scored. */
function scoredWith(run: ComparedRun): string {
  if (!run.datasets) return `gold version ${run.goldVersion}`;
  const parts = run.datasets.map((d) => (d.missing ? `${d.name}: missing, counts 0` : `${d.name}: gold version ${d.goldVersion ?? "none"}`));
  return `macro-average over ${run.datasets.length} datasets (${parts.join("; ")})`;
}

/**
 * Shapes a comparison for the page.
 *
 * @param c the result of `compareRuns`
 * @param level the significance level (`SIGNIFICANCE_LEVEL`)
 */
export function compareView(c: RunComparison, level: number): CompareView {
  const names: Record<RunLetter, string> = { A: c.a.systemName, B: c.b.systemName };
  const taskHref = `/tasks/${encodeURIComponent(c.task.slug)}`;
  const metrics: CompareMetricRow[] = c.bootstrap.metrics.map((m) => ({
    metric: m.metric,
    label: metricLabel(m.metric),
    primary: m.metric === c.task.primaryMetric,
    a: m.a,
    b: m.b,
    delta: formatPoints(m.delta),
    deltaExact: m.delta,
    interval: `[${formatPoints(m.ci95[0])}, ${formatPoints(m.ci95[1])}]`,
    intervalExact: m.ci95,
    p: formatPValue(m.pValue),
    pExact: m.pValue,
    verdict: verdict(m.delta, m.pValue, level, names),
  }));
  const primary = metrics.find((m) => m.primary);
  const headline = primary ? headlineOf(primary, names) : "";
  const run = (letter: RunLetter, r: ComparedRun): CompareRunView => ({
    letter,
    id: r.id,
    href: runHref(r.id),
    systemName: r.systemName,
    team: r.team.name,
    submittedAt: r.submittedAt,
    scoredWith: scoredWith(r),
  });
  return {
    task: { title: c.task.title, href: taskHref },
    board: { label: `${c.phase.name} leaderboard`, href: `${taskHref}/phases/${encodeURIComponent(c.phase.id)}/leaderboard` },
    runs: [run("A", c.a), run("B", c.b)],
    swapHref: compareHref({ a: c.b.id, b: c.a.id }),
    pickHref: compareHref({ phase: c.phase.id }),
    headline,
    metrics,
    level,
    bootstrap: {
      documents: c.bootstrap.documents,
      samples: c.bootstrap.samples,
      seed: c.bootstrap.seed,
      smallestP: `1/${(c.bootstrap.samples + 1).toLocaleString("en")}`,
    },
    documentMetric: c.documentMetric,
    documents:
      c.documents?.map((d) => {
        const delta = formatPoints(d.delta);
        return {
          key: `${d.dataset ?? ""}/${d.document}`,
          document: d.document,
          dataset: d.dataset ?? null,
          a: d.a,
          b: d.b,
          delta,
          deltaExact: d.delta,
          better: delta === "0.00" ? null : d.delta > 0 ? "A" : "B",
        };
      }) ?? null,
  };
}

/** The sentence on the primary metric. */
function headlineOf(m: CompareMetricRow, names: Record<RunLetter, string>): string {
  const name = m.metric === "conll" ? "CoNLL F1" : `${m.label} F1`;
  if (m.verdict.better) {
    return `On ${name}, run ${m.verdict.better} (${names[m.verdict.better]}) is better by ${formatPoints(Math.abs(m.deltaExact)).replace(/^\+/, "")} points (${pValueProse(m.pExact)}).`;
  }
  return `On ${name}, the difference between the runs is not significant (Δ = ${m.delta} points, ${pValueProse(m.pExact)}).`;
}

/** An option of a picker. */
export interface PickerOption {
  value: string;
  label: string;
}

/** A group of options (one task's phases). */
export interface PickerGroup {
  label: string;
  options: PickerOption[];
}

/**
 * The phase picker's options, grouped by task: "test (12 runs)".
 *
 * @param phases from `listComparePhases`, in its order
 */
export function phaseOptions(phases: readonly ComparePhaseChoice[]): PickerGroup[] {
  const groups: PickerGroup[] = [];
  for (const p of phases) {
    let group = groups.find((g) => g.label === p.task.title);
    if (!group) groups.push((group = { label: p.task.title, options: [] }));
    group.options.push({ value: p.id, label: `${p.name} (${p.runs.toLocaleString("en")} runs)` });
  }
  return groups;
}

/** `YYYY-MM-DD HH:MM UTC`. */
function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * A run picker's options: "Team A · sys-1 · 78.12 % CoNLL F1", with "(baseline)" and the track
 * where they apply, best first as listed.
 *
 * @param phase from `listPhaseRunsToCompare`
 */
export function phaseRunOptions(phase: ComparePhaseRuns): PickerOption[] {
  const metric = phase.task.primaryMetric === "conll" ? "CoNLL F1" : `${metricLabel(phase.task.primaryMetric)} F1`;
  return phase.runs.map((r: CompareRunChoice) => ({
    value: r.id,
    label: `${r.team} · ${r.systemName}${r.isBaseline ? " (baseline)" : ""}${r.track ? ` · track ${r.track}` : ""} · ${percentNumber(r.primary)} % ${metric}`,
  }));
}

/**
 * The options of the second run's picker when the first is given: "Team B · sys-2 · 2026-01-01 12:00 UTC".
 *
 * @param runs from `listComparableRuns`, newest first
 */
export function comparableRunOptions(runs: readonly ComparableRun[]): PickerOption[] {
  return runs.map((r) => ({ value: r.id, label: `${r.team} · ${r.systemName}${r.isBaseline ? " (baseline)" : ""} · ${utcMinute(r.submittedAt)}` }));
}

/**
 * The page title (without the site name): "Compare sys-1 and sys-2", "Compare sys-1 with
 * another run", "Compare runs of <task>: <phase>", or "Compare runs".
 *
 * @param page what the page shows (`loadComparePage`)
 */
export function comparePageTitle(page: ComparePage): string {
  switch (page.kind) {
    case "comparison":
      return `Compare ${page.comparison.a.systemName} and ${page.comparison.b.systemName}`;
    case "second":
      return `Compare ${page.first.systemName} with another run`;
    case "runs":
      return `Compare runs of ${page.phase.task.title}: ${page.phase.phase.name}`;
    case "phases":
      return "Compare runs";
  }
}
