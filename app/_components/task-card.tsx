/**
 * A task in a list (the home page and /tasks): its title as a link, its state when it is not
 * published (only its organizers see drafts), and each phase with whether it is open.
 */
import Link from "next/link";
import type { TaskListItem } from "../../lib/services/tasks";
import { UtcTime } from "./ui";

/** How each state is labelled (published tasks carry no label). */
const STATUS_LABEL: Record<TaskListItem["status"], string | null> = { DRAFT: "Draft", PUBLISHED: null, ARCHIVED: "Archived" };

/**
 * @param heading the title's heading level in the page's outline
 * @param now the time that decides whether a phase is open, upcoming or closed
 */
export function TaskCard({ task, now, heading: Heading }: { task: TaskListItem; now: Date; heading: "h2" | "h3" }) {
  const label = STATUS_LABEL[task.status];
  return (
    <li className="rounded-lg border border-zinc-200 bg-white p-5 shadow-sm" data-testid="task-card" data-status={task.status}>
      <Heading className="flex flex-wrap items-center gap-2 text-base font-semibold">
        <Link href={`/tasks/${encodeURIComponent(task.slug)}`} className="text-zinc-900 hover:underline">
          {task.title}
        </Link>
        {label && (
          <span className={`rounded px-2 py-0.5 text-xs font-semibold ${task.status === "DRAFT" ? "bg-amber-100 text-amber-900" : "bg-zinc-200 text-zinc-800"}`} data-testid="task-status">
            {label}
          </span>
        )}
      </Heading>
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
