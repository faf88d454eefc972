/**
 * `GET /api/v1/phases/{phaseId}`: one phase as the caller sees it on its task's page (anyone,
 * anonymous callers included, except in a draft task, which only its organizers see; gold
 * metadata only for organizers). Answers 200 `{"task": {id, slug, title}, "phase": {id, name,
 * opensAt, closesAt, displayTimeZone, dailyLimit, totalLimit, leaderboardVisibility,
 * leaderboardTiming, frozenAt, selectionRule, finalRunLimit, participantAnalysis,
 * teamDocumentScores, documentCheck, datasets, tracks, open, canViewLeaderboard, hasGold,
 * gold?}}`; `datasets` is
 * the phase's datasets in order (at least one), `[{id, name, language, fileName, format,
 * position, hasGold, gold?}]` (`language` "" when not given; `format` "conll2012" or "conllu";
 * `gold`, the active gold key's metadata or null, for organizers only): a phase with one
 * dataset takes a plain file, one with several an archive (`.zip`, `.tar.gz`) holding each
 * dataset's file under its `fileName` (manage them at `/api/v1/phases/{phaseId}/datasets`);
 * `tracks` is the phase's
 * tracks in order, `[{id, name, description, dailyLimit, totalLimit, position}]` (`[]` without
 * tracks): an upload to a phase with tracks names one in its `track` field, and a track whose
 * `dailyLimit` or `totalLimit` is set has its own per-team quota. 404 unknown phase (or one of
 * a draft the caller does not organize), 401 bad token.
 *
 * `PATCH /api/v1/phases/{phaseId}`: change a phase's settings (the task's organizers and
 * site admins).
 *
 * Body (JSON): any subset of `name`, `opensAt`, `closesAt` (ISO 8601 with a zone),
 * `displayTimeZone`, `dailyLimit`, `totalLimit` (whole numbers, or null for no limit),
 * `leaderboardVisibility` (PUBLIC | PARTICIPANTS | ORGANIZERS), `leaderboardTiming` ("live":
 * runs show as they are scored; "after_close": until the phase closes teams see only their
 * own runs' scores; "frozen": runs made at or after `frozenAt` are shown only to their team
 * and the organizers), `frozenAt` (ISO 8601; required with "frozen", between the opening and
 * the closing time; null otherwise: switching away from "frozen" without it clears it),
 * `selectionRule` (BEST | LATEST | TEAM_SELECTED: each team marks up to `finalRunLimit`
 * (1–100) runs as final), `participantAnalysis` (who besides the organizers sees the runs' error analysis,
 * which reveals the gold: NONE; TEAMS = signed-in members of the task's teams, i.e. teams
 * with a non-baseline run in the task; PUBLIC = anyone who may see the run, anonymous
 * readers included, which publishes the gold key's mentions), `teamDocumentScores`
 * (boolean: on a phase whose leaderboard is ORGANIZERS-only, teams also see their own runs'
 * per-document scores, which let them probe the gold at least one bit per document per
 * run), `documentCheck` (`warn`, the default: response documents that match no key document,
 * and key documents missing from a run, are listed to the submitter, who must confirm before
 * the run counts; `error`: such an upload is refused). Unknown fields are refused, the old
 * `allowParticipantAnalysis` too. The phase as it would be after the change must close after
 * it opens and keep a "frozen" board's freeze within its window. Audited (`phase.update`).
 *
 * Answers 200 `{"phase": {...}}` with the updated settings and the phase's `datasets` (id, name,
 * language, fileName, format, position) and `tracks` (as in GET). Tracks are managed on the
 * task's manage page; datasets there and at `/api/v1/phases/{phaseId}/datasets`. Errors: 401 anonymous or bad
 * token, 403 not an organizer, 404 unknown phase, 409 the task is archived (read-only),
 * 413/415/400 body problems, 422 bad fields (`fieldErrors`, e.g. `frozenAt` "required when the
 * leaderboard freezes").
 *
 * `DELETE /api/v1/phases/{phaseId}`: delete a phase with its datasets, gold keys and tracks
 * (the task's organizers and site admins), only while it has no runs at all (baselines and
 * withdrawn runs count) and is not the task's only phase. No body. Audited (`phase.delete`,
 * with the task's id and the phase's name). Answers 200 `{"phase": {id, taskId, name}}`.
 * Errors: 401 anonymous or bad token, 403 not an organizer, 404 unknown phase, 409 the phase
 * has runs (the message says how many), it is the task's only phase, it has result
 * snapshots, or the task is archived.
 */
import { apiRoute, apiViewer, jsonResponse, readJson, type RouteContext } from "@/lib/http/api";
import { listDatasets, deletePhase, getPhaseForViewer, updatePhase, listTracks } from "@/lib/tasks";

export const dynamic = "force-dynamic";

/** The phase; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  return jsonResponse(await getPhaseForViewer(phaseId, await apiViewer(request)));
});

/** Updates the phase; see the file comment. */
export const PATCH = apiRoute("PATCH /api/v1/phases/:phaseId", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = await apiViewer(request);
  const patch = await readJson(request);
  const phase = await updatePhase(viewer, phaseId, patch);
  return jsonResponse({
    phase: {
      id: phase.id,
      taskId: phase.taskId,
      name: phase.name,
      opensAt: phase.opensAt,
      closesAt: phase.closesAt,
      displayTimeZone: phase.displayTimeZone,
      dailyLimit: phase.dailyLimit,
      totalLimit: phase.totalLimit,
      leaderboardVisibility: phase.leaderboardVisibility,
      leaderboardTiming: phase.leaderboardTiming,
      frozenAt: phase.frozenAt,
      selectionRule: phase.selectionRule,
      finalRunLimit: phase.finalRunLimit,
      participantAnalysis: phase.participantAnalysis,
      teamDocumentScores: phase.teamDocumentScores,
      documentCheck: phase.documentCheck,
      datasets: (await listDatasets(phase.id)).map(({ phaseId: _p, ...d }) => d),
      tracks: await listTracks(phase.id),
    },
  });
});

/** Deletes the phase; see the file comment. */
export const DELETE = apiRoute("DELETE /api/v1/phases/:phaseId", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = await apiViewer(request);
  return jsonResponse({ phase: await deletePhase(viewer, phaseId) });
});
