import type { Metadata } from "next";
import Link from "./_components/link";
import { getViewer } from "@/lib/auth/session";
import { listTasksForViewer } from "@/lib/tasks";
import { TaskCard } from "./_components/task-card";

/** Title: the site's name and what it does (not the "· Corefboard" template). */
export const metadata: Metadata = { title: { absolute: "Corefboard: coreference shared tasks, scored exactly" } };

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

      {/* Task list (listTasksForViewer in lib/tasks/tasks-list.ts). */}
      <section id="tasks" aria-labelledby="tasks-heading" className="space-y-4">
        <h2 id="tasks-heading" className="text-xl font-semibold tracking-tight">
          Tasks
        </h2>
        {tasks.length === 0 ? (
          <p className="text-sm text-zinc-600">No tasks have been created yet.</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {tasks.map((task) => (
              <TaskCard key={task.id} task={task} now={now} heading="h3" />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
