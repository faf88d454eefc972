/**
 * A task in a list (the home page and /tasks): its title as a link, its state when it is not
 * published (only its organizers see drafts), and each phase with whether it is open. Given a
 * `TaskSummary` (the /tasks page, `listTaskSummariesForViewer`) it also shows how many teams
 * and runs the task has, the top score of its current phase ("Top CoNLL F1 78.12 %") and a
 * countdown ("test phase closes in 3 days"), all rendered on the server.
 */
import Link from "./link";
import type { TaskListItem, TaskSummary } from "@/lib/tasks";
import { formatPercent, UtcTime } from "./ui";

/** How each state is labelled (published tasks carry no label). */
const STATUS_LABEL: Record<TaskListItem["status"], string | null> = { DRAFT: "Draft", PUBLISHED: null, ARCHIVED: "Archived" };

/** "1 team", "3 runs". */
function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

/** Whether the list item carries the /tasks page's numbers. */
function isSummary(task: TaskListItem | TaskSummary): task is TaskSummary {
  return "runs" in task;
}

/**
 * @param task a list item; a `TaskSummary` adds the counts, top score and countdown
 * @param heading the title's heading level in the page's outline
 * @param now the time that decides whether a phase is open, upcoming or closed
 */
export function TaskCard({ task, now, heading: Heading }: { task: TaskListItem | TaskSummary; now: Date; heading: "h2" | "h3" }) {
  const label = STATUS_LABEL[task.status];
  return (
    <li className="min-w-0 rounded-lg border border-zinc-200 bg-white p-5 shadow-sm" data-testid="task-card" data-status={task.status}>
      <Heading className="flex flex-wrap items-center gap-2 text-base font-semibold">
        <Link href={`/tasks/${encodeURIComponent(task.slug)}`} className="min-w-0 text-zinc-900 [overflow-wrap:anywhere] hover:underline">
          {task.title}
        </Link>
        {label && (
          <span className={`rounded px-2 py-0.5 text-xs font-semibold ${task.status === "DRAFT" ? "bg-amber-100 text-amber-900" : "bg-zinc-200 text-zinc-800"}`} data-testid="task-status">
            {label}
          </span>
        )}
      </Heading>
      {isSummary(task) && <TaskNumbers task={task} />}
      {task.phases.length > 0 && (
        <ul className="mt-3 space-y-1.5 text-sm" aria-label="Phases">
          {task.phases.map((phase) => (
            <li key={phase.id} className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-medium text-zinc-800">{phase.name}</span>
              {phase.open ? (
                <span className="text-emerald-800">
                  open until <UtcTime date={phase.closesAt} />
                </span>
              ) : phase.opensAt > now ? (
                <span className="text-zinc-700">
                  opens <UtcTime date={phase.opensAt} />
                </span>
              ) : (
                <span className="text-zinc-600">
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

/** Teams and runs, the current phase's top score, and its countdown. */
function TaskNumbers({ task }: { task: TaskSummary }) {
  const { current, topScore } = task;
  return (
    <div className="mt-2 space-y-1 text-sm text-zinc-700">
      <p data-testid="task-counts">
        {count(task.teams, "team")} · {count(task.runs, "run")}
      </p>
      {topScore && (
        <p data-testid="task-top-score">
          Top {topScore.label} <span className="font-semibold tabular-nums text-zinc-900">{formatPercent(topScore.value, { unit: true })}</span>
          {current && <span className="text-zinc-600"> ({current.name} phase)</span>}
        </p>
      )}
      {current && (
        <p data-testid="task-countdown" data-state={current.state}>
          <span className={current.state === "open" ? "font-medium text-emerald-800" : undefined}>
            {current.name} phase {current.countdown}
          </span>{" "}
          <span className="text-zinc-600">
            (<UtcTime date={current.at} />)
          </span>
        </p>
      )}
    </div>
  );
}
