"use server";

import { redirect } from "next/navigation";
import { isDomainError } from "@/lib/errors";
import { acceptOrganizerInvitation } from "@/lib/tasks";
import { getViewer } from "@/lib/auth/session";

/**
 * Accepts a co-organizer invitation (form field `token`) as the signed-in user, then goes to
 * the task's page (where the "Manage task" link now shows). When it cannot be accepted (wrong
 * account, revoked, expired, used, unknown, session ended), goes back to the invitation page,
 * which says why. `acceptOrganizerInvitation` enforces every rule.
 */
export async function acceptOrganizerInvitationAction(formData: FormData): Promise<void> {
  const token = String(formData.get("token") ?? "");
  let slug: string;
  try {
    slug = (await acceptOrganizerInvitation(await getViewer(), token)).task.slug;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    redirect(`/invite/organizer/${encodeURIComponent(token)}`);
  }
  redirect(`/tasks/${encodeURIComponent(slug)}`);
}
