/**
 * `GET /api/v1/submissions/{id}/analysis`: a run's analyses as the caller may see them
 * (`getRunAnalysis`).
 *
 * Auth: bearer token or session cookie; anonymous callers reach PUBLIC runs of leaderboards
 * visible to everyone.
 *
 * Answers 200 `{submissionId, available, canViewErrors, errorTotals, documents, disclosure}`:
 * - `available`: false until the run is scored with analyses (then every other field is null);
 * - `errorTotals` (`{span, missing-mention, extra-mention, missing-entity, extra-entity,
 *   divided, conflated}`, summed over the run's datasets) and `documents` (`[{dataset,
 *   document, counts}]` in key order, dataset after dataset; `dataset` is the dataset's name on
 *   a phase with several datasets, else null): only when
 *   `canViewErrors` (the task's organizers; others only where the phase allows participant
 *   analysis), else null;
 * - `disclosure`: the pronoun standard disclosure table (`{columns, rows: [{id, label,
 *   values}], language, excludedCategories}`, counts summed over the datasets), for everyone
 *   who may see the run.
 *
 * 404 when the run does not exist or the caller may not see it; 401 for a bad token.
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { getRunAnalysis } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** The run's analyses as JSON; see the file comment. */
export const GET = apiRoute("GET /api/v1/submissions/:id/analysis", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse(await getRunAnalysis(viewer, id));
});
