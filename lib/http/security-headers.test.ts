/**
 * The security headers and path screening of `lib/http/security-headers.ts`, and their wiring in
 * the proxy (`proxy.ts`): which answer a request gets, and what Next is handed. The real
 * server is covered by `e2e/headers.spec.ts` (except HSTS, which needs https).
 */
import { NextRequest } from "next/server";
// Next 16.4.5 ships the matcher check under its old name (the docs call it unstable_doesProxyMatch).
import { getRewrittenUrl, isRewrite, unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { describe, expect, it } from "vitest";
import { config as proxyConfig, proxy } from "../../proxy";
import {
  contentSecurityPolicy,
  createNonce,
  HSTS_MAX_AGE_S,
  malformedPathReason,
  NONCE_BYTES,
  securityContextFromEnv,
  securityHeaders,
  type SecurityContext,
} from "./security-headers";

const HTTP_PROD: SecurityContext = { development: false, https: false };
const HTTPS_PROD: SecurityContext = { development: false, https: true };
const HTTP_DEV: SecurityContext = { development: true, https: false };

/** The directives of a policy, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

describe("createNonce", () => {
  it("gives 16 random bytes in base64, different on every call", () => {
    const nonces = Array.from({ length: 200 }, () => createNonce());
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(NONCE_BYTES);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});

describe("contentSecurityPolicy", () => {
  it("allows only scripts with this request's nonce (and what they load), in production", () => {
    const policy = directives(contentSecurityPolicy("abc123+/XYZ==", HTTP_PROD));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-abc123+/XYZ=='", "'strict-dynamic'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
  });

  it("never allows eval outside development, and allows it in development", () => {
    for (const context of [HTTP_PROD, HTTPS_PROD]) {
      expect(contentSecurityPolicy("n0nce", context)).not.toContain("unsafe-eval");
    }
    expect(directives(contentSecurityPolicy("n0nce", HTTP_DEV)).get("script-src")).toEqual(["'self'", "'nonce-n0nce'", "'strict-dynamic'", "'unsafe-eval'"]);
  });

  it("puts no nonce in style-src (browsers would then ignore 'unsafe-inline')", () => {
    expect(directives(contentSecurityPolicy("n0nce", HTTP_PROD)).get("style-src")!.some((v) => v.includes("nonce"))).toBe(false);
  });

  it("upgrades insecure requests over https only", () => {
    expect(directives(contentSecurityPolicy("n0nce", HTTPS_PROD)).get("upgrade-insecure-requests")).toEqual([]);
  });

  it("is one header line Next's nonce parser reads", () => {
    const policy = contentSecurityPolicy("Zm9vYmFy+/==", HTTPS_PROD);
    expect(policy).not.toMatch(/[\r\n]/);
    // Next's getScriptNonceFromHeader: the first 'nonce-…' source of script-src.
    const scriptSrc = policy.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src"))!;
    const nonce = scriptSrc.split(/\s+/).map((s) => /^'nonce-([A-Za-z0-9+/_-]+={0,2})'$/.exec(s)?.[1]).find(Boolean);
    expect(nonce).toBe("Zm9vYmFy+/==");
  });

  it("refuses a nonce that is not base64", () => {
    expect(() => contentSecurityPolicy("x'; script-src *", HTTP_PROD)).toThrow(/base64/);
    expect(() => contentSecurityPolicy("", HTTP_PROD)).toThrow(/base64/);
  });
});

describe("securityHeaders", () => {
  it("sends HSTS over https and not over http", () => {
    expect(securityHeaders("n0nce", HTTPS_PROD)["Strict-Transport-Security"]).toBe(`max-age=${HSTS_MAX_AGE_S}; includeSubDomains`);
    expect(HSTS_MAX_AGE_S).toBe(2 * 365 * 24 * 3600);
    expect(securityHeaders("n0nce", HTTP_PROD)).not.toHaveProperty("Strict-Transport-Security");
    expect(securityHeaders("n0nce", HTTP_DEV)).not.toHaveProperty("Strict-Transport-Security");
  });

  it("always sends nosniff, the referrer policy, DENY framing, COOP and the permissions policy", () => {
    for (const headers of [securityHeaders("n0nce", HTTP_PROD), securityHeaders(null, HTTPS_PROD)]) {
      expect(headers).toMatchObject({
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
      });
    }
  });

  it("includes the policy with the given nonce, or none without a nonce", () => {
    expect(securityHeaders("n0nce", HTTP_PROD)["Content-Security-Policy"]).toBe(contentSecurityPolicy("n0nce", HTTP_PROD));
    expect(securityHeaders(null, HTTP_PROD)).not.toHaveProperty("Content-Security-Policy");
  });
});

describe("securityContextFromEnv", () => {
  it("is https exactly when NEXTAUTH_URL is an https URL", () => {
    expect(securityContextFromEnv({ NODE_ENV: "production", NEXTAUTH_URL: "https://board.example.org" })).toEqual(HTTPS_PROD);
    expect(securityContextFromEnv({ NODE_ENV: "production", NEXTAUTH_URL: " HTTPS://board.example.org/ " }).https).toBe(true);
    expect(securityContextFromEnv({ NODE_ENV: "production", NEXTAUTH_URL: "http://127.0.0.1:3000" })).toEqual(HTTP_PROD);
    expect(securityContextFromEnv({ NODE_ENV: "production" })).toEqual(HTTP_PROD);
    expect(securityContextFromEnv({ NODE_ENV: "production", NEXTAUTH_URL: "http://https.example.org" }).https).toBe(false);
  });

  it("is development only under NODE_ENV=development", () => {
    expect(securityContextFromEnv({ NODE_ENV: "development" }).development).toBe(true);
    for (const NODE_ENV of ["production", "test", undefined]) expect(securityContextFromEnv({ NODE_ENV }).development).toBe(false);
  });
});

/** Paths that cannot name anything: undecodable or with control characters. */
const MALFORMED = [
  "/tasks/%00",
  "/tasks/abc%00def",
  "/submissions/%ZZ",
  "/tasks/%E0%A4%A",
  "/tasks/%",
  "/tasks/%C0%AF",
  "/tasks/%FF",
  "/tasks/%ED%A0%80",
  "/tasks/%0A",
  "/tasks/%0d",
  "/tasks/%7F",
  "/tasks/%C2%85",
  "/api/v1/submissions/%ZZ",
  "/api/v1/submissions/%00",
  "/api/v1/phases/%ZZ/leaderboard",
  "/submissions/0b0e7a5e-0000-4000-8000-000000000000/documents/%E0%A4%A",
];

/** Well-formed paths, including encoded "/", "%", spaces and non-ASCII letters. */
const WELL_FORMED = [
  "/",
  "/tasks/conll-2012",
  "/submissions/0b0e7a5e-0000-4000-8000-000000000000/documents/bleak_house%2Fpart%200",
  "/submissions/0b0e7a5e-0000-4000-8000-000000000000/documents/100%25",
  "/tasks/%C3%A9t%C3%A9",
  "/tasks/%F0%9F%98%80",
  "/api/v1/tasks",
  "/_next/static/chunks/main.js",
];

describe("malformedPathReason", () => {
  it.each(MALFORMED)("refuses %s", (path) => {
    expect(malformedPathReason(path)).toMatch(/^The path segment ".+" (is not valid percent-encoded UTF-8|contains a control character)\.$/);
  });

  it.each(WELL_FORMED)("accepts %s", (path) => {
    expect(malformedPathReason(path)).toBeNull();
  });

  it("names the offending segment, cut to 80 characters", () => {
    expect(malformedPathReason("/tasks/ok/%ZZ")).toBe('The path segment "%ZZ" is not valid percent-encoded UTF-8.');
    expect(malformedPathReason("/x/%00")).toBe('The path segment "%00" contains a control character.');
    const long = `${"a".repeat(100)}%ZZ`;
    expect(malformedPathReason(`/tasks/${long}`)).toBe(`The path segment "${"a".repeat(77)}..." is not valid percent-encoded UTF-8.`);
  });
});

describe("proxy", () => {
  const request = (path: string, init?: ConstructorParameters<typeof NextRequest>[1]) => new NextRequest(`http://127.0.0.1:3000${path}`, init);

  it("runs on pages, API routes and static files", () => {
    for (const url of ["/", "/tasks/x", "/api/v1/tasks", "/api/v1/phases/p/leaderboard", "/_next/static/chunks/main.js"]) {
      expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url }), url).toBe(true);
    }
  });

  it("hands Next the response's policy on the request, with a new nonce each time", async () => {
    const first = proxy(request("/tasks/x", { headers: { "Content-Security-Policy": "script-src 'nonce-chosen-by-client'" } }));
    const second = proxy(request("/tasks/x"));
    const policy = first.headers.get("content-security-policy")!;
    expect(policy).toMatch(/'nonce-[A-Za-z0-9+/]{22}=='/);
    expect(second.headers.get("content-security-policy")).not.toBe(policy);
    // NextResponse.next({request: {headers}}) passes request headers on as x-middleware-request-*.
    expect(first.headers.get("x-middleware-next")).toBe("1");
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(first.headers.get("x-frame-options")).toBe("DENY");
  });

  it("sends the headers without a policy for static files", () => {
    const response = proxy(request("/_next/static/chunks/main.js"));
    expect(response.headers.get("content-security-policy")).toBeNull();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers the API's JSON 404 for a malformed API path", async () => {
    const response = proxy(request("/api/v1/submissions/%ZZ"));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.json()).toEqual({
      error: { code: "not_found", message: 'No API route GET /api/v1/submissions/%ZZ. The path segment "%ZZ" is not valid percent-encoded UTF-8.' },
    });
  });

  it("rewrites a malformed page path to a path no route matches (the not-found page)", () => {
    const response = proxy(request("/tasks/%00"));
    expect(isRewrite(response as never)).toBe(true);
    expect(new URL(getRewrittenUrl(response as never)!).pathname).toBe("/_malformed-path");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("lets well-formed paths through untouched", () => {
    for (const path of WELL_FORMED) expect(isRewrite(proxy(request(path)) as never), path).toBe(false);
  });
});
