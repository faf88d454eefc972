/**
 * The full metric table of one submission (or document): rows Mentions, MUC, B³, CEAFm,
 * CEAFe, LEA, BLANC and CoNLL F1; columns recall, precision and F1 as percentages with 2
 * decimals, the numerator/denominator under each recall and precision, and the exact value in
 * the `title` of every number. Server-safe.
 */
import type { MetricsJson } from "../../lib/services/scores";
import { COUNT_METRIC_NAMES, METRIC_LABELS } from "../../lib/validations/metrics";
import { blancTitle, conllTitle, f1Title, formatFraction, Percent, ratioTitle } from "./board-numbers";

const cell = "py-2 pr-4 text-right align-top";

/** The metric table. Metrics missing from `scores` are left out. */
export function RunMetricTable({ scores, caption }: { scores: MetricsJson; caption: string }) {
  const blanc = scores.blanc;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="metric-table">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th scope="col" className="py-2 pr-4 text-left font-medium">
              Metric
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              Recall
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              Precision
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              F1
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
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
                  <Percent
                    value={s.precision}
                    title={ratioTitle(s.precision_num, s.precision_den, s.precision)}
                    counts={hasCounts ? formatFraction(s.precision_num!, s.precision_den!) : undefined}
                  />
                </td>
                <td className={`${cell} font-medium`} data-testid={`${name}-f1`}>
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
                <Percent
                  value={blanc.recall}
                  title={blancTitle(blanc, "recall")}
                  counts={blanc.coref_links && blanc.noncoref_links ? `${formatFraction(blanc.coref_links.recall_num, blanc.coref_links.recall_den)} · ${formatFraction(blanc.noncoref_links.recall_num, blanc.noncoref_links.recall_den)}` : undefined}
                />
              </td>
              <td className={cell} data-testid="blanc-precision">
                <Percent
                  value={blanc.precision}
                  title={blancTitle(blanc, "precision")}
                  counts={
                    blanc.coref_links && blanc.noncoref_links
                      ? `${formatFraction(blanc.coref_links.precision_num, blanc.coref_links.precision_den)} · ${formatFraction(blanc.noncoref_links.precision_num, blanc.noncoref_links.precision_den)}`
                      : undefined
                  }
                />
              </td>
              <td className={`${cell} font-medium`} data-testid="blanc-f1">
                <Percent value={blanc.f1} title={blancTitle(blanc, "f1")} />
              </td>
            </tr>
          )}
          {scores.conll && (
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
              <td className={`${cell} font-semibold`} data-testid="conll-f1">
                <Percent value={scores.conll.f1} title={conllTitle(scores.conll.f1)} />
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
