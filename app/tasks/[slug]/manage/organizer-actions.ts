"use server";

import { revalidatePath } from "next/cache";
import { inviteOrganizer, revokeOrganizerInvitation } from "@/lib/tasks";
import { runAction, type ActionFailure } from "@/app/_components/task-action-result";

function formString(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** State of the "Invite by email" form: the last invitation (with its link, shown once) or the error. */
export type InviteOrganizerState =
  | { status: "idle"; attempt: number }
  | { status: "invited"; attempt: number; email: string; url: string; replaced: boolean; mailed: boolean }
  | ({ status: "error"; attempt: number; value: string } & ActionFailure);

/**
 * Invites an email address to co-organize a task (form fields `taskId`, `email`) and mails
 * it the link. `inviteOrganizer` checks that the viewer organizes the task (or is a site admin).
 *
 * @returns "invited" with the address, the link (to pass on by hand if the mail does not
 *   arrive), whether a pending invitation was replaced and whether the mail went out; or the
 *   error (the address's problem as the message)
 */
export async function inviteOrganizerAction(previous: InviteOrganizerState, formData: FormData): Promise<InviteOrganizerState> {
  const attempt = previous.attempt + 1;
  const email = formString(formData, "email");
  return runAction<InviteOrganizerState>(
    "inviting an organizer",
    async (viewer) => {
      const made = await inviteOrganizer(viewer, formString(formData, "taskId"), email);
      revalidatePath("/tasks/[slug]/manage", "page");
      return { status: "invited", attempt, email: made.invitation.email, url: made.url, replaced: made.replaced, mailed: made.mailed };
    },
    (failure) => ({ status: "error", attempt, value: email, ...failure, message: failure.fieldErrors.email ?? failure.message }),
  );
}

/** State of a pending invitation's revoke button. */
export type RevokeOrganizerInvitationState = { status: "idle" } | { status: "revoked" } | ({ status: "error" } & ActionFailure);

/**
 * Revokes a pending co-organizer invitation (form fields `taskId`, `invitationId`).
 * `revokeOrganizerInvitation` checks that the viewer organizes the task (or is a site admin).
 */
export async function revokeOrganizerInvitationAction(_previous: RevokeOrganizerInvitationState, formData: FormData): Promise<RevokeOrganizerInvitationState> {
  return runAction<RevokeOrganizerInvitationState>(
    "revoking an organizer invitation",
    async (viewer) => {
      await revokeOrganizerInvitation(viewer, formString(formData, "taskId"), formString(formData, "invitationId"));
      revalidatePath("/tasks/[slug]/manage", "page");
      return { status: "revoked" };
    },
    (failure) => ({ status: "error", ...failure }),
  );
}
