/**
 * `DELETE /api/v1/tasks/{slug}/organizer-invitations/{id}`: revokes a pending co-organizer
 * invitation (issue 11 §1); its link stops working. No body.
 *
 * Auth: bearer token (or the session cookie from this site) of an organizer of the task or a
 * site admin. Audited (`task.organizer.invitation_revoke`).
 *
 * Answers 200 `{"invitation": {id, email}}`.
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 403 not an
 * organizer of the task; 404 unknown task, or no such invitation of this task; 409 already
 * revoked or accepted.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { organizerTaskIdForSlug, revokeOrganizerInvitation } from "@/lib/tasks";

export const dynamic = "force-dynamic";

/** Revokes the invitation; see the file comment. */
export const DELETE = apiRoute("DELETE /api/v1/tasks/:slug/organizer-invitations/:id", async (request: Request, ctx: RouteContext<{ slug: string; id: string }>) => {
  const { slug, id } = await ctx.params;
  const viewer = await apiViewer(request);
  const taskId = await organizerTaskIdForSlug(viewer, slug);
  return jsonResponse({ invitation: await revokeOrganizerInvitation(viewer, taskId, id) });
});
