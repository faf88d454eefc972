import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { NotFoundError, ValidationError } from "../../lib/errors";
import type { BoardMetricsJson } from "../../lib/services/leaderboard";
import { compareRuns, SIGNIFICANCE_LEVEL, type ComparedRun, type RunComparison } from "../../lib/services/significance";
import { getViewer } from "../../lib/session";
import { isLeaderboardMetric, METRIC_LABELS } from "../../lib/validations/metrics";
import { blancTitle, conllTitle, f1Title, Percent } from "../_components/board-numbers";
import { documentHref } from "../_components/doc-links";
import { metricF1Name } from "../_components/metric-name";
import { Breadcrumbs, Card, Field, Notice, primaryButton, secondaryButton, Table, UtcTime } from "../_components/ui";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export const metadata: Metadata = { title: "Compare runs" };

/** The first value of a query parameter, trimmed ("" when absent). */
function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

/**
 * `/compare?a=<run id>&b=<run id>`: two runs of one phase compared by the paired bootstrap
 * over documents on every metric (A − B, its 95 % interval and two-sided p-value), then
 * per-document differences on the task's primary metric when the viewer may see both runs'
 * per-document scores. Without both ids: a form asking for them. Runs the viewer may not see
 * are a 404; runs that cannot be compared (same run, different phases, unscored, different
 * gold versions) give the reason.
 */
export default async function ComparePage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const a = first(sp.a);
  const b = first(sp.b);
  if (!a || !b) {
    return (
      <div className="space-y-6">
        <CompareHeading />
        <CompareForm a={a} b={b} />
      </div>
    );
  }

  let comparison: RunComparison;
  try {
    comparison = await compareRuns(await getViewer(), a, b);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof ValidationError) {
      return (
        <div className="space-y-6">
          <CompareHeading />
          <div data-testid="compare-error">
            <Notice kind="error">{error.message}</Notice>
          </div>
          <CompareForm a={a} b={b} />
        </div>
      );
    }
    throw error;
  }

  const c = comparison;
  const taskHref = `/tasks/${encodeURIComponent(c.task.slug)}`;
  const boardHref = `${taskHref}/phases/${encodeURIComponent(c.phase.id)}/leaderboard`;
  const { bootstrap } = c;

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <Breadcrumbs
          links={[
            { href: taskHref, label: c.task.title },
            { href: boardHref, label: `${c.phase.name} leaderboard` },
          ]}
        />
        <h1 className="text-2xl font-semibold tracking-tight">Compare runs</h1>
        <dl className="grid grid-cols-[2rem_1fr] gap-x-2 gap-y-1 text-sm" data-testid="compare-runs">
          <RunLine letter="A" run={c.a} />
          <RunLine letter="B" run={c.b} />
        </dl>
        <p className="text-sm">
          <Link href={`/compare?${new URLSearchParams({ a: c.b.id, b: c.a.id })}`} className="underline" data-testid="compare-swap">
            Swap A and B
          </Link>
        </p>
      </header>

      <Card
        title="Metrics"
        description={
          <>
            F1 of each run on all {bootstrap.documents.toLocaleString("en")} documents, and the difference Δ = A − B in percentage points with its
            95 % interval and two-sided p-value from the paired bootstrap over documents. Hover over a number for its exact value.
          </>
        }
      >
        <Table
          caption="Paired bootstrap comparison per metric"
          testId="compare-metrics"
          columns={[
            "Metric",
            { label: "A F1", right: true },
            { label: "B F1", right: true },
            { label: "Δ (points)", right: true },
            { label: "95 % interval of Δ", right: true },
            { label: "p-value", right: true },
            { label: `Significant at p < ${SIGNIFICANCE_LEVEL}` },
          ]}
        >
          {bootstrap.metrics.map((m) => {
            const primary = m.metric === c.task.primaryMetric;
            const significant = m.pValue < SIGNIFICANCE_LEVEL;
            return (
              <tr key={m.metric} className={primary ? "bg-zinc-50" : undefined} data-testid={`compare-metric-${m.metric}`} data-significant={significant}>
                <th scope="row" className={`py-2 pr-4 text-left ${primary ? "font-semibold" : "font-medium"}`}>
                  {metricLabel(m.metric)}
                  {primary && <span className="block text-xs font-normal text-zinc-500">primary metric</span>}
                </th>
                <td className="py-2 pr-4 text-right">
                  <Percent value={m.a} title={exactF1Title(c.a.scores, m.metric, m.a)} />
                </td>
                <td className="py-2 pr-4 text-right">
                  <Percent value={m.b} title={exactF1Title(c.b.scores, m.metric, m.b)} />
                </td>
                <td className="py-2 pr-4 text-right font-medium tabular-nums" title={`Δ = A − B = ${m.delta}`} data-testid="compare-delta">
                  {formatPoints(m.delta)}
                </td>
                <td className="py-2 pr-4 text-right tabular-nums whitespace-nowrap" title={`[${m.ci95[0]}, ${m.ci95[1]}]`}>
                  [{formatPoints(m.ci95[0])}, {formatPoints(m.ci95[1])}]
                </td>
                <td className="py-2 pr-4 text-right tabular-nums" title={`p = ${m.pValue}`} data-testid="compare-p">
                  {formatPValue(m.pValue)}
                </td>
                <td className="py-2">
                  {significant ? (
                    <span
                      className="rounded bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900"
                      title={`significant at p < ${SIGNIFICANCE_LEVEL}`}
                      data-testid="compare-significant"
                    >
                      significant
                    </span>
                  ) : (
                    <span className="text-zinc-400" title={`not significant at p < ${SIGNIFICANCE_LEVEL}`}>
                      —<span className="sr-only">not significant</span>
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </Table>
        <p className="mt-3 text-xs text-zinc-500" data-testid="compare-bootstrap">
          Paired bootstrap over {bootstrap.documents.toLocaleString("en")} documents: {bootstrap.samples.toLocaleString("en")} samples, seed{" "}
          {bootstrap.seed}. Each sample draws the documents with replacement, the same draws for both runs; the interval is the 2.5th to 97.5th
          percentile of the samples&apos; differences, and the p-value the share of samples whose difference lies as far from the observed Δ as Δ
          from 0 (so the smallest possible p-value is 1/{(bootstrap.samples + 1).toLocaleString("en")}). Significance is per metric, with no
          correction for testing several metrics.
        </p>
      </Card>

      <Card
        title={`Per document: ${metricF1Name(c.documentMetric)}`}
        description={c.documents ? "Documents by the size of their difference, largest first. Δ = A − B in percentage points." : undefined}
      >
        <DocumentDeltas comparison={c} />
      </Card>
    </div>
  );
}

/** The page title. */
function CompareHeading() {
  return (
    <header className="space-y-1">
      <h1 className="text-2xl font-semibold tracking-tight">Compare runs</h1>
      <p className="text-sm text-zinc-700">
        Compare two scored runs of the same phase: the paired bootstrap over documents tells whether their difference on each metric is
        significant. A run&apos;s id is the last part of its page&apos;s address (<span className="font-mono text-xs">/submissions/&lt;id&gt;</span>).
      </p>
    </header>
  );
}

/** The form asking for the two run ids (a GET form, so the comparison has a shareable address). */
function CompareForm({ a, b }: { a: string; b: string }) {
  return (
    <Form action="/compare" className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm" aria-label="Runs to compare" data-testid="compare-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Run A" name="a" defaultValue={a} required autoComplete="off" spellCheck={false} placeholder="run id" hint="Differences are A − B." />
        <Field label="Run B" name="b" defaultValue={b} required autoComplete="off" spellCheck={false} placeholder="run id" />
      </div>
      <button type="submit" className={primaryButton}>
        Compare
      </button>
    </Form>
  );
}

/** One compared run: its letter, name (linked to its page), team and submission time. */
function RunLine({ letter, run }: { letter: "A" | "B"; run: ComparedRun }) {
  return (
    <>
      <dt className="font-semibold text-zinc-500">{letter}</dt>
      <dd data-testid={`compare-run-${letter.toLowerCase()}`}>
        <Link href={`/submissions/${encodeURIComponent(run.id)}`} className="font-medium underline">
          {run.systemName}
        </Link>{" "}
        <span className="text-zinc-600">
          by {run.team.name}, submitted <UtcTime date={run.submittedAt} />,{" "}
          {run.datasets
            ? `macro-average over ${run.datasets.length} datasets (${run.datasets.map((d) => (d.missing ? `${d.name}: missing, counts 0` : `${d.name}: gold version ${d.goldVersion ?? "none"}`)).join("; ")})`
            : `gold version ${run.goldVersion}`}
        </span>
      </dd>
    </>
  );
}

/** The per-document table, or why it is hidden. */
function DocumentDeltas({ comparison: c }: { comparison: RunComparison }) {
  if (c.documents === null) {
    return (
      <div data-testid="compare-documents-hidden">
        <Notice kind="info">
          Per-document differences are hidden: they show the runs&apos; scores on each document, which the task&apos;s organizers see, and
          a run&apos;s own team too except on a phase whose leaderboard is hidden (there teams get corpus-level scores only, unless the
          organizers turn per-document scores on). Others see them where the phase&apos;s participant analysis lets them. You may not see
          them for both of these runs.
        </Notice>
      </div>
    );
  }
  if (c.documents.length === 0) return <p className="text-sm text-zinc-600">The runs have no documents in common.</p>;
  const linkA = c.a.canViewErrors;
  const linkB = c.b.canViewErrors;
  const links = linkA || linkB;
  return (
    <>
      <Table
        caption={`${metricF1Name(c.documentMetric)} per document, largest difference first`}
        testId="compare-documents"
        columns={[
          "Document",
          { label: "A F1", right: true },
          { label: "B F1", right: true },
          { label: "Δ (points)", right: true },
          ...(links ? ["Error views"] : []),
        ]}
      >
        {c.documents.map((d) => (
          <tr key={`${d.dataset ?? ""}/${d.document}`} data-testid="compare-document-row">
            <th scope="row" className="py-1.5 pr-4 text-left font-mono text-xs font-normal break-all">
              {d.dataset && <span className="text-zinc-500">{d.dataset} · </span>}
              {d.document}
            </th>
            <td className="py-1.5 pr-4 text-right">
              <Percent value={d.a} title={`F1 = ${d.a}`} />
            </td>
            <td className="py-1.5 pr-4 text-right">
              <Percent value={d.b} title={`F1 = ${d.b}`} />
            </td>
            <td className={`py-1.5 text-right font-medium tabular-nums ${links ? "pr-4" : ""} ${deltaColour(d.delta)}`} title={`Δ = A − B = ${d.delta}`}>
              {formatPoints(d.delta)}
            </td>
            {links && (
              <td className="py-1.5 whitespace-nowrap">
                {linkA && <DocLink href={documentHref(c.a.id, d.document, d.dataset ?? null)} label="A" title={`Errors of run A (${c.a.systemName}) in ${d.document}`} />}
                {linkA && linkB && " "}
                {linkB && <DocLink href={documentHref(c.b.id, d.document, d.dataset ?? null)} label="B" title={`Errors of run B (${c.b.systemName}) in ${d.document}`} />}
              </td>
            )}
          </tr>
        ))}
      </Table>
      {(!linkA || !linkB) && (
        <p className="mt-3 text-xs text-zinc-500">
          {links
            ? `Only run ${linkA ? "A" : "B"}'s error views are linked: `
            : "No error views are linked: "}
          the error analysis shows where the gold key&apos;s mentions are, so only the task&apos;s organizers see it unless the phase allows participant
          analysis.
        </p>
      )}
    </>
  );
}

/** A small link button to a document error view. */
function DocLink({ href, label, title }: { href: string; label: ReactNode; title: string }) {
  return (
    <Link href={href} title={title} className={`${secondaryButton} px-2 py-0.5 text-xs`}>
      {label}
    </Link>
  );
}

/** A metric's person-readable name (unknown names as they are). */
function metricLabel(metric: string): string {
  return isLeaderboardMetric(metric) ? METRIC_LABELS[metric] : metric;
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

/** A difference of fractions in percentage points with 2 decimals and a sign: `+1.23`, `-0.40`, `0.00`. */
function formatPoints(delta: number): string {
  const text = (Math.abs(delta) * 100).toFixed(2);
  if (Number(text) === 0) return "0.00";
  return `${delta > 0 ? "+" : "-"}${text}`;
}

/** A p-value with 3 decimals, or "< 0.001". */
function formatPValue(p: number): string {
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** Text colour of a per-document difference: green where A is better, red where B is. */
function deltaColour(delta: number): string {
  if (Number((Math.abs(delta) * 100).toFixed(2)) === 0) return "text-zinc-500";
  return delta > 0 ? "text-emerald-700" : "text-red-700";
}
