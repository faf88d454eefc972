import { describe, expect, it } from "vitest";
import { heapFlagOverridingThreadCaps } from "./thread-limits";

describe("heapFlagOverridingThreadCaps", () => {
  it("finds --max-old-space-size on the command line or in NODE_OPTIONS", () => {
    expect(heapFlagOverridingThreadCaps(["--max-old-space-size=4096"], undefined)).toBe("--max-old-space-size=4096");
    expect(heapFlagOverridingThreadCaps([], "--enable-source-maps --max_old_space_size=2048")).toBe("--max_old_space_size=2048");
  });

  it("says nothing for other options", () => {
    expect(heapFlagOverridingThreadCaps(["--import", "tsx"], "--enable-source-maps --max-semi-space-size=64")).toBeNull();
    expect(heapFlagOverridingThreadCaps([], undefined)).toBeNull();
  });
});
