"use server";
/**
 * The console's "Publish final results" (issue 11 §2) as a server action. Every rule (organizers
 * only; the phase closed, no run queued or scoring, a gold key, not a draft; the note's length)
 * is checked by `publishSnapshot` in `lib/boards/snapshot-publish.ts`, the same checks as the API; the
 * viewer comes from the session, never from the form.
 */
import { revalidatePath } from "next/cache";
import { ValidationError } from "@/lib/errors";
import { publishSnapshot } from "@/lib/boards";
import { runAction, type ActionFailure } from "@/app/_components/task-action-result";

/**
 * State of the publish form: the note to show again (the typed one after a failure, empty after a
 * publication) and the outcome of the last submission; `attempt` counts submissions (a new value
 * resets the form).
 */
export type SnapshotPublishState = { attempt: number; note: string } & (
  | { status: "idle" }
  | { status: "published"; number: number; href: string; changes: string[] }
  | ({ status: "error" } & ActionFailure)
);

/** A form field's value as typed ("" when absent or a file). */
function formValue(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * Publishes a phase's final results as a new snapshot (form fields `phaseId`, `note`: markdown,
 * and `confirm` = "on": the organizer's explicit confirmation that the results can never be
 * changed, checked here too, so a request without it publishes nothing).
 *
 * @returns "published" with the snapshot's number, permalink and changes; or the error (a missing
 *   confirmation as the `confirm` field's, a bad note as `note`'s, a phase that is not ready as
 *   the message listing every reason)
 */
export async function publishSnapshotAction(previous: SnapshotPublishState, formData: FormData): Promise<SnapshotPublishState> {
  const note = formValue(formData, "note");
  const attempt = previous.attempt + 1;
  return runAction<SnapshotPublishState>(
    "publishing final results",
    async (viewer) => {
      if (formValue(formData, "confirm") !== "on") {
        throw ValidationError.field("confirm", "Tick the box to confirm: published results can never be changed, only followed by a new snapshot.");
      }
      const snapshot = await publishSnapshot(viewer, formValue(formData, "phaseId").trim(), { note });
      revalidatePath("/tasks/[slug]", "page");
      revalidatePath("/tasks/[slug]/manage", "layout");
      revalidatePath("/tasks/[slug]/phases/[phaseId]/results", "page");
      return { attempt, note: "", status: "published", number: snapshot.number, href: snapshot.links.page, changes: snapshot.changes.map((c) => c.text) };
    },
    (failure) => ({ attempt, note, status: "error", ...failure }),
  );
}
