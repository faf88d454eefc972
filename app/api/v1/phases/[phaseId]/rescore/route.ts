/**
 * `POST /api/v1/phases/{phaseId}/rescore`: scores every run of the phase again (issue 11 §3).
 * No body. The task's organizers and site admins only, with an API token or the session cookie
 * from this site.
 *
 * Every run, whatever its status (baselines, withdrawn, hidden and disqualified ones included),
 * goes back to QUEUED and the worker scores every dataset again; the old scores stay shown
 * until the new ones replace them. Audited once (`phase.rescore`, with the count).
 *
 * Answers 200 `{"requeued": n, "ids": [run ids, oldest first]}`.
 * Errors (JSON `{"error": {"code", "message"}}`): 401 anonymous or bad token; 403 a cross-site
 * cookie request; 404 unknown phase, or the caller does not organize its task (the same answer);
 * 409 the phase has no gold key yet.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { rescorePhase } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** Re-scores the phase's runs; see the file comment. */
export const POST = apiRoute("POST /api/v1/phases/:phaseId/rescore", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = await apiViewer(request);
  const { requeued, ids } = await rescorePhase(viewer, phaseId);
  return jsonResponse({ requeued, ids });
});
