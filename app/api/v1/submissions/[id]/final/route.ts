/**
 * `POST /api/v1/submissions/{id}/final` marks the run as one of its team's final runs;
 * `DELETE /api/v1/submissions/{id}/final` unmarks it (issue 11 §2, §4). No body.
 *
 * On a phase whose selection rule is TEAM_SELECTED, each team marks up to the phase's
 * `finalRunLimit` runs as final; the board ranks the best of them as the team's entry (a team
 * that marked none is represented by its latest run). Rules (`setFinalSelection`): members of
 * the run's team only (organizers cannot choose for a team); only before the phase closes, and
 * not in an archived task; a baseline, a withdrawn, disqualified or FAILED run cannot be marked
 * (any marked run can be unmarked). Idempotent: marking a marked run (or unmarking an unmarked
 * one) answers 200 with `changed: false` and records nothing. Audited
 * (`submission.final_select`, `submission.final_unselect`).
 *
 * Auth: bearer token (or the session cookie from this site) of a member of the run's team.
 *
 * Answers 200 `{"submissionId", "finalSelectedAt" (ISO 8601 or null), "changed", "selection":
 * {phase: {id, name, selectionRule, finalRunLimit, closesAt}, team: {id, name}, runs: [{id,
 * systemName, submittedAt, selectedAt}], count, limit, open}}`.
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token; 403 not in
 * the run's team, or a baseline; 404 unknown run or one the caller may not see; 409
 * (`phase_closed`) after the phase closed; 409 (`conflict`) when the phase is not
 * team-selected or its task is archived, the run is withdrawn, disqualified or failed, or the
 * team already marked `finalRunLimit` runs (the message names the limit and the marked runs;
 * `limit` and `selected: [{id, systemName}]` in the error).
 */
import { apiRoute, apiViewer, jsonResponse, type RouteContext } from "@/lib/http/api";
import { setFinalSelection } from "@/lib/runs";

export const dynamic = "force-dynamic";

/** Marks the run as final; see the file comment. */
export const POST = apiRoute("POST /api/v1/submissions/:id/final", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse(await setFinalSelection(viewer, id, true));
});

/** Unmarks the run; see the file comment. */
export const DELETE = apiRoute("DELETE /api/v1/submissions/:id/final", async (request: Request, ctx: RouteContext<{ id: string }>) => {
  const { id } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse(await setFinalSelection(viewer, id, false));
});
