import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { NotFoundError } from "@/lib/errors";
import { getDocumentAnalysis, type DocumentAnalysisView } from "@/lib/runs";
import { getViewer } from "@/lib/auth/session";
import { buildDocumentView, documentNeighbours, type DocumentNeighbours } from "@/lib/view-models/document-view";
import { DocErrorCounts, DocErrorList } from "@/app/_components/doc-errors";
import { documentHref, documentIdCandidates } from "@/app/_components/doc-links";
import { DocLegend, DocText, renderDocText } from "@/app/_components/doc-text";
import { RunMetricTable } from "@/app/_components/run-metric-table";
import { Breadcrumbs, Card, Notice } from "@/app/_components/ui";

type Params = Promise<{ id: string; document: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The `?dataset=` of the page (documents are named within a dataset on a phase with several), or null. */
function datasetParam(search: Record<string, string | string[] | undefined>): string | null {
  const value = search.dataset;
  const first = Array.isArray(value) ? value[0] : value;
  return first ? first : null;
}

/**
 * The document's analysis and the milliseconds it took to load, or a 404 when the run or
 * document does not exist or the viewer may not see the run's error analysis. The
 * `[document]` segment is tried as Next.js hands it over, then decoded once more (see
 * `documentIdCandidates`); `dataset` names the dataset holding it (else the service picks
 * the first dataset whose analysis lists it). Cached per request, so the title and the page
 * load it once.
 */
const load = cache(async (id: string, documentParam: string, dataset: string | null): Promise<{ analysis: DocumentAnalysisView; loadMs: number }> => {
  const started = performance.now();
  const viewer = await getViewer();
  for (const documentId of documentIdCandidates(documentParam)) {
    try {
      const analysis = await getDocumentAnalysis(viewer, id, documentId, dataset);
      return { analysis, loadMs: performance.now() - started };
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  notFound();
});

/** The page title names the document and the run: "Errors in <document> · <system> · Corefboard". */
export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { id, document } = await params;
  const { analysis } = await load(id, document, datasetParam(await searchParams));
  return { title: `Errors in ${analysis.document.id} · ${analysis.submission.systemName}` };
}

/**
 * The view model and the text's HTML, with the milliseconds both took (the page's own work:
 * everything after loading, up to handing React the finished HTML strings).
 */
function buildView(analysis: DocumentAnalysisView) {
  const started = performance.now();
  const { tokens, sentenceStarts } = analysis.document;
  const view = buildDocumentView({ tokenCount: tokens.length, sentenceStarts, key: analysis.key, response: analysis.response, errors: analysis.errors });
  const text = renderDocText(view, tokens);
  return { view, text, buildMs: performance.now() - started };
}

/**
 * One document of a run, as the Kummerfeld & Klein error analysis sees it: the error counts,
 * the document's scores, the errors (each message shown, linked to its mentions), and the
 * text with key and response side by side under one entity numbering, only the differences
 * marked (see lib/view-models/document-view.ts). Plain server-rendered HTML, so documents of
 * many thousands of tokens stay usable; the page says how long building the view took. On a
 * phase with several datasets the page names the document's dataset (`?dataset=`), and its
 * navigation stays in that dataset.
 */
export default async function DocumentErrorsPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id, document: documentParam } = await params;
  const { analysis, loadMs } = await load(id, documentParam, datasetParam(await searchParams));
  const { submission: s, document: doc } = analysis;
  const dataset = analysis.dataset?.name ?? null;
  const submissionHref = `/submissions/${encodeURIComponent(s.id)}`;
  const { view, text, buildMs } = buildView(analysis);
  const nav = documentNeighbours(analysis.documentIds, doc.id);
  const totalErrors = view.errors.length;
  const n = (x: number) => x.toLocaleString("en");

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <Breadcrumbs
          links={[
            { href: `/tasks/${encodeURIComponent(s.task.slug)}`, label: s.task.title },
            { href: submissionHref, label: s.systemName },
            { href: documentHref(s.id, doc.id, dataset), label: doc.id },
          ]}
        />
        <h1 className="text-2xl font-semibold tracking-tight">
          Errors in <span className="break-all font-mono text-xl" data-testid="doc-id">{doc.id}</span>
        </h1>
        <p className="text-sm text-zinc-700">
          Run{" "}
          <Link href={submissionHref} className="font-medium underline">
            {s.systemName}
          </Link>{" "}
          of team {s.team.name}, {s.phase.name} phase{dataset !== null && <>, dataset <span data-testid="doc-dataset">{dataset}</span></>}, against gold
          version {s.goldVersion}. {n(doc.tokens.length)} tokens, {n(analysis.key.length)} key and {n(analysis.response.length)} response entities
          {totalErrors > 0 ? `, ${n(totalErrors)} ${totalErrors === 1 ? "error" : "errors"}` : ", no errors"}.
        </p>
        <DocumentNav submissionId={s.id} dataset={dataset} nav={nav} />
      </header>

      {analysis.missingInResponse && (
        <Notice kind="info">
          The run has no document with this id, so it is scored as an empty response here: every key entity is a missing entity.
        </Notice>
      )}

      <Card title="Errors by category" description="Kummerfeld & Klein (2013) categories; the list below says what each means. Click a count for its errors.">
        <DocErrorCounts counts={analysis.counts} />
      </Card>

      <Card
        title="Scores of this document"
        description={analysis.scores ? "Percentages with 2 decimals; hover over a number for its exact value. Recall and precision show their numerator/denominator." : undefined}
      >
        {analysis.scores ? (
          <RunMetricTable scores={analysis.scores} caption={`Scores of ${s.systemName} on ${doc.id}`} />
        ) : (
          <p className="text-sm text-zinc-600">No scores are stored for this document.</p>
        )}
      </Card>

      <Card
        title="Errors"
        description="Grouped by category, in document order, with entity numbers as in the text below. Each span links to its mention in the text (token indices are 0-based, inclusive); each marked mention in the text links back here."
      >
        <DocErrorList errors={view.errors} tokens={doc.tokens} keyShown={view.key.shown} responseShown={view.response.shown} />
      </Card>

      <Card title="Text" description="Key (gold) mentions on the left, the run's on the right, one row per sentence. Both columns number entities the same way.">
        <div className="space-y-4">
          <DocLegend view={view} />
          <DocText sentences={view.sentences} text={text} />
          <p className="text-xs text-zinc-600" data-testid="doc-render-time">
            Built the view of {n(doc.tokens.length)} tokens ({n(view.key.shown.size + view.response.shown.size)} mentions, {n(totalErrors)}{" "}
            {totalErrors === 1 ? "error" : "errors"}) in {formatMs(buildMs)} on the server, after loading the document&apos;s files and analysis in{" "}
            {formatMs(loadMs)}.
          </p>
        </div>
      </Card>

      <DocumentNav submissionId={s.id} dataset={dataset} nav={nav} bottom />
    </div>
  );
}

/** Milliseconds as "12 ms" (whole numbers; "< 1 ms" below one). */
function formatMs(ms: number): string {
  return ms < 1 ? "< 1 ms" : `${Math.round(ms).toLocaleString("en")} ms`;
}

/** Links to the previous and next documents of the key (in key order; of the same dataset), and where this one is. */
function DocumentNav({
  submissionId,
  dataset,
  nav,
  bottom = false,
}: {
  submissionId: string;
  /** the dataset's name on a phase with several datasets, else null */
  dataset: string | null;
  nav: DocumentNeighbours;
  /** the copy at the page's end: no test ids (they stay unique) */
  bottom?: boolean;
}) {
  const { previous, next, position, total } = nav;
  return (
    <nav aria-label={bottom ? "Documents (end of page)" : "Documents"} className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      {previous !== null ? (
        <Link href={documentHref(submissionId, previous, dataset)} rel="prev" className="break-all underline" data-testid={bottom ? undefined : "doc-prev"}>
          ← <span className="font-mono text-xs">{previous}</span>
        </Link>
      ) : (
        <span className="text-zinc-600">← first document</span>
      )}
      {position >= 0 && (
        <span className="text-zinc-600">
          document {(position + 1).toLocaleString("en")} of {total.toLocaleString("en")}
        </span>
      )}
      {next !== null ? (
        <Link href={documentHref(submissionId, next, dataset)} rel="next" className="break-all underline" data-testid={bottom ? undefined : "doc-next"}>
          <span className="font-mono text-xs">{next}</span> →
        </Link>
      ) : (
        <span className="text-zinc-600">last document →</span>
      )}
    </nav>
  );
}
