"use client";

/**
 * Two charts for a leaderboard: F1 per metric as grouped bars (one bar per run), and
 * precision against recall of the primary metric (one point per run, named in the legend). Each chart
 * is a `<figure>` whose drawing is one `role="img"` box with a summary in `aria-label`,
 * followed by the same numbers in a collapsible table ("Data") for screen readers, keyboard
 * users and tests.
 *
 * Rendering is deterministic: the charts use recharts' `responsive` mode without a width, so
 * the server and the first client render draw only the empty box (fixed height); the SVG is
 * drawn once the browser has measured the box. Percentages are formatted like everywhere
 * else on the site (`formatPercent`, 2 decimals).
 */
import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Scatter, ScatterChart, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { formatPercent } from "../board-numbers";
import { Table } from "../ui";

/** Legend text style of both charts. */
const LEGEND_STYLE = { fontSize: 12 } as const;

/** One run as the leaderboard charts take it. */
export interface LeaderboardChartRun {
  /** the submission id (React key) */
  id: string;
  /** the run's name in the legend, labels and tables, e.g. "Team A · system-1" */
  label: string;
  /** F1 per metric, in display order; a fraction in [0, 1] */
  metrics: { metric: string; label: string; f1: number }[];
  /** recall and precision (fractions) of the primary metric; null when it has none (e.g. CoNLL F1) */
  primary: { recall: number; precision: number } | null;
}

/** Colours of the runs, in order (Okabe–Ito, safe for colour-blind readers); repeated beyond 8 runs. */
export const RUN_COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"] as const;

/** The colour of the i-th run. */
export function runColor(i: number): string {
  return RUN_COLORS[i % RUN_COLORS.length];
}

/** Height in pixels of each chart's drawing. */
const CHART_HEIGHT = 320;

/** Small axis and legend text. */
const TICK_STYLE = { fontSize: 12, fill: "#52525b" } as const;

/** Rounds away floating-point noise from tick arithmetic (0.1 + 0.2 → 0.3). */
function clean(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * A percentage axis zoomed to the values with "nice" ticks (steps of 0.5, 1, 2, 2.5, 5, 10,
 * 20 or 25 points, at most about 6 intervals), padded a little and kept inside 0–100.
 *
 * @param values percentages (0–100), at least one finite
 * @returns the axis domain and its ticks (0–100 by 20 when there are no values)
 */
export function percentAxis(values: readonly number[]): { domain: [number, number]; ticks: number[] } {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { domain: [0, 100], ticks: [0, 20, 40, 60, 80, 100] };
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  const pad = Math.max((hi - lo) * 0.1, 1);
  const from = Math.max(0, lo - pad);
  const to = Math.min(100, hi + pad);
  const step = [0.5, 1, 2, 2.5, 5, 10, 20, 25].find((s) => (to - from) / s <= 6) ?? 25;
  const min = Math.max(0, clean(Math.floor(from / step) * step));
  const max = Math.min(100, clean(Math.ceil(to / step) * step));
  const ticks: number[] = [];
  for (let t = min; t <= max + 1e-9; t = clean(t + step)) ticks.push(t);
  return { domain: [min, max], ticks };
}

/** A percentage axis tick: "62" or "62.5". */
function tickPercent(value: number): string {
  return String(clean(value));
}

/** A percentage (0–100) in a tooltip: 2 decimals, as `formatPercent` prints the fraction. */
function tooltipPercent(value: unknown): string {
  return typeof value === "number" ? formatPercent(value / 100) : String(value ?? "");
}

/**
 * A chart in a figure: caption on top, the drawing in a `role="img"` box named by `summary`,
 * then the numbers in a closed `<details>` table.
 */
export function ChartFigure({ testId, caption, summary, children, data }: { testId: string; caption: ReactNode; summary: string; children: ReactNode; data: ReactNode }) {
  return (
    <figure className="min-w-0 space-y-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <figcaption className="text-sm font-medium text-zinc-900">{caption}</figcaption>
      <div role="img" aria-label={summary} className="w-full" style={{ height: CHART_HEIGHT }} data-testid={`${testId}-drawing`}>
        {children}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-zinc-700 hover:underline">Data</summary>
        <div className="mt-2">{data}</div>
      </details>
    </figure>
  );
}

/** The metrics of all runs, in the order they first appear. */
function metricsOf(runs: readonly LeaderboardChartRun[]): { metric: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const run of runs) for (const m of run.metrics) if (!seen.has(m.metric)) seen.set(m.metric, m.label);
  return [...seen].map(([metric, label]) => ({ metric, label }));
}

/**
 * The leaderboard's charts, side by side on wide screens. Renders nothing without runs.
 *
 * @param runs the runs to draw, in board order (pass a handful, e.g. the top 8: one bar and
 *   one colour each)
 * @param primaryLabel the primary metric's name, e.g. "MUC" (the precision–recall chart's)
 *
 * The precision–recall chart is left out when no run has `primary` (CoNLL F1 has no recall
 * and precision); runs without it are listed in its table with dashes.
 */
export function LeaderboardCharts({ runs, primaryLabel }: { runs: LeaderboardChartRun[]; primaryLabel: string }) {
  if (runs.length === 0) return null;
  const hasPr = runs.some((run) => run.primary !== null);
  return (
    <div className={`grid grid-cols-1 gap-6 ${hasPr ? "xl:grid-cols-2" : ""}`} data-testid="leaderboard-charts">
      <F1Chart runs={runs} />
      {hasPr && <PrecisionRecallChart runs={runs} primaryLabel={primaryLabel} />}
    </div>
  );
}

/** Grouped bars: x = metric, one bar per run, y = F1 (%) on 0–100. */
function F1Chart({ runs }: { runs: LeaderboardChartRun[] }) {
  const metrics = metricsOf(runs);
  const f1 = runs.map((run) => new Map(run.metrics.map((m) => [m.metric, m.f1])));
  const data = metrics.map(({ metric, label }) => {
    const row: Record<string, string | number | undefined> = { metric, label };
    runs.forEach((_, i) => {
      const v = f1[i].get(metric);
      row[`r${i}`] = v === undefined ? undefined : v * 100;
    });
    return row;
  });
  const summary =
    `Bar chart of F1 in percent for ${metrics.length} metric${metrics.length === 1 ? "" : "s"} (${metrics.map((m) => m.label).join(", ")}), ` +
    `one bar per run for ${runs.length} run${runs.length === 1 ? "" : "s"}: ${runs.map((r) => r.label).join(", ")}. The numbers are in the Data table.`;
  return (
    <ChartFigure
      testId="leaderboard-f1-chart"
      caption="F1 per metric"
      summary={summary}
      data={
        <Table caption="F1 per metric and run, in percent" columns={["Run", ...metrics.map((m) => ({ label: `${m.label} F1`, right: true }))]}>
          {runs.map((run, i) => (
            <tr key={run.id}>
              <th scope="row" className="py-2 pr-4 text-left font-medium">
                {run.label}
              </th>
              {metrics.map(({ metric }, j) => {
                const v = f1[i].get(metric);
                return (
                  <td key={metric} className={`py-2 text-right tabular-nums ${j < metrics.length - 1 ? "pr-4" : ""}`}>
                    {v === undefined ? "—" : formatPercent(v)}
                  </td>
                );
              })}
            </tr>
          ))}
        </Table>
      }
    >
      <BarChart responsive height={CHART_HEIGHT} data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 4, left: 0 }} barGap={2} maxBarSize={28}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e4e4e7" />
        <XAxis dataKey="label" tick={TICK_STYLE} tickLine={false} />
        <YAxis domain={[0, 100]} ticks={[0, 20, 40, 60, 80, 100]} tick={TICK_STYLE} width={44} unit="%" allowDataOverflow />
        <Tooltip formatter={(value) => tooltipPercent(value)} cursor={{ fill: "#f4f4f5" }} />
        <Legend wrapperStyle={LEGEND_STYLE} />
        {runs.map((run, i) => (
          <Bar key={run.id} dataKey={`r${i}`} name={run.label} fill={runColor(i)} isAnimationActive={false} />
        ))}
      </BarChart>
    </ChartFigure>
  );
}

/** A point of the precision–recall chart (percentages). */
interface PrPoint {
  label: string;
  recall: number;
  precision: number;
}

/** The scatter chart's tooltip: the run, then its recall and precision. */
function PrTooltip({ active, payload }: TooltipContentProps) {
  const point = active ? (payload?.[0]?.payload as PrPoint | undefined) : undefined;
  if (!point) return null;
  return (
    <div className="rounded border border-zinc-200 bg-white px-3 py-2 text-xs shadow-sm">
      <p className="font-medium text-zinc-900">{point.label}</p>
      <p>Recall: {tooltipPercent(point.recall)}</p>
      <p>Precision: {tooltipPercent(point.precision)}</p>
    </div>
  );
}

/** Precision (y) against recall (x) of the primary metric, one labelled point per run. */
function PrecisionRecallChart({ runs, primaryLabel }: { runs: LeaderboardChartRun[]; primaryLabel: string }) {
  const points = runs.map((run, i) => ({ run, i, point: run.primary && { label: run.label, recall: run.primary.recall * 100, precision: run.primary.precision * 100 } }));
  const drawn = points.filter((p): p is { run: LeaderboardChartRun; i: number; point: PrPoint } => p.point !== null);
  const x = percentAxis(drawn.map((p) => p.point.recall));
  const y = percentAxis(drawn.map((p) => p.point.precision));
  const caption = `${primaryLabel}: precision against recall`;
  const summary =
    `Scatter chart of ${primaryLabel} precision (vertical, percent) against recall (horizontal, percent), one point per run for ${drawn.length} run${drawn.length === 1 ? "" : "s"}: ` +
    `${drawn.map((p) => `${p.run.label} (recall ${formatPercent(p.run.primary!.recall)}, precision ${formatPercent(p.run.primary!.precision)})`).join("; ")}.`;
  return (
    <ChartFigure
      testId="leaderboard-pr-chart"
      caption={caption}
      summary={summary}
      data={
        <Table caption={`${primaryLabel} recall and precision per run, in percent`} columns={["Run", { label: "Recall", right: true }, { label: "Precision", right: true }]}>
          {points.map(({ run }) => (
            <tr key={run.id}>
              <th scope="row" className="py-2 pr-4 text-left font-medium">
                {run.label}
              </th>
              <td className="py-2 pr-4 text-right tabular-nums">{run.primary ? formatPercent(run.primary.recall) : "—"}</td>
              <td className="py-2 text-right tabular-nums">{run.primary ? formatPercent(run.primary.precision) : "—"}</td>
            </tr>
          ))}
        </Table>
      }
    >
      <ScatterChart responsive height={CHART_HEIGHT} accessibilityLayer={false} margin={{ top: 20, right: 24, bottom: 20, left: 4 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" />
        <XAxis
          type="number"
          dataKey="recall"
          name="Recall"
          domain={x.domain}
          ticks={x.ticks}
          tickFormatter={tickPercent}
          tick={TICK_STYLE}
          allowDataOverflow
          label={{ value: "Recall (%)", position: "insideBottom", offset: -12, fontSize: 12, fill: "#3f3f46" }}
        />
        <YAxis
          type="number"
          dataKey="precision"
          name="Precision"
          domain={y.domain}
          ticks={y.ticks}
          tickFormatter={tickPercent}
          tick={TICK_STYLE}
          width={56}
          allowDataOverflow
          label={{ value: "Precision (%)", angle: -90, position: "insideLeft", offset: 8, fontSize: 12, fill: "#3f3f46", style: { textAnchor: "middle" } }}
        />
        <Tooltip content={PrTooltip} cursor={{ strokeDasharray: "3 3" }} />
        {drawn.map(({ run, i, point }) => (
          <Scatter key={run.id} name={run.label} data={[point]} fill={runColor(i)} isAnimationActive={false} />
        ))}
        <Legend wrapperStyle={LEGEND_STYLE} />
      </ScatterChart>
    </ChartFigure>
  );
}
