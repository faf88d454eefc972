/**
 * A phase's final results (issue 11 §2): its published snapshots.
 *
 * `GET /api/v1/phases/{phaseId}/results`: the snapshots, newest first. Anyone who may see the
 * phase's leaderboard by its audience (PUBLIC: anyone, anonymous callers included;
 * PARTICIPANTS: signed-in participants and organizers; ORGANIZERS: organizers); a draft task's
 * phase is a 404 for everyone but its organizers. Snapshots are public results even when the
 * live board was hidden until the close. Answers 200 `{"task": {id, slug, title}, "phase": {id,
 * name, closesAt, displayTimeZone, leaderboardVisibility}, "snapshots": [{number, createdAt, note,
 * changes: [{kind, text, …}], csvSha256, jsonSha256, links: {page, csv, json, latex, markdown}}]}` (`[]` when none
 * was published). Errors: 401 anonymous caller of a non-public board (or a bad token), 403
 * signed-in caller outside the audience, 404 unknown phase.
 *
 * `POST /api/v1/phases/{phaseId}/results`: publishes the phase's final results as a new,
 * immutable snapshot (`publishSnapshot`). Auth: bearer token (or this site's session cookie) of
 * one of the task's organizers or a site admin. Body: none, or JSON `{"note": "…"}` (markdown, at
 * most 10,000 characters). Answers 201 `{"snapshot": {number, createdAt, note, changes, csvSha256,
 * jsonSha256, links}}`. Audited (`snapshot.publish`). Errors: 401 anonymous or bad token; 403 not
 * an organizer; 404 unknown phase (or a draft task's phase for a non-organizer); 409 (`conflict`)
 * when the phase is not ready, with `problems` listing every reason (task still a draft, phase
 * still open, runs queued or scoring, no active gold key, runs scored by another scorer
 * version), or when another publish or a gold change raced this one; 415/400/413 body problems;
 * 422 a bad note.
 */
import { ValidationError } from "@/lib/errors";
import { apiRoute, apiViewer, jsonResponse, readJson, type RouteContext } from "@/lib/http/api";
import { publishSnapshot, listSnapshots } from "@/lib/boards";

export const dynamic = "force-dynamic";

/** The phase's snapshots; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/results", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = await apiViewer(request);
  const { task, phase, snapshots } = await listSnapshots(viewer, phaseId);
  return jsonResponse({ task, phase, snapshots });
});

/** True when the request carries a body (a content type, or a non-zero length). */
function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return request.headers.has("content-type") || (length !== null && length.trim() !== "0");
}

/** Publishes a snapshot; see the file comment. */
export const POST = apiRoute("POST /api/v1/phases/:phaseId/results", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = await apiViewer(request);
  const body = hasBody(request) ? await readJson(request) : {};
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ValidationError('Send a JSON object, e.g. {"note": "Final ranking."}, or no body.');
  }
  const snapshot = await publishSnapshot(viewer, phaseId, { note: (body as { note?: unknown }).note });
  return jsonResponse({ snapshot }, { status: 201 });
});
