import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./redirect";

describe("safeCallbackPath", () => {
  it("keeps local paths", () => {
    expect(safeCallbackPath("/account")).toBe("/account");
    expect(safeCallbackPath("/tasks/x?phase=dev#top")).toBe("/tasks/x?phase=dev#top");
  });
  it.each([undefined, null, 3, "", "account", "https://evil.example/", "//evil.example", "/\\evil.example", "/a\nb", "/a\\b"])(
    "falls back for %j",
    (value) => {
      expect(safeCallbackPath(value)).toBe("/");
      expect(safeCallbackPath(value, "/account")).toBe("/account");
    },
  );
});
