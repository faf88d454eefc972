import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { isDomainError } from "@/lib/errors";
import { quotaForViewer, type QuotaStatus, type TrackQuota, listSubmissionsForViewer, type SubmissionSummary } from "@/lib/runs";
import type { TrackView } from "@/lib/tasks";
import { listDatasets, type DatasetView } from "@/lib/tasks";
import type { Viewer } from "@/lib/auth/session";
import { formatUtc } from "@/lib/validations/time";
import { PhaseWindow } from "@/app/_components/phase-window";
import { SubmitDatasets } from "@/app/_components/run-datasets";
import { RunQuotaBox } from "@/app/_components/run-quota-box";
import { RunStatusLabel } from "@/app/_components/run-status-label";
import { RunUploadForm } from "@/app/_components/run-upload-form";
import { Breadcrumbs, Card, formatPercent, Notice, Table, UtcTime } from "@/app/_components/ui";
import { loadTaskForPage } from "@/app/tasks/[slug]/load-task";
import { LocalScoring, ParticipantFileLinks } from "@/app/tasks/[slug]/participant-files";

type Params = Promise<{ slug: string; phaseId: string }>;

/** Title: "Submit a run · <phase> phase · <task>" ("Not found" for a phase that is not the task's). */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug, phaseId } = await params;
  const { task } = await loadTaskForPage(slug);
  const phase = task.phases.find((p) => p.id === phaseId);
  return { title: phase ? `Submit a run · ${phase.name} phase · ${task.title}` : "Not found" };
}

/**
 * Submit page of a phase: the window, the team's quota (runs left today and in total, and
 * when the daily count resets; per track when a track has limits of its own), the phase's
 * tracks (the form requires one when there are any), what to upload (one file, or for a phase
 * with several datasets an archive with one file per dataset, listed with the expected file
 * names and languages), which team submits (fixed once the viewer has a run in the
 * task: no other team is offered), and the upload form (closed phases explain why instead). Anonymous visitors get a link to sign in. 404 for an unknown task, or
 * a phase that is not the task's.
 */
export default async function SubmitPage({ params }: { params: Params }) {
  const { slug, phaseId } = await params;
  const { viewer, task, now } = await loadTaskForPage(slug);
  const phase = task.phases.find((p) => p.id === phaseId);
  if (!phase) notFound();
  const taskHref = `/tasks/${encodeURIComponent(task.slug)}`;
  const phaseHref = `${taskHref}/phases/${encodeURIComponent(phase.id)}`;
  const here = `${phaseHref}/submit`;

  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <Breadcrumbs links={[{ href: taskHref, label: task.title }]} />
        <h1 className="break-words text-2xl font-semibold tracking-tight">Submit a run: {phase.name} phase</h1>
      </header>

      <Card title="Submission window" description={`Times are stored in UTC; the phase's time zone is ${phase.displayTimeZone}.`}>
        <PhaseWindow opensAt={phase.opensAt} closesAt={phase.closesAt} zone={phase.displayTimeZone} />
        {phase.canViewLeaderboard && (
          <p className="mt-3 text-sm">
            <Link href={`${phaseHref}/leaderboard`} className="font-medium underline">
              Leaderboard of this phase
            </Link>
          </p>
        )}
      </Card>

      <Card title="Test input and local scoring" description="The phase's blind test input, a sample submission in the expected shape, and the scorer the site uses.">
        <div className="space-y-3">
          <ParticipantFileLinks phaseId={phase.id} phaseName={phase.name} viewer={viewer} />
          <LocalScoring evaluation={task.evaluation} corefud={task.evaluation.needsHeads || (await listDatasets(phase.id)).some((d) => d.format === "conllu")} />
        </div>
      </Card>

      {!viewer ? (
        <Notice kind="info">
          Please{" "}
          <Link href={`/signin?callbackUrl=${encodeURIComponent(here)}`} className="font-medium underline">
            sign in
          </Link>{" "}
          to submit a run (no account yet?{" "}
          <Link href="/signup" className="font-medium underline">
            sign up
          </Link>
          ).
        </Notice>
      ) : !phase.open ? (
        <Notice kind="info">
          <span data-testid="phase-closed">
            {now < phase.opensAt
              ? `The ${phase.name} phase has not opened yet: it accepts runs from ${formatUtc(phase.opensAt)}.`
              : `The ${phase.name} phase is closed: it accepted runs until ${formatUtc(phase.closesAt)}.`}{" "}
            Uploads are possible only while the phase is open.
          </span>
        </Notice>
      ) : (
        <SubmitSection
          phaseId={phase.id}
          phaseName={phase.name}
          hasGold={phase.hasGold}
          tracks={phase.tracks}
          datasets={await listDatasets(phase.id)}
          viewer={viewer}
        />
      )}

      {viewer && <YourRuns viewer={viewer} phaseId={phase.id} withTracks={phase.tracks.length > 0} />}
    </div>
  );
}

/**
 * Quota box, team line or chooser, the phase's tracks, what to upload (its datasets), and the
 * upload form, for a signed-in viewer of an open phase. With no runs left under any quota the
 * viewer could use (`closedReason`), the form is shown disabled and says when the next upload
 * is possible, so no file is sent only to be refused.
 */
async function SubmitSection({
  phaseId,
  phaseName,
  hasGold,
  tracks,
  datasets,
  viewer,
}: {
  phaseId: string;
  phaseName: string;
  hasGold: boolean;
  tracks: TrackView[];
  datasets: DatasetView[];
  viewer: Viewer;
}) {
  const q = await quotaForViewer(viewer, phaseId);
  let quotas: { team: string | null; quota: QuotaStatus; tracks: TrackQuota[] | null }[];
  if (q.mustChooseTeam) {
    quotas = await Promise.all(
      q.teams.map(async (t) => {
        const own = await quotaForViewer(viewer, phaseId, t.id);
        return { team: t.name, quota: own.quota!, tracks: own.tracks };
      }),
    );
  } else {
    quotas = [{ team: q.team?.name ?? null, quota: q.quota!, tracks: q.tracks }];
  }
  const resetsAt = quotas[0]?.quota.resetsAt ?? new Date();
  // No runs left for any team (or any track) the viewer could submit for: the form is closed (the server refuses too).
  const noRunsLeft = closedReason(quotas);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 md:grid-cols-[minmax(0,1fr)_18rem]">
      <Card
        title="Upload"
        description={`Your file is checked at once${hasGold ? ", including its document names against the gold key's" : ""}; valid runs are then scored in the background against the ${phaseName} phase's gold key.`}
      >
        <p className="mb-4 text-sm text-zinc-700" data-testid="submitting-team">
          {q.mustChooseTeam ? (
            "You are in several teams: choose the one this run is for. Your first run in this task fixes your team for all its phases; after that only the organizers can change it."
          ) : q.fixed && q.team ? (
            <>
              Submitting as team <span className="font-medium">{q.team.name}</span>: you submit for this team in every phase of this task
              (one team per participant). Ask the organizers if it has to change.
            </>
          ) : q.team ? (
            <>
              Submitting as team <span className="font-medium">{q.team.name}</span>. Your first run in this task fixes your team for all its
              phases.
            </>
          ) : (
            "You are not in a team yet: a one-person team will be created for you, and it will be your team in this task."
          )}
        </p>
        {!hasGold && (
          <div className="mb-4">
            <Notice kind="info">The organizers have not uploaded the gold key yet: runs are accepted and will be scored once it is there.</Notice>
          </div>
        )}
        <SubmitDatasets datasets={datasets} />
        {tracks.length > 0 && <SubmitTracks tracks={tracks} />}
        <RunUploadForm phaseId={phaseId} teams={q.mustChooseTeam ? q.teams : null} tracks={tracks} datasetCount={datasets.length} closedReason={noRunsLeft} />
      </Card>
      <div>
        <RunQuotaBox quotas={quotas} resetsAt={resetsAt} />
      </div>
    </div>
  );
}

/** Whether a quota lets no run through now (nothing left in total, or nothing left today). */
function usedUp(quota: QuotaStatus): boolean {
  return quota.remainingTotal === 0 || quota.remainingToday === 0;
}

/**
 * Why the upload form is closed, or null while some run is possible: every quota the viewer
 * could submit under (each of their teams when they must choose one; each track of the team
 * when some track has limits of its own; else the team's) has nothing left. The sentence says
 * when the next upload is possible (the earliest daily reset among the quotas used up only
 * for today, in UTC; the quota box beside it gives the reader's time too), or that none is.
 *
 * @param quotas the submit page's quotas (one per team offered, with the per-track ones)
 */
function closedReason(quotas: readonly { quota: QuotaStatus; tracks: TrackQuota[] | null }[]): string | null {
  const options = quotas.flatMap((q) => (q.tracks ? q.tracks.map((t) => t.quota) : [q.quota]));
  if (options.length === 0 || !options.every(usedUp)) return null;
  const several = quotas.length > 1;
  const tracks = !several && quotas[0]?.tracks ? " in any track" : "";
  const daily = options.filter((q) => q.remainingTotal !== 0).map((q) => q.resetsAt.getTime());
  if (daily.length === 0) return several ? "None of your teams has runs left in this phase." : `Your team has no runs left in this phase${tracks}.`;
  const next = formatUtc(new Date(Math.min(...daily)));
  return several
    ? `None of your teams has runs left today; the next upload is possible from ${next}.`
    : `Your team has no runs left today${tracks}; the next upload is possible from ${next}.`;
}

/** The phase's tracks with their descriptions: every run declares one, and each is ranked on its own. */
function SubmitTracks({ tracks }: { tracks: TrackView[] }) {
  return (
    <div className="mb-4 text-sm text-zinc-700" data-testid="submit-tracks">
      <p>This phase has {tracks.length} tracks, each ranked on its own board; choose the one your run is in.</p>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 [&_dd]:break-words">
        {tracks.map((t) => (
          <div key={t.id} className="contents">
            <dt className="font-medium text-zinc-900">{t.name}</dt>
            <dd>{t.description || "—"}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The viewer's teams' runs in this phase, newest first (links to their pages), with their tracks when the phase has tracks. */
async function YourRuns({ viewer, phaseId, withTracks }: { viewer: Viewer; phaseId: string; withTracks: boolean }) {
  let runs: SubmissionSummary[];
  try {
    runs = await listSubmissionsForViewer(viewer, phaseId, 20);
  } catch (error) {
    if (isDomainError(error)) return null;
    throw error;
  }
  if (runs.length === 0) return null;
  return (
    <Card title="Your recent runs in this phase">
      <Table
        label="Your teams' runs in this phase, newest first"
        columns={["System", "Team", ...(withTracks ? ["Track"] : []), "Submitted", "Status", { label: "Primary F1 (%)", right: true }]}
      >
        {runs.map((r) => (
          <tr key={r.id}>
            <td className="py-2 pr-4">
              <Link href={`/submissions/${r.id}`} className="font-medium underline">
                {r.systemName}
              </Link>
            </td>
            <td className="py-2 pr-4">{r.team.name}</td>
            {withTracks && <td className="py-2 pr-4">{r.track?.name ?? "—"}</td>}
            <td className="whitespace-nowrap py-2 pr-4 text-zinc-600">
              <UtcTime date={r.submittedAt} />
            </td>
            <td className="py-2 pr-4">
              <RunStatusLabel status={r.status} />
            </td>
            <td className="py-2 text-right tabular-nums">{r.primaryF1 === null ? "—" : formatPercent(r.primaryF1)}</td>
          </tr>
        ))}
      </Table>
    </Card>
  );
}
