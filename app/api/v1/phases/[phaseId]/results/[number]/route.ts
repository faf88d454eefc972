/**
 * `GET /api/v1/phases/{phaseId}/results/{number}`: a final results snapshot's JSON export, exactly
 * the bytes stored when it was published (format `corefboard-results-snapshot/1`, documented in
 * `lib/boards/snapshots.ts`), so that its sha256 is the one shown on the permalink page.
 *
 * Who: anyone who may see the phase's leaderboard by its audience (PUBLIC: anyone; PARTICIPANTS:
 * signed-in participants and organizers; ORGANIZERS: organizers); a draft task's phase is a 404
 * for everyone but its organizers.
 *
 * Answers 200 `application/json; charset=utf-8` with `Content-Disposition: attachment;
 * filename="<task>-<phase>-results-<n>.json"` and `X-Content-SHA256: <hex>`. A snapshot never
 * changes, so public results (a PUBLIC board of a published task) are sent with `Cache-Control:
 * public, max-age=31536000, immutable`; others with `private, no-store`. Errors (JSON): 401 anonymous
 * caller of a non-public board (or a bad token), 403 signed-in caller outside the audience, 404
 * unknown phase or snapshot number (also a malformed one).
 */
import { apiRoute, apiViewer, type RouteContext } from "@/lib/http/api";
import { getSnapshotFile, snapshotDownloadResponse } from "@/lib/boards";

export const dynamic = "force-dynamic";

/** The stored JSON export; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/results/:number", async (request: Request, ctx: RouteContext<{ phaseId: string; number: string }>) => {
  const { phaseId, number } = await ctx.params;
  const viewer = await apiViewer(request);
  const file = await getSnapshotFile(viewer, phaseId, number, "json");
  return snapshotDownloadResponse(request, file);
});
