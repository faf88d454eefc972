/**
 * A run's disqualification (issue 11 §3). Organizers of the run's task (and site admins) only,
 * with an API token or the session cookie from this site.
 *
 * `POST`: disqualify the run. JSON body `{"reason": "…"}`: 1–500 characters, shown publicly
 * on the board, where the run stays listed, struck through and unranked (its team's next run
 * counts instead). Sending it again replaces the reason. Audited (`submission.disqualify`, with
 * the reason). Answers 200 `{"submission": {id, withdrawnAt, disqualified: {reason, at}}}`.
 *
 * `DELETE`: reinstate it (no body); 409 when it is not disqualified. Audited
 * (`submission.requalify`). Answers 200 `{"submission": {id, withdrawnAt, disqualified: null}}`.
 *
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 403 not an
 * organizer of the task; 404 unknown run or one the caller may not see; 413/415/400 body
 * problems; 422 missing, empty or too long `reason`; 409 reinstating a run that is not
 * disqualified.
 */
import { apiRoute, apiViewer, jsonResponse, readJson, type RouteContext } from "@/lib/http/api";
import { disqualifySubmission, requalifySubmission } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** The JSON body's `reason` (anything else: the service's 422 names the field). */
function reasonOf(body: unknown): unknown {
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).reason : undefined;
}

/** Disqualifies the run; see the file comment. */
export const POST = apiRoute("POST /api/v1/submissions/:id/disqualify", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  const body = await readJson(request);
  return jsonResponse({ submission: await disqualifySubmission(viewer, id, reasonOf(body)) });
});

/** Reinstates the run; see the file comment. */
export const DELETE = apiRoute("DELETE /api/v1/submissions/:id/disqualify", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse({ submission: await requalifySubmission(viewer, id) });
});
