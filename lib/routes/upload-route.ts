/**
 * What the upload routes (`POST /api/v1/phases/{phaseId}/submissions`, `…/gold` and
 * `…/datasets/{datasetId}/blind`, the paths of `UPLOAD_ROUTE_PATTERN`) share
 * now that proxy.ts does not run for them (issue 23 F2: so that Next does not buffer their
 * bodies): the security headers the proxy would have set, and reading the streamed body
 * inside the process's memory budget for upload bodies.
 */
import { uploadBodyBudget } from "../http/body-budget";
import { readMultipartUpload, uploadReservation, type MultipartUpload, type MultipartUploadLimits } from "../http/multipart-upload";
import { loadEnv } from "../env";
import { apiViewer, assertContentLength, MULTIPART_ALLOWANCE_BYTES, type apiRoute } from "../http/api";
import { assertCanManageTask, requireSignedIn, type Viewer } from "../permissions";
import { loadPhase } from "../tasks";
import { createNonce, securityContextFromEnv, securityHeaders } from "../http/security-headers";

/**
 * Wraps an upload route (an {@link apiRoute}, which answers every error itself) so that its
 * answers also carry the security headers proxy.ts sets on every other answer (a fresh CSP
 * nonce each).
 *
 * @param route the route handler, e.g. `apiRoute("POST /api/v1/phases/:phaseId/gold", …)`
 */
export function withSecurityHeaders<C>(route: (request: Request, ctx: C) => Promise<Response>): (request: Request, ctx: C) => Promise<Response> {
  return async (request, ctx) => {
    const response = await route(request, ctx);
    for (const [name, value] of Object.entries(securityHeaders(createNonce(), securityContextFromEnv()))) response.headers.set(name, value);
    return response;
  };
}

/**
 * Reserves the upload's bytes on the shared budget (`uploadBodyBudget`: its declared length,
 * else the largest body it may send), reads its body streaming (`readMultipartUpload`), runs
 * `work` with it, and gives the bytes back when `work` is done or anything failed (a refusal,
 * the client going away).
 *
 * @throws ServiceBusyError (503, Retry-After) when the budget is used up, before the body is
 *   read; whatever `readMultipartUpload` and `work` throw
 */
export async function withUploadBody<T>(request: Request, limits: MultipartUploadLimits, work: (upload: MultipartUpload) => Promise<T>): Promise<T> {
  const budget = uploadBodyBudget(limits.maxFileBytes + (limits.allowance ?? MULTIPART_ALLOWANCE_BYTES));
  const release = budget.reserve(uploadReservation(request, limits));
  try {
    return await work(await readMultipartUpload(request, limits));
  } finally {
    release();
  }
}

/**
 * The organizers' upload routes' start (gold keys, blind inputs): the caller must be signed in
 * (API token or session cookie), the declared body must fit `UPLOAD_MAX_BYTES` (plus the
 * multipart allowance), and the caller must organize the phase's task; all before the body is
 * read. The services check these again.
 *
 * @param request the upload request
 * @param phaseId the phase from the path
 * @param signInHint the 401 message's hint, e.g. "Send an API token … to upload gold keys."
 * @returns the viewer and the file limit in bytes
 * @throws UnauthorizedError (401); TooLargeError (413) by Content-Length; NotFoundError (404)
 *   unknown phase (or a draft's, to others than its organizers); ForbiddenError (403) not an organizer
 */
export async function startOrganizerUpload(request: Request, phaseId: string, signInHint: string): Promise<{ viewer: Viewer; maxFile: number }> {
  const viewer = requireSignedIn(await apiViewer(request), signInHint);
  const maxFile = loadEnv().UPLOAD_MAX_BYTES;
  assertContentLength(request, { maxBytes: maxFile, allowance: MULTIPART_ALLOWANCE_BYTES, what: "file" });
  const phase = await loadPhase(phaseId);
  await assertCanManageTask(viewer, phase.taskId, undefined, "No such phase.");
  return { viewer, maxFile };
}
