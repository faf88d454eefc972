import { describe, expect, it } from "vitest";
import { etagFor, isNotModified, notModifiedResponse } from "./conditional-response";

const get = (headers: Record<string, string>, method = "GET") => new Request("http://localhost/x", { method, headers });

describe("conditional requests", () => {
  const tag = etagFor("ab12");

  it("quotes a digest as a strong ETag", () => {
    expect(tag).toBe('"ab12"');
  });

  it("is not modified when If-None-Match names the tag: alone, in a list, weakly, or as *", () => {
    expect(isNotModified(get({ "If-None-Match": '"ab12"' }), tag)).toBe(true);
    expect(isNotModified(get({ "If-None-Match": '"zz", W/"ab12"' }), tag)).toBe(true);
    expect(isNotModified(get({ "If-None-Match": "*" }), tag)).toBe(true);
    expect(isNotModified(get({ "If-None-Match": '"ab12"' }, "HEAD"), tag)).toBe(true);
  });

  it("answers in full without a validator, for another tag, for a request that says no-cache, and for other methods", () => {
    expect(isNotModified(get({}), tag)).toBe(false);
    expect(isNotModified(get({ "If-None-Match": '"ab13"' }), tag)).toBe(false);
    expect(isNotModified(get({ "If-None-Match": '"ab12"', "Cache-Control": "no-cache" }), tag)).toBe(false);
    expect(isNotModified(get({ "If-None-Match": '"ab12"' }, "POST"), tag)).toBe(false);
  });

  it("a 304 has no body and keeps only the headers that describe the representation", async () => {
    const response = notModifiedResponse({ ETag: tag, "Cache-Control": "public, max-age=60", "Content-Type": "text/csv", "X-Content-SHA256": "ab12", Vary: "Authorization" });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe("");
    expect(Object.fromEntries(response.headers)).toEqual({ etag: tag, "cache-control": "public, max-age=60", vary: "Authorization" });
  });
});
