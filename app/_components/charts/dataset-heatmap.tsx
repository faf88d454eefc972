"use client";

/**
 * The datasets × runs heatmap of a macro-averaged board (issue 24 §1): one row per run (its
 * system, the team on a lighter second line), one column per dataset (in the table's order,
 * by short name), each cell shaded by the run's CoNLL F1 on the dataset on one scale for the
 * whole chart (so hard and easy datasets show), its value printed when the column is wide
 * enough, and the best of each dataset outlined (its value in bold). Shades are Tailwind palette fills
 * (`fill-emerald-*`, the text `fill-zinc-900`), light enough for dark text at AA contrast.
 *
 * Accessible as the other charts are (`ChartFigure`): the drawing is one `role="img"` box with
 * a summary (the best run of each dataset) in `aria-label`, and every number is in the "Data"
 * table under it. The drawing is made once the box is measured (none on the server), like the
 * other charts.
 */
import { truncateLabel } from "./chart-layout";
import { ChartFigure } from "./leaderboard-charts";
import { ScrollTable } from "./scroll-table";
import { useBoxWidth } from "./use-box-width";

/** A run's row of the heatmap. */
export interface HeatmapRun {
  id: string;
  /** e.g. "Team A · system-1" (summaries, hover text, the table) */
  label: string;
  /** the first line of the row's label */
  system: string;
  /** the row label's second line */
  team: string;
  /** its cells, in the datasets' order */
  datasets: { f1: number | null; heat: number; best: boolean }[];
}

/** A column of the heatmap. */
export interface HeatmapDataset {
  name: string;
  /** the column's short name */
  short: string;
}

/** Shade of a cell by its heat level (0: lowest), for the fill; dark text on every one of them. */
const FILL: readonly string[] = ["fill-zinc-50", "fill-emerald-50", "fill-emerald-100", "fill-emerald-200", "fill-emerald-300"];

/** The same shades as backgrounds, for the legend. */
const SWATCH: readonly string[] = ["bg-zinc-50", "bg-emerald-50", "bg-emerald-100", "bg-emerald-200", "bg-emerald-300"];

/** Pixels per run row (a two-line label). */
const ROW = 36;

/** Width of a character of the 12 px label font, in pixels (generous: wide system fonts too). */
const CHAR = 7.4;

/** "78.12" for a fraction. */
const percent = (f: number) => (f * 100).toFixed(2);

/**
 * The heatmap; nothing without runs or datasets. Its columns share the drawing's width; too
 * narrow for a name (many datasets on a phone), they are named in the Data table only.
 *
 * @param runs the charted runs in board order (`leaderboardView(…).charts.runs`)
 * @param datasets the columns (`leaderboardView(…).charts.datasets`)
 * @param setting the setting of the values, for the description ("primary setting", "partial
 *   match"; `leaderboardView(…).charts.heatmapSetting`); null or absent: not named
 */
export function DatasetHeatmap({ runs, datasets, setting = null }: { runs: readonly HeatmapRun[]; datasets: readonly HeatmapDataset[]; setting?: string | null }) {
  const [boxRef, width] = useBoxWidth();
  if (runs.length === 0 || datasets.length === 0) return null;
  // Labels: up to 40 % of the drawing; columns share the rest, at least 28 px each.
  const longest = runs.reduce((n, r) => Math.max(n, r.system.length, r.team.length), 0);
  const labelWidth = Math.min(Math.ceil(longest * CHAR) + 12, Math.max(96, Math.round(width * 0.4)));
  const maxChars = Math.max(4, Math.floor((labelWidth - 12) / CHAR));
  const widest = datasets.reduce((n, d) => Math.max(n, d.short.length), 0);
  // Column names turn (up and to the right) when they do not fit across their column; the
  // last one then needs room on the right.
  const turned = widest * CHAR + 8 > (width - labelWidth) / datasets.length;
  const rightPad = turned ? Math.ceil(widest * CHAR * 0.65) : 0;
  // Columns share the width (CorefUD's 20+ datasets on a phone: thin stripes of colour).
  const column = Math.max(6, (width - labelWidth - rightPad) / datasets.length);
  // Names fit over columns of at least a line's height; narrower ones are named in the Data table.
  const named = column >= 14;
  const header = !named ? 8 : turned ? Math.min(120, Math.ceil(widest * CHAR * 0.72) + 16) : 22;
  const height = header + runs.length * ROW + 4;
  const showValues = column >= 44;
  const bestOf = datasets.map((_, j) => runs.filter((r) => r.datasets[j]?.best));
  const summary =
    `Heatmap of CoNLL F1 in percent${setting ? `, ${setting}` : ""}, for ${runs.length} ${runs.length === 1 ? "run" : "runs"} (rows) on ${datasets.length} datasets (columns); darker cells are higher. ` +
    `Best per dataset: ${datasets
      .map((d, j) => `${d.name}: ${bestOf[j].length > 0 ? `${bestOf[j].map((r) => r.label).join(" and ")}, ${percent(bestOf[j][0].datasets[j].f1!)} %` : "none"}`)
      .join("; ")}. Every value is in the Data table.`;
  return (
    <ChartFigure
      testId="dataset-heatmap"
      caption="CoNLL F1 (%) per dataset and run"
      summary={summary}
      height={height}
      drawingRef={boxRef}
      legend={<HeatLegend />}
      data={
        <ScrollTable label="CoNLL F1 per dataset and run, in percent" columns={["Run", ...datasets.map((d) => ({ label: d.name, right: true }))]}>
          {runs.map((run) => (
            <tr key={run.id}>
              <th scope="row" className="py-2 pr-4 text-left font-medium">
                {run.label}
              </th>
              {run.datasets.map((cell, j) => (
                <td key={datasets[j].name} className={`py-2 text-right tabular-nums ${j < datasets.length - 1 ? "pr-4" : ""} ${cell.best ? "font-bold" : ""}`}>
                  {cell.f1 === null ? "—" : percent(cell.f1)}
                  {cell.best && <span className="sr-only"> (best on this dataset)</span>}
                </td>
              ))}
            </tr>
          ))}
        </ScrollTable>
      }
    >
      {width > 0 && (
        <svg width={width} height={height} className="block" aria-hidden="true" data-testid="dataset-heatmap-svg">
          {named &&
            datasets.map((d, j) => {
              const x = labelWidth + j * column + column / 2;
              return (
                <text
                  key={d.name}
                  x={x}
                  y={header - 6}
                  fontSize={12}
                  textAnchor={turned ? "start" : "middle"}
                  transform={turned ? `rotate(-50 ${x} ${header - 6})` : undefined}
                  className="fill-zinc-700"
                >
                  <title>{d.name}</title>
                  {d.short}
                </text>
              );
            })}
          {runs.map((run, i) => {
            const y = header + i * ROW;
            return (
              <g key={run.id} data-run={run.id}>
                <text x={labelWidth - 6} y={y + ROW / 2} textAnchor="end" fontSize={12} className="fill-zinc-700">
                  <title>{run.label}</title>
                  <tspan x={labelWidth - 6} dy={run.team ? -2 : 4}>
                    {truncateLabel(run.system, maxChars)}
                  </tspan>
                  {run.team && (
                    <tspan x={labelWidth - 6} dy={13} fontSize={11} className="fill-zinc-600">
                      {truncateLabel(run.team, maxChars)}
                    </tspan>
                  )}
                </text>
                {run.datasets.map((cell, j) => {
                  const x = labelWidth + j * column;
                  return (
                    <g key={datasets[j].name}>
                      <rect
                        x={x + 1.5}
                        y={y + 1.5}
                        width={column - 3}
                        height={ROW - 3}
                        rx={2}
                        strokeWidth={cell.best ? 2 : 0}
                        className={`${cell.f1 === null ? "fill-zinc-100" : FILL[cell.heat]}${cell.best ? " stroke-zinc-900" : ""}`}
                      >
                        <title>{`${run.label} on ${datasets[j].name}: ${cell.f1 === null ? "no score" : `${percent(cell.f1)} %`}${cell.best ? " (best on this dataset)" : ""}`}</title>
                      </rect>
                      {showValues && (
                        <text x={x + column / 2} y={y + ROW / 2 + 4} textAnchor="middle" fontSize={11} fontWeight={cell.best ? 700 : 400} className="fill-zinc-900 tabular-nums">
                          {cell.f1 === null ? "—" : percent(cell.f1)}
                        </text>
                      )}
                    </g>
                  );
                })}
              </g>
            );
          })}
        </svg>
      )}
    </ChartFigure>
  );
}

/** The shades from low to high, under the drawing. */
function HeatLegend() {
  return (
    <p className="flex flex-wrap items-center gap-1 text-xs text-zinc-700">
      <span>Lower</span>
      {SWATCH.map((c) => (
        <span key={c} aria-hidden="true" className={`inline-block h-3 w-5 rounded-sm border border-zinc-200 ${c}`} />
      ))}
      <span>higher (one scale for the whole chart); the best of each dataset outlined.</span>
    </p>
  );
}
