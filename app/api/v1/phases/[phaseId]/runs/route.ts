/**
 * `GET /api/v1/phases/{phaseId}/runs`: the organizer's console listing of a phase's runs
 * (issue 11 §3), newest first, 50 per page. The task's organizers and site admins only, with an
 * API token or the session cookie.
 *
 * Query (all optional): `status` (queued, scoring, scored, failed), `team` (a team id, or a part
 * of its name, any case), `from` and `to` (UTC dates `YYYY-MM-DD`, both inclusive), `page` (1…).
 *
 * Answers 200 `{"phase": {id, name, taskId}, "primaryMetric": "conll", "runs": [{id, team: {id,
 * name}, systemName, track: {id, name} | null, status, primaryScore (0..1 or null), submittedAt,
 * warnings (count), isBaseline, visibility, withdrawnAt, hiddenAt, disqualified: {reason, at} |
 * null, finalSelectedAt, goldVersion, errorMessage}], "page", "pageSize", "total", "pages",
 * "byStatus": {QUEUED, SCORING, SCORED, FAILED}}`.
 *
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 404 unknown
 * phase, or the caller does not organize its task (the same answer); 422 a bad filter or page
 * (`fieldErrors` name each).
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { listConsoleRuns, parseConsoleRunsQuery } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** Lists the runs; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/runs", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = await apiViewer(request);
  const params = new URL(request.url).searchParams;
  const filters = parseConsoleRunsQuery({ status: params.get("status"), team: params.get("team"), from: params.get("from"), to: params.get("to"), page: params.get("page") });
  return jsonResponse(await listConsoleRuns(viewer, phaseId, filters));
});
