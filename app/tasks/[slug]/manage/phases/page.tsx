import type { Metadata } from "next";
import { listDatasetsForOrganizers } from "../../../../../lib/services/datasets";
import { listTracksForOrganizers } from "../../../../../lib/services/tracks";
import type { PhaseView } from "../../../../../lib/services/tasks";
import type { Viewer } from "../../../../../lib/session";
import { TaskPhaseBadge, phaseState } from "../../../../_components/task-phase-badge";
import { phaseValuesFromPhase } from "../../../../_components/task-phase-form-data";
import { Card } from "../../../../_components/ui";
import { PhaseDatasetsForm } from "../datasets-form";
import { loadManagedTask, manageMetadata, type ManageParams } from "../manage-page";
import { PhaseSettingsForm } from "../phase-settings-form";
import { PhaseTracksForm } from "../tracks-form";

/** Title: "Phases · Manage <task>". */
export async function generateMetadata({ params }: ManageParams): Promise<Metadata> {
  return manageMetadata(params, "Phases");
}

/** One phase: its settings, datasets and tracks. */
async function PhaseSection({ phase, viewer, now, needsHeads }: { phase: PhaseView; viewer: Viewer; now: Date; needsHeads: boolean }) {
  const [tracks, datasets] = await Promise.all([listTracksForOrganizers(viewer, phase.id), listDatasetsForOrganizers(viewer, phase.id)]);
  return (
    <section id={`phase-${phase.id}`} aria-label={`Phase ${phase.name}`} className="space-y-4 scroll-mt-6" data-testid="manage-phase">
      <div className="flex items-center gap-3">
        <h2 className="text-xl font-semibold tracking-tight">Phase: {phase.name}</h2>
        <TaskPhaseBadge state={phaseState(phase, now)} />
      </div>
      <Card title="Settings">
        <PhaseSettingsForm phaseId={phase.id} initial={phaseValuesFromPhase(phase)} />
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
    </section>
  );
}

/** The console's phases tab: per phase its settings, datasets and tracks. */
export default async function ManagePhasesPage({ params }: ManageParams) {
  const { viewer, task, now } = await loadManagedTask(params);
  return (
    <div className="space-y-10">
      <h1 className="text-2xl font-semibold tracking-tight">Phases</h1>
      {task.phases.map((phase) => (
        <PhaseSection key={phase.id} phase={phase} viewer={viewer} now={now} needsHeads={task.evaluation.needsHeads} />
      ))}
    </div>
  );
}
