import type { Metadata } from "next";
import { listSubmissionsForPhase } from "../../../../../lib/services/submissions";
import { listTracksForOrganizers } from "../../../../../lib/services/tracks";
import type { PhaseView } from "../../../../../lib/services/tasks";
import type { Viewer } from "../../../../../lib/session";
import { Card } from "../../../../_components/ui";
import { loadManagedTask, manageMetadata, type ManageParams } from "../manage-page";
import { PhaseSubmissionsTable } from "../phase-submissions-table";

/** Title: "Submissions · Manage <task>". */
export async function generateMetadata({ params }: ManageParams): Promise<Metadata> {
  return manageMetadata(params, "Submissions");
}

/** One phase's runs. */
async function PhaseRuns({ phase, viewer }: { phase: PhaseView; viewer: Viewer }) {
  const [submissions, tracks] = await Promise.all([listSubmissionsForPhase(viewer, phase.id), listTracksForOrganizers(viewer, phase.id)]);
  return (
    <Card title={`Phase ${phase.name}: submissions (${submissions.length})`}>
      <PhaseSubmissionsTable submissions={submissions} withTracks={tracks.length > 0 || submissions.some((s) => s.track !== null)} />
    </Card>
  );
}

/** The console's submissions tab: every run of each phase. */
export default async function ManageSubmissionsPage({ params }: ManageParams) {
  const { viewer, task } = await loadManagedTask(params);
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Submissions</h1>
      {task.phases.map((phase) => (
        <PhaseRuns key={phase.id} phase={phase} viewer={viewer} />
      ))}
    </div>
  );
}
