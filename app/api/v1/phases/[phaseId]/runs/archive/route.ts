/**
 * `GET /api/v1/phases/{phaseId}/runs/archive`: every run of the phase as one `.tar.gz`, streamed
 * (issue 11 §3). The task's organizers and site admins only, with an API token or the session
 * cookie.
 *
 * Answers 200 `application/gzip` (`Content-Disposition: attachment`): the files of each run as
 * `<team>/<run id>-<system name>/<file name>`, then `runs.csv` with one row per file (id, team,
 * system, track, status, submitted, primary_score, baseline, withdrawn, hidden, disqualified,
 * path, sha256, size; text cells that start like a spreadsheet formula get a leading apostrophe,
 * see lib/http/csv.ts). The archive is produced while it is sent; an error after the first byte
 * (e.g. a damaged stored file) ends the download early, and the archive is then incomplete.
 *
 * Errors before the download starts (JSON `{"error": {"code", "message"}}`): 401 anonymous or
 * bad token; 404 unknown phase, or the caller does not organize its task (the same answer).
 */
import { apiRoute, apiViewer, NO_STORE_HEADERS, type RouteContext } from "@/lib/http/api";
import { phaseRunsArchive } from "@/lib/runs";
import { attachmentDisposition } from "@/lib/http/download-response";

export const dynamic = "force-dynamic";

/** Streams the archive; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/runs/archive", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = await apiViewer(request);
  const { fileName, stream } = await phaseRunsArchive(viewer, phaseId);
  return new Response(stream, {
    status: 200,
    headers: {
      ...NO_STORE_HEADERS,
      "Content-Type": "application/gzip",
      "Content-Disposition": attachmentDisposition(fileName),
      "X-Content-Type-Options": "nosniff",
    },
  });
});
