/**
 * `POST /api/v1/phases/{phaseId}/gold`: upload a gold key (the task's organizers and site
 * admins, with an API token or the session cookie). Gold is never sent back: the answer holds
 * metadata only (file name, sha256, size, statistics).
 *
 * Body: `multipart/form-data` with `file` (required) and `dataset` (the dataset's id or name;
 * see `GET /api/v1/phases/{phaseId}/datasets`). A phase with one dataset takes a plain file
 * without `dataset`. With several, a plain file needs `dataset`; an archive (`.zip`, `.tar.gz`,
 * `.tgz`, without `dataset`) holds one file per dataset, each named as its dataset's
 * `fileName`, and datasets it leaves out keep their gold keys. Each file's format must be its
 * dataset's (`.conllu` for conllu), and the task's evaluation profile must be able to score
 * it. A file byte-identical to its dataset's active version leaves that dataset unchanged.
 * When a dataset's active gold key changes, every run of the phase is re-queued once (the
 * worker scores again only the datasets whose gold key changed). Audited (`gold.upload` per
 * new version).
 *
 * Answers 201 when a version was added, 200 when every file was identical (nothing changed):
 * `{"gold": {id, datasetId, version, fileName, sha256, size, documents, stats, active,
 * uploadedAt, uploadedById}, "datasets": [{"dataset": {id, name, fileName, format}, "gold":
 * {...}, "unchanged": bool}], "notInArchive": [names], "requeued": n, "unchanged": bool,
 * "message": "Gold key version 2 of en_gum (…) is now active; version 1 of cs_pdt unchanged; 5
 * submissions were re-queued for scoring."}`.
 *
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 no or bad token; 403 not an
 * organizer; 404 unknown phase; 409 the phase's datasets changed during the upload (upload
 * again); 413 over UPLOAD_MAX_BYTES (refused from Content-Length before the body is read);
 * 415 not multipart; 422 `dataset` missing (several datasets, a plain file) or unknown (the
 * message lists the datasets), a file of another format than its dataset's or that the
 * evaluation profile cannot score (field `file`), an unreadable file (`errors: [{file, line,
 * column, expected, found, message}]`), a broken or hostile archive or one holding unknown
 * files; 503 too many uploads being checked (Retry-After). Every refusal stores nothing.
 */
import { loadEnv } from "../../../../../../lib/env";
import { apiRoute, apiViewer, assertContentLength, formFile, formText, jsonResponse, MULTIPART_ALLOWANCE_BYTES, readMultipart, type RouteContext } from "../../../../../../lib/http";
import { assertCanManageTask, requireSignedIn } from "../../../../../../lib/permissions";
import { uploadGoldKey } from "../../../../../../lib/services/gold";
import { loadPhase } from "../../../../../../lib/services/phases";
import { assertUploadSize } from "../../../../../../lib/services/uploads";

export const dynamic = "force-dynamic";

/** Uploads a gold key; see the file comment for fields and answers. */
export const POST = apiRoute("POST /api/v1/phases/:phaseId/gold", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
  const { phaseId } = await ctx.params;
  const viewer = requireSignedIn(await apiViewer(request), "Send an API token (Authorization: Bearer <token>) of an organizer of this task to upload gold keys.");
  const maxFile = loadEnv().UPLOAD_MAX_BYTES;
  const limit = { maxBytes: maxFile, allowance: MULTIPART_ALLOWANCE_BYTES, what: "file" };
  // Cheap refusals before the body is read: too large by its declared length, unknown phase,
  // not an organizer. The service checks all of these again.
  assertContentLength(request, limit);
  const phase = await loadPhase(phaseId);
  await assertCanManageTask(viewer, phase.taskId, undefined, "No such phase.");

  const form = await readMultipart(request, limit);
  const file = formFile(form, "file");
  assertUploadSize(file.size, maxFile);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const result = await uploadGoldKey(viewer, phaseId, file.name || "gold", bytes, { datasetId: formText(form, "dataset") ?? null });
  return jsonResponse(result, { status: result.unchanged ? 200 : 201 });
});
