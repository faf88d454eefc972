import type { Metadata } from "next";
import { listTaskSummariesForViewer } from "@/lib/tasks";
import { getViewer } from "@/lib/auth/session";
import { TaskCard } from "../_components/task-card";

export const metadata: Metadata = { title: "Tasks", description: "Coreference shared tasks on Corefboard: teams, runs, top scores and deadlines." };

/**
 * The task list: published and archived tasks for everyone (archived ones last), and the
 * drafts the viewer organizes (site admins: every draft), each with its phases and whether
 * they are open, its team and run counts, its current phase's top score and a countdown to
 * the phase's deadline (`listTaskSummariesForViewer`: aggregates, no query per task).
 */
export default async function TasksPage() {
  const viewer = await getViewer();
  const now = new Date();
  const tasks = await listTaskSummariesForViewer(viewer, now);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Tasks</h1>
      {tasks.length === 0 ? (
        <p className="text-sm text-zinc-600">No tasks have been published yet.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2" aria-label="Tasks">
          {tasks.map((task) => (
            <TaskCard key={task.id} task={task} now={now} heading="h2" />
          ))}
        </ul>
      )}
    </div>
  );
}
