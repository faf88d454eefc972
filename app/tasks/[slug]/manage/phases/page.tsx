import type { Metadata } from "next";
import { snapshotReadiness } from "../../../../../lib/services/snapshots";
import { SnapshotPublishCard } from "../snapshot-publish-card";
import { listDatasetsForOrganizers } from "../../../../../lib/services/datasets";
import { listTracksForOrganizers } from "../../../../../lib/services/tracks";
import { phaseRunCounts, type PhaseView } from "../../../../../lib/services/tasks";
import type { Viewer } from "../../../../../lib/session";
import { TaskPhaseBadge, phaseState } from "../../../../_components/task-phase-badge";
import { newPhaseValues, phaseValuesFromPhase, utcToLocalInput } from "../../../../_components/task-phase-form-data";
import { Card } from "../../../../_components/ui";
import { PhaseDatasetsForm } from "../datasets-form";
import { loadManagedTask, manageMetadata, type ManageParams } from "../manage-page";
import { PhaseActions } from "../phase-actions";
import { PhaseAddForm } from "../phase-add-form";
import { PhaseSettingsForm } from "../phase-settings-form";
import { PhaseTracksForm } from "../tracks-form";

/** Title: "Phases · Manage <task>". */
export async function generateMetadata({ params }: ManageParams): Promise<Metadata> {
  return manageMetadata(params, "Phases");
}

/**
 * One phase: its settings (with the date preview), "Close now" while it is open, "Delete
 * phase" while it has no runs and is not the only phase, its datasets and tracks, and its
 * final results (publishing a snapshot once it has closed).
 */
async function PhaseSection({
  phase,
  viewer,
  now,
  needsHeads,
  runs,
  only,
  readOnly,
}: {
  phase: PhaseView;
  viewer: Viewer;
  now: Date;
  needsHeads: boolean;
  runs: number;
  only: boolean;
  readOnly: boolean;
}) {
  const [tracks, datasets, readiness] = await Promise.all([
    listTracksForOrganizers(viewer, phase.id),
    listDatasetsForOrganizers(viewer, phase.id),
    snapshotReadiness(viewer, phase.id, now),
  ]);
  return (
    <section id={`phase-${phase.id}`} aria-label={`Phase ${phase.name}`} className="space-y-4 scroll-mt-6" data-testid="manage-phase">
      <div className="flex items-center gap-3">
        <h2 className="text-xl font-semibold tracking-tight">Phase: {phase.name}</h2>
        <TaskPhaseBadge state={phaseState(phase, now)} />
      </div>
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
      <SnapshotPublishCard phase={{ id: phase.id, name: phase.name }} readiness={readiness} />
    </section>
  );
}

/**
 * The console's phases tab: per phase its settings, actions, datasets and tracks; then the
 * "Add phase" form (not in an archived task, which is read-only).
 */
export default async function ManagePhasesPage({ params }: ManageParams) {
  const { viewer, task, now } = await loadManagedTask(params);
  const runs = await phaseRunCounts(viewer, task.id);
  const readOnly = task.status === "ARCHIVED";
  const suggestion = newPhaseValues(
    task.phases.map((p) => ({ name: p.name, closesAt: utcToLocalInput(p.closesAt, "UTC") })),
    now,
  );
  return (
    <div className="space-y-10">
      <h1 className="text-2xl font-semibold tracking-tight">Phases</h1>
      {readOnly && <p className="text-sm text-zinc-700">This task is archived: its phases are read-only until it is unarchived (on the Overview tab).</p>}
      {task.phases.map((phase) => (
        <PhaseSection
          key={phase.id}
          phase={phase}
          viewer={viewer}
          now={now}
          needsHeads={task.evaluation.needsHeads}
          runs={runs[phase.id] ?? 0}
          only={task.phases.length === 1}
          readOnly={readOnly}
        />
      ))}
      {!readOnly && (
        <section aria-labelledby="add-phase-heading" className="space-y-4">
          <h2 id="add-phase-heading" className="text-xl font-semibold tracking-tight">
            Add a phase
          </h2>
          <Card title="New phase" description="It starts with one dataset, “main”; upload its gold key on the Gold tab. Times are read in the display time zone.">
            <PhaseAddForm key={task.phases.length} taskId={task.id} initial={suggestion} now={now} />
          </Card>
        </section>
      )}
    </div>
  );
}
