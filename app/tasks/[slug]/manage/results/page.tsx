import type { Metadata } from "next";
import { snapshotReadiness } from "@/lib/boards";
import { TaskPhaseBadge, phaseState } from "@/app/_components/task-phase-badge";
import { loadManagedTask, manageMetadata, type ManageParams } from "../manage-page";
import { SnapshotPublishCard } from "../snapshot-publish-card";

/** Title: "Final results · Manage <task>". */
export async function generateMetadata({ params }: ManageParams): Promise<Metadata> {
  return manageMetadata(params, "Final results");
}

/**
 * The console's final results tab (issue 11 §2, moved off the phases tab by issue 24 §4): per
 * phase (anchor `#results-<phase id>`) its published snapshots and the form that publishes
 * its final results once it has closed (`SnapshotPublishCard`).
 */
export default async function ManageResultsPage({ params }: ManageParams) {
  const { viewer, task, now } = await loadManagedTask(params);
  const readiness = await Promise.all(task.phases.map((phase) => snapshotReadiness(viewer, phase.id, now)));
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Final results</h1>
      <p className="text-sm text-zinc-600">
        Once a phase has closed, publish its final ranking here as a snapshot that never changes. Each phase lists the snapshots published so far.
      </p>
      {task.phases.map((phase, i) => (
        <div key={phase.id} id={`results-${phase.id}`} className="scroll-mt-6 space-y-2" data-testid="manage-results-phase">
          <div className="flex items-center gap-2 text-sm text-zinc-600">
            <span>Phase {phase.name}:</span>
            <TaskPhaseBadge state={phaseState(phase, now)} />
          </div>
          <SnapshotPublishCard phase={{ id: phase.id, name: phase.name }} readiness={readiness[i]} />
        </div>
      ))}
    </div>
  );
}
