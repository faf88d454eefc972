/**
 * `GET /api/v1/phases/{phaseId}/datasets/{datasetId}/blind`: the dataset's blind test input
 * (issue 24 §3), the gold key without its coreference (or the file the organizers uploaded as
 * such), addressed by the dataset's id or name. Never the gold key.
 *
 * Who: the task's organizers and site admins always; anyone else who may see the task
 * (anonymous readers of a published task included) once the phase has opened.
 *
 * Answers 200 `text/plain` with `Content-Disposition: attachment` under the dataset's
 * `fileName` (the name a run's archive holds the dataset under) and `X-Content-SHA256` (hex).
 * Errors (JSON `{"error": {"code", "message"}}`): 401 bad token; 403 the phase has not opened
 * yet; 404 unknown phase or dataset, a draft task's phase (to anyone but its organizers), or a
 * dataset without a blind input yet.
 */
import { apiRoute, apiViewer, type RouteContext } from "../../../../../../../../lib/http";
import { readBlindInput } from "../../../../../../../../lib/services/participant-files";
import { downloadResponse } from "../../../../../../../../lib/download-response";

export const dynamic = "force-dynamic";

/** The blind input; see the file comment. */
export const GET = apiRoute("GET /api/v1/phases/:phaseId/datasets/:datasetId/blind", async (request: Request, ctx: RouteContext<{ phaseId: string; datasetId: string }>) => {
  const { phaseId, datasetId } = await ctx.params;
  return downloadResponse(await readBlindInput(await apiViewer(request), phaseId, datasetId));
});
