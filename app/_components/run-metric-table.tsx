/**
 * The full metric table of one submission (or document): a row per count metric in board
 * order (`COUNT_METRIC_NAMES`: Mentions, MUC, B³, CEAFm, CEAFe, LEA and the optional metrics the
 * run has), then BLANC and the CoNLL F1; columns recall, precision and F1 as percentages with 2
 * decimals, the numerator/denominator under each recall and precision, and the exact value in
 * the `title` of every number. Server-safe.
 */
import type { BoardMetricsJson } from "../../lib/services/scores";
import { COUNT_METRIC_NAMES, METRIC_LABELS } from "../../lib/validations/metrics";
import { blancCounts, blancTitle, conllTitle, f1Title, formatFraction, Percent, ratioTitle } from "./board-numbers";
import { Table, type TableColumn } from "./ui";

const COLUMNS: TableColumn[] = ["Metric", { label: "Recall", right: true }, { label: "Precision", right: true }, { label: "F1", right: true }];

/** A recall or precision cell. */
const cell = "py-2 pr-4 text-right align-top";
/** An F1 cell (the last column). */
const f1Cell = "py-2 text-right align-top";

/**
 * The metric table. Metrics missing from `scores` are left out.
 *
 * @param scores the run's scores (fractions in [0, 1], with their counts; a macro-average has none)
 * @param caption the table's caption for screen readers
 */
export function RunMetricTable({ scores, caption }: { scores: BoardMetricsJson; caption: string }) {
  const { blanc, conll } = scores;
  return (
    <Table caption={caption} testId="metric-table" columns={COLUMNS}>
      {COUNT_METRIC_NAMES.map((name) => {
        const s = scores[name];
        if (!s) return null;
        const hasCounts = s.recall_num !== null && s.recall_den !== null && s.precision_num !== null && s.precision_den !== null;
        return (
          <tr key={name} data-testid={`metric-row-${name}`}>
            <th scope="row" className="py-2 pr-4 text-left font-medium">
              {METRIC_LABELS[name]}
            </th>
            <td className={cell} data-testid={`${name}-recall`}>
              <Percent value={s.recall} title={ratioTitle(s.recall_num, s.recall_den, s.recall)} counts={hasCounts ? formatFraction(s.recall_num!, s.recall_den!) : undefined} />
            </td>
            <td className={cell} data-testid={`${name}-precision`}>
              <Percent value={s.precision} title={ratioTitle(s.precision_num, s.precision_den, s.precision)} counts={hasCounts ? formatFraction(s.precision_num!, s.precision_den!) : undefined} />
            </td>
            <td className={`${f1Cell} font-medium`} data-testid={`${name}-f1`}>
              <Percent value={s.f1} title={f1Title(s)} />
            </td>
          </tr>
        );
      })}
      {blanc && (
        <tr data-testid="metric-row-blanc">
          <th scope="row" className="py-2 pr-4 text-left font-medium">
            BLANC
            <span className="block text-xs font-normal text-zinc-500">coreference · non-coreference links</span>
          </th>
          <td className={cell} data-testid="blanc-recall">
            <Percent value={blanc.recall} title={blancTitle(blanc, "recall")} counts={blancCounts(blanc, "recall")} />
          </td>
          <td className={cell} data-testid="blanc-precision">
            <Percent value={blanc.precision} title={blancTitle(blanc, "precision")} counts={blancCounts(blanc, "precision")} />
          </td>
          <td className={`${f1Cell} font-medium`} data-testid="blanc-f1">
            <Percent value={blanc.f1} title={blancTitle(blanc, "f1")} />
          </td>
        </tr>
      )}
      {conll && (
        <tr data-testid="metric-row-conll" className="bg-zinc-50">
          <th scope="row" className="py-2 pr-4 text-left font-semibold">
            CoNLL F1
            <span className="block text-xs font-normal text-zinc-500">mean of MUC, B³ and CEAFe F1</span>
          </th>
          <td className={cell}>
            <span className="sr-only">not applicable</span>
          </td>
          <td className={cell}>
            <span className="sr-only">not applicable</span>
          </td>
          <td className={`${f1Cell} font-semibold`} data-testid="conll-f1">
            <Percent value={conll.f1} title={conllTitle(conll.f1)} />
          </td>
        </tr>
      )}
    </Table>
  );
}
