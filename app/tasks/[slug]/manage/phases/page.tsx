import type { Metadata } from "next";
import { listDatasetsForOrganizers, listTracksForOrganizers, phaseRunCounts, type PhaseView } from "@/lib/tasks";
import type { Viewer } from "@/lib/auth/session";
import { TaskPhaseBadge, phaseState } from "@/app/_components/task-phase-badge";
import { newPhaseValues, phaseValuesFromPhase, utcToLocalInput } from "@/app/_components/task-phase-form-data";
import Link from "@/app/_components/link";
import { Card, UtcTime, secondaryButton } from "@/app/_components/ui";
import { PhaseDatasetsForm } from "../datasets-form";
import { loadManagedTask, manageMetadata, type ManageParams } from "../manage-page";
import { PhaseActions } from "../phase-actions";
import { PhaseAnchorOpener } from "../phase-anchor-opener";
import { PhaseAddForm } from "../phase-add-form";
import { PhaseSettingsForm } from "../phase-settings-form";
import { PhaseTracksForm } from "../tracks-form";

/** Title: "Phases · Manage <task>". */
export async function generateMetadata({ params }: ManageParams): Promise<Metadata> {
  return manageMetadata(params, "Phases");
}

/** The phases tab's params: `?phase=<id>` renders that phase's section open. */
type Params = ManageParams & { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The phase whose section the tab renders open: the one `?phase=` names, else the first phase
 * open at `now`, else the first phase (null for a task without phases).
 *
 * @param phases the task's phases, in their order
 * @param requested the `phase` query parameter, if any
 */
function expandedPhaseId(phases: PhaseView[], requested: string | undefined, now: Date): string | null {
  if (requested && phases.some((p) => p.id === requested)) return requested;
  return (phases.find((p) => phaseState(p, now) === "open") ?? phases[0])?.id ?? null;
}

/**
 * One phase, as a collapsible section (`<details>` inside `<section id="phase-<id>">`): the
 * summary line says its name, state, window and run count; inside are its settings (with the
 * date preview), "Close now" while it is open, "Delete phase" while it has no runs and is not
 * the only phase, its datasets and tracks, and a link to its final results (Final results tab).
 */
async function PhaseSection({
  slug,
  phase,
  viewer,
  now,
  needsHeads,
  runs,
  only,
  readOnly,
  expanded,
}: {
  slug: string;
  phase: PhaseView;
  viewer: Viewer;
  now: Date;
  needsHeads: boolean;
  runs: number;
  only: boolean;
  readOnly: boolean;
  expanded: boolean;
}) {
  const [tracks, datasets] = await Promise.all([listTracksForOrganizers(viewer, phase.id), listDatasetsForOrganizers(viewer, phase.id)]);
  return (
    <section id={`phase-${phase.id}`} aria-label={`Phase ${phase.name}`} className="scroll-mt-6" data-testid="manage-phase">
      <details open={expanded} className="group rounded-lg border border-zinc-200 bg-zinc-50">
        <summary
          className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 rounded-lg px-4 py-3 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-zinc-400"
          data-testid="manage-phase-summary"
        >
          <h2 className="text-xl font-semibold tracking-tight">Phase: {phase.name}</h2>
          <TaskPhaseBadge state={phaseState(phase, now)} />
          <span className="text-sm text-zinc-600">
            <UtcTime date={phase.opensAt} /> – <UtcTime date={phase.closesAt} /> · {runs} run{runs === 1 ? "" : "s"}
          </span>
        </summary>
        <div className="space-y-4 px-4 pb-4 pt-2">
          <Card title="Settings" description={`${runs} run${runs === 1 ? "" : "s"} in this phase. A phase with runs cannot be deleted; close it instead.`}>
            <div className="space-y-6">
              <PhaseSettingsForm phaseId={phase.id} initial={phaseValuesFromPhase(phase)} now={now} readOnly={readOnly} />
              {!readOnly && <PhaseActions phaseId={phase.id} phaseName={phase.name} canClose={phase.open} canDelete={runs === 0 && !only} />}
            </div>
          </Card>
          <Card
            title={`Datasets (${datasets.length})`}
            description="Each dataset has its own gold key. With several datasets, a run is one archive (.zip or .tar.gz) holding each dataset's file under its expected file name; the leaderboard ranks the macro-average over the datasets with a gold key, a dataset a run leaves out counting 0. A dataset that runs have files for cannot be deleted."
          >
            <PhaseDatasetsForm phaseId={phase.id} datasets={datasets} needsHeads={needsHeads} />
          </Card>
          <Card
            title={`Tracks (${tracks.length})`}
            description="Tracks (e.g. LLM and unconstrained) are ranked separately, each on its own board with the baselines as reference rows. Once a phase has tracks, every run must declare one. Runs count against the phase's limits, shared by all tracks, unless a track has limits of its own: then only its runs count, against those. A track with runs cannot be deleted."
          >
            <PhaseTracksForm phaseId={phase.id} tracks={tracks} />
          </Card>
          <p className="text-sm text-zinc-700">
            <Link href={`/tasks/${encodeURIComponent(slug)}/manage/results#results-${phase.id}`} className={secondaryButton}>
              Final results of the {phase.name} phase
            </Link>
          </p>
        </div>
      </details>
    </section>
  );
}

/**
 * The console's phases tab: one collapsible section per phase (the one `?phase=` names, else
 * the one open now, else the first, is expanded; `#phase-<id>` opens its section too); then
 * "Add a phase", a disclosure holding the form (not in an archived task, which is read-only).
 * Final results are on their own tab (`../results`).
 */
export default async function ManagePhasesPage({ params, searchParams }: Params) {
  const { viewer, task, now } = await loadManagedTask(params);
  const requested = (await searchParams).phase;
  const runs = await phaseRunCounts(viewer, task.id);
  const readOnly = task.status === "ARCHIVED";
  const expanded = expandedPhaseId(task.phases, typeof requested === "string" ? requested : undefined, now);
  const suggestion = newPhaseValues(
    task.phases.map((p) => ({ name: p.name, closesAt: utcToLocalInput(p.closesAt, "UTC") })),
    now,
  );
  return (
    <div className="space-y-6">
      <PhaseAnchorOpener />
      <h1 className="text-2xl font-semibold tracking-tight">Phases</h1>
      {readOnly && <p className="text-sm text-zinc-700">This task is archived: its phases are read-only until it is unarchived (on the Overview tab).</p>}
      <p className="text-sm text-zinc-600">Click a phase to show or hide its settings, datasets and tracks.</p>
      {task.phases.map((phase) => (
        <PhaseSection
          key={phase.id}
          slug={task.slug}
          phase={phase}
          viewer={viewer}
          now={now}
          needsHeads={task.evaluation.needsHeads}
          runs={runs[phase.id] ?? 0}
          only={task.phases.length === 1}
          readOnly={readOnly}
          expanded={phase.id === expanded}
        />
      ))}
      {!readOnly && (
        <details id="add-phase" className="rounded-lg border border-dashed border-zinc-300">
          <summary
            className={`${secondaryButton} m-3 cursor-pointer list-none [&::-webkit-details-marker]:hidden`}
            data-testid="add-phase-toggle"
          >
            Add a phase
          </summary>
          <div className="px-3 pb-3">
            <Card title="New phase" description="It starts with one dataset, “main”; upload its gold key on the Gold tab. Times are read in the display time zone.">
              <PhaseAddForm key={task.phases.length} taskId={task.id} initial={suggestion} now={now} />
            </Card>
          </div>
        </details>
      )}
    </div>
  );
}
