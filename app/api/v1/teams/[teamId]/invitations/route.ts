/**
 * `GET /api/v1/teams/{teamId}/invitations`: the team's invitation links. `POST` (no body):
 * makes a new link (issue 11 §4).
 *
 * Auth: bearer token (or the session cookie from this site) of a member of the team (any
 * role: every member sees the join code too). Site admins and organizers have no say over
 * teams. A link works for 14 days until revoked, for anyone who opens it signed in; at most 20
 * working links per team. Audited (`team.invitation_create`).
 *
 * Answers: GET 200 `{"invitations": [{id, createdAt, expiresAt, revokedAt, uses, createdBy:
 * {id, name} | null, status: "active" | "expired" | "revoked"}]}` (newest first, at most 100;
 * never the token); POST 201 `{"url": "…/invite/team/<token>", "invitation": {…as listed}}`:
 * the link is given only here, once.
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 404 unknown
 * team or not a member; 409 the team already has 20 working links.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "../../../../../../lib/http";
import { createTeamInvitation, listTeamInvitations } from "../../../../../../lib/services/team-invitations";

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
  return jsonResponse(await createTeamInvitation(viewer, teamId), { status: 201 });
});
