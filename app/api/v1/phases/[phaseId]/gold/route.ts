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
 * again); 413 over UPLOAD_MAX_BYTES (refused from Content-Length before the body is read, else
 * as soon as the streamed body passes it), too many or too long form fields; 415 not
 * multipart; 400 a malformed or cut-off body; 422 `dataset` missing (several datasets, a plain file) or unknown (the
 * message lists the datasets), a file of another format than its dataset's or that the
 * evaluation profile cannot score (field `file`), an unreadable file (`errors: [{file, line,
 * column, expected, found, message}]`), a broken or hostile archive or one holding unknown
 * files; 503 too many uploads being checked or in flight (Retry-After). Every refusal stores nothing.
 */
import { apiRoute, jsonResponse, MULTIPART_ALLOWANCE_BYTES, type RouteContext } from "@/lib/http/api";
import { startOrganizerUpload, withSecurityHeaders, withUploadBody } from "@/lib/routes/upload-route";
import { uploadGoldKey } from "@/lib/tasks";
import { assertUploadSize } from "@/lib/uploads";

export const dynamic = "force-dynamic";

/** Uploads a gold key; see the file comment for fields and answers. */
export const POST = withSecurityHeaders(
  apiRoute("POST /api/v1/phases/:phaseId/gold", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
    const { phaseId } = await ctx.params;
    // Cheap refusals before the body is read: not signed in, too large by its declared length,
    // unknown phase, not an organizer. The service checks all of these again.
    const { viewer, maxFile } = await startOrganizerUpload(request, phaseId, "Send an API token (Authorization: Bearer <token>) of an organizer of this task to upload gold keys.");

    // The body is streamed (busboy) within the limit and the shared memory budget (503 when
    // too many uploads are in flight); never buffered by the proxy (see proxy.ts).
    const result = await withUploadBody(request, { fileField: "file", maxFileBytes: maxFile, allowance: MULTIPART_ALLOWANCE_BYTES, what: "gold key file" }, async ({ file, fields }) => {
      assertUploadSize(file.bytes.byteLength, maxFile);
      return uploadGoldKey(viewer, phaseId, file.name || "gold", file.bytes, { datasetId: fields.dataset ?? null });
    });
    return jsonResponse(result, { status: result.unchanged ? 200 : 201 });
  }),
);
