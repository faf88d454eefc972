/**
 * The one check of every callbackUrl (issue 23 F9): same-site paths only, safe in a Location
 * header as Node checks it (`validateHeaderValue`, whose refusal was the 500), for a table of
 * hostile inputs; and next-auth's redirect callback, which never leaves the site nor throws.
 */
import { validateHeaderValue } from "node:http";
import { describe, expect, it } from "vitest";
import { authOptions } from "./options";
import { safeCallbackPath, safeRedirectUrl } from "./redirect";

const BASE = "https://corefboard.example";

/** Whether Node would send the value as a Location header (it throws otherwise: the 500). */
function headerSafe(value: string): boolean {
  try {
    validateHeaderValue("location", value);
    return true;
  } catch {
    return false;
  }
}

describe("safeCallbackPath", () => {
  it("keeps local paths", () => {
    expect(safeCallbackPath("/account")).toBe("/account");
    expect(safeCallbackPath("/tasks/x?phase=dev#top")).toBe("/tasks/x?phase=dev#top");
    expect(safeCallbackPath("/tasks?x=%E2%80%A8")).toBe("/tasks?x=%E2%80%A8");
    expect(safeCallbackPath("/invite/team/abc-DEF_123~.!*'();:@&=+$,")).toBe("/invite/team/abc-DEF_123~.!*'();:@&=+$,");
  });

  it("percent-encodes what a Location header cannot hold raw, as UTF-8", () => {
    expect(safeCallbackPath("/tasks/é")).toBe("/tasks/%C3%A9");
    expect(safeCallbackPath("/tasks/東京?q=a b")).toBe("/tasks/%E6%9D%B1%E4%BA%AC?q=a%20b");
    expect(safeCallbackPath('/x?"<>`^{|}')).toBe("/x?%22%3C%3E%60%5E%7B%7C%7D");
    expect(safeCallbackPath("/tasks/😀")).toBe("/tasks/%F0%9F%98%80");
  });

  it.each([
    ["not a string", undefined],
    ["null", null],
    ["a number", 3],
    ["empty", ""],
    ["relative", "account"],
    ["too long", `/${"a".repeat(2000)}`],
    ["another origin", "https://evil.example/"],
    ["scheme", "javascript:alert(1)"],
    ["scheme after a space", " /javascript:alert(1)"],
    ["protocol-relative", "//evil.example"],
    ["backslash host", "/\\evil.example"],
    ["backslash inside", "/a\\b"],
    ["line feed", "/a\nb"],
    ["carriage return", "/a\rb"],
    ["tab before a slash (browsers drop it: //evil)", "/\t/evil.example"],
    ["NUL", "/a\u0000"],
    ["DEL", "/a\u007f"],
    ["C1 control", "/a\u0085b"],
    ["line separator U+2028 (the 500)", "/tasks?x=\u2028"],
    ["paragraph separator U+2029", "/a\u2029"],
    ["no-break space", "/a\u00a0b"],
    ["zero-width space", "/a\u200bb"],
    ["right-to-left override", "/a\u202eb"],
    ["byte order mark", "/\ufeffa"],
    ["ideographic full stop (the 500)", "/。evil"],
    ["half-width ideographic full stop", "/｡evil"],
    ["full-width full stop", "/．evil"],
    ["full-width solidus", "/／evil.example"],
    ["full-width reverse solidus", "/＼evil.example"],
    ["small reverse solidus", "/﹨evil.example"],
    ["full-width colon", "/https：evil"],
    ["ligature folding to ASCII", "/ﬁle"],
    ["lone surrogate", "/a\ud800b"],
    ["private use", "/a\ue000"],
    ["unassigned", "/a\u0378"],
  ])("falls back for %s", (_name, value) => {
    expect(safeCallbackPath(value)).toBe("/");
    expect(safeCallbackPath(value, "/account")).toBe("/account");
  });

  it("answers a header-safe same-site path for every input of a fuzz over hostile characters", () => {
    const pieces = ["/", "//", "\\", "。", "／", "\u2028", "\t", "\n", "é", "%", "%2F", "evil.example", ":", "@", "?", "#", " ", "\u0000", "\ud800", "x"];
    for (let i = 0; i < 4000; i++) {
      let value = "";
      for (let n = 0; n < 1 + (i % 6); n++) value += pieces[(i * 7 + n * 13 + ((i >> n) & 7)) % pieces.length];
      const out = safeCallbackPath(value);
      expect(out.startsWith("/") && !out.startsWith("//"), JSON.stringify(value)).toBe(true);
      expect(headerSafe(out), JSON.stringify(value)).toBe(true);
      expect(/^[\x21-\x7e]*$/.test(out), JSON.stringify(value)).toBe(true);
      expect(new URL(out, BASE).origin, JSON.stringify(value)).toBe(BASE);
    }
  });
});

describe("next-auth's redirect callback (safeRedirectUrl)", () => {
  const redirect = (url: string) => authOptions.callbacks!.redirect!({ url, baseUrl: BASE }) as string;

  it("is the site's callback", () => {
    expect(redirect("/account")).toBe(`${BASE}/account`);
    expect(safeRedirectUrl("/account", `${BASE}/`)).toBe(`${BASE}/account`);
  });

  it("keeps a path or a URL of the site, made safe", () => {
    expect(redirect("/tasks?phase=1")).toBe(`${BASE}/tasks?phase=1`);
    expect(redirect(`${BASE}/account#tokens`)).toBe(`${BASE}/account#tokens`);
    expect(redirect(BASE)).toBe(`${BASE}/`);
    expect(redirect("/tasks/東京")).toBe(`${BASE}/tasks/%E6%9D%B1%E4%BA%AC`);
  });

  it.each([
    "https://evil.example/",
    "https://evil.example/account",
    "http://corefboard.example/account",
    "https://corefboard.example.evil.example/",
    "https://corefboard.example@evil.example/",
    "//evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "evil.example",
    "",
    "http://[::1",
    "/tasks?x=\u2028",
    "/。evil",
    "/／evil.example",
  ])("never leaves the site nor throws for %j", (url) => {
    const out = redirect(url);
    expect(new URL(out).origin).toBe(BASE);
    expect(out === `${BASE}/` || out.startsWith(`${BASE}/`)).toBe(true);
    expect(out.slice(BASE.length).startsWith("//")).toBe(false);
    expect(headerSafe(out)).toBe(true);
  });
});
