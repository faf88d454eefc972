/**
 * `GET /api/v1/phases/{phaseId}/results/{number}/markdown`: a final results snapshot as GitHub
 * Markdown pipe tables (issue 24 §2), generated from the snapshot's stored JSON export
 * (`snapshotMarkdown` in `lib/boards/snapshot-tables.ts`, tables by `lib/boards/export.ts`):
 * one table per board (with tracks, each under a `### <track> track` heading, in the phase's
 * order), columns Rank, Team, System and the scores (on a phase with several datasets the
 * macro-average, then one column per dataset), percentages with 2 decimals, the best ranked value
 * per column in `**bold**`, pipes in names escaped, and each board's disqualified runs in a table
 * of their own, with the organizers' reason, under "**Disqualified**". An HTML comment above each
 * table gives the board's facts, the snapshot's number and publication time, and the JSON
 * export's file name and sha256; a line under the last table cites the snapshot and that sha256.
 *
 * Who: as the CSV and JSON exports: anyone who may see the phase's leaderboard by its audience
 * (PUBLIC: anyone; PARTICIPANTS: signed-in participants and organizers; ORGANIZERS: organizers);
 * a draft task's phase is a 404 for everyone but its organizers.
 *
 * Answers 200 `text/markdown; charset=utf-8` with `Content-Disposition: attachment;
 * filename="<task>-<phase>-results-<n>.md"` and `X-Content-SHA256: <hex>` (of this body). Public
 * results (a PUBLIC board of a published task) are sent with `Cache-Control: public,
 * max-age=31536000, immutable` (and an `ETag`, the sha256: `If-None-Match` answers 304); others with `private, no-store`. Errors (JSON): 401 anonymous caller
 * of a non-public board (or a bad token), 403 signed-in caller outside the audience, 404 unknown
 * phase or snapshot number (also a malformed one).
 */
import { apiRoute, apiViewer, type RouteContext } from "@/lib/http/api";
import { getSnapshotFile, snapshotDownloadResponse } from "@/lib/boards";

export const dynamic = "force-dynamic";

/** The Markdown tables of the snapshot; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/results/:number/markdown", async (request: Request, ctx: RouteContext<{ phaseId: string; number: string }>) => {
  const { phaseId, number } = await ctx.params;
  const viewer = await apiViewer(request);
  const file = await getSnapshotFile(viewer, phaseId, number, "markdown");
  return snapshotDownloadResponse(request, file);
});
