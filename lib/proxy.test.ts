import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import nextConfig from "../next.config.js";
import { config, nextAuthCallbackRepair, PROXY_BODY_MAX_BYTES, requestRefusal, UPLOAD_ROUTE_PATTERN, type ProxyRequestFacts } from "../proxy";

function facts(method: string, headers: Record<string, string>, path = "/signup", siteUrl = "https://board.example.org"): ProxyRequestFacts {
  return { method, path, headers: new Headers(headers), siteUrl };
}

describe("requestRefusal: cross-origin server actions", () => {
  it("refuses a server action whose Origin is another site's with 403", () => {
    const got = requestRefusal(facts("POST", { "next-action": "abc", origin: "https://evil.example", host: "board.example.org" }));
    expect(got).toMatchObject({ status: 403, code: "forbidden" });
  });

  it("refuses an Origin of null or one that does not parse", () => {
    expect(requestRefusal(facts("POST", { "next-action": "abc", origin: "null", host: "board.example.org" }))?.status).toBe(403);
    expect(requestRefusal(facts("POST", { "next-action": "abc", origin: "::", host: "board.example.org" }))?.status).toBe(403);
  });

  it("lets through a server action from the request's host, the forwarded host or the site's URL", () => {
    expect(requestRefusal(facts("POST", { "next-action": "abc", origin: "http://localhost:3000", host: "localhost:3000" }))).toBeNull();
    expect(requestRefusal(facts("POST", { "next-action": "abc", origin: "https://front.example", host: "127.0.0.1:3000", "x-forwarded-host": "front.example" }))).toBeNull();
    expect(requestRefusal(facts("POST", { "next-action": "abc", origin: "https://board.example.org", host: "127.0.0.1:3000" }))).toBeNull();
    expect(requestRefusal(facts("POST", { "next-action": "abc", origin: "https://BOARD.example.org", host: "x" }))).toBeNull();
  });

  it("lets through a server action without Origin, and cross-origin requests that are not server actions", () => {
    expect(requestRefusal(facts("POST", { "next-action": "abc", host: "board.example.org" }))).toBeNull();
    expect(requestRefusal(facts("POST", { origin: "https://evil.example", host: "board.example.org" }))).toBeNull();
    expect(requestRefusal(facts("GET", { "next-action": "abc", origin: "https://evil.example", host: "board.example.org" }))).toBeNull();
  });
});

describe("requestRefusal: bodies", () => {
  it("refuses a declared body over the proxy's limit with 413, on any path, and takes one at the limit", () => {
    for (const path of ["/", "/tasks/nope", "/api/v1/nope", "/signup"]) {
      expect(requestRefusal(facts("POST", { "content-length": String(PROXY_BODY_MAX_BYTES + 1) }, path))).toMatchObject({ status: 413, code: "too_large" });
    }
    expect(requestRefusal(facts("POST", { "content-length": String(PROXY_BODY_MAX_BYTES) }))).toBeNull();
  });

  it("refuses a 47 MB server action body from the site itself by its size", () => {
    const got = requestRefusal(facts("POST", { "next-action": "abc", origin: "https://board.example.org", host: "board.example.org", "content-length": String(47 * 1024 * 1024) }));
    expect(got?.status).toBe(413);
  });
});

describe("proxy configuration", () => {
  it("uses the same small body limit as next.config.js's server actions and proxy buffer", () => {
    const experimental = (nextConfig as { experimental: { serverActions: { bodySizeLimit: number }; proxyClientMaxBodySize: number } }).experimental;
    expect(experimental.serverActions.bodySizeLimit).toBe(PROXY_BODY_MAX_BYTES);
    expect(experimental.proxyClientMaxBodySize).toBe(PROXY_BODY_MAX_BYTES);
  });

  it("leaves exactly the upload routes out of its matcher (the matcher's lookahead and UPLOAD_ROUTE_PATTERN agree)", () => {
    // The regex Next itself makes of the matcher (as its build does).
    const { getMiddlewareMatchers } = createRequire(import.meta.url)("next/dist/build/analysis/get-page-static-info.js") as {
      getMiddlewareMatchers: (matcher: string, nextConfig: object) => { regexp: string }[];
    };
    const matcher = new RegExp(getMiddlewareMatchers(config.matcher, {})[0]!.regexp);
    const cases: [string, boolean][] = [
      ["/", true],
      ["/signup", true],
      ["/tasks/nope", true],
      ["/api/v1/nope", true],
      ["/api/v1/phases/cm123/submissions", false],
      ["/api/v1/phases/cm_1-2/gold", false],
      ["/api/v1/phases/cm123/gold/", false],
      ["/api/v1/phases/%ZZ/gold", true],
      ["/api/v1/phases/cm123/submissions/x", true],
      ["/api/v1/phases/cm123/goldx", true],
      ["/api/v1/phases/cm123/datasets", true],
      ["/api/v1/phases/cm123/datasets/0b6c3d9e-1f2a-4c5b-9d8e-7f6a5b4c3d2e/blind", false],
      ["/api/v1/phases/cm123/datasets/en_gum.v2-x/blind/", false],
      ["/api/v1/phases/cm123/datasets/en%20gum/blind", true],
      ["/api/v1/phases/cm123/datasets/en_gum", true],
      ["/api/v1/phases/cm123/datasets/en_gum/blindx", true],
    ];
    for (const [path, proxied] of cases) {
      expect(matcher.test(path), path).toBe(proxied);
      expect(UPLOAD_ROUTE_PATTERN.test(path), path).toBe(!proxied);
    }
  });
});

describe("nextAuthCallbackRepair: callback URLs next-auth would answer with a 500", () => {
  const origin = "https://board.example.org";

  it("turns a callbackUrl that is neither an http(s) URL nor a path into /", () => {
    for (const bad of ["javascript:alert(1)", "mailto:x@y", "::", "data:text/html,x", "relative/path"]) {
      expect(nextAuthCallbackRepair(bad, null, origin), bad).toEqual({ callbackUrl: "/" });
    }
  });

  it("leaves what next-auth takes (its redirect callback then keeps the browser on the site)", () => {
    for (const good of ["/account", "https://evil.example/x", "http://board.example.org/tasks", "//evil.example"]) {
      expect(nextAuthCallbackRepair(good, null, origin), good).toBeNull();
    }
    expect(nextAuthCallbackRepair(null, null, origin)).toBeNull();
    expect(nextAuthCallbackRepair("", "a=1; b=2", origin)).toBeNull();
  });

  it("drops a callback-URL cookie next-auth would refuse, keeping the other cookies", () => {
    expect(nextAuthCallbackRepair(null, "a=1; next-auth.callback-url=javascript%3Aalert(1); b=2", origin)).toEqual({ cookie: "a=1; b=2" });
    expect(nextAuthCallbackRepair(null, "__Secure-next-auth.callback-url=mailto%3Ax; s=1", origin)).toEqual({ cookie: "s=1" });
    expect(nextAuthCallbackRepair(null, "next-auth.callback-url=%E0%A4%A", origin)).toEqual({ cookie: "" });
    expect(nextAuthCallbackRepair(null, "next-auth.callback-url=https%3A%2F%2Fboard.example.org%2F; s=1", origin)).toBeNull();
    expect(nextAuthCallbackRepair("javascript:x", "next-auth.callback-url=javascript%3Ax", origin)).toEqual({ callbackUrl: "/", cookie: "" });
  });
});
