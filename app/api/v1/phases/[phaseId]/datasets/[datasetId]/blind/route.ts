/**
 * A dataset's blind test input (issue 24 §3): the gold key without its coreference, or the file
 * the organizers uploaded as such; addressed by the dataset's id or name. Never the gold key.
 *
 * `GET /api/v1/phases/{phaseId}/datasets/{datasetId}/blind` downloads it.
 * - Who: the task's organizers and site admins always; anyone else who may see the task
 *   (anonymous readers of a published task included) once the phase has opened.
 * - Answers 200 `text/plain` with `Content-Disposition: attachment` under the dataset's
 *   `fileName` (the name a run's archive holds the dataset under) and `X-Content-SHA256` (hex).
 * - Errors (JSON `{"error": {"code", "message"}}`): 401 bad token; 403 the phase has not opened
 *   yet; 404 unknown phase or dataset, a draft task's phase (to anyone but its organizers), or a
 *   dataset without a blind input yet.
 *
 * `POST` (the task's organizers and site admins, with an API token or the session cookie)
 * uploads one, replacing the dataset's current blind input (derived or uploaded). Body:
 * `multipart/form-data` with `file`, a file of the dataset's format (`.conllu` for a CorefUD
 * dataset) that reads as a coreference file and holds no coreference: no mention, and for
 * CorefUD no `Entity`, `Bridge` or `SplitAnte` in MISC (a gold key sent here by mistake is
 * refused). The file is read in the upload pool's threads, off the event loop.
 * - Answers 201 `{"blind": {source: "uploaded", fileName, sha256, size, options: {}, createdAt}}`
 *   (`fileName` is the dataset's, the name participants download it under).
 * - Errors: 401; 403 not an organizer; 404 unknown phase; 413 over UPLOAD_MAX_BYTES (from
 *   Content-Length before the body is read, else as the streamed body passes it); 415 not
 *   multipart; 400 a malformed or cut-off body; 422 unknown dataset (field `dataset`), another
 *   format, an unreadable file (`errors: [{file, line, column, expected, found, message}]`), a
 *   file holding coreference (field `file`); 503 too many uploads in flight (Retry-After).
 *   Every refusal stores nothing.
 *
 * The proxy does not run for this path (an upload route: `UPLOAD_ROUTE_PATTERN`), so both
 * methods set the security headers themselves.
 */
import { downloadResponse } from "@/lib/http/download-response";
import { apiRoute, apiViewer, jsonResponse, MULTIPART_ALLOWANCE_BYTES, type RouteContext } from "@/lib/http/api";
import { readBlindInput, uploadBlindInput } from "@/lib/runs";
import { assertUploadSize } from "@/lib/uploads";
import { startOrganizerUpload, withSecurityHeaders, withUploadBody } from "@/lib/routes/upload-route";

export const dynamic = "force-dynamic";

type Context = RouteContext<{ phaseId: string; datasetId: string }>;

/** The blind input; see the file comment. */
export const GET = withSecurityHeaders(
  apiRoute("GET /api/v1/phases/:phaseId/datasets/:datasetId/blind", async (request: Request, ctx: Context) => {
    const { phaseId, datasetId } = await ctx.params;
    return downloadResponse(await readBlindInput(await apiViewer(request), phaseId, datasetId));
  }),
);

/** Uploads a blind input; see the file comment. */
export const POST = withSecurityHeaders(
  apiRoute("POST /api/v1/phases/:phaseId/datasets/:datasetId/blind", async (request: Request, ctx: Context) => {
    const { phaseId, datasetId } = await ctx.params;
    // Cheap refusals before the body is read; the service checks them again.
    const { viewer, maxFile } = await startOrganizerUpload(request, phaseId, "Send an API token (Authorization: Bearer <token>) of an organizer of this task to upload blind inputs.");
    const blind = await withUploadBody(request, { fileField: "file", maxFileBytes: maxFile, allowance: MULTIPART_ALLOWANCE_BYTES, what: "blind input file" }, async ({ file }) => {
      assertUploadSize(file.bytes.byteLength, maxFile);
      return uploadBlindInput(viewer, phaseId, datasetId, file.name || "blind", file.bytes);
    });
    return jsonResponse({ blind }, { status: 201 });
  }),
);
