/**
 * The full metric table of one submission (or document): a row per count metric in board
 * order (Mentions, MUC, B³, CEAFm, CEAFe, LEA and the optional metrics the run has), then BLANC
 * and the CoNLL F1 (`metricRows` of `lib/view-models/submission-view.ts`); columns recall,
 * precision and F1 as percentages with 2 decimals (the `%` is in the headers), the exact value
 * in the `title` of every number. The numerator/denominator behind each recall and precision
 * are shown on demand only, in a "Show raw fractions" disclosure under the table (no script
 * needed). The table scrolls inside its own keyboard-reachable region on a narrow screen.
 * Server-safe.
 */
import type { BoardMetricsJson } from "@/lib/boards";
import { hasRawFractions, metricRows, type MetricRow, type ScoreCell } from "@/lib/view-models/submission-view";
import { blancTitle, conllTitle, f1Title, formatFraction, ratioTitle } from "./board-numbers";
import { ScoreValue, ScrollRegion } from "./ui";

/** A header cell. */
const th = "py-2 pr-4 font-medium";
/** A recall or precision cell. */
const cell = "py-2 pr-4 text-right align-top";
/** An F1 cell (the last column). */
const f1Cell = "py-2 text-right align-top";

/** The hover text of one number of a row (the exact fraction and how it is made). */
function titleOf(scores: BoardMetricsJson, row: MetricRow, part: "recall" | "precision" | "f1"): string {
  if (row.id === "conll") return conllTitle(row.f1.value);
  if (row.id === "blanc") return scores.blanc ? blancTitle(scores.blanc, part) : "";
  const s = scores[row.id];
  if (!s) return "";
  if (part === "f1") return f1Title(s);
  return part === "recall" ? ratioTitle(s.recall_num, s.recall_den, s.recall) : ratioTitle(s.precision_num, s.precision_den, s.precision);
}

/** `"2/4"`, or BLANC's `"3/4 · 10/12"` (coreference · non-coreference links); "—" without counts. */
function fractionText(cellValue: ScoreCell | null): string {
  if (!cellValue || cellValue.counts.length === 0) return "—";
  return cellValue.counts.map((c) => formatFraction(c.num, c.den)).join(" · ");
}

/**
 * The metric table. Metrics missing from `scores` are left out.
 *
 * @param scores the run's scores (fractions in [0, 1], with their counts; a macro-average has none)
 * @param caption the table's caption for screen readers (and its scroll region's name)
 * @param fractionsOpen whether the raw fractions start shown (default false: on demand)
 */
export function RunMetricTable({ scores, caption, fractionsOpen = false }: { scores: BoardMetricsJson; caption: string; fractionsOpen?: boolean }) {
  const rows = metricRows(scores);
  return (
    <div className="space-y-3">
      <ScrollRegion label={caption}>
        <table className="w-full text-sm" data-testid="metric-table">
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-600">
            <tr>
              <th scope="col" className={`${th} text-left`}>
                Metric
              </th>
              <th scope="col" className={`${th} text-right`}>
                Recall (%)
              </th>
              <th scope="col" className={`${th} text-right`}>
                Precision (%)
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                F1 (%)
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {rows.map((row) => (
              <tr key={row.id} data-testid={`metric-row-${row.id}`} className={row.summary ? "bg-zinc-50" : undefined}>
                <th scope="row" className={`py-2 pr-4 text-left ${row.summary ? "font-semibold" : "font-medium"}`}>
                  {row.label}
                  {row.note && <span className="block text-xs font-normal text-zinc-600">{row.note}</span>}
                </th>
                <td className={cell} data-testid={`${row.id}-recall`}>
                  {row.recall ? <ScoreValue value={row.recall.value} title={titleOf(scores, row, "recall")} /> : <span className="sr-only">not applicable</span>}
                </td>
                <td className={cell} data-testid={`${row.id}-precision`}>
                  {row.precision ? <ScoreValue value={row.precision.value} title={titleOf(scores, row, "precision")} /> : <span className="sr-only">not applicable</span>}
                </td>
                <td className={`${f1Cell} ${row.summary ? "font-semibold" : "font-medium"}`} data-testid={row.id === "conll" ? "conll-f1" : `${row.id}-f1`}>
                  <ScoreValue value={row.f1.value} title={titleOf(scores, row, "f1")} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {hasRawFractions(rows) && <RawFractions rows={rows} open={fractionsOpen} caption={caption} />}
    </div>
  );
}

/** The numerators and denominators behind recall and precision, in a disclosure. */
function RawFractions({ rows, open, caption }: { rows: MetricRow[]; open: boolean; caption: string }) {
  const counted = rows.filter((r) => (r.recall?.counts.length ?? 0) > 0 || (r.precision?.counts.length ?? 0) > 0);
  return (
    <details open={open} className="text-sm" data-testid="raw-fractions">
      <summary className="cursor-pointer font-medium text-zinc-800 underline decoration-zinc-400 underline-offset-2">Show raw fractions</summary>
      <p className="mt-2 text-xs text-zinc-600">
        The counts behind each percentage: numerator/denominator as the scorer stored them (BLANC: coreference links · non-coreference links).
      </p>
      <div className="mt-2">
        <ScrollRegion label={`Raw fractions: ${caption}`}>
          <table className="w-full text-sm tabular-nums" data-testid="raw-fractions-table">
            <caption className="sr-only">Raw fractions: {caption}</caption>
            <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-600">
              <tr>
                <th scope="col" className={`${th} text-left`}>
                  Metric
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Recall
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Precision
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {counted.map((row) => (
                <tr key={row.id} data-testid={`fraction-row-${row.id}`}>
                  <th scope="row" className="py-1.5 pr-4 text-left font-medium">
                    {row.label}
                  </th>
                  <td className="whitespace-nowrap py-1.5 pr-4 text-right" data-testid={`${row.id}-recall-fraction`}>
                    {fractionText(row.recall)}
                  </td>
                  <td className="whitespace-nowrap py-1.5 text-right" data-testid={`${row.id}-precision-fraction`}>
                    {fractionText(row.precision)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </div>
    </details>
  );
}
