"use client";

/**
 * Two charts for a leaderboard: F1 of one metric per run as horizontal bars (run names on
 * the vertical axis, a metric picker above), and precision against recall of the primary
 * metric (one marker per run, named in a legend under the drawing). Each chart is a
 * `<figure>` whose drawing is one `role="img"` box with a summary in `aria-label`, followed
 * by the same numbers in a collapsible table ("Data") for screen readers, keyboard users and
 * tests, rendered when it is opened.
 *
 * - **One look per run.** Both charts take each run's colour (and the scatter its marker
 *   shape) from `runStyles` (./run-colours.ts) by run id, in board order: a run looks the
 *   same in both, and the colours have at least 3:1 contrast on white.
 * - **Any number of runs.** The bar chart grows by one row per run, so its labels never
 *   overlap; each bar is labelled by its system, with the team on a lighter second line (long
 *   names are cut with "…" to the label column, whole in the tooltip and the table).
 * - **Coinciding runs.** Runs at the same recall and precision are drawn side by side around
 *   their point (`spreadCoincident`, ./coincident.ts), and the tooltip lists them all.
 * - **No overlap of the legend and the axis label.** The scatter's legend is an HTML list
 *   under the drawing, not inside the SVG.
 *
 * Rendering is deterministic: the server and the render that hydrates give the figure with an
 * empty drawing box of fixed height (recharts is not rendered on the server: `ChartFigure`); the
 * charts, in recharts' `responsive` mode without a width, draw the SVG once the browser has
 * measured the box. Percentages have 2 decimals: `78.12` under a
 * "(%)" heading, `78.12 %` in prose.
 */
import { useId, useState, type ReactNode, type Ref } from "react";
import { Bar, BarChart, CartesianGrid, LabelList, Rectangle, Scatter, ScatterChart, Symbols, Tooltip, XAxis, YAxis, type BarShapeProps, type TooltipContentProps } from "recharts";
import { BAR_CHART_CHROME, labelColumn, percentAxis, percentNumber, percentProse, tickPercent, truncateLabel } from "./chart-layout";
import { spreadCoincident } from "./coincident";
import { RUN_PALETTE, runStyles, SWATCH_PATHS, type RunShape, type RunStyle } from "./run-colours";
import { ScrollTable } from "./scroll-table";
import { useBoxWidth } from "./use-box-width";
import { useHydrated } from "../use-hydrated";

export { percentAxis } from "./chart-layout";

/** One run as the leaderboard charts take it. */
export interface LeaderboardChartRun {
  /** the submission id (React key, and the key of its colour) */
  id: string;
  /** the run's name in the legend, tables and summaries, e.g. "Team A · system-1" */
  label: string;
  /** the system's name: the first line of its bar's label, e.g. "system-1 (baseline)" */
  system: string;
  /** the team's name: the bar label's lighter second line */
  team: string;
  /** F1 per metric, in display order; a fraction in [0, 1] */
  metrics: { metric: string; label: string; f1: number }[];
  /** recall and precision (fractions) of the primary metric; null when it has none */
  primary: { recall: number; precision: number } | null;
}

/** Height in pixels of the scatter chart's drawing. */
const SCATTER_HEIGHT = 320;

/**
 * Small axis text (Tailwind zinc-600: 7.7:1 on white). Palette variables, not hex, so that
 * dark mode (app/globals.css inverts the scales) keeps the contrast.
 */
const TICK_STYLE = { fontSize: 12, fill: "var(--color-zinc-600)" } as const;

/** Axis titles and value labels (Tailwind zinc-700). */
const LABEL_FILL = "var(--color-zinc-700)";

/** Grid lines (decorative). */
const GRID_STROKE = "var(--color-zinc-200)";

/** Marker area of the scatter's symbols (recharts' `size`, in square pixels). */
const MARKER_SIZE = 90;

/** Pixels per run of the bar chart: a two-line label (system, then team) and its bar. */
const BAR_ROW = 36;

/**
 * Advance of one character of the bar labels, in pixels, for cutting them: wider than
 * `labelColumn`'s estimate, as the wide fonts of some systems (DejaVu Sans, Debian's default)
 * otherwise pushed a long system name past the drawing's left edge.
 */
const LABEL_CHAR = 7.4;

/**
 * A chart in a figure: caption (and optional controls) on top, the drawing in a `role="img"`
 * box named by `summary`, an optional legend, then the numbers in a closed `<details>` table
 * (rendered once opened: `ChartData`). The drawing (`children`) is rendered in the browser only,
 * once hydrated: it is drawn to the box's measured width, so the server's render of it was an
 * empty box anyway (the box keeps its height), at the cost of a recharts render on every view.
 *
 * @param height the drawing's height in pixels
 * @param drawingRef a ref to the drawing's box (to measure its width)
 */
export function ChartFigure({
  testId,
  caption,
  controls,
  summary,
  height,
  drawingRef,
  legend,
  children,
  data,
}: {
  testId: string;
  caption: ReactNode;
  controls?: ReactNode;
  summary: string;
  height: number;
  drawingRef?: Ref<HTMLDivElement>;
  legend?: ReactNode;
  children: ReactNode;
  data: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <figure className="min-w-0 space-y-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <figcaption className="text-sm font-medium text-zinc-900">{caption}</figcaption>
      {controls}
      <div ref={drawingRef} role="img" aria-label={summary} className="w-full" style={{ height }} data-testid={`${testId}-drawing`}>
        {hydrated ? children : null}
      </div>
      {legend}
      <ChartData>{data}</ChartData>
    </figure>
  );
}

/**
 * The chart's numbers in a closed "Data" disclosure, rendered when it is opened: what a closed
 * `<details>` holds is neither shown nor read out, and a 50-run board's two tables would add
 * about 75 kB to every leaderboard page (issue 12 §1: its HTML under 200 kB).
 */
function ChartData({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="text-sm" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-zinc-700 hover:underline">Data</summary>
      {open && <div className="mt-2">{children}</div>}
    </details>
  );
}

/** The metrics of all runs, in the order they first appear. */
function metricsOf(runs: readonly LeaderboardChartRun[]): { metric: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const run of runs) for (const m of run.metrics) if (!seen.has(m.metric)) seen.set(m.metric, m.label);
  return [...seen].map(([metric, label]) => ({ metric, label }));
}

/** "1 run" or "3 runs". */
function runsText(n: number): string {
  return `${n} run${n === 1 ? "" : "s"}`;
}

/**
 * The leaderboard's charts, side by side on wide screens. Renders nothing without runs.
 *
 * @param runs the runs to draw, in board (rank) order: their position gives their colour, and
 *   the bars are drawn in this order, top to bottom. Any number: the bar chart grows with it.
 * @param primaryLabel the primary metric's name, e.g. "MUC" (the precision–recall chart's)
 * @param primaryMetric the metric the bar chart shows first (default: the runs' first metric)
 *
 * The precision–recall chart is left out when no run has `primary`; runs without it are
 * listed in its table with dashes.
 */
export function LeaderboardCharts({ runs, primaryLabel, primaryMetric }: { runs: LeaderboardChartRun[]; primaryLabel: string; primaryMetric?: string }) {
  if (runs.length === 0) return null;
  const styles = runStyles(runs.map((r) => r.id));
  const hasPr = runs.some((run) => run.primary !== null);
  return (
    <div className={`grid grid-cols-1 gap-6 ${hasPr ? "xl:grid-cols-2" : ""}`} data-testid="leaderboard-charts">
      <F1Chart runs={runs} styles={styles} initialMetric={primaryMetric} />
      {hasPr && <PrecisionRecallChart runs={runs} styles={styles} primaryLabel={primaryLabel} />}
    </div>
  );
}

/** One bar: a run's F1 on the chosen metric. */
interface BarDatum {
  id: string;
  label: string;
  system: string;
  team: string;
  /** F1 in percent */
  value: number;
  colour: string;
}

/**
 * A run's label on the bar chart's vertical axis: its system, and its team on a lighter second
 * line, each cut to the label column (the whole label in a `<title>`).
 */
function RunTick({
  x,
  y,
  payload,
  runs,
  maxChars,
}: {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
  runs: Map<string, { label: string; system: string; team: string }>;
  maxChars: number;
}) {
  const id = String(payload?.value ?? "");
  const run = runs.get(id) ?? { label: id, system: id, team: "" };
  const system = truncateLabel(run.system, maxChars);
  const team = truncateLabel(run.team, maxChars);
  return (
    <text x={Number(x)} y={Number(y)} dx={-6} textAnchor="end" fontSize={12} fill={LABEL_FILL} data-run={id}>
      <title>{run.label}</title>
      <tspan x={Number(x)} dx={-6} dy={run.team ? -2 : 4}>
        {system}
      </tspan>
      {run.team && (
        <tspan x={Number(x)} dx={-6} dy={13} fontSize={11} fill={TICK_STYLE.fill}>
          {team}
        </tspan>
      )}
    </text>
  );
}

/** The bar chart's tooltip: the run and its F1. */
function BarTooltip({ active, payload, metricLabel }: TooltipContentProps & { metricLabel: string }) {
  const d = active ? (payload?.[0]?.payload as BarDatum | undefined) : undefined;
  if (!d) return null;
  return (
    <div className="max-w-xs rounded border border-zinc-200 bg-white px-3 py-2 text-xs shadow-sm">
      <p className="font-medium text-zinc-900">{d.label}</p>
      <p className="text-zinc-800">
        {metricLabel} F1: {percentProse(d.value / 100)}
      </p>
    </div>
  );
}

/**
 * Horizontal bars: one row per run (its name on the vertical axis), x = F1 (%) of the chosen
 * metric on 0–100, each bar in its run's colour with its value at its end.
 */
function F1Chart({ runs, styles, initialMetric }: { runs: LeaderboardChartRun[]; styles: Map<string, RunStyle>; initialMetric?: string }) {
  const metrics = metricsOf(runs);
  const [chosen, setChosen] = useState(initialMetric && metrics.some((m) => m.metric === initialMetric) ? initialMetric : (metrics[0]?.metric ?? ""));
  const [boxRef, boxWidth] = useBoxWidth();
  const selectId = useId();
  const f1 = runs.map((run) => new Map(run.metrics.map((m) => [m.metric, m.f1])));
  const metric = metrics.find((m) => m.metric === chosen) ?? metrics[0];
  const metricLabel = metric?.label ?? "";
  const data: BarDatum[] = runs.flatMap((run, i) => {
    const v = metric ? f1[i].get(metric.metric) : undefined;
    return v === undefined ? [] : [{ id: run.id, label: run.label, system: run.system, team: run.team, value: v * 100, colour: styles.get(run.id)!.colour }];
  });
  const labels = new Map(runs.map((r) => [r.id, r]));
  const column = labelColumn(
    boxWidth,
    data.flatMap((d) => [d.system, d.team]),
  );
  const height = BAR_CHART_CHROME + Math.max(1, data.length) * BAR_ROW;
  const summary =
    `Horizontal bar chart of ${metricLabel} F1 in percent, one bar per run for ${runsText(data.length)}, in board order: ` +
    `${data.map((d) => `${d.label} ${percentProse(d.value / 100)}`).join("; ")}. The numbers of every metric are in the Data table.`;
  const controls =
    metrics.length > 1 ? (
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor={selectId} className="font-medium text-zinc-800">
          Metric
        </label>
        <select
          id={selectId}
          value={metric?.metric}
          onChange={(e) => setChosen(e.target.value)}
          className="rounded-md border border-zinc-400 bg-white px-2 py-1 text-sm text-zinc-900"
          data-testid="leaderboard-f1-chart-metric"
        >
          {metrics.map((m) => (
            <option key={m.metric} value={m.metric}>
              {m.label}
            </option>
          ))}
        </select>
      </div>
    ) : null;
  return (
    <ChartFigure
      testId="leaderboard-f1-chart"
      caption={`${metricLabel} F1 (%) per run`}
      controls={controls}
      summary={summary}
      height={height}
      drawingRef={boxRef}
      data={
        <ScrollTable label="F1 per metric and run, in percent" columns={["Run", ...metrics.map((m) => ({ label: `${m.label} F1 (%)`, right: true }))]}>
          {runs.map((run, i) => (
            <tr key={run.id}>
              <th scope="row" className="py-2 pr-4 text-left font-medium">
                <RunSwatch style={styles.get(run.id)!} />
                {run.label}
              </th>
              {metrics.map(({ metric: m }, j) => {
                const v = f1[i].get(m);
                return (
                  <td key={m} className={`py-2 text-right tabular-nums ${j < metrics.length - 1 ? "pr-4" : ""}`}>
                    {v === undefined ? "—" : percentNumber(v)}
                  </td>
                );
              })}
            </tr>
          ))}
        </ScrollTable>
      }
    >
      <BarChart
        layout="vertical"
        responsive
        height={height}
        data={data}
        accessibilityLayer={false}
        margin={{ top: 4, right: 52, bottom: 4, left: 4 }}
        barCategoryGap={6}
      >
        <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke={GRID_STROKE} />
        <XAxis type="number" domain={[0, 100]} ticks={[0, 20, 40, 60, 80, 100]} tickFormatter={tickPercent} tick={TICK_STYLE} allowDataOverflow />
        <YAxis
          type="category"
          dataKey="id"
          width={column.width}
          interval={0}
          tickLine={false}
          tick={(props: { x?: number | string; y?: number | string; payload?: { value?: unknown } }) => (
            <RunTick {...props} runs={labels} maxChars={Math.max(4, Math.floor((column.width - 12) / LABEL_CHAR))} />
          )}
        />
        <Tooltip content={(props) => <BarTooltip {...props} metricLabel={metricLabel} />} cursor={{ fill: "var(--color-zinc-100)" }} />
        <Bar dataKey="value" name={`${metricLabel} F1`} isAnimationActive={false} maxBarSize={22} shape={RunBar}>
          <LabelList dataKey="value" position="right" formatter={(v: unknown) => (typeof v === "number" ? v.toFixed(2) : "")} style={{ fontSize: 12, fill: LABEL_FILL }} />
        </Bar>
      </BarChart>
    </ChartFigure>
  );
}

/** A bar in its run's colour. */
function RunBar(props: BarShapeProps) {
  const d = props.payload as BarDatum | undefined;
  return <Rectangle x={props.x} y={props.y} width={props.width} height={props.height} fill={d?.colour ?? RUN_PALETTE[0]} data-run={d?.id} />;
}

/** A marker of a run's shape and colour, for legends and tables (decorative: the run's name is next to it), drawn from `SWATCH_PATHS`. */
function RunSwatch({ style }: { style: RunStyle }) {
  return (
    <svg width={14} height={14} viewBox="-7 -7 14 14" aria-hidden="true" className="mr-1.5 inline-block align-[-2px]">
      <path d={SWATCH_PATHS[style.shape]} fill={style.colour} />
    </svg>
  );
}

/** A point of the precision–recall chart (percentages), with how it is drawn. */
interface PrDatum {
  id: string;
  label: string;
  recall: number;
  precision: number;
  colour: string;
  shape: RunShape;
  /** pixel offset from its true position (runs at the same point side by side) */
  dx: number;
  dy: number;
  /** every run at this point (itself included), for the tooltip */
  group: { label: string; recall: number; precision: number }[];
}

/** A scatter marker: the run's symbol, moved by its offset. */
function PrMarker(props: { cx?: number; cy?: number; payload?: unknown }) {
  const d = props.payload as PrDatum | undefined;
  if (!d || props.cx === undefined || props.cy === undefined) return null;
  return <Symbols cx={props.cx + d.dx} cy={props.cy + d.dy} type={d.shape} size={MARKER_SIZE} fill={d.colour} stroke="var(--color-white)" strokeWidth={1} data-run={d.id} />;
}

/** The scatter chart's tooltip: every run at the point, with its recall and precision. */
function PrTooltip({ active, payload }: TooltipContentProps) {
  const d = active ? (payload?.[0]?.payload as PrDatum | undefined) : undefined;
  if (!d) return null;
  return (
    <div className="max-w-xs rounded border border-zinc-200 bg-white px-3 py-2 text-xs shadow-sm">
      {d.group.length > 1 && <p className="mb-1 text-zinc-800">{d.group.length} runs at this point:</p>}
      {d.group.map((g, i) => (
        <div key={i} className={i > 0 ? "mt-1" : undefined}>
          <p className="font-medium text-zinc-900">{g.label}</p>
          <p className="text-zinc-800">
            Recall {percentProse(g.recall / 100)}, precision {percentProse(g.precision / 100)}
          </p>
        </div>
      ))}
    </div>
  );
}

/** Precision (y) against recall (x) of the primary metric, one marker per run. */
function PrecisionRecallChart({ runs, styles, primaryLabel }: { runs: LeaderboardChartRun[]; styles: Map<string, RunStyle>; primaryLabel: string }) {
  const drawn = runs.flatMap((run) => (run.primary ? [{ run, x: run.primary.recall * 100, y: run.primary.precision * 100 }] : []));
  const x = percentAxis(drawn.map((p) => p.x));
  const y = percentAxis(drawn.map((p) => p.y));
  // Closer than 1.5 % of an axis' span (a few pixels) counts as the same point.
  const spread = spreadCoincident(drawn, { radius: 7, toleranceX: (x.domain[1] - x.domain[0]) * 0.015, toleranceY: (y.domain[1] - y.domain[0]) * 0.015 });
  const data: PrDatum[] = spread.map(({ point, dx, dy, group }) => {
    const style = styles.get(point.run.id)!;
    return {
      id: point.run.id,
      label: point.run.label,
      recall: point.x,
      precision: point.y,
      colour: style.colour,
      shape: style.shape,
      dx,
      dy,
      group: group.map((g) => ({ label: g.run.label, recall: g.x, precision: g.y })),
    };
  });
  const shared = spread.filter((s) => s.group.length > 1).length;
  const caption = `${primaryLabel}: precision against recall (%)`;
  const summary =
    `Scatter chart of ${primaryLabel} precision (vertical, percent) against recall (horizontal, percent), one marker per run for ${runsText(drawn.length)}: ` +
    `${drawn.map((p) => `${p.run.label} (recall ${percentProse(p.x / 100)}, precision ${percentProse(p.y / 100)})`).join("; ")}.` +
    (shared > 0 ? ` ${shared} runs share a point with another and are drawn side by side.` : "");
  return (
    <ChartFigure
      testId="leaderboard-pr-chart"
      caption={caption}
      summary={summary}
      height={SCATTER_HEIGHT}
      legend={
        <div className="space-y-1">
          {/* The items' classes are on the list (one per run otherwise: 3 kB on a 50-run page). */}
          <ul
            className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-800 *:flex *:min-w-0 *:items-center *:break-words [&>li>span]:min-w-0"
            aria-label="Legend"
            data-testid="leaderboard-pr-legend"
          >
            {drawn.map(({ run }) => (
              <li key={run.id} data-run={run.id}>
                <RunSwatch style={styles.get(run.id)!} />
                <span>{run.label}</span>
              </li>
            ))}
          </ul>
          {shared > 0 && <p className="text-xs text-zinc-700">Runs at the same point are drawn side by side around it; hover over one to list them all.</p>}
        </div>
      }
      data={
        <ScrollTable label={`${primaryLabel} recall and precision per run, in percent`} columns={["Run", { label: "Recall (%)", right: true }, { label: "Precision (%)", right: true }]}>
          {runs.map((run) => (
            <tr key={run.id}>
              <th scope="row" className="py-2 pr-4 text-left font-medium">
                {run.label}
              </th>
              <td className="py-2 pr-4 text-right tabular-nums">{run.primary ? percentNumber(run.primary.recall) : "—"}</td>
              <td className="py-2 text-right tabular-nums">{run.primary ? percentNumber(run.primary.precision) : "—"}</td>
            </tr>
          ))}
        </ScrollTable>
      }
    >
      <ScatterChart responsive height={SCATTER_HEIGHT} accessibilityLayer={false} margin={{ top: 12, right: 20, bottom: 24, left: 4 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={GRID_STROKE} />
        <XAxis
          type="number"
          dataKey="recall"
          name="Recall"
          domain={x.domain}
          ticks={x.ticks}
          tickFormatter={tickPercent}
          tick={TICK_STYLE}
          allowDataOverflow
          label={{ value: "Recall (%)", position: "insideBottom", offset: -16, fontSize: 12, fill: LABEL_FILL }}
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
          label={{ value: "Precision (%)", angle: -90, position: "insideLeft", offset: 8, fontSize: 12, fill: LABEL_FILL, style: { textAnchor: "middle" } }}
        />
        <Tooltip content={PrTooltip} cursor={{ strokeDasharray: "3 3" }} />
        <Scatter name={`${primaryLabel} precision and recall`} data={data} shape={PrMarker} isAnimationActive={false} />
      </ScatterChart>
    </ChartFigure>
  );
}
