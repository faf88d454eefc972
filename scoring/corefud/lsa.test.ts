/**
 * `linearSumAssignment` makes SciPy's choices: 400 small tie-heavy matrices with the pairs
 * SciPy 1.17.1 returned (fixtures/lsa/, made by make_cases.py there).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { linearSumAssignment } from "./lsa.js";

const cases = JSON.parse(
  readFileSync(new URL("../test/fixtures/lsa/scipy-cases.json", import.meta.url), "utf8"),
) as { m: number[][]; r: number; c: number; pairs: [number, number][] }[];

describe("linearSumAssignment", () => {
  it("returns SciPy's pairs on 400 matrices with ties", () => {
    expect(cases).toHaveLength(400);
    const wrong = cases.filter((k) => JSON.stringify(linearSumAssignment(k.m.flat(), k.r, k.c)) !== JSON.stringify(k.pairs));
    expect(wrong).toEqual([]);
  });

  it("finds the optimum on a matrix without ties", () => {
    // The unique optimum is (0,1) + (1,0) + (2,2) = -9 - 7 - 3 = -19.
    const cost = [-1, -9, -2, -7, -5, -1, -3, -8, -3];
    const pairs = linearSumAssignment(cost, 3, 3);
    expect(pairs).toEqual([[0, 1], [1, 0], [2, 2]]);
  });

  it("rejects a wrong size and non-finite costs", () => {
    expect(() => linearSumAssignment([1, 2, 3], 2, 2)).toThrow(RangeError);
    expect(() => linearSumAssignment([1, NaN], 1, 2)).toThrow(RangeError);
    expect(linearSumAssignment([], 0, 3)).toEqual([]);
  });
});
