/**
 * One dataset of a phase (issue 10 §1), addressed by its id or its name in the phase
 * (`/api/v1/phases/{phaseId}/datasets/en_gum`). Organizers and site admins only, with an API
 * token or the session cookie.
 *
 * `PATCH`: change it. JSON body: any subset of `name`, `language`, `fileName`, `format`,
 * `position` (rules as in `POST /api/v1/phases/{phaseId}/datasets`; a new format needs a file
 * name ending as it requires, so send both). Re-queues nothing; a new format applies to the next
 * gold uploads and runs. Audited (`dataset.update`, each changed field's old and new value).
 * Answers 200 `{"dataset": {id, phaseId, name, language, fileName, format, position}}`.
 *
 * `DELETE`: delete it with its gold key versions. Refused (422, field `dataset`, the reason in
 * the message) for the phase's only dataset and for a dataset runs have files for. When it had
 * an active gold key, every run of the phase is re-queued (the macro-average loses a dataset).
 * Audited (`dataset.delete`). Answers 200 `{"deleted": {id, phaseId, name, …}, "requeued": n}`.
 *
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 anonymous or bad token, 403 not an
 * organizer, 404 unknown phase or no such dataset in it, 413/415/400 body problems, 422 bad
 * fields or a refused deletion.
 */
import { apiRoute, apiViewer, jsonResponse, readJson, type RouteContext } from "@/lib/http/api";
import { deleteDataset, updateDataset } from "@/lib/tasks";

export const dynamic = "force-dynamic";

type Params = { phaseId: string; datasetId: string };

/** Changes the dataset; see the file comment. */
export const PATCH = apiRoute("PATCH /api/v1/phases/:phaseId/datasets/:datasetId", async (request: Request, ctx: RouteContext<Params>) => {
  // Next decodes each dynamic segment once: `datasetId` is the id or name itself.
  const { phaseId, datasetId } = await ctx.params;
  const viewer = await apiViewer(request);
  const patch = await readJson(request);
  return jsonResponse({ dataset: await updateDataset(viewer, datasetId, patch, { phaseId }) });
});

/** Deletes the dataset; see the file comment. */
export const DELETE = apiRoute("DELETE /api/v1/phases/:phaseId/datasets/:datasetId", async (request: Request, ctx: RouteContext<Params>) => {
  const { phaseId, datasetId } = await ctx.params;
  const viewer = await apiViewer(request);
  const { dataset, requeued } = await deleteDataset(viewer, datasetId, { phaseId });
  return jsonResponse({ deleted: dataset, requeued });
});
