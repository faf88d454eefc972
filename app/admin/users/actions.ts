"use server";

import { revalidatePath } from "next/cache";
import { A_SITE_ROLE, setSiteRole } from "@/lib/accounts";
import { runAction, type ActionFailure } from "../../_components/task-action-result";

function formString(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** State of an account's role control on /admin/users: the outcome of the last change, or why it was refused. */
export type SiteRoleState = { status: "idle" } | { status: "saved"; message: string } | ({ status: "error" } & ActionFailure);

/**
 * Gives an account a site role (form fields `userId`, `role`: "admin", "organizer" or "user").
 * `setSiteRole` (lib/accounts/site-roles.ts) checks that the viewer is a site admin, keeps the
 * last admin, and writes `user.role_change` to the audit log.
 *
 * @returns "saved" with a sentence saying what changed (or that nothing did); or the error:
 *   the session ended, not a site admin, an unknown role or account, the last admin
 */
export async function setSiteRoleAction(_previous: SiteRoleState, formData: FormData): Promise<SiteRoleState> {
  return runAction<SiteRoleState>(
    "changing an account's site role",
    async (viewer) => {
      const change = await setSiteRole(viewer, formString(formData, "userId"), formString(formData, "role"));
      revalidatePath("/admin/users");
      return { status: "saved", message: change.changed ? `${change.user.email} is now ${A_SITE_ROLE[change.to]}.` : `${change.user.email} is ${A_SITE_ROLE[change.to]} already.` };
    },
    (failure) => ({ status: "error", ...failure, message: failure.fieldErrors.role ?? failure.message }),
  );
}
