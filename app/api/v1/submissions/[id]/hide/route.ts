/**
 * A run hidden by the organizers (issue 11 §3). Organizers of the run's task (and site admins)
 * only, baselines included, with an API token or the session cookie from this site. No body.
 *
 * `POST`: hide the run. It leaves the boards for everyone but its team and the organizers, who
 * still see it (marked `hiddenAt`); for anyone else it is a 404. Audited (`submission.hide`).
 * 409 when it is hidden already.
 *
 * `DELETE`: show it again. Audited (`submission.unhide`). 409 when it is not hidden.
 *
 * Answers 200 `{"submission": {id, hiddenAt}}`.
 * Errors (JSON `{"error": {"code", "message"}}`): 401 anonymous or bad token; 403 not an
 * organizer of the task (or a cross-site cookie request); 404 unknown run or one the caller may
 * not see; 409 as above.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { hideSubmission, unhideSubmission } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** Hides the run; see the file comment. */
export const POST = apiRoute("POST /api/v1/submissions/:id/hide", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse({ submission: await hideSubmission(viewer, id) });
});

/** Shows the run again; see the file comment. */
export const DELETE = apiRoute("DELETE /api/v1/submissions/:id/hide", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse({ submission: await unhideSubmission(viewer, id) });
});
