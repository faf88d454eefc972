/**
 * `GET /api/v1/teams/{teamId}/invitations`: the team's invitation links. `POST` (optional
 * JSON body `{"maxUses": 1–50}`, default 1): makes a new link (issue 11 §4, issue 23 F4).
 *
 * Auth: bearer token (or the session cookie from this site) of a member of the team for GET,
 * of an OWNER for POST (a MEMBER gets 403). Site admins and organizers have no say over
 * teams. A link works for 14 days until revoked or used `maxUses` times, for whoever opens it
 * signed in; at most 20 working links per team. Audited (`team.invitation_create`).
 *
 * Answers: GET 200 `{"invitations": [{id, createdAt, expiresAt, revokedAt, uses, maxUses,
 * createdBy: {id, name} | null, status: "active" | "expired" | "revoked" | "used"}]}` (newest first, at most 100;
 * never the token); POST 201 `{"url": "…/invite/team/<token>", "invitation": {…as listed}}`:
 * the link is given only here, once.
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 403 POST by
 * a MEMBER; 404 unknown team or not a member; 409 the team already has 20 working links; 415
 * a body that is not JSON; 422 a bad `maxUses`.
 */
import { apiRoute, apiViewer, jsonResponse, readJson, type RouteContext } from "@/lib/http/api";
import { createTeamInvitation, listTeamInvitations } from "@/lib/teams";

export const dynamic = "force-dynamic";

/** The team's links; see the file comment. */
export const GET = apiRoute("GET /api/v1/teams/:teamId/invitations", async (request: Request, ctx: RouteContext<{ teamId: string }>) => {
  const { teamId } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse({ invitations: await listTeamInvitations(viewer, teamId) });
});

/** Makes a link; see the file comment. */
export const POST = apiRoute("POST /api/v1/teams/:teamId/invitations", async (request: Request, ctx: RouteContext<{ teamId: string }>) => {
  const { teamId } = await ctx.params;
  const viewer = await apiViewer(request);
  const body = request.headers.has("content-type") ? await readJson(request) : {};
  const maxUses = typeof body === "object" && body !== null ? (body as { maxUses?: unknown }).maxUses : undefined;
  return jsonResponse(await createTeamInvitation(viewer, teamId, new Date(), { maxUses }), { status: 201 });
});
