/**
 * `POST /api/v1/submissions/{id}/withdraw`: the run's team withdraws it (issue 11 §4). No body.
 *
 * Auth: bearer token (or the session cookie from this site) of a member of the run's team.
 * Organizers cannot withdraw a team's run for it; baselines cannot be withdrawn. Only before the
 * phase closes, and once. The run leaves every board; it still counts against the team's quota;
 * the team and the organizers still see it (marked `withdrawnAt`); for anyone else it is a 404.
 * Audited (`submission.withdraw`).
 *
 * Answers 200 `{"submission": {id, withdrawnAt, disqualified}}`.
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 403 not in
 * the run's team, or a baseline; 404 unknown run or one the caller may not see; 409
 * (`phase_closed`) after the phase closed, (`conflict`) already withdrawn or disqualified.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { withdrawSubmission } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** Withdraws the run; see the file comment. */
export const POST = apiRoute("POST /api/v1/submissions/:id/withdraw", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse({ submission: await withdrawSubmission(viewer, id) });
});
