/**
 * `POST /api/v1/tasks/{slug}/phases`: add a phase to the task (its organizers and site
 * admins; bearer token or session cookie). The phase starts with one dataset, "main", in the
 * format the task's evaluation profile reads (manage datasets at
 * `/api/v1/phases/{phaseId}/datasets`). Audited (`phase.create`).
 *
 * Body (JSON): `name` (1–64 characters, unique in the task), `opensAt`, `closesAt` (ISO 8601
 * with a zone; closes after it opens), and optionally `displayTimeZone` (IANA name or "AoE";
 * default UTC), `dailyLimit`, `totalLimit` (whole numbers or null), `leaderboardVisibility`
 * (PUBLIC | PARTICIPANTS | ORGANIZERS), `leaderboardTiming` ("live" | "after_close" |
 * "frozen"), `frozenAt` (required with "frozen", within the window; null otherwise),
 * `selectionRule` (BEST | LATEST | TEAM_SELECTED), `finalRunLimit` (1–100, TEAM_SELECTED),
 * `participantAnalysis` (NONE | TEAMS | PUBLIC), `teamDocumentScores` (boolean),
 * `documentCheck` ("warn" | "error"). See `PATCH /api/v1/phases/{phaseId}` for their meaning.
 *
 * Answers 201 `{"phase": {id, taskId, name, opensAt, closesAt, displayTimeZone, ...}}` (the
 * stored settings). Errors: 401 anonymous or bad token; 403 not an organizer; 404 unknown
 * task (or a draft the caller does not organize); 409 the task is archived; 413/415/400 body
 * problems; 422 bad fields or a name the task already has (`fieldErrors`).
 */
import { apiRoute, apiViewer, jsonResponse, readJson, type RouteContext } from "@/lib/http/api";
import { addPhase, getTaskForViewer } from "@/lib/tasks";

export const dynamic = "force-dynamic";

/** Adds the phase; see the file comment. */
export const POST = apiRoute("POST /api/v1/tasks/:slug/phases", async (request: Request, ctx: RouteContext<{ slug: string }>) => {
  const { slug } = await ctx.params;
  const viewer = await apiViewer(request);
  const task = await getTaskForViewer(slug, viewer);
  const input = await readJson(request);
  const { createdAt: _c, updatedAt: _u, ...phase } = await addPhase(viewer, task.id, input);
  return jsonResponse({ phase }, { status: 201 });
});
