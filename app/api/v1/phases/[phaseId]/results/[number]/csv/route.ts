/**
 * `GET /api/v1/phases/{phaseId}/results/{number}/csv`: a final results snapshot's CSV export,
 * exactly the bytes stored when it was published (the leaderboard CSV of the final board; a phase
 * with tracks has every track's rows under one header, `track` naming each row's board; each
 * board's disqualified runs are its last rows, in snapshots published since that rule; see
 * `lib/boards/snapshots.ts`), so that its sha256 is the one shown on the permalink page.
 *
 * Who: anyone who may see the phase's leaderboard by its audience (PUBLIC: anyone; PARTICIPANTS:
 * signed-in participants and organizers; ORGANIZERS: organizers); a draft task's phase is a 404
 * for everyone but its organizers.
 *
 * Answers 200 `text/csv; charset=utf-8` with `Content-Disposition: attachment;
 * filename="<task>-<phase>-results-<n>.csv"` and `X-Content-SHA256: <hex>`. A snapshot never
 * changes, so public results (a PUBLIC board of a published task) are sent with `Cache-Control:
 * public, max-age=31536000, immutable`; others with `private, no-store`. Errors (JSON): 401 anonymous
 * caller of a non-public board (or a bad token), 403 signed-in caller outside the audience, 404
 * unknown phase or snapshot number (also a malformed one).
 */
import { apiRoute, apiViewer, type RouteContext } from "@/lib/http/api";
import { getSnapshotFile, snapshotDownloadResponse } from "@/lib/boards";

export const dynamic = "force-dynamic";

/** The stored CSV export; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/results/:number/csv", async (request: Request, ctx: RouteContext<{ phaseId: string; number: string }>) => {
  const { phaseId, number } = await ctx.params;
  const viewer = await apiViewer(request);
  const file = await getSnapshotFile(viewer, phaseId, number, "csv");
  return snapshotDownloadResponse(request, file);
});
