"use client";

import Link from "./link";
import { useMemo, useState } from "react";
import type { MetricsJson } from "@/lib/boards";
import type { SubmissionView } from "@/lib/runs";
import { boardColumns, isLeaderboardMetric, METRIC_LABELS, type LeaderboardMetric } from "@/lib/validations/metrics";
import { conllTitle, f1Title, blancTitle } from "./board-numbers";
import { documentHref } from "./doc-links";
import { ScoreValue, ScrollRegion } from "./ui";

/** One document's scores, as `getSubmissionForViewer` returns them. */
export type RunDocumentScores = NonNullable<SubmissionView["perDocument"]>[number];

type Column = "document" | LeaderboardMetric;

/**
 * The F1 columns: CoNLL first, then the board's other columns (`boardColumns`: the standard
 * metrics without Mentions, then the optional metrics some document has).
 */
function f1Columns(documents: readonly RunDocumentScores[]): { key: LeaderboardMetric; label: string }[] {
  const board = boardColumns("conll", (m) => documents.some((d) => d.metrics[m] !== undefined));
  return ["conll" as const, ...board.filter((m) => m !== "conll")].map((key) => ({ key, label: `${METRIC_LABELS[key]} F1 (%)` }));
}

function f1Of(m: MetricsJson, key: LeaderboardMetric): number | null {
  return m[key]?.f1 ?? null;
}

/** Compares two documents by dataset (in the order `rank` gives) and then by name. */
function byPlace(rank: Map<string | null, number>, a: RunDocumentScores, b: RunDocumentScores): number {
  const d = (rank.get(a.dataset) ?? 0) - (rank.get(b.dataset) ?? 0);
  if (d !== 0) return d;
  return a.document < b.document ? -1 : a.document > b.document ? 1 : 0;
}

/** The first sort: a known column from the page's query, else by document. */
function firstSort(initial: { column: string; descending: boolean } | null | undefined): { column: Column; descending: boolean } {
  if (initial && (initial.column === "document" || isLeaderboardMetric(initial.column))) return { column: initial.column as Column, descending: initial.descending };
  return { column: "document", descending: false };
}

/**
 * Per-document scores: documents × CoNLL F1 and each metric's F1 as percentages with 2
 * decimals (the `%` in the headers), sortable by any column (click a header; again to
 * reverse). Exact values on hover. On a phase with several datasets (documents with a
 * `dataset`) a Dataset column comes first, and the document order groups the documents by
 * dataset, in the order the datasets come in `documents` (the phase's). The table scrolls
 * inside its own keyboard-reachable region, never the page.
 *
 * @param submissionId the run, for the links to each document's error view
 * @param linkDocuments whether the viewer may open the document error views (then each
 *   document name links to `/submissions/<id>/documents/<name>`, through `documentHref`)
 * @param initialSort the first sort (the page's `?sort=&order=`); null or unknown: by document
 */
export function RunDocumentTable({
  documents,
  submissionId,
  linkDocuments = false,
  initialSort = null,
}: {
  documents: RunDocumentScores[];
  submissionId: string;
  linkDocuments?: boolean;
  initialSort?: { column: string; descending: boolean } | null;
}) {
  const [sort, setSort] = useState<{ column: Column; descending: boolean }>(() => firstSort(initialSort));
  const columns = useMemo(() => f1Columns(documents), [documents]);
  const withDatasets = documents.some((d) => d.dataset !== null);
  const rows = useMemo(() => {
    const rank = new Map<string | null, number>();
    for (const d of documents) if (!rank.has(d.dataset)) rank.set(d.dataset, rank.size);
    const sorted = [...documents];
    const { column, descending } = sort;
    sorted.sort((a, b) => {
      let c: number;
      if (column === "document") c = byPlace(rank, a, b);
      else {
        const x = f1Of(a.metrics, column);
        const y = f1Of(b.metrics, column);
        // Documents without the metric go last either way.
        if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
        c = x - y;
      }
      return (descending ? -c : c) || byPlace(rank, a, b);
    });
    return sorted;
  }, [documents, sort]);

  const toggle = (column: Column) =>
    setSort((s) => (s.column === column ? { column, descending: !s.descending } : { column, descending: column !== "document" }));
  const ariaSort = (column: Column) => (sort.column === column ? (sort.descending ? "descending" : "ascending") : "none");
  const arrow = (column: Column) => (sort.column === column ? (sort.descending ? " ↓" : " ↑") : "");

  return (
    <ScrollRegion label="Scores per document">
      <table className="w-full text-sm" data-testid="document-table">
        <caption className="sr-only">Scores per document (F1 in %); use the column buttons to sort</caption>
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-600">
          <tr>
            {withDatasets && (
              <th scope="col" className="py-2 pr-4 text-left font-medium">
                Dataset
              </th>
            )}
            <th scope="col" aria-sort={ariaSort("document")} className="py-2 pr-4 text-left font-medium">
              <button type="button" onClick={() => toggle("document")} className="uppercase hover:text-zinc-900">
                Document{arrow("document")}
              </button>
            </th>
            {columns.map((c) => (
              <th key={c.key} scope="col" aria-sort={ariaSort(c.key)} className="py-2 pr-4 text-right font-medium">
                <button type="button" onClick={() => toggle(c.key)} className="uppercase hover:text-zinc-900">
                  {c.label}
                  {arrow(c.key)}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((d) => (
            <tr key={`${d.dataset ?? ""}\u0000${d.document}`} data-testid="document-row">
              {withDatasets && <td className="py-1.5 pr-4 text-xs">{d.dataset}</td>}
              <th scope="row" className="py-1.5 pr-4 text-left font-mono text-xs font-normal">
                {linkDocuments ? (
                  <Link href={documentHref(submissionId, d.document, d.dataset)} className="break-all underline" data-testid="document-link">
                    {d.document}
                  </Link>
                ) : (
                  <span className="break-all">{d.document}</span>
                )}
              </th>
              {columns.map((c) => (
                <td key={c.key} className="py-1.5 pr-4 text-right">
                  <DocumentF1 metrics={d.metrics} column={c.key} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function DocumentF1({ metrics, column }: { metrics: MetricsJson; column: LeaderboardMetric }) {
  if (column === "conll") return metrics.conll ? <ScoreValue value={metrics.conll.f1} title={conllTitle(metrics.conll.f1)} /> : <span>—</span>;
  if (column === "blanc") return metrics.blanc ? <ScoreValue value={metrics.blanc.f1} title={blancTitle(metrics.blanc, "f1")} /> : <span>—</span>;
  const s = metrics[column];
  return s ? <ScoreValue value={s.f1} title={f1Title(s)} /> : <span>—</span>;
}
