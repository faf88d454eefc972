/**
 * `POST /api/v1/submissions/{id}/rescore`: scores one run again from scratch (issue 11 §3). No
 * body. Organizers of the run's task (and site admins) only, with an API token or the session
 * cookie from this site.
 *
 * The run goes back to QUEUED and the worker scores every dataset again; its old scores stay
 * shown until the new ones replace them. Audited (`submission.rescore`).
 *
 * Answers 200 `{"requeued": 1, "ids": [id]}`.
 * Errors (JSON `{"error": {"code", "message"}}`): 401 anonymous or bad token; 403 not an
 * organizer of the task; 404 unknown run or one the caller may not see; 409 the run is queued or
 * being scored already, or the phase has no gold key yet.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { rescoreSubmission } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** Re-scores the run; see the file comment. */
export const POST = apiRoute("POST /api/v1/submissions/:id/rescore", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  const { requeued, ids } = await rescoreSubmission(viewer, id);
  return jsonResponse({ requeued, ids });
});
