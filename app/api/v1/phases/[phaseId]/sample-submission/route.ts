/**
 * `GET /api/v1/phases/{phaseId}/sample-submission`: a run of the phase that predicts nothing
 * (issue 24 §3), ready to upload: for a phase with one dataset, its blind input under the
 * dataset's file name; for several, a `.tar.gz` holding each dataset's blind input under the
 * dataset's `fileName` (the names the run upload pairs archive members with).
 *
 * Who: as `GET …/datasets/{datasetId}/blind` (organizers always; anyone who may see the task
 * once the phase has opened).
 *
 * Answers 200 (`text/plain` or `application/gzip`) with `Content-Disposition: attachment` and
 * `X-Content-SHA256`. Errors (JSON `{"error": {"code", "message"}}`): 401 bad token; 403 the
 * phase has not opened yet; 404 unknown phase, a draft task's phase (to anyone but its
 * organizers), or a dataset without a blind input yet (the message names it).
 */
import { apiRoute, apiViewer, type RouteContext } from "@/lib/http/api";
import { sampleSubmission } from "@/lib/runs";
import { downloadResponse } from "@/lib/http/download-response";

export const dynamic = "force-dynamic";

/** The sample submission; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/sample-submission", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  return downloadResponse(await sampleSubmission(await apiViewer(request), phaseId));
});
