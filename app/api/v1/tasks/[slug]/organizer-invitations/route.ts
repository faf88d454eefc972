/**
 * `GET /api/v1/tasks/{slug}/organizer-invitations`: the task's pending co-organizer
 * invitations. `POST` with JSON `{"email": "…"}`: invites that address (issue 11 §1) and mails
 * it the link.
 *
 * Auth: bearer token (or the session cookie from this site) of an organizer of the task or a
 * site admin. Invitations are valid 7 days and work once, only for whoever signs in with the
 * invited address; accepting gives organizer powers on this task, never a site admin's.
 * Re-inviting a pending address replaces its link. Audited (`task.organizer.invite`).
 *
 * Answers: GET 200 `{"invitations": [{id, email, invitedBy: {id, name} | null, createdAt,
 * expiresAt, expired}]}` (newest first, at most 200); POST 201 `{"invitation": {…as listed},
 * "url": "…/invite/organizer/<token>", "replaced": bool, "mailed": bool}` (the link is given
 * once, to pass on by hand when mail does not arrive).
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 403 not an
 * organizer of the task; 404 unknown task; 409 the address belongs to an organizer already;
 * 413 body over 256 KB; 422 a malformed address (`fieldErrors` on `email`) or body.
 */
import { apiRoute, apiViewer, jsonResponse, readJson, type RouteContext } from "@/lib/http/api";
import { inviteOrganizer, listOrganizerInvitations, organizerTaskIdForSlug } from "@/lib/tasks";

export const dynamic = "force-dynamic";

/** The pending invitations; see the file comment. */
export const GET = apiRoute("GET /api/v1/tasks/:slug/organizer-invitations", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  const viewer = await apiViewer(request);
  const taskId = await organizerTaskIdForSlug(viewer, slug);
  return jsonResponse({ invitations: await listOrganizerInvitations(viewer, taskId) });
});

/** Invites an address; see the file comment. */
export const POST = apiRoute("POST /api/v1/tasks/:slug/organizer-invitations", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  const viewer = await apiViewer(request);
  const taskId = await organizerTaskIdForSlug(viewer, slug);
  const body = await readJson(request);
  const email = typeof body === "object" && body !== null && typeof (body as { email?: unknown }).email === "string" ? (body as { email: string }).email : "";
  return jsonResponse(await inviteOrganizer(viewer, taskId, email), { status: 201 });
});
