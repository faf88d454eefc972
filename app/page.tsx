import Link from "next/link";
import { getViewer } from "../lib/session";
import { listTasksForViewer, type TaskListItem } from "../lib/services/tasks";
import { UtcTime } from "./_components/ui";

/** Home: what Corefboard is, and the list of tasks with their phases. */
export default async function HomePage() {
  const viewer = await getViewer();
  const now = new Date();
  const tasks = await listTasksForViewer(viewer, now);
  return (
    <div className="space-y-10">
      <section className="space-y-3">
        <h1 className="text-3xl font-semibold tracking-tight">Coreference shared tasks, scored exactly</h1>
        <p className="max-w-2xl text-zinc-700">
          Corefboard runs leaderboards for coreference-resolution shared tasks. Teams upload their system output; it is
          scored in the background against gold keys that only the organizers can see, with MUC, B³, CEAFm, CEAFe, LEA,
          BLANC and the CoNLL F1, matching the CoNLL reference scorer.
        </p>
        {!viewer && (
          <p className="text-sm text-zinc-600">
            <Link href="/signup" className="font-medium text-zinc-900 underline">
              Create an account
            </Link>{" "}
            to join a team and submit.
          </p>
        )}
      </section>

      {/* Task list (listTasksForViewer in lib/services/tasks.ts). */}
      <section id="tasks" aria-labelledby="tasks-heading" className="space-y-4">
        <h2 id="tasks-heading" className="text-xl font-semibold tracking-tight">
          Tasks
        </h2>
        {tasks.length === 0 ? (
          <p className="text-sm text-zinc-600">No tasks have been created yet.</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {tasks.map((task) => (
              <TaskCard key={task.id} task={task} now={now} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function TaskCard({ task, now }: { task: TaskListItem; now: Date }) {
  return (
    <li className="rounded-lg border border-zinc-200 bg-white p-5 shadow-sm" data-testid="task-card">
      <h3 className="text-base font-semibold">
        <Link href={`/tasks/${encodeURIComponent(task.slug)}`} className="text-zinc-900 hover:underline">
          {task.title}
        </Link>
      </h3>
      {task.phases.length > 0 && (
        <ul className="mt-3 space-y-1.5 text-sm">
          {task.phases.map((phase) => (
            <li key={phase.id} className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-medium text-zinc-800">{phase.name}</span>
              <PhaseStatus phase={phase} now={now} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function PhaseStatus({ phase, now }: { phase: TaskListItem["phases"][number]; now: Date }) {
  if (phase.open) {
    return (
      <span className="text-emerald-700">
        open until <UtcTime date={phase.closesAt} />
      </span>
    );
  }
  if (phase.opensAt > now) {
    return (
      <span className="text-zinc-600">
        opens <UtcTime date={phase.opensAt} />
      </span>
    );
  }
  return (
    <span className="text-zinc-500">
      closed <UtcTime date={phase.closesAt} />
    </span>
  );
}
