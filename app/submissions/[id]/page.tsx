import type { Metadata } from "next";
import Link from "../../_components/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { NotFoundError } from "@/lib/errors";
import { getRunAnalysis } from "@/lib/runs/analysis";
import { runFinalState } from "@/lib/runs/final-selection";
import { listComparableRuns } from "@/lib/boards/significance";
import { getRunRank, runRankSentence, type RunRank } from "@/lib/runs/standing";
import { getSubmissionForViewer, type SubmissionView } from "@/lib/runs/submissions";
import type { Viewer } from "@/lib/permissions";
import { getViewer } from "@/lib/auth/session";
import { parseSubmissionQuery } from "@/lib/validations/submission-query";
import { formatUtc } from "@/lib/validations/time";
import { submissionPageView } from "@/lib/view-models/submission-view";
import { Instant } from "../../_components/phase-window";
import { RunDisclosureTable, RunErrorSummary } from "../../_components/run-analysis";
import { RunDatasetTable, RunMissingDatasets } from "../../_components/run-datasets";
import { RunDocumentTable } from "../../_components/run-document-table";
import { RunFailure } from "../../_components/run-failure";
import { RunMetricTable } from "../../_components/run-metric-table";
import { RunStatusBadge } from "../../_components/run-status-badge";
import { RunVariantScoreTable } from "../../_components/run-variant-scores";
import { RunWarnings } from "../../_components/run-warnings";
import { Breadcrumbs, Card, Notice, secondaryButton, UtcTime } from "../../_components/ui";
import { FinalRunForm } from "./final-run-form";
import { DisqualifyRunForm, RequalifyRunForm, WithdrawRunForm } from "./run-controls-form";

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
 * Links, flags, sentences and the metric rows are shaped by `submissionPageView`
 * (`lib/view-models/submission-view.ts`); the query (`?fractions=1` opens the raw fractions,
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
  const zone = s.phase.displayTimeZone;
  const { task: taskHref, board: boardHref, trackBoard: trackBoardHref } = view.hrefs;
  const several = view.severalDatasets;

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <Breadcrumbs
          links={[
            { href: taskHref, label: s.task.title },
            { href: trackBoardHref, label: `${s.phase.name} leaderboard${s.track ? `, ${s.track.name} track` : ""}` },
          ]}
        />
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 break-words text-2xl font-semibold tracking-tight" data-testid="system-name">
            {s.systemName}
          </h1>
          <RunStatusBadge id={s.id} initialStatus={s.status} />
          {s.isBaseline && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">baseline</span>}
          {s.visibility === "PRIVATE" && <span className="rounded bg-zinc-200 px-2 py-0.5 text-xs font-medium text-zinc-800">private</span>}
          {s.withdrawnAt && (
            <span className="rounded bg-zinc-700 px-2 py-0.5 text-xs font-medium text-white" data-testid="withdrawn-badge">
              withdrawn
            </span>
          )}
          {s.disqualified && (
            <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-900" data-testid="disqualified-badge">
              disqualified
            </span>
          )}
        </div>
        <p className="break-words text-sm text-zinc-700">
          Team <span className="font-medium" data-testid="team-name">{s.team.name}</span>
          {s.track && (
            <>
              {" "}
              · {s.track.name} track
            </>
          )}
        </p>
      </header>

      <RunControlNotices s={s} />

      {rank && <RunRankLine rank={rank} boardHref={boardHref} />}

      {s.status === "FAILED" && s.error && <RunFailure error={s.error} />}

      <Card
        title="Scores"
        description={
          s.scores
            ? `Percentages with 2 decimals; hover over a number for its exact value.${view.rawFractions ? " The numerators and denominators behind recall and precision are under the table." : ""}`
            : undefined
        }
      >
        {view.rescoring && (
          <div className="mb-4">
            <Notice kind="info">
              These scores were produced with {view.goldVersionText}; the run is being scored again (for example against a new gold version).
            </Notice>
          </div>
        )}
        {s.scores ? (
          <RunMetricTable scores={s.scores} caption={`Scores of ${s.systemName}`} fractionsOpen={view.fractionsOpen} />
        ) : (
          <p className="text-sm text-zinc-600" data-testid="no-scores">
            {s.status === "FAILED" ? "This run has no scores." : "Scores appear here as soon as scoring finishes; this page updates by itself."}
          </p>
        )}
        {s.scores && (
          <p className="mt-3 text-xs text-zinc-600" data-testid="score-provenance">
            {s.evaluation && <span data-testid="scored-with">Scored with: {s.evaluation.label}. </span>}
            Scored against {view.goldVersionText} with scorer version {s.scorerVersion ?? "?"}
            {s.scoredAt && (
              <>
                {" "}
                on <UtcTime date={s.scoredAt} />
              </>
            )}
            .
          </p>
        )}
      </Card>

      {several && (
        <Card
          title="Datasets"
          description="The run's scores above are the macro-average over the phase's datasets that have a gold key; a dataset the run left out counts as 0."
        >
          <div className="space-y-3">
            <RunMissingDatasets datasets={s.datasets} />
            <RunDatasetTable datasets={s.datasets} />
          </div>
        </Card>
      )}

      {view.variantScores && (
        <Card
          title="Scores under each evaluation setting"
          description={`F1 in % under the primary setting and each of the task's evaluation variants, ${several ? "per dataset, then the macro-average" : "on the phase's dataset"}; the CoNLL F1 first.`}
        >
          <RunVariantScoreTable table={view.variantScores} />
        </Card>
      )}

      {s.warnings.length > 0 && (
        <Card
          title={`Scorer warnings (${s.warnings.length})`}
          description="What the scorer noticed in this run at its last scoring: documents that are not in the gold key are ignored, and key documents missing from the run are scored as empty."
        >
          <RunWarnings warnings={s.warnings} />
        </Card>
      )}

      <Card title="Details">
        <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)] [&>dd]:min-w-0 [&>dd]:break-words">
          <dt className="text-zinc-600">Task</dt>
          <dd>
            <Link href={taskHref} className="underline">
              {s.task.title}
            </Link>
          </dd>
          <dt className="text-zinc-600">Phase</dt>
          <dd>{s.phase.name}</dd>
          {s.track && (
            <>
              <dt className="text-zinc-600">Track</dt>
              <dd data-testid="run-track">
                <Link href={trackBoardHref} className="underline">
                  {s.track.name}
                </Link>
              </dd>
            </>
          )}
          <dt className="text-zinc-600">Team</dt>
          <dd>{s.team.name}</dd>
          {s.submitter && (
            <>
              <dt className="text-zinc-600">Submitted by</dt>
              <dd>{s.submitter.name}</dd>
            </>
          )}
          <dt className="text-zinc-600">System</dt>
          <dd>{s.systemName}</dd>
          <dt className="text-zinc-600">Description</dt>
          <dd className="whitespace-pre-wrap">{s.description || <span className="text-zinc-600">none</span>}</dd>
          <dt className="text-zinc-600">Paper</dt>
          <dd>{s.paperUrl ? <ExternalLink href={s.paperUrl} /> : <span className="text-zinc-600">none</span>}</dd>
          <dt className="text-zinc-600">Code</dt>
          <dd>{s.codeUrl ? <ExternalLink href={s.codeUrl} /> : <span className="text-zinc-600">none</span>}</dd>
          <dt className="text-zinc-600">Submitted</dt>
          <dd>
            <Instant date={s.submittedAt} zone={zone} testId="submitted-at" />
          </dd>
          {s.file && (
            <>
              <dt className="text-zinc-600">File</dt>
              <dd>
                <span className="break-all font-mono text-xs">{s.file.name}</span>{" "}
                <span className="text-zinc-600">
                  ({view.fileSizeText}, sha256 <span className="font-mono text-xs" title={s.file.sha256}>{s.file.sha256.slice(0, 12)}…</span>)
                </span>
              </dd>
            </>
          )}
          <dt className="text-zinc-600">Gold version</dt>
          <dd data-testid="gold-version">
            {view.goldVersionDetail ?? <span className="text-zinc-600">not scored yet</span>}
          </dd>
          <dt className="text-zinc-600">Scorer version</dt>
          <dd data-testid="scorer-version">{s.scorerVersion ?? <span className="text-zinc-600">not scored yet</span>}</dd>
          <dt className="text-zinc-600">Evaluation</dt>
          <dd data-testid="evaluation-profile">
            {s.evaluation ? (
              <>
                {s.evaluation.label}
                {s.evaluation.variants.length > 0 && (
                  <span className="text-zinc-600"> (also scored: {s.evaluation.variants.map((v) => v.label).join("; ")})</span>
                )}
              </>
            ) : (
              <span className="text-zinc-600">not scored yet</span>
            )}
          </dd>
          {s.attempts !== undefined && (
            <>
              <dt className="text-zinc-600">Scoring attempts</dt>
              <dd>{s.attempts}</dd>
            </>
          )}
        </dl>
      </Card>

      {s.perDocument && s.perDocument.length > 0 && (
        <Card
          title="Scores per document"
          description={`F1 per document in %${several ? ", grouped by dataset (documents are named within a dataset)" : ""}; click a column header to sort.${
            analysis.available && analysis.canViewErrors ? " A document's name opens its error view." : ""
          }`}
        >
          <RunDocumentTable
            documents={s.perDocument}
            submissionId={s.id}
            linkDocuments={analysis.available && analysis.canViewErrors}
            initialSort={view.documentSort}
          />
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

      {analysis.available && (
        <Card
          title="Error analysis"
          description="Differences between key and response entities in the categories of Kummerfeld & Klein (2013): a mention off by a boundary, missing and extra mentions and entities, key entities divided across response entities, and response entities conflating key entities."
        >
          <RunErrorSummary analysis={analysis} />
        </Card>
      )}

      {analysis.disclosure && (
        <Card
          title="Pronoun resolution: standard disclosure"
          description="Byron's (2001) standard disclosure of pronoun resolution results, with the resolution rate RR."
        >
          <RunDisclosureTable disclosure={analysis.disclosure} />
        </Card>
      )}

      <RunControls s={s} />

      {finalState && (
        <Card title="Final run" description="Which of your team's runs count on this phase's leaderboard.">
          <FinalRunForm
            submissionId={s.id}
            selected={finalState.selected}
            count={finalState.count}
            limit={finalState.limit}
            canChange={finalState.selected ? finalState.canUnselect : finalState.canSelect}
            reason={finalState.reason}
            others={finalState.others.map((r) => r.systemName)}
            closesAtText={formatUtc(finalState.closesAt)}
          />
        </Card>
      )}

      {view.compare.length > 0 && (
        <Card title="Compare with another run" description="Per-metric differences with paired-bootstrap p-values, and per-document differences.">
          <form action="/compare" method="get" className="flex flex-wrap items-end gap-2" data-testid="compare-form">
            <input type="hidden" name="a" value={s.id} />
            <div className="min-w-0 max-w-full flex-1 space-y-1">
              <label htmlFor="compare-b" className="block text-sm font-medium text-zinc-800">
                Other run
              </label>
              {/* w-full: a long option must not widen the page on a phone. */}
              <select id="compare-b" name="b" className="w-full max-w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm">
                {view.compare.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={secondaryButton}>
              Compare
            </button>
          </form>
        </Card>
      )}
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

/** "Rank 3 of 12 by CoNLL F1." (or why the run has none), with a link to the board and, when another run counts for the team, to that run. */
function RunRankLine({ rank, boardHref }: { rank: RunRank; boardHref: string }) {
  const track = rank.kind !== "unranked" && rank.track ? `?track=${encodeURIComponent(rank.track.id)}` : "";
  return (
    <p className="text-sm text-zinc-800" data-testid="run-rank" data-rank={rank.kind === "ranked" ? String(rank.rank) : undefined}>
      <span className={rank.kind === "ranked" ? "font-semibold" : undefined}>{runRankSentence(rank)}</span>{" "}
      {rank.kind === "not-counted" && rank.counted && (
        <>
          <Link href={`/submissions/${encodeURIComponent(rank.counted.submissionId)}`} className="underline">
            Open the counted run
          </Link>
          {" · "}
        </>
      )}
      <Link href={`${boardHref}${track}`} className="underline">
        Leaderboard
      </Link>
    </p>
  );
}

/** What a withdrawal or a disqualification means for this run, said to whoever sees the page. */
function RunControlNotices({ s }: { s: SubmissionView }) {
  return (
    <>
      {s.withdrawnAt && (
        <Notice kind="info">
          <span data-testid="withdrawn-notice">
            {s.viewerIsTeamMember ? "Your team" : "The team"} withdrew this run on <UtcTime date={s.withdrawnAt} />. It is on no leaderboard; it still counts
            against the team&apos;s quota. Only the team and the organizers see this page.
          </span>
        </Notice>
      )}
      {s.disqualified && (
        <Notice kind="error">
          <span data-testid="disqualified-notice">
            Disqualified by the organizers on <UtcTime date={s.disqualified.at} />: {s.disqualified.reason}. The leaderboard shows the run struck through,
            without a rank.
          </span>
        </Notice>
      )}
    </>
  );
}

/** The team's "Withdraw this run" (while it may) and the organizers' "Disqualify" / "Reinstate"; nothing for others. */
function RunControls({ s }: { s: SubmissionView }) {
  const organizerControls = s.viewerIsOrganizer && !s.withdrawnAt;
  if (!s.viewerCanWithdraw && !organizerControls) return null;
  return (
    <Card title="Run controls">
      <div className="space-y-6">
        {s.viewerCanWithdraw && <WithdrawRunForm submissionId={s.id} closesAtText={formatUtc(s.withdrawableUntil)} />}
        {organizerControls && (
          <div className="space-y-3">
            <h3 className="text-sm font-semibold text-zinc-900">{s.disqualified ? "Disqualified: change the reason or reinstate" : "Disqualify this run"}</h3>
            <DisqualifyRunForm submissionId={s.id} currentReason={s.disqualified?.reason ?? null} />
            {s.disqualified && <RequalifyRunForm submissionId={s.id} />}
          </div>
        )}
      </div>
    </Card>
  );
}

/** A link to an outside page, opened safely in a new tab. */
function ExternalLink({ href }: { href: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="break-all underline">
      {href}
    </a>
  );
}
