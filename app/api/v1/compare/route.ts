/**
 * `GET /api/v1/compare?a={id}&b={id}&samples=1000`: two scored runs of one phase compared
 * (`compareRuns`): the paired bootstrap over documents on every metric (deltas are A − B,
 * two-sided p-values, 95 % intervals of the delta) and, when the caller may see both runs'
 * per-document scores, the per-document differences on the task's primary metric.
 *
 * - `a`, `b`: submission ids (required);
 * - `samples`: bootstrap samples, a whole number from 1 to 10,000 (default 1,000).
 *
 * Auth: bearer token or session cookie; the caller must be allowed to see both runs.
 *
 * Answers 200 `{task, phase, a, b, bootstrap, documentMetric, documents}` (`documents` null
 * when the per-document scores are hidden from the caller). 404 when a run does not exist
 * or is hidden from the caller; 422 for a bad parameter, the same run twice, runs of
 * different phases, runs not both scored or scored against different gold versions; 401
 * for a bad token.
 */
import { apiRoute, apiViewer, jsonResponse, parseQuery } from "@/lib/http/api";
import { compareRuns } from "@/lib/boards";
import { compareApiQuerySchema } from "@/lib/validations/compare-query";

export const dynamic = "force-dynamic";

/** The comparison as JSON; see the file comment. */
export const GET = apiRoute("GET /api/v1/compare", async (request: Request) => {
  const viewer = await apiViewer(request);
  const query = parseQuery(request, compareApiQuerySchema);
  return jsonResponse(await compareRuns(viewer, query.a, query.b, { samples: query.samples }));
});
