/**
 * Conditional requests (RFC 9110 §13, issue 26 §1): an answer that carries an `ETag` lets a
 * client or a cache ask again with `If-None-Match` and get `304 Not Modified`, with no body,
 * when nothing changed. The comparison (`If-None-Match` lists, `*`, weak tags, and
 * `Cache-Control: no-cache` in the request forcing a full answer) is the `fresh` package's, the
 * one Express uses.
 */
import fresh from "fresh";

/**
 * A strong entity tag for a content digest.
 *
 * @param sha256 the content's lower-case hex sha256 (or another digest that changes with it)
 * @returns the tag with its quotes, e.g. `"9f86d0…"`
 */
export function etagFor(sha256: string): string {
  return `"${sha256}"`;
}

/**
 * Whether the request's validators say the client already holds this answer
 * (`If-None-Match` matching `etag`; a GET or HEAD only).
 *
 * @param request the request
 * @param etag the answer's `ETag` value, quotes included ({@link etagFor})
 */
export function isNotModified(request: Request, etag: string): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const headers = { "if-none-match": request.headers.get("if-none-match") ?? undefined, "cache-control": request.headers.get("cache-control") ?? undefined };
  if (headers["if-none-match"] === undefined) return false;
  return fresh(headers, { etag });
}

/**
 * The `304 Not Modified` answer to a conditional request: no body, and the headers a 200
 * would carry that describe the representation (RFC 9110 §15.4.5: `ETag`, `Cache-Control`,
 * `Content-Location`, `Date`, `Expires`, `Vary`), so that caches refresh them.
 *
 * @param headers the headers of the full answer
 * @returns the 304 Response
 */
export function notModifiedResponse(headers: Record<string, string>): Response {
  const kept = Object.entries(headers).filter(([name]) => /^(etag|cache-control|content-location|date|expires|vary)$/i.test(name));
  return new Response(null, { status: 304, headers: Object.fromEntries(kept) });
}
