/**
 * `POST /api/v1/phases/{phaseId}/submissions`: upload a system output for scoring.
 *
 * Auth: `Authorization: Bearer <token>` (scripts) or the session cookie (the web form).
 * Body: `multipart/form-data` with `file` (required: a coreference file, or a `.zip`,
 * `.tar.gz` or `.tgz` archive with one file per dataset named by the dataset's expected file
 * name, see `GET /api/v1/phases/{phaseId}`; a phase with several datasets takes an archive
 * only, a phase with one either), `systemName` (required) and optional
 * `description`, `paperUrl`, `codeUrl`, `team` (team id or name; needed only by users in
 * several teams), `track` (the run's track, by id or name: required when the phase has tracks,
 * see `GET /api/v1/phases/{phaseId}`; refused when it has none), `acknowledgeWarnings` ("true"
 * to submit despite document warnings).
 *
 * Document check: for each dataset with an active gold key, the run's document names in its
 * file are compared with the key's (as the scorer matches them); on a phase with several
 * datasets each warning's message starts with "dataset <name>: ". Each run document that matches no key
 * document and each key document missing from the run gives a warning `{code
 * ("response-only-document" | "missing-document"), message, file?, line?, document?}` (at most
 * 20 of each kind, then one "… and N more" warning without `document`).
 *
 * Datasets left out: an archive without a file for one of the phase's datasets gives a warning
 * `{code: "missing-dataset", message, file}` per dataset, under the same policy as the document
 * warnings (409 to confirm with `acknowledgeWarnings=true`, or 422 on a phase whose document
 * check is "error"); the 409 and 422 bodies list their names in `missingDatasets`.
 *
 * Answers `202 {"id", "status": "QUEUED", "warnings", "missingDatasets"}` with `Location:
 * /api/v1/submissions/{id}` (`warnings`: the warnings the run was accepted with (confirmed),
 * usually `[]`; `missingDatasets`: the names of the datasets the archive has no file for, in
 * the phase's order: they count 0 in the macro-average).
 * Errors (JSON `{"error": {"code", "message", ...}}`): 401 no or bad token; 404 unknown phase;
 * 409 `phase_closed`, phase not open (message with the window in UTC); 409 `conflict`, the
 * document names do not match the gold key on a phase that warns, and `acknowledgeWarnings`
 * was not "true": `warnings`, `unmatched` and `missing` (counts) and `acknowledgeWith:
 * "acknowledgeWarnings=true"` (resend the same request with that field to submit anyway);
 * 413 body or file over UPLOAD_MAX_BYTES (refused from Content-Length before the body is
 * read, else as soon as the streamed body passes it), more than 32 form fields or a field over
 * 16 KiB; 415 not multipart; 400 a malformed or cut-off body; 503 too many uploads in flight
 * (the shared memory budget, `lib/http/body-budget.ts`; Retry-After); 422 bad fields (`fieldErrors`; a missing, unknown or unexpected
 * `track` is a field error on `track` whose message lists the phase's tracks; it is checked
 * before the file is read), an unreadable file (`errors:
 * [{file, line, column, expected, found, message}]`; in an archive `file` is the name inside
 * it), a plain file on a phase with several datasets, a hostile or broken archive (path
 * traversal, unknown or duplicate files, nesting deeper than one folder, more than 200
 * entries, more than 10× the upload cap decompressed) or one holding no dataset's file, or a
 * file whose extension does not fit its dataset (these say first what to upload: `message`,
 * e.g. "Upload a .zip or .tar.gz archive with one file per dataset: a.conllu, b.conllu.", also
 * the field error on `file`; then `detail`, the reason naming the archive entry or the expected
 * files, and `sampleUrl`, the phase's sample archive) or, on a phase whose document check is
 * "error", mismatching document names (`warnings`, `unmatched`, `missing`, and a field error
 * on `file`); 429 quota used up (message says when it resets; a track with limits of its own
 * has its own quota, named in the message); 403 a team the caller is not in. Every refusal stores nothing and uses no quota.
 */
import { loadEnv } from "@/lib/env";
import { apiRoute, apiViewer, assertContentLength, jsonResponse, MULTIPART_ALLOWANCE_BYTES, type RouteContext } from "@/lib/http/api";
import { withSecurityHeaders, withUploadBody } from "@/lib/routes/upload-route";
import { requireSignedIn } from "@/lib/permissions";
import { assertPhaseOpen, loadPhase } from "@/lib/tasks";
import { createSubmission } from "@/lib/runs";
import { ACKNOWLEDGE_WARNINGS_FIELD, assertUploadSize } from "@/lib/uploads";

export const dynamic = "force-dynamic";

/** Uploads a submission; see the file comment for fields and answers. */
export const POST = withSecurityHeaders(
  apiRoute("POST /api/v1/phases/:phaseId/submissions", async (request: Request, ctx: RouteContext<{ phaseId: string }>) => {
    const { phaseId } = await ctx.params;
    const viewer = requireSignedIn(await apiViewer(request), "Send an API token (Authorization: Bearer <token>) or sign in to submit.");
    const maxFile = loadEnv().UPLOAD_MAX_BYTES;
    const limit = { maxBytes: maxFile, allowance: MULTIPART_ALLOWANCE_BYTES, what: "file" };
    // Cheap refusals before the body is read: too large by its declared length, unknown or
    // closed phase. The service checks all of these again.
    assertContentLength(request, limit);
    const phase = await loadPhase(phaseId);
    assertPhaseOpen(phase, new Date());

    // The body is streamed (busboy) within the limit and the shared memory budget (503 when
    // too many uploads are in flight); never buffered by the proxy (see proxy.ts).
    const created = await withUploadBody(request, { fileField: "file", maxFileBytes: maxFile, allowance: MULTIPART_ALLOWANCE_BYTES }, async ({ file, fields }) => {
      assertUploadSize(file.bytes.byteLength, maxFile);
      return createSubmission({
        viewer,
        phaseId,
        fileName: file.name || "upload",
        bytes: file.bytes,
        systemName: fields.systemName ?? "",
        description: fields.description,
        paperUrl: fields.paperUrl,
        codeUrl: fields.codeUrl,
        team: fields.team,
        track: fields.track,
        acknowledgeWarnings: fields[ACKNOWLEDGE_WARNINGS_FIELD],
      });
    });
    return jsonResponse(created, { status: 202, headers: { Location: `/api/v1/submissions/${created.id}` } });
  }),
);
