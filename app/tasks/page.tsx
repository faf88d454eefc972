import type { Metadata } from "next";
import Link from "next/link";
import { listTasksForViewer, type TaskListItem } from "../../lib/services/tasks";
import { getViewer } from "../../lib/session";
import { UtcTime } from "../_components/ui";

export const metadata: Metadata = { title: "Tasks" };

/** How each state is labelled in the list (published tasks carry no label). */
const STATUS_LABEL: Record<TaskListItem["status"], string | null> = { DRAFT: "Draft", PUBLISHED: null, ARCHIVED: "Archived" };

/**
 * The task list: published and archived tasks for everyone (archived ones last), and the
 * drafts the viewer organizes (site admins: every draft), each with its phases and whether
 * they are open (`listTasksForViewer`).
 */
export default async function TasksPage() {
  const viewer = await getViewer();
  const now = new Date();
  const tasks = await listTasksForViewer(viewer, now);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Tasks</h1>
      {tasks.length === 0 ? (
        <p className="text-sm text-zinc-600">No tasks have been published yet.</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2" aria-label="Tasks">
          {tasks.map((task) => (
            <TaskItem key={task.id} task={task} now={now} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** One task: its title (a link), its state when not published, and its phases. */
function TaskItem({ task, now }: { task: TaskListItem; now: Date }) {
  const label = STATUS_LABEL[task.status];
  return (
    <li className="rounded-lg border border-zinc-200 bg-white p-5 shadow-sm" data-testid="task-card" data-status={task.status}>
      <h2 className="flex flex-wrap items-center gap-2 text-base font-semibold">
        <Link href={`/tasks/${encodeURIComponent(task.slug)}`} className="text-zinc-900 hover:underline">
          {task.title}
        </Link>
        {label && (
          <span className={`rounded px-2 py-0.5 text-xs font-semibold ${task.status === "DRAFT" ? "bg-amber-100 text-amber-900" : "bg-zinc-200 text-zinc-800"}`} data-testid="task-status">
            {label}
          </span>
        )}
      </h2>
      {task.phases.length > 0 && (
        <ul className="mt-3 space-y-1.5 text-sm">
          {task.phases.map((phase) => (
            <li key={phase.id} className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-medium text-zinc-800">{phase.name}</span>
              {phase.open ? (
                <span className="text-emerald-700">
                  open until <UtcTime date={phase.closesAt} />
                </span>
              ) : phase.opensAt > now ? (
                <span className="text-zinc-600">
                  opens <UtcTime date={phase.opensAt} />
                </span>
              ) : (
                <span className="text-zinc-500">
                  closed <UtcTime date={phase.closesAt} />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
