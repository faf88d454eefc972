/**
 * Next.js proxy (the file convention called `middleware` before Next 16): runs on the
 * Node.js runtime before every request is routed. The rules live in
 * `lib/security-headers.ts`; this file only applies them.
 *
 * - Every response gets the security headers; pages, API answers and the CSV export also
 *   get a Content-Security-Policy with a fresh nonce, which is put on the request as well so
 *   that Next adds it to its own `<script>` tags.
 * - A path that cannot name anything (undecodable percent-escapes, control characters; see
 *   `malformedPathReason`) is answered 404 here, before Next tries to decode it (which would
 *   be a 500): the API's JSON 404 under `/api/`, else the site's not-found page.
 */
import { NextResponse, type NextRequest } from "next/server";
import { NotFoundError } from "./lib/errors";
import { createNonce, malformedPathReason, securityContextFromEnv, securityHeaders } from "./lib/security-headers";

/**
 * Where a page request with a malformed path is rewritten to: a path no route matches, so
 * Next answers its not-found page with status 404. App folders starting with "_" are private
 * (never routes), so no route can ever be added at this path.
 */
const NOT_FOUND_PATH = "/_malformed-path";

/** The proxy: see the file comment. */
export function proxy(request: NextRequest): Response {
  const context = securityContextFromEnv();
  const path = request.nextUrl.pathname;
  const isStaticAsset = path.startsWith("/_next/static/");
  const nonce = isStaticAsset ? null : createNonce();
  const headers = securityHeaders(nonce, context);

  const reason = isStaticAsset ? null : malformedPathReason(path);
  let response: Response;
  if (reason !== null && (path === "/api" || path.startsWith("/api/"))) {
    response = new Response(JSON.stringify(new NotFoundError(`No API route ${request.method} ${path}. ${reason}`).toJSON()), {
      status: 404,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
    });
  } else {
    const requestHeaders = new Headers(request.headers);
    // Next takes the nonce for its scripts from the request's policy; a client cannot pick it.
    requestHeaders.delete("content-security-policy-report-only");
    if (headers["Content-Security-Policy"]) requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]);
    else requestHeaders.delete("content-security-policy");
    const init = { request: { headers: requestHeaders } };
    response = reason !== null ? NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url), init) : NextResponse.next(init);
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Every path, static files included (they get the headers without a policy).
  matcher: "/:path*",
};
