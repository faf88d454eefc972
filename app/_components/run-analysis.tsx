/**
 * A run's analyses on its submission page: the Kummerfeld & Klein error counts (in total and
 * per document, each document linked to its error view) and Byron's pronoun standard
 * disclosure with the resolution rate. Server-safe: the data comes from `getRunAnalysis`,
 * which already left out what the viewer may not see.
 */
import Link from "./link";
import type { RunAnalysisView } from "@/lib/runs";
import { ERROR_KIND_LABELS, ERROR_KIND_ORDER } from "./error-kinds";
import { transposeDisclosure } from "@/lib/view-models/submission-view";
import { documentHref } from "./doc-links";
import { formatPercent, ScrollRegion, Table } from "./ui";

/**
 * The error-analysis card body (on a phase with several datasets, the documents table has a
 * Dataset column and its links name the dataset).
 *
 * @param analysis from `getRunAnalysis`
 */
export function RunErrorSummary({ analysis }: { analysis: RunAnalysisView }) {
  if (!analysis.canViewErrors) {
    return (
      <p className="text-sm text-zinc-600" data-testid="errors-hidden">
        {analysis.participantAnalysis === "TEAMS"
          ? "The error analysis shows where the gold key's mentions and entities are, so on this phase only the task's organizers and the signed-in members of teams that have submitted to the task can see it."
          : "The error analysis shows where the gold key's mentions and entities are, so on this phase only the task's organizers can see it. Organizers can allow participants to see it (typically on a development phase)."}
      </p>
    );
  }
  if (!analysis.errorTotals || !analysis.documents) return <p className="text-sm text-zinc-600">The error analysis appears once the run is scored.</p>;
  const totals = analysis.errorTotals;
  const withDatasets = analysis.documents.some((d) => d.dataset !== null);
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" data-testid="error-totals">
        {ERROR_KIND_ORDER.map((kind) => (
          <div key={kind} className="rounded-md border border-zinc-200 p-2" data-testid={`error-total-${kind}`}>
            <dt className="break-words text-xs text-zinc-600">{ERROR_KIND_LABELS[kind]}</dt>
            <dd className="text-lg font-semibold tabular-nums">{totals[kind].toLocaleString("en")}</dd>
          </div>
        ))}
      </dl>
      <Table
        caption="Errors per document"
        testId="error-documents"
        columns={[...(withDatasets ? ["Dataset"] : []), "Document", ...ERROR_KIND_ORDER.map((k) => ({ label: ERROR_KIND_LABELS[k], right: true }))]}
      >
        {analysis.documents.map((d) => (
          <tr key={`${d.dataset ?? ""}\u0000${d.document}`}>
            {withDatasets && <td className="py-1.5 pr-4 text-xs">{d.dataset}</td>}
            <td className="py-1.5 pr-4">
              <Link href={documentHref(analysis.submissionId, d.document, d.dataset)} className="break-all font-mono text-xs underline">
                {d.document}
              </Link>
            </td>
            {ERROR_KIND_ORDER.map((k, i) => (
              <td key={k} className={`py-1.5 text-right tabular-nums ${i < ERROR_KIND_ORDER.length - 1 ? "pr-4" : ""} ${d.counts[k] === 0 ? "text-zinc-600" : "font-medium"}`}>
                {d.counts[k]}
              </td>
            ))}
          </tr>
        ))}
      </Table>
    </div>
  );
}

/**
 * Byron's (2001) standard disclosure, transposed (`transposeDisclosure`): one row per pronoun
 * type found in the key (the total last), one column per line of the standard table (A–E,
 * exclusions, correct resolutions, and the resolution rate RR as a percentage with 2
 * decimals), so that it stays narrow on a phone; the full line names in a legend under it. The
 * table scrolls inside its own keyboard-reachable region.
 *
 * @param disclosure the table from `getRunAnalysis` (exclusions already applied)
 */
export function RunDisclosureTable({ disclosure }: { disclosure: NonNullable<RunAnalysisView["disclosure"]> }) {
  if (disclosure.columns.length <= 1) {
    return <p className="text-sm text-zinc-600">No pronoun of the task&apos;s lexicon ({disclosure.language}) occurs in the key.</p>;
  }
  const { columns, rows } = transposeDisclosure(disclosure);
  return (
    <div className="space-y-3">
      <ScrollRegion label="Pronoun standard disclosure">
        <table className="w-full text-sm tabular-nums" data-testid="disclosure-table">
          <caption className="sr-only">Pronoun standard disclosure: one row per pronoun lexical type, then the total</caption>
          <thead className="border-b border-zinc-200 text-xs text-zinc-600">
            <tr>
              <th scope="col" className="py-2 pr-4 text-left font-medium">
                Pronoun
              </th>
              {columns.map((c, i) => (
                <th key={c.id} scope="col" title={c.label} className={`py-2 text-right font-medium ${i < columns.length - 1 ? "pr-3" : ""}`} data-testid={`disclosure-col-${c.id}`}>
                  {c.short}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {rows.map((row) => (
              <tr key={row.pronoun} data-testid="disclosure-row" data-pronoun={row.pronoun} className={row.total ? "bg-zinc-50 font-medium" : ""}>
                <th scope="row" className={`py-1.5 pr-4 text-left text-zinc-800 ${row.total ? "font-semibold" : "font-medium"}`}>
                  {row.pronoun}
                </th>
                {row.values.map((v, i) => (
                  <td key={columns[i].id} className={`whitespace-nowrap py-1.5 text-right ${i < columns.length - 1 ? "pr-3" : ""}`} data-testid={`disclosure-${columns[i].id}`}>
                    {v === null ? <span title="no referential pronoun (C = 0)">—</span> : columns[i].rate ? formatPercent(v) : v.toLocaleString("en")}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs text-zinc-700" data-testid="disclosure-legend">
        {columns.map((c) => (
          <div key={c.id} className="contents">
            <dt className="font-medium">{c.short}</dt>
            <dd>{c.label}</dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-zinc-600">
        Lexicon: {disclosure.language}.{" "}
        {disclosure.excludedCategories.length > 0 ? `Referential exclusions: ${disclosure.excludedCategories.join(", ")}.` : "No referential exclusions."} A
        pronoun is referential when it is a key mention of its own. It is resolved correctly when its response entity holds an earlier mention of its
        key entity, or, for a key pronoun with no earlier key mention, when the response gives it no antecedent either. RR = correct / C (Byron 2001).
      </p>
    </div>
  );
}
