/**
 * What the proxy (`proxy.ts` at the repository root) does to every request: the security
 * headers of every response, and the screening of request paths that cannot name anything.
 * Pure functions (no Next, no I/O), so they are unit-tested here and the proxy stays thin.
 *
 * ## Headers
 *
 * - `Content-Security-Policy` ({@link contentSecurityPolicy}) with a fresh nonce per request
 *   ({@link createNonce}). The proxy also puts the policy on the *request* it hands to Next:
 *   Next reads the nonce from the request's `Content-Security-Policy` header
 *   (`getScriptNonceFromHeader`, the `'nonce-…'` source of `script-src`) and puts it on its
 *   own `<script>` tags. That works only for pages rendered per request, so the root layout
 *   opts every page into dynamic rendering (`connection()` in `app/layout.tsx`).
 *   - `script-src 'self' 'nonce-…' 'strict-dynamic'`: only scripts carrying the nonce run,
 *     and the scripts they load (Next's chunks); `'self'` is a fallback for browsers without
 *     CSP 3 (they ignore `'strict-dynamic'`). In development (`next dev`) React needs `eval`
 *     to rebuild server error stacks, so `'unsafe-eval'` is added then, and only then.
 *   - `style-src 'self' 'unsafe-inline'`: React renders `style={…}` props as `style`
 *     attributes (the charts' sizes, recharts' own positioning, the board's bars), and CSP
 *     nonces cannot cover attributes; `next dev` also injects `<style>` elements. Inline
 *     style cannot run code, so this weakens nothing that `script-src` guards. No nonce goes
 *     into `style-src`: a nonce there would make browsers ignore `'unsafe-inline'`.
 *   - `img-src 'self' data:`, `font-src 'self'`, `connect-src 'self'`, `object-src 'none'`,
 *     `base-uri 'self'`, `form-action 'self'`, `frame-ancestors 'none'` (no page can be
 *     framed, against clickjacking of the manage page and the forms), and `default-src 'self'`
 *     for everything else. Over https, `upgrade-insecure-requests` too.
 * - `X-Content-Type-Options: nosniff`, `Referrer-Policy: same-origin` (ids in our URLs, such
 *   as a hidden phase's, never leave the site in a `Referer`), `X-Frame-Options: DENY` (the
 *   `frame-ancestors` of browsers without CSP 2), `Cross-Origin-Opener-Policy: same-origin`,
 *   and a `Permissions-Policy` that turns off the powerful features the site never uses.
 * - `Strict-Transport-Security: max-age=63072000; includeSubDomains` (two years) only when
 *   the site's public URL (`NEXTAUTH_URL`) is https: over plain http browsers ignore it, and
 *   sending it from a site that is not yet on https would lock visitors out once it is.
 *   next-auth (v4) marks its cookies `Secure` and names them `__Secure-…`/`__Host-…` on its
 *   own when `NEXTAUTH_URL` starts with `https://` (`useSecureCookies` defaults to
 *   `url.base.startsWith("https://")` in next-auth's `core/init.js`).
 *
 * ## Paths
 *
 * {@link malformedPathReason}: a path with a segment that is not valid percent-encoded
 * UTF-8 (`%ZZ`, `%E0%A4%A`, an encoded lone surrogate) or that decodes to a control
 * character (`%00`, `%0A`, `%7F`, C1 controls) cannot name a task, run, document or metric.
 * Without this check Next fails to decode such a segment and answers a bare 500, and a
 * decoded NUL reaches Postgres, which rejects it in a text value (another 500). The proxy
 * answers 404 instead: the site's not-found page, or the API's JSON 404.
 */

/** Size of a CSP nonce in random bytes (128 bits, as CSP 3 recommends at least). */
export const NONCE_BYTES = 16;

/** HSTS lifetime in seconds: two years, the value HSTS preload lists ask for. */
export const HSTS_MAX_AGE_S = 63_072_000;

/** How the site runs, as far as the headers depend on it. */
export interface SecurityContext {
  /** `next dev` (NODE_ENV is "development"): the CSP allows `'unsafe-eval'`. */
  development: boolean;
  /** The public URL is https: HSTS and `upgrade-insecure-requests` are sent. */
  https: boolean;
}

/**
 * The context from the environment.
 *
 * @param env `NODE_ENV` ("development" under `next dev`) and `NEXTAUTH_URL` (the site's
 *   public URL, as next-auth and `scripts/serve.ts` use it); default `process.env`
 */
export function securityContextFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): SecurityContext {
  return {
    development: env.NODE_ENV === "development",
    https: /^https:\/\//i.test(env.NEXTAUTH_URL?.trim() ?? ""),
  };
}

/**
 * A fresh CSP nonce: {@link NONCE_BYTES} bytes from the Web Crypto random generator, in
 * base64 (the alphabet Next's nonce parser accepts). A new one for every request.
 */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Nonces as {@link createNonce} makes them (and as Next's parser accepts them). */
const NONCE_SHAPE = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The `Content-Security-Policy` value for one response (see the module comment for each
 * directive and why).
 *
 * @param nonce this request's nonce ({@link createNonce})
 * @throws Error when the nonce is not base64 (it would break the header or Next's parser)
 */
export function contentSecurityPolicy(nonce: string, context: SecurityContext): string {
  if (!NONCE_SHAPE.test(nonce)) throw new Error(`A CSP nonce must be base64, got ${JSON.stringify(nonce)}.`);
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(context.development ? ["'unsafe-eval'"] : [])],
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:"],
    ["font-src", "'self'"],
    ["connect-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
    ...(context.https ? [["upgrade-insecure-requests"] as [string]] : []),
  ];
  return directives.map((d) => d.join(" ")).join("; ");
}

/** Powerful browser features the site never uses, turned off for it and anything it embeds. */
export const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";

/**
 * The security headers of one response, by header name.
 *
 * @param nonce this request's CSP nonce; null for a response that needs no CSP (static
 *   files under `/_next/static`: a policy on a script or style sheet does nothing)
 * @returns `Content-Security-Policy` (unless `nonce` is null), `X-Content-Type-Options`,
 *   `Referrer-Policy`, `X-Frame-Options`, `Cross-Origin-Opener-Policy`, `Permissions-Policy`,
 *   and `Strict-Transport-Security` when the context is https
 */
export function securityHeaders(nonce: string | null, context: SecurityContext): Record<string, string> {
  return {
    ...(nonce === null ? {} : { "Content-Security-Policy": contentSecurityPolicy(nonce, context) }),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    ...(context.https ? { "Strict-Transport-Security": `max-age=${HSTS_MAX_AGE_S}; includeSubDomains` } : {}),
  };
}

/** C0 controls, DEL and C1 controls: never part of a slug, id, document name or metric. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why a request path cannot name anything on the site, or null when it is well-formed.
 *
 * @param pathname the path as sent, still percent-encoded (e.g. `/tasks/%ZZ`), without the
 *   query string
 * @returns a sentence for the API's 404 message, e.g. `The path segment "%ZZ" is not valid
 *   percent-encoded UTF-8.`; null for a path whose every segment decodes to text without
 *   control characters
 */
export function malformedPathReason(pathname: string): string | null {
  for (const segment of pathname.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return `The path segment ${JSON.stringify(shorten(segment))} is not valid percent-encoded UTF-8.`;
    }
    if (CONTROL_CHARACTER.test(decoded)) {
      return `The path segment ${JSON.stringify(shorten(segment))} contains a control character.`;
    }
  }
  return null;
}

/** At most 80 characters of a segment, for messages. */
function shorten(segment: string): string {
  return segment.length <= 80 ? segment : `${segment.slice(0, 77)}...`;
}
