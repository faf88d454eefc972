"use server";

import { redirect } from "next/navigation";
import { isDomainError } from "@/lib/errors";
import { acceptTeamInvitation } from "@/lib/teams";
import { getViewer } from "@/lib/auth/session";

/**
 * Joins the team of an invitation link (form field `token`) as the signed-in user, then goes
 * to the teams page, where the team is listed. When the link cannot be used (revoked, expired,
 * unknown, or the session ended), goes back to the invitation page, which says why.
 * `acceptTeamInvitation` enforces every rule.
 */
export async function acceptTeamInvitationAction(formData: FormData): Promise<void> {
  const token = String(formData.get("token") ?? "");
  const back = `/invite/team/${encodeURIComponent(token)}`;
  const viewer = await getViewer();
  try {
    await acceptTeamInvitation(viewer, token);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    redirect(back);
  }
  redirect("/teams");
}
