import type { Metadata } from "next";
import Link from "../../_components/link";
import { redirect } from "next/navigation";
import { evaluationChoices, evaluationColumns, evaluationFormValues, taskEvaluationView } from "@/lib/tasks";
import { canCreateTask } from "@/lib/permissions";
import { getCurrentUser } from "@/lib/auth/session";
import { DEFAULT_PRIMARY_METRIC } from "@/lib/validations/metrics";
import { DEFAULT_EVALUATION_PROFILE, MAX_PHASES } from "@/lib/validations/task";
import { defaultPhaseValues } from "../../_components/task-phase-form-data";
import { Notice } from "../../_components/ui";
import { NewTaskForm } from "./new-task-form";

export const metadata: Metadata = { title: "New task" };

/** Creating a task (site admins and organizers, the site role; others are told so). */
export default async function NewTaskPage() {
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent("/tasks/new")}`);
  if (!canCreateTask(user)) {
    return (
      <div className="mx-auto max-w-xl space-y-4">
        <h1 className="text-2xl font-semibold tracking-tight">New task</h1>
        <Notice kind="info">
          Only site admins and accounts with the organizer role can create tasks. If you are organizing a shared task, ask a
          site admin to give your account the organizer role, or to create the task and add you as an organizer.
        </Notice>
        <p className="text-sm">
          <Link href="/" className="font-medium text-zinc-900 underline">
            Back to the tasks
          </Link>
        </p>
      </div>
    );
  }
  const initial = {
    slug: "",
    title: "",
    description: "",
    dataLicense: "",
    dataSource: "",
    primaryMetric: DEFAULT_PRIMARY_METRIC,
    evaluation: evaluationFormValues(taskEvaluationView(evaluationColumns({ evaluationProfile: DEFAULT_EVALUATION_PROFILE }))),
    phases: defaultPhaseValues(new Date()),
  };
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">New task</h1>
        <p className="mt-1 text-sm text-zinc-600">
          The task starts as a draft: only its organizers see it until it is published from its manage page. Times are
          read in each phase&apos;s display time zone and stored in UTC. The task page shows them in UTC, in that zone, and
          in each reader&apos;s local time.
        </p>
      </div>
      <NewTaskForm initial={initial} choices={evaluationChoices()} maxPhases={MAX_PHASES} />
    </div>
  );
}
