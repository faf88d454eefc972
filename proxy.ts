/**
 * Next.js proxy (the file convention called `middleware` before Next 16): runs on the
 * Node.js runtime before every request is routed. The rules live in
 * `lib/http/security-headers.ts`; this file only applies them.
 *
 * - Every response gets the security headers; pages, API answers and the CSV export also
 *   get a Content-Security-Policy with a fresh nonce, which is put on the request as well so
 *   that Next adds it to its own `<script>` tags.
 * - A path that cannot name anything (undecodable percent-escapes, control characters; see
 *   `malformedPathReason`) is answered 404 here, before Next tries to decode it (which would
 *   be a 500): the API's JSON 404 under `/api/`, else the site's not-found page.
 * - Bodies (issue 23 F1/F2): Next buffers the body of every request the proxy runs for, up to
 *   `experimental.proxyClientMaxBodySize` in next.config.js ({@link PROXY_BODY_MAX_BYTES}, 1 MB;
 *   past it Next keeps only the first bytes and discards the rest). A body declared larger
 *   (`Content-Length`) is answered 413 here (`requestRefusal`), where `serve.ts`'s web server
 *   has not already answered it before Next read the body (scripts/body-guard.mjs, which also
 *   closes the connection unread). The upload routes
 *   ({@link UPLOAD_ROUTE_PATTERN}) are left out of the matcher: they stream their bodies
 *   themselves with their own limit and memory budget (`lib/http/multipart-upload.ts`,
 *   `lib/http/body-budget.ts`) and set the security headers themselves (`lib/routes/upload-route.ts`).
 * - Cross-origin server actions (a POST with a `Next-Action` header whose `Origin` is not the
 *   site's) are answered 403 here; Next itself would answer 500.
 * - On next-auth's routes, a callback URL next-auth would answer with a 500 (query parameter
 *   or cookie, e.g. `javascript:…`) is repaired first (`nextAuthCallbackRepair`).
 */
import { NextResponse, type NextRequest } from "next/server";
import { NotFoundError } from "./lib/errors";
import { declaredBodyRefusal } from "./lib/http/request-body-limits.mjs";
import { createNonce, malformedPathReason, securityContextFromEnv, securityHeaders } from "./lib/http/security-headers";

/**
 * Where a page request with a malformed path is rewritten to: a path no route matches, so
 * Next answers its not-found page with status 404. App folders starting with "_" are private
 * (never routes), so no route can ever be added at this path.
 */
const NOT_FOUND_PATH = "/_malformed-path";

/**
 * The largest request body (bytes) the proxy lets through on the paths it runs for, and the
 * upload routes it does not run for: lib/http/request-body-limits.mjs, the one source that
 * next.config.js and the web server's body guard (scripts/body-guard.mjs) read too.
 */
export { SMALL_BODY_MAX_BYTES as PROXY_BODY_MAX_BYTES, UPLOAD_ROUTE_PATTERN } from "./lib/http/request-body-limits.mjs";

/** A refusal the proxy answers itself, before Next reads the request. */
export interface ProxyRefusal {
  status: 403 | 413;
  code: "forbidden" | "too_large";
  message: string;
}

/** What {@link requestRefusal} looks at. */
export interface ProxyRequestFacts {
  method: string;
  /** the path as sent (percent-encoded), without the query */
  path: string;
  headers: Pick<Headers, "get">;
  /** the site's public URL (NEXTAUTH_URL), when set */
  siteUrl?: string;
}

/** The host (`name[:port]`) of a URL, or null when it does not parse. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

/**
 * Whether the proxy refuses a request itself, and how:
 *
 * - 403 `forbidden`: a POST with a `Next-Action` header (a server action call) whose `Origin`
 *   header is present and names another host than the request's `Host` (or `X-Forwarded-Host`)
 *   and the site's public URL; an `Origin` of "null" or that does not parse is another site's.
 * - 413 `too_large`: a request whose declared `Content-Length` is over
 *   {@link PROXY_BODY_MAX_BYTES} (the upload routes never reach the proxy).
 *
 * @returns the refusal, or null to let the request through
 */
export function requestRefusal(facts: ProxyRequestFacts): ProxyRefusal | null {
  const { method, headers } = facts;
  if (method === "POST" && headers.get("next-action") !== null) {
    const origin = headers.get("origin");
    if (origin !== null) {
      const originHost = hostOf(origin);
      const allowed = new Set<string>();
      for (const h of [headers.get("x-forwarded-host"), headers.get("host")]) if (h) allowed.add(h.split(",")[0]!.trim().toLowerCase());
      const site = facts.siteUrl ? hostOf(facts.siteUrl) : null;
      if (site) allowed.add(site.toLowerCase());
      if (originHost === null || !allowed.has(originHost.toLowerCase())) {
        return { status: 403, code: "forbidden", message: "Cross-site form submissions are not accepted." };
      }
    }
  }
  const tooLarge = declaredBodyRefusal(facts.path, headers.get("content-length"));
  if (tooLarge !== null) return { status: 413, code: "too_large", message: tooLarge };
  return null;
}

/** next-auth's cookie holding the callback URL (`__Secure-` prefixed on https sites). */
const CALLBACK_URL_COOKIE = /^(?:__Secure-)?next-auth\.callback-url$/;

/**
 * Whether next-auth 4 takes `value` as a callback URL: an http(s) URL, or a path starting
 * with "/" (its `assertConfig`, which answers anything else with a 500 "Server error" page,
 * InvalidCallbackUrl). Which URLs it then goes to is `safeRedirectUrl`'s decision.
 */
function nextAuthTakes(value: string, origin: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, value.startsWith("/") ? origin : undefined).protocol);
  } catch {
    return false;
  }
}

/**
 * On next-auth's routes (`/api/auth/…`), what the proxy repairs so that next-auth never
 * answers 500 to a callback URL it refuses (issue 23 F9, e.g. `?callbackUrl=javascript:…`): a
 * `callbackUrl` query parameter it would refuse becomes "/", and a callback-URL cookie it
 * would refuse is dropped from the request's Cookie header.
 *
 * @param callbackUrl the request's `callbackUrl` query parameter, if any
 * @param cookieHeader the request's Cookie header, if any
 * @param origin the site's origin, for paths
 * @returns `callbackUrl`: the replacement parameter, when it must change; `cookie`: the
 *   Cookie header without the refused cookie, when it must change; null when nothing must
 */
export function nextAuthCallbackRepair(callbackUrl: string | null, cookieHeader: string | null, origin: string): { callbackUrl?: string; cookie?: string } | null {
  const repair: { callbackUrl?: string; cookie?: string } = {};
  if (callbackUrl !== null && callbackUrl !== "" && !nextAuthTakes(callbackUrl, origin)) repair.callbackUrl = "/";
  if (cookieHeader) {
    const pairs = cookieHeader.split(";");
    const kept = pairs.filter((pair) => {
      const at = pair.indexOf("=");
      if (at === -1 || !CALLBACK_URL_COOKIE.test(pair.slice(0, at).trim())) return true;
      let value = pair.slice(at + 1).trim();
      try {
        value = decodeURIComponent(value);
      } catch {
        return false;
      }
      return value === "" || nextAuthTakes(value, origin);
    });
    if (kept.length !== pairs.length) repair.cookie = kept.map((pair) => pair.trim()).join("; ");
  }
  return repair.callbackUrl === undefined && repair.cookie === undefined ? null : repair;
}

/** The proxy: see the file comment. */
export function proxy(request: NextRequest): Response {
  const context = securityContextFromEnv();
  const path = request.nextUrl.pathname;
  const isStaticAsset = path.startsWith("/_next/static/");
  const nonce = isStaticAsset ? null : createNonce();
  const headers = securityHeaders(nonce, context);
  const isApi = path === "/api" || path.startsWith("/api/");

  const refusal = requestRefusal({ method: request.method, path, headers: request.headers, siteUrl: process.env.NEXTAUTH_URL });
  const reason = isStaticAsset || refusal ? null : malformedPathReason(path);
  let response: Response;
  if (refusal !== null) {
    response = isApi
      ? new Response(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }), {
          status: refusal.status,
          headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
        })
      : new Response(refusal.message, { status: refusal.status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  } else if (reason !== null && isApi) {
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
    const authRepair = path.startsWith("/api/auth/") ? nextAuthCallbackRepair(request.nextUrl.searchParams.get("callbackUrl"), request.headers.get("cookie"), request.nextUrl.origin) : null;
    if (authRepair?.cookie !== undefined) requestHeaders.set("cookie", authRepair.cookie);
    if (reason !== null) response = NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url), init);
    else if (authRepair?.callbackUrl !== undefined) {
      const repaired = request.nextUrl.clone();
      repaired.searchParams.set("callbackUrl", authRepair.callbackUrl);
      response = NextResponse.rewrite(repaired, init);
    } else response = NextResponse.next(init);
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Every path, static files included (they get the headers without a policy), except the
  // upload routes (UPLOAD_ROUTE_PATTERN; Next needs the matcher as a literal string).
  matcher: "/((?!api/v1/phases/[A-Za-z0-9_-]+/(?:submissions|gold|datasets/[A-Za-z0-9_.-]+/blind)/?$).*)",
};
