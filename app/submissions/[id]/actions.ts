"use server";
/**
 * The run page's controls as server actions: a team withdraws its run, organizers disqualify
 * it with a public reason or reinstate it. Every rule is checked by `lib/services/run-controls.ts`
 * (the same checks as the API); the viewer comes from the session, never from the form.
 */
import { revalidatePath } from "next/cache";
import { ValidationError } from "../../../lib/errors";
import { disqualifySubmission, requalifySubmission, withdrawSubmission } from "../../../lib/services/run-controls";
import { runAction, type ActionFailure } from "../../_components/task-action-result";

/** State of a run-control form: idle, done (with the sentence to show), or the error. */
export type RunControlFormState = { status: "idle" } | { status: "done"; message: string } | ({ status: "error" } & ActionFailure);

/** A form field's text value, trimmed ("" when absent). */
function formString(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** Every page a run's control changes: the run page and the boards and lists that show it. */
function revalidateRunPages(): void {
  revalidatePath("/submissions/[id]", "page");
  revalidatePath("/tasks/[slug]/phases/[phaseId]/leaderboard", "page");
  revalidatePath("/tasks/[slug]/manage", "page");
}

/**
 * Withdraws a run (form fields `submissionId`, and `confirm` = "on": the team's explicit
 * confirmation, checked here too, so a request without it changes nothing).
 *
 * @returns "done" with a sentence, or the error (a missing confirmation as the `confirm` field's)
 */
export async function withdrawRunAction(_previous: RunControlFormState, formData: FormData): Promise<RunControlFormState> {
  return runAction<RunControlFormState>(
    "withdrawing a run",
    async (viewer) => {
      if (formString(formData, "confirm") !== "on") {
        throw ValidationError.field("confirm", "Tick the box to confirm that the run leaves every leaderboard and its submission is not refunded.");
      }
      await withdrawSubmission(viewer, formString(formData, "submissionId"));
      revalidateRunPages();
      return { status: "done", message: "The run is withdrawn: it is on no leaderboard any more. It still counts against your team's quota." };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}

/**
 * Disqualifies a run (form fields `submissionId`, `reason`: 1–500 characters, shown publicly).
 *
 * @returns "done", or the error (a bad reason as the `reason` field's)
 */
export async function disqualifyRunAction(_previous: RunControlFormState, formData: FormData): Promise<RunControlFormState> {
  return runAction<RunControlFormState>(
    "disqualifying a run",
    async (viewer) => {
      await disqualifySubmission(viewer, formString(formData, "submissionId"), formString(formData, "reason"));
      revalidateRunPages();
      return { status: "done", message: "The run is disqualified: the leaderboard shows it struck through with your reason, unranked." };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}

/**
 * Reinstates a disqualified run (form field `submissionId`).
 *
 * @returns "done", or the error
 */
export async function requalifyRunAction(_previous: RunControlFormState, formData: FormData): Promise<RunControlFormState> {
  return runAction<RunControlFormState>(
    "reinstating a run",
    async (viewer) => {
      await requalifySubmission(viewer, formString(formData, "submissionId"));
      revalidateRunPages();
      return { status: "done", message: "The run is reinstated: it is ranked again." };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}
