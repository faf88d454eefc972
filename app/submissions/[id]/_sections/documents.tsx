/** The submission page's per-document scores, or why the run's team does not see them. */
import type { RunAnalysisView, SubmissionView } from "@/lib/runs";
import { documentScoresView, type SubmissionPageView } from "@/lib/view-models/submission-view";
import { RunDocumentTable } from "@/app/_components/run-document-table";
import { Card, Notice } from "@/app/_components/ui";

/**
 * The "Scores per document" card when the viewer may see per-document scores (document names
 * open their error views when the viewer may see those); for the run's team on a hidden phase,
 * a notice saying why they are withheld.
 */
export function DocumentScoresSection({ s, view, analysis }: { s: SubmissionView; view: SubmissionPageView; analysis: RunAnalysisView }) {
  const documents = documentScoresView(view.severalDatasets, analysis);
  return (
    <>
      {s.perDocument && s.perDocument.length > 0 && (
        <Card title="Scores per document" description={documents.description}>
          <RunDocumentTable documents={s.perDocument} submissionId={s.id} linkDocuments={documents.linkDocuments} initialSort={view.documentSort} />
        </Card>
      )}
      {s.perDocumentWithheld && s.scores && (
        <Notice kind="info">
          <span data-testid="per-document-withheld">
            The leaderboard of the {s.phase.name} phase is hidden, so teams see corpus-level scores only: per-document scores of a hidden test
            set would let every run probe the gold key.
          </span>
        </Notice>
      )}
    </>
  );
}
