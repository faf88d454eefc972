"use client";

/**
 * A team's progress in a phase: the primary metric's F1 (%) of each of its runs against the
 * submission time, as a line with dots, and a dashed "best so far" step line. Dots of runs
 * with an `href` open that page when clicked; the same links are in the data table below
 * the chart, which is how keyboard and screen-reader users reach them (the drawing itself is
 * one `role="img"` box, see `ChartFigure`).
 *
 * Times are shown in `timeZone` (default UTC), never in the browser's zone, so that the
 * server and the browser print the same text; the chart itself is drawn only once the
 * browser has measured its box (recharts' `responsive` mode), like the leaderboard charts.
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import Link from "../link";
import { useRouter } from "next/navigation";
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { zoneForDates } from "@/lib/validations/time";
import { percentAxis, percentNumber, percentProse } from "./chart-layout";
import { ChartFigure } from "./leaderboard-charts";
import { REFERENCE_COLOUR, SERIES_COLOUR } from "./run-colours";
import { ScrollTable } from "./scroll-table";

/** One run as the progress chart takes it. */
export interface ProgressChartPoint {
  /** the submission id (React key) */
  id: string;
  /** the run's name, e.g. its system name */
  label: string;
  /** submission time, ISO 8601 */
  at: string;
  /** the metric's F1, a fraction in [0, 1] */
  value: number;
  /** the run's page; the dot and the table row link to it when given */
  href?: string;
}

/** One point as the chart draws it. */
interface Datum {
  id: string;
  label: string;
  /** submission time in ms */
  t: number;
  /** F1 in percent */
  v: number;
  /** best F1 so far in percent */
  best: number;
  href?: string;
}

/** Height in pixels of the drawing. */
const CHART_HEIGHT = 320;

const MINUTE = 60_000;
const DAY_MIN = 1440;
/**
 * Tick steps: minutes (5 min … 12 h, on round wall-clock times), days (1, 2, 7, 14, on
 * midnights) and months (1, 2, 3, 6, 12, on the first of a month), each with its rough
 * length in minutes.
 */
const TIME_STEPS: readonly { unit: "minute" | "day" | "month"; n: number; approx: number }[] = [
  ...[5, 10, 15, 30, 60, 120, 180, 360, 720].map((n) => ({ unit: "minute" as const, n, approx: n })),
  ...[1, 2, 7, 14].map((n) => ({ unit: "day" as const, n, approx: n * DAY_MIN })),
  ...[1, 2, 3, 6, 12].map((n) => ({ unit: "month" as const, n, approx: n * 30 * DAY_MIN })),
];

/**
 * A time axis over the given instants: the domain (padded by 5% of the span, at least 15
 * minutes; half a day each side of a single instant) and round ticks in `zone` (at most
 * about 6 intervals).
 *
 * @param times instants in ms, at least one
 * @param zone "AoE" or an IANA zone name
 * @returns the domain, the ticks (ms), and whether tick labels need the time of day
 */
export function timeAxis(times: readonly number[], zone: string): { domain: [number, number]; ticks: number[]; withTime: boolean } {
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  const pad = hi === lo ? 720 * MINUTE : Math.max((hi - lo) * 0.05, 15 * MINUTE);
  const min = lo - pad;
  const max = hi + pad;
  const step = TIME_STEPS.find((s) => (max - min) / (s.approx * MINUTE) <= 6) ?? { unit: "month", n: Math.ceil((max - min) / (6 * 365 * DAY_MIN * MINUTE)) * 12 };
  const z = zoneForDates(zone);
  const d = new TZDate(min, z);
  // The i-th candidate tick: wall-clock times of the zone, from a round time at or before `min`.
  const nth = (i: number): number => {
    if (step.unit === "minute") {
      const start = Math.floor((d.getHours() * 60 + d.getMinutes()) / step.n) * step.n;
      return new TZDate(d.getFullYear(), d.getMonth(), d.getDate(), 0, start + i * step.n, 0, z).getTime();
    }
    if (step.unit === "day") return new TZDate(d.getFullYear(), d.getMonth(), d.getDate() + i * step.n, 0, 0, 0, z).getTime();
    const month = d.getFullYear() * 12 + Math.floor(d.getMonth() / step.n) * step.n + i * step.n;
    return new TZDate(Math.floor(month / 12), month % 12, 1, 0, 0, 0, z).getTime();
  };
  const ticks: number[] = [];
  for (let i = 0; ticks.length < 50; i++) {
    const t = nth(i);
    if (t > max) break;
    if (t >= min) ticks.push(t);
  }
  return { domain: [min, max], ticks, withTime: step.unit === "minute" };
}

/** An instant in the zone as "yyyy-MM-dd HH:mm" (date-fns pattern). */
function formatAt(ms: number, zone: string, pattern = "yyyy-MM-dd HH:mm"): string {
  return format(new TZDate(ms, zoneForDates(zone)), pattern);
}

/**
 * The chart, its caption and its data table (with links to the runs).
 *
 * @param points the team's runs (any order; drawn by time)
 * @param metricLabel the metric's name, e.g. "CoNLL F1"
 * @param timeZone the zone times are shown in: "AoE" or an IANA name (default "UTC")
 */
export function ProgressChart({ points, metricLabel, timeZone = "UTC" }: { points: ProgressChartPoint[]; metricLabel: string; timeZone?: string }) {
  const router = useRouter();
  const sorted = points
    .map((p, i) => ({ p, i, t: Date.parse(p.at) }))
    .sort((a, b) => a.t - b.t || a.i - b.i);
  let best = -Infinity;
  const data: Datum[] = sorted.map(({ p, t }) => {
    const v = p.value * 100;
    best = Math.max(best, v);
    return { id: p.id, label: p.label, t, v, best, href: p.href };
  });

  if (data.length === 0) {
    return (
      <figure className="rounded-lg border border-zinc-200 bg-white p-4 shadow-sm" data-testid="progress-chart">
        <figcaption className="text-sm font-medium text-zinc-900">{metricLabel} (%) over time</figcaption>
        <p className="mt-2 text-sm text-zinc-600">No scored runs yet.</p>
      </figure>
    );
  }

  const x = timeAxis(
    data.map((d) => d.t),
    timeZone,
  );
  const y = percentAxis(data.map((d) => d.v));
  const sameYear = new Set(x.ticks.map((t) => formatAt(t, timeZone, "yyyy"))).size <= 1;
  const tickPattern = x.withTime ? "MMM d HH:mm" : sameYear ? "MMM d" : "MMM d, yyyy";
  const first = data[0];
  const last = data[data.length - 1];
  const top = data.reduce((a, b) => (b.v > a.v ? b : a));
  const summary =
    `Line chart of ${metricLabel} in percent for ${data.length} run${data.length === 1 ? "" : "s"} over time (${timeZone}): ` +
    `first ${first.label} on ${formatAt(first.t, timeZone)} with ${percentProse(first.v / 100)}` +
    (data.length > 1 ? `, latest ${last.label} on ${formatAt(last.t, timeZone)} with ${percentProse(last.v / 100)}` : "") +
    `, best ${top.label} with ${percentProse(top.v / 100)}. The numbers are in the Data table.`;
  const open = (d: Datum | undefined) => {
    if (d?.href) router.push(d.href);
  };
  const color = SERIES_COLOUR;

  return (
    <ChartFigure
      testId="progress-chart"
      caption={`${metricLabel} (%) over time`}
      summary={summary}
      height={CHART_HEIGHT}
      data={
        <ScrollTable
          label={`${metricLabel} of each run, in percent, by submission time (${timeZone})`}
          columns={["Run", `Submitted (${timeZone})`, { label: `${metricLabel} (%)`, right: true }, { label: "Best so far (%)", right: true }]}
        >
          {data.map((d) => (
            <tr key={d.id}>
              <th scope="row" className="py-2 pr-4 text-left font-medium">
                {d.href ? (
                  <Link href={d.href} className="underline">
                    {d.label}
                  </Link>
                ) : (
                  d.label
                )}
              </th>
              <td className="whitespace-nowrap py-2 pr-4 text-zinc-600">
                <time dateTime={new Date(d.t).toISOString()}>{formatAt(d.t, timeZone)}</time>
              </td>
              <td className="py-2 pr-4 text-right tabular-nums">{percentNumber(d.v / 100)}</td>
              <td className="py-2 text-right tabular-nums">{percentNumber(d.best / 100)}</td>
            </tr>
          ))}
        </ScrollTable>
      }
    >
      <LineChart responsive height={CHART_HEIGHT} data={data} accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--color-zinc-200)" />
        <XAxis
          type="number"
          dataKey="t"
          domain={x.domain}
          ticks={x.ticks}
          tickFormatter={(t: number) => formatAt(t, timeZone, tickPattern)}
          tick={{ fontSize: 12, fill: "var(--color-zinc-600)" }}
          allowDataOverflow
        />
        <YAxis domain={y.domain} ticks={y.ticks} tickFormatter={(v: number) => String(v)} width={44} tick={{ fontSize: 12, fill: "var(--color-zinc-600)" }} allowDataOverflow />
        <Tooltip content={(props) => <ProgressTooltip {...props} timeZone={timeZone} metricLabel={metricLabel} />} />
        <Legend wrapperStyle={{ fontSize: 12, color: "var(--color-zinc-700)" }} />
        <Line type="stepAfter" dataKey="best" name="Best so far" stroke={REFERENCE_COLOUR} strokeDasharray="4 4" dot={false} activeDot={false} isAnimationActive={false} />
        <Line
          type="linear"
          dataKey="v"
          name={metricLabel}
          stroke={color}
          strokeWidth={2}
          isAnimationActive={false}
          dot={(p) => <RunDot key={`dot-${p.index}`} cx={p.cx} cy={p.cy} r={4} color={color} datum={p.payload as Datum} onOpen={open} />}
          activeDot={(p) => <RunDot key="active" cx={p.cx} cy={p.cy} r={6} color={color} datum={p.payload as Datum} onOpen={open} />}
        />
      </LineChart>
    </ChartFigure>
  );
}

/** A run's dot; clicking it opens the run when it has an `href`. */
function RunDot({ cx, cy, r, color, datum, onOpen }: { cx?: number; cy?: number; r: number; color: string; datum: Datum | undefined; onOpen: (d: Datum | undefined) => void }) {
  if (cx === undefined || cy === undefined) return null;
  const clickable = Boolean(datum?.href);
  return (
    <circle
      cx={cx}
      cy={cy}
      r={r}
      fill={color}
      stroke="var(--color-white)"
      strokeWidth={2}
      style={clickable ? { cursor: "pointer" } : undefined}
      onClick={clickable ? () => onOpen(datum) : undefined}
    />
  );
}

/** The tooltip: the run, its time, its F1 and the best F1 so far. */
function ProgressTooltip({ active, payload, timeZone, metricLabel }: TooltipContentProps & { timeZone: string; metricLabel: string }) {
  const d = active ? (payload?.[0]?.payload as Datum | undefined) : undefined;
  if (!d) return null;
  return (
    <div className="rounded border border-zinc-200 bg-white px-3 py-2 text-xs shadow-sm">
      <p className="font-medium text-zinc-900">{d.label}</p>
      <p className="text-zinc-600">
        {formatAt(d.t, timeZone)} {timeZone}
      </p>
      <p>
        {metricLabel}: {percentProse(d.v / 100)}
      </p>
      <p>Best so far: {percentProse(d.best / 100)}</p>
      {d.href && <p className="text-zinc-600">Click the dot to open the run.</p>}
    </div>
  );
}
