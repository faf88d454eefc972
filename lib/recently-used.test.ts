import { describe, expect, it } from "vitest";
import { RecentlyUsed } from "./recently-used";

describe("RecentlyUsed", () => {
  it("keeps the most recently used entries up to its capacity", () => {
    const cache = new RecentlyUsed<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // a is now the most recent
    cache.set("c", 3); // drops b
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.size]).toEqual([1, undefined, 3, 2]);
    expect(() => new RecentlyUsed(0)).toThrow(RangeError);
  });
});
