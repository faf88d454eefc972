/**
 * Conditional requests (RFC 9110 §13, issue 26 §1): an answer that carries an `ETag` lets a
 * client or a cache ask again with `If-None-Match` and get `304 Not Modified`, with no body,
 * when nothing changed. The comparison (`If-None-Match` lists, `*`, weak tags, and
 * `Cache-Control: no-cache` in the request forcing a full answer) is the `fresh` package's, the
 * one Express uses.
 */
import { createHash } from "node:crypto";
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

/**
 * `Cache-Control` of an answer every anonymous reader gets alike (a public board's JSON or
 * table for a caller without a token or session): a shared cache (a reverse proxy, a CDN) may
 * keep it 30 s and serve it 30 s more while it asks again, so a newly scored run is in every
 * answer within a minute.
 */
export const SHARED_ANSWER_CACHE_CONTROL = "public, max-age=30, stale-while-revalidate=30";

/**
 * `Cache-Control` of an answer that depends on who asks (signed-in callers: their own rows,
 * organizers' views, hidden boards): only the caller's own cache may keep it, and must ask
 * again (with its ETag) before each use.
 */
export const PRIVATE_ANSWER_CACHE_CONTROL = "private, no-cache";

/** `Vary` of every answer that depends on who asks: the token or the session cookie. */
export const ANSWER_VARY = "Authorization, Cookie";

/**
 * A 200 answer whose body is `text`, with an `ETag` of what it shows, or a 304 when the
 * request's `If-None-Match` already names that tag. `Vary: Authorization, Cookie`, since the
 * same address answers differently to different callers.
 *
 * @param request the request (its validators are read)
 * @param text the body: text, or its UTF-8 bytes
 * @param options `contentType`; `shared`: the answer is the same for every anonymous caller
 *   ({@link SHARED_ANSWER_CACHE_CONTROL}), else {@link PRIVATE_ANSWER_CACHE_CONTROL};
 *   `digestOf`: what the tag digests when the body holds something that changes on every
 *   request without changing what it shows (a generation time), default the body; `digest`:
 *   that digest already made (lower-case hex sha256), instead of `digestOf`; `headers`: more
 *   headers (e.g. `Content-Disposition`)
 * @returns the Response
 */
export function conditionalResponse(
  request: Request,
  text: string | Uint8Array,
  options: { contentType: string; shared: boolean; digestOf?: string; digest?: string; headers?: Record<string, string> },
): Response {
  const headers: Record<string, string> = {
    "Content-Type": options.contentType,
    ...options.headers,
    ETag: etagFor(options.digest ?? createHash("sha256").update(options.digestOf ?? text).digest("hex")),
    "Cache-Control": options.shared ? SHARED_ANSWER_CACHE_CONTROL : PRIVATE_ANSWER_CACHE_CONTROL,
    Vary: ANSWER_VARY,
  };
  if (isNotModified(request, headers.ETag!)) return notModifiedResponse(headers);
  return new Response(text as string | Uint8Array<ArrayBuffer>, { status: 200, headers });
}
