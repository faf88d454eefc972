"use server";
/**
 * The run page's controls as server actions: a team withdraws its run, or marks it as one of its
 * final runs (or unmarks it) on a team-selected phase; organizers disqualify it with a public
 * reason or reinstate it. Every rule is checked by `lib/runs/controls.ts` and
 * `lib/runs/final-selection.ts` (the same checks as the API); the viewer comes from the
 * session, never from the form.
 */
import { revalidatePath } from "next/cache";
import { ValidationError } from "@/lib/errors";
import { setFinalSelection, disqualifySubmission, requalifySubmission, withdrawSubmission } from "@/lib/runs";
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

/**
 * Marks a run as one of its team's final runs, or unmarks it (form fields `submissionId`, and
 * `selected`: "true" to mark, "false" to unmark).
 *
 * @returns "done" with a sentence saying how many final runs the team has now, or the error
 *   (e.g. the limit reached, naming the runs already chosen)
 */
export async function finalRunAction(_previous: RunControlFormState, formData: FormData): Promise<RunControlFormState> {
  return runAction<RunControlFormState>(
    "choosing a final run",
    async (viewer) => {
      const selected = formString(formData, "selected");
      if (selected !== "true" && selected !== "false") throw ValidationError.field("selected", "Choose whether the run counts as final.");
      const change = await setFinalSelection(viewer, formString(formData, "submissionId"), selected === "true");
      revalidateRunPages();
      const { count, limit } = change.selection;
      const chosen = `${count} of ${limit} final ${limit === 1 ? "run" : "runs"} chosen.`;
      return {
        status: "done",
        message: change.finalSelectedAt ? `This run now counts as one of your team's final runs. ${chosen}` : `This run is no longer one of your team's final runs. ${chosen}`,
      };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}
