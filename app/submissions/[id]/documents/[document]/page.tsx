import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { NotFoundError } from "../../../../../lib/errors";
import { getDocumentAnalysis, type DocumentAnalysisView } from "../../../../../lib/services/analysis";
import { getViewer } from "../../../../../lib/session";
import { errorMessagesBySpan, errorSides } from "../../../../_components/doc-error-spans";
import { DocErrorCounts, DocErrorList } from "../../../../_components/doc-errors";
import { documentHref, documentIdCandidates } from "../../../../_components/doc-links";
import { DocLegend, DocText, prepareSide } from "../../../../_components/doc-text";
import { RunMetricTable } from "../../../../_components/run-metric-table";
import { Breadcrumbs, Card, Notice } from "../../../../_components/ui";

type Params = Promise<{ id: string; document: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The `?dataset=` of the page (documents are named within a dataset on a phase with several), or null. */
function datasetParam(search: Record<string, string | string[] | undefined>): string | null {
  const value = search.dataset;
  const first = Array.isArray(value) ? value[0] : value;
  return first ? first : null;
}

/** The page title names the document. */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { document } = await params;
  return { title: `Errors in ${documentIdCandidates(document)[0]}` };
}

/**
 * The document's analysis, or a 404 when the run or document does not exist or the viewer
 * may not see the run's error analysis. The `[document]` segment is tried as Next.js hands
 * it over, then decoded once more (see `documentIdCandidates`); `dataset` names the dataset
 * holding it (else the service picks the first dataset whose analysis lists it).
 */
async function load(id: string, documentParam: string, dataset: string | null): Promise<DocumentAnalysisView> {
  const viewer = await getViewer();
  for (const documentId of documentIdCandidates(documentParam)) {
    try {
      return await getDocumentAnalysis(viewer, id, documentId, dataset);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  notFound();
}

/**
 * One document of a run, as the Kummerfeld & Klein error analysis sees it: the error counts,
 * the document's scores, the text with key and response mentions side by side (mentions in
 * errors marked), and the errors, each linked to its mentions. Plain server-rendered HTML,
 * so documents of many thousands of tokens stay usable. On a phase with several datasets the
 * page names the document's dataset (`?dataset=`), and its navigation stays in that dataset.
 */
export default async function DocumentErrorsPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id, document: documentParam } = await params;
  const view = await load(id, documentParam, datasetParam(await searchParams));
  const { submission: s, document: doc } = view;
  const dataset = view.dataset?.name ?? null;
  const taskHref = `/tasks/${encodeURIComponent(s.task.slug)}`;
  const submissionHref = `/submissions/${encodeURIComponent(s.id)}`;
  const here = documentHref(s.id, doc.id, dataset);

  const sides = errorSides(view.errors);
  const messages = errorMessagesBySpan(view.errors, sides);
  const keySide = prepareSide("key", view.key, doc.tokens.length, messages.key);
  const responseSide = prepareSide("response", view.response, doc.tokens.length, messages.response);
  const totalErrors = view.errors.length;

  const position = view.documentIds.indexOf(doc.id);
  const previous = position > 0 ? view.documentIds[position - 1] : null;
  const next = position >= 0 && position + 1 < view.documentIds.length ? view.documentIds[position + 1] : null;

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <Breadcrumbs
          links={[
            { href: taskHref, label: s.task.title },
            { href: submissionHref, label: s.systemName },
            { href: here, label: doc.id },
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
          version {s.goldVersion}. {doc.tokens.length.toLocaleString("en")} tokens,{" "}
          {view.key.length.toLocaleString("en")} key and {view.response.length.toLocaleString("en")} response entities
          {totalErrors > 0 ? `, ${totalErrors.toLocaleString("en")} ${totalErrors === 1 ? "error" : "errors"}` : ", no errors"}.
        </p>
        <DocumentNav submissionId={s.id} dataset={dataset} previous={previous} next={next} position={position} total={view.documentIds.length} />
      </header>

      {view.missingInResponse && (
        <Notice kind="info">
          The run has no document with this id, so it is scored as an empty response here: every key entity is a missing entity.
        </Notice>
      )}

      <Card title="Errors by category" description="Kummerfeld & Klein (2013) categories; hover over a category for what it means, click a count for its errors.">
        <DocErrorCounts counts={view.counts} />
      </Card>

      <Card
        title="Scores of this document"
        description={view.scores ? "Percentages with 2 decimals; hover over a number for its exact value. Recall and precision show their numerator/denominator." : undefined}
      >
        {view.scores ? (
          <RunMetricTable scores={view.scores} caption={`Scores of ${s.systemName} on ${doc.id}`} />
        ) : (
          <p className="text-sm text-zinc-600">No scores are stored for this document.</p>
        )}
      </Card>

      <Card
        title="Errors"
        description="Grouped by category, in document order. Each span links to its mention in the text below (token indices are 0-based, inclusive)."
      >
        <DocErrorList errors={view.errors} sides={sides} tokens={doc.tokens} keyShown={keySide.shown} responseShown={responseSide.shown} />
      </Card>

      <Card title="Text" description="Key (gold) mentions on the left, the run's mentions on the right, one row per sentence.">
        <div className="space-y-4">
          <DocLegend keySide={keySide} responseSide={responseSide} />
          <DocText tokens={doc.tokens} sentenceStarts={doc.sentenceStarts} keySide={keySide} responseSide={responseSide} />
        </div>
      </Card>

      <DocumentNav submissionId={s.id} dataset={dataset} previous={previous} next={next} position={position} total={view.documentIds.length} bottom />
    </div>
  );
}

/** Links to the previous and next documents of the key (in key order; of the same dataset), and where this one is. */
function DocumentNav({
  submissionId,
  dataset,
  previous,
  next,
  position,
  total,
  bottom = false,
}: {
  submissionId: string;
  /** the dataset's name on a phase with several datasets, else null */
  dataset: string | null;
  previous: string | null;
  next: string | null;
  position: number;
  total: number;
  /** the copy at the page's end: no test ids (they stay unique) */
  bottom?: boolean;
}) {
  return (
    <nav aria-label={bottom ? "Documents (end of page)" : "Documents"} className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      {previous !== null ? (
        <Link href={documentHref(submissionId, previous, dataset)} rel="prev" className="underline" data-testid={bottom ? undefined : "doc-prev"}>
          ← <span className="font-mono text-xs">{previous}</span>
        </Link>
      ) : (
        <span className="text-zinc-400">← first document</span>
      )}
      {position >= 0 && (
        <span className="text-zinc-500">
          document {(position + 1).toLocaleString("en")} of {total.toLocaleString("en")}
        </span>
      )}
      {next !== null ? (
        <Link href={documentHref(submissionId, next, dataset)} rel="next" className="underline" data-testid={bottom ? undefined : "doc-next"}>
          <span className="font-mono text-xs">{next}</span> →
        </Link>
      ) : (
        <span className="text-zinc-400">last document →</span>
      )}
    </nav>
  );
}
