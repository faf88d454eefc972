/**
 * How large a request body the site takes, and where (issue 23 F1/F2): the one source for
 * next.config.js (server actions, the proxy's buffer), proxy.ts and the web server's body
 * guard (scripts/body-guard.mjs, preloaded into `next start`). Plain JavaScript, because the
 * guard is loaded by Node itself, before Next and without a TypeScript loader.
 *
 * - Every request takes a body of at most {@link SMALL_BODY_MAX_BYTES} (1 MB): forms, server
 *   actions and JSON API calls are far smaller.
 * - The three upload routes ({@link UPLOAD_ROUTE_PATTERN}) take runs, gold keys and blind test
 *   inputs: they stream their bodies themselves, with `UPLOAD_MAX_BYTES` and the shared memory
 *   budget (lib/http/multipart-upload.ts, lib/http/body-budget.ts).
 */

/** The largest request body (bytes) outside the upload routes: 1 MB. */
export const SMALL_BODY_MAX_BYTES = 1024 * 1024;

/**
 * The upload routes: `POST /api/v1/phases/{phaseId}/submissions`, `…/gold` and
 * `…/datasets/{datasetId}/blind` (a dataset's id or name: letters, digits, `_`, `.` and `-`),
 * for ids of those characters only (a malformed id is not an upload route). Matched against
 * the path as sent (percent-encoded), without the query.
 */
export const UPLOAD_ROUTE_PATTERN = /^\/api\/v1\/phases\/[A-Za-z0-9_-]+\/(?:submissions|gold|datasets\/[A-Za-z0-9_.-]+\/blind)\/?$/;

/**
 * Whether a request's declared body is over the limit of its path: over
 * {@link SMALL_BODY_MAX_BYTES} outside {@link UPLOAD_ROUTE_PATTERN}. Only a declared
 * `Content-Length` is judged (a chunked body has none; Next keeps at most 1 MB of it on the
 * paths its proxy runs for).
 *
 * @param {string} path the path as sent, without the query
 * @param {string | string[] | null | undefined} contentLength the `Content-Length` header
 * @returns {string | null} the refusal's message (what to do instead), or null when the body may come
 */
export function declaredBodyRefusal(path, contentLength) {
  if (typeof contentLength !== "string" || !/^\s*\d+\s*$/.test(contentLength)) return null;
  const bytes = Number(contentLength);
  if (bytes <= SMALL_BODY_MAX_BYTES || UPLOAD_ROUTE_PATTERN.test(path)) return null;
  return `The request body is ${(bytes / (1024 * 1024)).toFixed(1)} MB; the largest accepted here is 1 MB (uploads go to POST /api/v1/phases/{phaseId}/submissions).`;
}
