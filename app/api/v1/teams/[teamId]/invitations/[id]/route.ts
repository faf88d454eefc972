/**
 * `DELETE /api/v1/teams/{teamId}/invitations/{id}`: revokes one of the team's invitation
 * links (issue 11 §4); it stops working at once, for good. No body.
 *
 * Auth: bearer token (or the session cookie from this site) of an OWNER of the team (a
 * MEMBER gets 403). Audited (`team.invitation_revoke`).
 *
 * Answers 200 `{"invitation": {id, createdAt, expiresAt, revokedAt, uses, maxUses, createdBy, status}}`.
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 403 a MEMBER; 404 unknown
 * team, not a member, or no such link of this team; 409 already revoked.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { revokeTeamInvitation } from "@/lib/teams";

export const dynamic = "force-dynamic";

/** Revokes the link; see the file comment. */
export const DELETE = apiRoute("DELETE /api/v1/teams/:teamId/invitations/:id", async (request: Request, ctx: RouteContext<{ teamId: string; id: string }>) => {
  const { teamId, id } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse({ invitation: await revokeTeamInvitation(viewer, teamId, id) });
});
