import { describe, expect, it } from "vitest";
import { compareCodePoints } from "./order.js";

describe("compareCodePoints", () => {
  it("orders strings as Python's str does (by code point), unlike JavaScript's <", () => {
    const strings = ["😀", "\uffff", "e7x", "e7", "e10", "a", "10", "7", "", "e7"];
    // Python: sorted(["😀", "\uffff", "e7x", "e7", "e10", "a", "10", "7", "", "e7"])
    expect([...strings].sort(compareCodePoints)).toEqual(["", "10", "7", "a", "e10", "e7", "e7", "e7x", "\uffff", "😀"]);
    // JavaScript's default order puts the astral character (a surrogate pair) before U+FFFF.
    expect([...strings].sort().slice(-2)).toEqual(["😀", "\uffff"]);
    expect(compareCodePoints("e7", "e7")).toBe(0);
    expect(Math.sign(compareCodePoints("e10", "e7"))).toBe(-1);
  });
});
