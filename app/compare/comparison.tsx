/**
 * The comparison of two runs as the compare page shows it: the runs, the verdict on the
 * primary metric, the per-metric table (F1 of A and B, Δ = A − B in points, its 95 % interval,
 * the p-value and which run is better), and the per-document differences. The numbers are
 * shaped by `compareView` (lib/view-models/compare-view.ts); the exact values are in the
 * hover texts. Both tables scroll sideways inside their own keyboard-reachable region.
 */
import Link from "../_components/link";
import type { ReactNode } from "react";
import type { BoardMetricsJson, RunComparison } from "@/lib/boards";
import { percentNumber, type CompareView, type CompareDocumentRow, type CompareMetricRow } from "@/lib/view-models/compare-view";
import { blancTitle, conllTitle, f1Title } from "../_components/board-numbers";
import { ScrollTable } from "../_components/charts/scroll-table";
import { documentHref } from "../_components/doc-links";
import { metricF1Name } from "../_components/metric-name";
import { Breadcrumbs, Card, Notice, secondaryButton, UtcTime } from "../_components/ui";

/** The comparison; `comparison` gives the runs' stored counts for the exact hover texts. */
export function Comparison({ view, comparison }: { view: CompareView; comparison: RunComparison }) {
  const [a, b] = view.runs;
  return (
    <div className="min-w-0 space-y-6">
      <header className="min-w-0 space-y-2">
        <Breadcrumbs links={[{ href: view.task.href, label: view.task.title }, { href: view.board.href, label: view.board.label }]} />
        <h1 className="text-2xl font-semibold tracking-tight">Compare runs</h1>
        <dl className="grid grid-cols-[1.5rem_minmax(0,1fr)] gap-x-2 gap-y-1 text-sm" data-testid="compare-runs">
          {view.runs.map((run) => (
            <RunLine key={run.letter} run={run} />
          ))}
        </dl>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <Link href={view.swapHref} className="underline" data-testid="compare-swap">
            Swap A and B
          </Link>
          <Link href={view.pickHref} className="underline" data-testid="compare-pick-other">
            Compare other runs of this phase
          </Link>
        </p>
      </header>

      {view.headline && (
        <p className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm font-medium text-zinc-900" data-testid="compare-headline">
          {view.headline}
        </p>
      )}

      <Card
        title="Metrics"
        description={
          <>
            F1 of each run on all {view.bootstrap.documents.toLocaleString("en")} documents, and the difference Δ = A − B in percentage points with its 95 %
            interval and two-sided p-value from the paired bootstrap over documents. A run is called better when p &lt; {view.level}. Hover over a number
            for its exact value.
          </>
        }
      >
        <ScrollTable
          label="Paired bootstrap comparison per metric"
          testId="compare-metrics"
          columns={[
            "Metric",
            { label: "A F1 (%)", right: true },
            { label: "B F1 (%)", right: true },
            { label: "Δ (points)", right: true },
            { label: "95 % interval of Δ", right: true },
            { label: "p-value", right: true },
            `Verdict (p < ${view.level})`,
          ]}
        >
          {view.metrics.map((m) => (
            <MetricRow key={m.metric} m={m} comparison={comparison} />
          ))}
        </ScrollTable>
        <p className="mt-3 text-xs text-zinc-600" data-testid="compare-bootstrap">
          Paired bootstrap over {view.bootstrap.documents.toLocaleString("en")} documents: {view.bootstrap.samples.toLocaleString("en")} samples, seed{" "}
          {view.bootstrap.seed}. Each sample draws the documents with replacement, the same draws for both runs; the interval is the 2.5th to 97.5th
          percentile of the samples&apos; differences, and the p-value the share of samples whose difference lies as far from the observed Δ as Δ from 0
          (so the smallest possible p-value is {view.bootstrap.smallestP}). Significance is per metric, with no correction for testing several metrics.
        </p>
      </Card>

      <Card
        title={`Per document: ${metricF1Name(view.documentMetric)}`}
        description={view.documents ? "Documents by the size of their difference, largest first. Δ = A − B in percentage points." : undefined}
      >
        <DocumentDeltas view={view} canLinkA={comparison.a.canViewErrors} canLinkB={comparison.b.canViewErrors} names={[a.systemName, b.systemName]} />
      </Card>
    </div>
  );
}

/** One compared run: its letter, name (linked to its page), team, submission time and scoring. */
function RunLine({ run }: { run: CompareView["runs"][number] }) {
  return (
    <>
      <dt className="font-semibold text-zinc-700">{run.letter}</dt>
      <dd className="min-w-0 break-words" data-testid={`compare-run-${run.letter.toLowerCase()}`}>
        <Link href={run.href} className="font-medium underline">
          {run.systemName}
        </Link>{" "}
        <span className="text-zinc-700">
          by {run.team}, submitted <UtcTime date={run.submittedAt} />, {run.scoredWith}
        </span>
      </dd>
    </>
  );
}

/** A row of the metrics table. */
function MetricRow({ m, comparison: c }: { m: CompareMetricRow; comparison: RunComparison }) {
  return (
    <tr className={m.primary ? "bg-zinc-50" : undefined} data-testid={`compare-metric-${m.metric}`} data-significant={m.verdict.significant}>
      <th scope="row" className={`py-2 pr-4 text-left ${m.primary ? "font-semibold" : "font-medium"}`}>
        {m.label}
        {m.primary && <span className="block text-xs font-normal text-zinc-600">primary metric</span>}
      </th>
      <td className="py-2 pr-4 text-right">
        <Exact title={exactF1Title(c.a.scores, m.metric, m.a)} exact={m.a}>
          {percentNumber(m.a)}
        </Exact>
      </td>
      <td className="py-2 pr-4 text-right">
        <Exact title={exactF1Title(c.b.scores, m.metric, m.b)} exact={m.b}>
          {percentNumber(m.b)}
        </Exact>
      </td>
      <td className="py-2 pr-4 text-right font-medium tabular-nums" title={`Δ = A − B = ${m.deltaExact}`} data-testid="compare-delta">
        {m.delta}
      </td>
      <td className="py-2 pr-4 text-right tabular-nums whitespace-nowrap" title={`[${m.intervalExact[0]}, ${m.intervalExact[1]}]`}>
        {m.interval}
      </td>
      <td className="py-2 pr-4 text-right tabular-nums whitespace-nowrap" title={`p = ${m.pExact}`} data-testid="compare-p">
        {m.p}
      </td>
      <td className="min-w-48 py-2">
        {m.verdict.significant ? (
          <span className="inline-block rounded bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900" data-testid="compare-significant" data-better={m.verdict.better}>
            {m.verdict.text}
          </span>
        ) : (
          <span className="text-xs text-zinc-700" data-testid="compare-not-significant">
            {m.verdict.text}
          </span>
        )}
      </td>
    </tr>
  );
}

/** A number with its exact value on hover. */
function Exact({ title, exact, children }: { title: string; exact: number; children: ReactNode }) {
  return (
    <span title={title} className="tabular-nums" data-exact={String(exact)}>
      {children}
    </span>
  );
}

/** The per-document table, or why it is hidden. */
function DocumentDeltas({ view, canLinkA, canLinkB, names }: { view: CompareView; canLinkA: boolean; canLinkB: boolean; names: [string, string] }) {
  const [a, b] = view.runs;
  if (view.documents === null) {
    return (
      <div data-testid="compare-documents-hidden">
        <Notice kind="info">
          Per-document differences are hidden: they show the runs&apos; scores on each document, which the task&apos;s organizers see, and a run&apos;s own
          team too except on a phase whose leaderboard is hidden (there teams get corpus-level scores only, unless the organizers turn per-document scores
          on). Others see them where the phase&apos;s participant analysis lets them. You may not see them for both of these runs.
        </Notice>
      </div>
    );
  }
  if (view.documents.length === 0) return <p className="text-sm text-zinc-700">The runs have no documents in common.</p>;
  const links = canLinkA || canLinkB;
  return (
    <>
      <ScrollTable
        label={`${metricF1Name(view.documentMetric)} per document, largest difference first`}
        testId="compare-documents"
        columns={["Document", { label: "A F1 (%)", right: true }, { label: "B F1 (%)", right: true }, { label: "Δ (points)", right: true }, ...(links ? ["Error views"] : [])]}
      >
        {view.documents.map((d) => (
          <DocumentRow key={d.key} d={d} links={links} linkA={canLinkA ? a.id : null} linkB={canLinkB ? b.id : null} names={names} />
        ))}
      </ScrollTable>
      {(!canLinkA || !canLinkB) && (
        <p className="mt-3 text-xs text-zinc-600">
          {links ? `Only run ${canLinkA ? "A" : "B"}'s error views are linked: ` : "No error views are linked: "}
          the error analysis shows where the gold key&apos;s mentions are, so only the task&apos;s organizers see it unless the phase allows participant analysis.
        </p>
      )}
    </>
  );
}

/** Text colour of a per-document difference (the sign says it too): green where A is better, red where B is. */
const DELTA_COLOUR = { A: "text-emerald-700", B: "text-red-700", none: "text-zinc-700" } as const;

/** A row of the per-document table. */
function DocumentRow({ d, links, linkA, linkB, names }: { d: CompareDocumentRow; links: boolean; linkA: string | null; linkB: string | null; names: [string, string] }) {
  return (
    <tr data-testid="compare-document-row">
      <th scope="row" className="max-w-[16rem] py-1.5 pr-4 text-left font-mono text-xs font-normal break-all">
        {d.dataset && <span className="text-zinc-600">{d.dataset} · </span>}
        {d.document}
      </th>
      <td className="py-1.5 pr-4 text-right">
        <Exact title={`F1 = ${d.a}`} exact={d.a}>
          {percentNumber(d.a)}
        </Exact>
      </td>
      <td className="py-1.5 pr-4 text-right">
        <Exact title={`F1 = ${d.b}`} exact={d.b}>
          {percentNumber(d.b)}
        </Exact>
      </td>
      <td className={`py-1.5 text-right font-medium tabular-nums ${links ? "pr-4" : ""} ${DELTA_COLOUR[d.better ?? "none"]}`} title={`Δ = A − B = ${d.deltaExact}`}>
        {d.delta}
      </td>
      {links && (
        <td className="py-1.5 whitespace-nowrap">
          {linkA && <DocLink href={documentHref(linkA, d.document, d.dataset)} label="A" title={`Errors of run A (${names[0]}) in ${d.document}`} />}
          {linkA && linkB && " "}
          {linkB && <DocLink href={documentHref(linkB, d.document, d.dataset)} label="B" title={`Errors of run B (${names[1]}) in ${d.document}`} />}
        </td>
      )}
    </tr>
  );
}

/** A small link button to a document error view; its accessible name says whose errors in which document. */
function DocLink({ href, label, title }: { href: string; label: string; title: string }) {
  return (
    <Link href={href} title={title} aria-label={title} className={`${secondaryButton} px-2 py-0.5 text-xs`}>
      {label}
    </Link>
  );
}

/**
 * The hover text of a run's corpus F1 on a metric: the exact fraction from the run's stored
 * counts when there are any, else the full-precision value.
 */
function exactF1Title(scores: BoardMetricsJson, metric: string, value: number): string {
  if (metric === "conll") return conllTitle(scores.conll?.f1 ?? value);
  if (metric === "blanc") return scores.blanc ? blancTitle(scores.blanc, "f1") : `F1 = ${value}`;
  const stored = (scores as Record<string, Parameters<typeof f1Title>[0] | undefined>)[metric];
  return stored && "recall_num" in stored ? f1Title(stored) : `F1 = ${value}`;
}
