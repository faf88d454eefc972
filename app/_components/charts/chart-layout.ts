/**
 * Pure layout and number helpers of the charts: percentage axes, the bar chart's height and
 * label column, and percentages written the house way (`78.12` in a cell whose header says
 * "(%)", `78.12 %` in prose). No React, so the rules are unit-tested on their own.
 */

/** Rounds away floating-point noise from tick arithmetic (0.1 + 0.2 → 0.3). */
function clean(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * A percentage axis zoomed to the values with "nice" ticks (steps of 0.5, 1, 2, 2.5, 5, 10,
 * 20 or 25 points, at most about 6 intervals), padded a little and kept inside 0–100.
 *
 * @param values percentages (0–100); non-finite ones are ignored
 * @returns the axis domain and its ticks (0–100 by 20 when there are no finite values)
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
export function tickPercent(value: number): string {
  return String(clean(value));
}

/**
 * A fraction as a percentage number with 2 decimals and no sign, for a cell or label whose
 * header or caption says "(%)": `0.78123` → `"78.12"`.
 */
export function percentNumber(fraction: number): string {
  return (fraction * 100).toFixed(2);
}

/** A fraction as a percentage in prose (tooltips, summaries): `0.78123` → `"78.12 %"`. */
export function percentProse(fraction: number): string {
  return `${percentNumber(fraction)} %`;
}

/** Pixels per run of the horizontal bar chart: room for one 12 px label and its bar, with a gap. */
export const BAR_ROW_HEIGHT = 28;

/** Pixels of the bar chart beyond its rows: the value axis and the margins. */
export const BAR_CHART_CHROME = 44;

/**
 * The horizontal bar chart's height: one row of {@link BAR_ROW_HEIGHT} per run, so that labels
 * never overlap however many runs there are (50 runs: 1,444 px).
 *
 * @param runs the number of bars, ≥ 0
 * @returns pixels
 */
export function barChartHeight(runs: number): number {
  return BAR_CHART_CHROME + Math.max(1, runs) * BAR_ROW_HEIGHT;
}

/** Average advance of one character of the 12 px axis font, in pixels (a little generous). */
const CHAR_WIDTH = 6.6;

/**
 * The bar chart's label column for a drawing `width` pixels wide: 40 % of it, between 96 and
 * 240 px, and no wider than the longest label needs; with how many characters fit.
 *
 * @param width the drawing's width in pixels (0 before it is measured)
 * @param labels the labels to show
 * @returns `width` of the y axis in pixels and `maxChars`, the longest label that fits whole
 */
export function labelColumn(width: number, labels: readonly string[]): { width: number; maxChars: number } {
  const longest = labels.reduce((n, l) => Math.max(n, l.length), 0);
  const wanted = Math.ceil(longest * CHAR_WIDTH) + 12;
  const column = Math.min(wanted, Math.max(96, Math.min(240, Math.round(width * 0.4))));
  return { width: column, maxChars: Math.max(4, Math.floor((column - 12) / CHAR_WIDTH)) };
}

/**
 * A label cut to `maxChars` characters with an ellipsis ("Team Alpha · sys…"), or whole when it fits.
 *
 * @param maxChars at least 2
 */
export function truncateLabel(label: string, maxChars: number): string {
  const chars = Array.from(label);
  return chars.length <= maxChars ? label : `${chars.slice(0, Math.max(1, maxChars - 1)).join("").trimEnd()}…`;
}
