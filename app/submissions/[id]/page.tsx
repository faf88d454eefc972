import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { NotFoundError } from "@/lib/errors";
import { getRunAnalysis, runFinalState, getRunRank, type RunRank, getSubmissionForViewer, type SubmissionView } from "@/lib/runs";
import { listComparableRuns } from "@/lib/boards";
import type { Viewer } from "@/lib/permissions";
import { getViewer } from "@/lib/auth/session";
import { parseSubmissionQuery } from "@/lib/validations/submission-query";
import { submissionPageView } from "@/lib/view-models/submission-view";
import { RunFailure } from "../../_components/run-failure";
import { AnalysisSections } from "./_sections/analysis";
import { CompareCard } from "./_sections/compare";
import { FinalRunCard, RunControlNotices, RunControls } from "./_sections/controls";
import { DatasetsCard } from "./_sections/datasets";
import { DetailsCard } from "./_sections/details";
import { DocumentScoresSection } from "./_sections/documents";
import { SubmissionHeader } from "./_sections/header";
import { ScoresCard, VariantScoresCard, WarningsCard } from "./_sections/scores";
import { RunRankLine } from "./_sections/standing";

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The viewer and the submission as they see it, once per request (the title and the page
 * share it); a 404 when it does not exist or the viewer may not see it.
 */
const load = cache(async (id: string): Promise<{ viewer: Viewer; s: SubmissionView }> => {
  const viewer = await getViewer();
  try {
    return { viewer, s: await getSubmissionForViewer(id, viewer) };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});

/** Title: "<system> by <team> · <phase> phase · <task>". */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { s } = await load((await params).id);
  return { title: `${s.systemName} by ${s.team.name} · ${s.phase.name} phase · ${s.task.title}` };
}

/**
 * One submission: a live status badge, its metadata (its track, the gold and scorer versions
 * and the evaluation profile behind the scores), the full metric table, on a phase with
 * several datasets the run's datasets (file, gold version, CoNLL F1, or "missing — counts as
 * 0") and which datasets it left out, for a task with evaluation variants the run's F1 per
 * dataset under the primary setting and each variant (`variantScoreTable`), the scorer's warnings
 * (to everyone who may see the run), the error when it failed, and per-document
 * scores when the viewer may see them (else, for the run's team on a hidden phase, why
 * not); then the run's analyses (error analysis where the phase's participant analysis
 * allows it, the pronoun disclosure) and a chooser to compare it with another run.
 *
 * Run controls (issue 11 §3, §4): a withdrawn run is marked "withdrawn" (only its team and
 * the organizers reach its page; for others it is a 404), a disqualified one "disqualified"
 * with the organizers' public reason. The team sees "Withdraw this run" while the phase is
 * open; organizers see "Disqualify" with a reason field, and "Reinstate" when disqualified.
 *
 * Standing (issue 11 §4): the run's rank on the phase's default board as the viewer sees it
 * ("Rank 3 of 12 by CoNLL F1"), or why it has none (`getRunRank`); on a team-selected phase
 * the run's team gets "Count as final" / "Remove from final runs" with "k of N final runs
 * chosen" (`runFinalState`, `setFinalSelection`).
 *
 * The page composes the section components of `./_sections/` (header, standing, scores,
 * datasets, details, documents, analysis, controls, compare), in this order. Links, flags,
 * sentences and the metric rows are shaped by `submissionPageView` and its siblings
 * (`documentScoresView`, `runRankLinks`, `runControlsView`, `finalRunView`) in
 * `lib/view-models/submission-view.ts`; the query (`?fractions=1` opens the raw fractions,
 * `?sort=<metric|document>&order=asc|desc` sorts the per-document table first) is parsed by
 * `parseSubmissionQuery` (`lib/validations/submission-query.ts`). Percentages are written with
 * 2 decimals and the `%` in the column headers; raw fractions only on demand. Every table
 * scrolls inside its own keyboard-reachable region, so the page never scrolls sideways at
 * 390 px.
 */
export default async function SubmissionPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id } = await params;
  const { viewer, s } = await load(id);
  const [analysis, comparable, rank, finalState] = await Promise.all([
    getRunAnalysis(viewer, s.id),
    listComparableRuns(viewer, s.id),
    rankOrNull(viewer, s.id),
    runFinalState(viewer, s.id),
  ]);
  const view = submissionPageView(s, comparable, parseSubmissionQuery(await searchParams));

  return (
    <div className="space-y-6">
      <SubmissionHeader s={s} view={view} />

      <RunControlNotices s={s} />

      {rank && <RunRankLine rank={rank} boardHref={view.hrefs.board} />}

      {s.status === "FAILED" && s.error && <RunFailure error={s.error} />}

      <ScoresCard s={s} view={view} />

      {view.severalDatasets && <DatasetsCard s={s} />}

      <VariantScoresCard view={view} />

      <WarningsCard s={s} />

      <DetailsCard s={s} view={view} />

      <DocumentScoresSection s={s} view={view} analysis={analysis} />

      <AnalysisSections analysis={analysis} />

      <RunControls s={s} />

      {finalState && <FinalRunCard submissionId={s.id} state={finalState} />}

      <CompareCard submissionId={s.id} options={view.compare} />
    </div>
  );
}

/** The run's rank (or why it has none); null when it cannot be worked out (the run vanished meanwhile). */
async function rankOrNull(viewer: Viewer, id: string): Promise<RunRank | null> {
  try {
    return await getRunRank(viewer, id);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
