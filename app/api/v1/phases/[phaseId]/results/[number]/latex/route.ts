/**
 * `GET /api/v1/phases/{phaseId}/results/{number}/latex`: a final results snapshot as LaTeX tables
 * for the overview paper (issue 24 §2), generated from the snapshot's stored JSON export
 * (`snapshotLatex` in `lib/boards/snapshot-tables.ts`, tables by `lib/boards/export.ts`): one
 * `tabular` with booktabs rules per board (per track, in the phase's order), columns Rank, Team,
 * System and the scores (on a phase with several datasets the macro-average, then one column per
 * dataset), percentages with 2 decimals, the best ranked value per column in `\textbf{}`, every
 * name escaped, and each board's disqualified runs after its other rows under a "Disqualified"
 * heading. `%` comment lines above each table give the task, phase, setting, metric, the
 * snapshot's number and publication time, and the JSON export's file name and sha256, which the
 * numbers come from.
 *
 * Who: as the CSV and JSON exports: anyone who may see the phase's leaderboard by its audience
 * (PUBLIC: anyone; PARTICIPANTS: signed-in participants and organizers; ORGANIZERS: organizers);
 * a draft task's phase is a 404 for everyone but its organizers.
 *
 * Answers 200 `text/x-tex; charset=utf-8` with `Content-Disposition: attachment;
 * filename="<task>-<phase>-results-<n>.tex"` and `X-Content-SHA256: <hex>` (of this body). Public
 * results (a PUBLIC board of a published task) are sent with `Cache-Control: public,
 * max-age=31536000, immutable` (and an `ETag`, the sha256: `If-None-Match` answers 304); others with `private, no-store`. Errors (JSON): 401 anonymous caller
 * of a non-public board (or a bad token), 403 signed-in caller outside the audience, 404 unknown
 * phase or snapshot number (also a malformed one).
 */
import { apiRoute, apiViewer, type RouteContext } from "@/lib/http/api";
import { getSnapshotFile, snapshotDownloadResponse } from "@/lib/boards";

export const dynamic = "force-dynamic";

/** The LaTeX tables of the snapshot; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/results/:number/latex", async (request: Request, ctx: RouteContext<{ phaseId: string; number: string }>) => {
  const { phaseId, number } = await ctx.params;
  const viewer = await apiViewer(request);
  const file = await getSnapshotFile(viewer, phaseId, number, "latex");
  return snapshotDownloadResponse(request, file);
});
