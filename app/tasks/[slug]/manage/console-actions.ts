"use server";
/**
 * The server actions of the console's submissions tab (issue 11 §3): per run re-score, hide /
 * unhide, disqualify with a public reason / reinstate; per phase re-score every run. Each calls
 * the service in lib/runs/controls.ts, which authorizes (the task's organizers and site
 * admins), enforces the rules and audits; the form shows the outcome.
 */
import { revalidatePath } from "next/cache";
import { disqualifySubmission, hideSubmission, requalifySubmission, rescorePhase, rescoreSubmission, unhideSubmission } from "@/lib/runs";
import { runAction, type ActionFailure } from "@/app/_components/task-action-result";

/** The outcome of one console action: a message for the live region, or the error. */
export type ConsoleActionState = { attempt: number } & ({ status: "idle" } | { status: "done"; message: string } | ({ status: "error" } & ActionFailure));

/** The actions on one run, chosen by the pressed button's `intent`. */
const RUN_INTENTS = ["rescore", "hide", "unhide", "disqualify", "requalify"] as const;

function formString(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

/** The pages that show a run's state: the console tabs, the boards, the run pages. */
function revalidateRunPages(): void {
  revalidatePath("/tasks/[slug]/manage/submissions", "page");
  revalidatePath("/tasks/[slug]/phases/[phaseId]/leaderboard", "page");
  revalidatePath("/submissions/[id]", "page");
}

/**
 * One action on a run (form fields `submissionId`, `intent`: rescore | hide | unhide |
 * disqualify | requalify, and `reason` for disqualify). The services check that the viewer
 * organizes the run's task, refuse what the rules refuse (409: a run already queued, hidden, not
 * hidden, …) and audit.
 *
 * @returns "done" with a sentence saying what happened, or the error (a missing or too long
 *   reason as the `reason` field's error)
 */
export async function consoleRunAction(previous: ConsoleActionState, formData: FormData): Promise<ConsoleActionState> {
  const attempt = previous.attempt + 1;
  const id = formString(formData, "submissionId");
  const intent = formString(formData, "intent") as (typeof RUN_INTENTS)[number];
  return runAction<ConsoleActionState>(
    "a console action on a run",
    async (viewer) => {
      let message: string;
      switch (intent) {
        case "rescore":
          await rescoreSubmission(viewer, id);
          message = "The run is queued to be scored again.";
          break;
        case "hide":
          await hideSubmission(viewer, id);
          message = "The run is hidden: only its team and the organizers see it.";
          break;
        case "unhide":
          await unhideSubmission(viewer, id);
          message = "The run is shown again.";
          break;
        case "disqualify":
          await disqualifySubmission(viewer, id, formString(formData, "reason"));
          message = "The run is disqualified; the board shows it struck through with the reason.";
          break;
        case "requalify":
          await requalifySubmission(viewer, id);
          message = "The run is reinstated and ranked again.";
          break;
        default:
          return { attempt, status: "error", message: "Unknown action.", fieldErrors: {}, formatErrors: [] };
      }
      revalidateRunPages();
      return { attempt, status: "done", message };
    },
    (failure) => ({ attempt, status: "error", ...failure, message: failure.fieldErrors.reason ?? failure.message }),
  );
}

/**
 * Re-scores every run of a phase (form field `phaseId`). `rescorePhase` checks that the viewer
 * organizes the phase's task, refuses a phase without gold (409) and audits `phase.rescore`.
 *
 * @returns "done" with how many runs were re-queued, or the error
 */
export async function rescorePhaseAction(previous: ConsoleActionState, formData: FormData): Promise<ConsoleActionState> {
  const attempt = previous.attempt + 1;
  return runAction<ConsoleActionState>(
    "re-scoring a phase",
    async (viewer) => {
      const { requeued } = await rescorePhase(viewer, formString(formData, "phaseId"));
      revalidateRunPages();
      return { attempt, status: "done", message: requeued === 0 ? "The phase has no runs to score." : `${requeued} run${requeued === 1 ? " is" : "s are"} queued to be scored again.` };
    },
    (failure) => ({ attempt, status: "error", ...failure }),
  );
}
