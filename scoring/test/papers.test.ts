/**
 * The worked examples of the papers in shared/seeds, reproduced exactly.
 * - Vilain et al. (1995), MUC: four key/response link sets with their recall and precision.
 * - Bagga & Baldwin (1998) via the UPenn CAMP MUC-7 description: the key
 *   {1 2 3 4 5} {6 7} {8 9 A B C} against two responses that MUC cannot tell apart
 *   (precision 9/10 for both) but B³ can (precision 16/21 vs 7/12; with equal weight per
 *   entity 39/49 vs 3/4); recall is 1 for both.
 * Each element (letter or digit) is a one-token mention at its own token index.
 */
import { describe, expect, it } from "vitest";
import type { Entity } from "../types.js";
import { alignDocument } from "../metrics/alignment.js";
import { bcub } from "../metrics/bcub.js";
import { muc } from "../metrics/muc.js";
import { toScore } from "../metrics/counts.js";

const ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** "AB CD" -> two entities of one-token mentions; "A-B B-C" (links) -> merged chains. */
function entities(spec: string): Entity[] {
  const groups = spec.split(" ").map((g) => g.replace(/-/g, "").split(""));
  // Merge groups sharing an element (so link lists like "A-B B-C" become one chain).
  const merged: Set<string>[] = [];
  for (const g of groups) {
    const hits = merged.filter((m) => g.some((x) => m.has(x)));
    const union = new Set<string>(g);
    for (const h of hits) {
      for (const x of h) union.add(x);
      merged.splice(merged.indexOf(h), 1);
    }
    merged.push(union);
  }
  return merged.map((m) => [...m].sort().map((x) => [ALPHABET.indexOf(x), ALPHABET.indexOf(x)] as const));
}

function mucScore(key: string, response: string) {
  return toScore(muc(alignDocument(entities(key), entities(response))));
}

describe("Vilain et al. 1995 (MUC)", () => {
  it("key A-B B-C B-D, response A-B C-D: recall 2/3, precision 1", () => {
    const s = mucScore("A-B B-C B-D", "A-B C-D");
    expect(s.recallNum / s.recallDen).toBe(2 / 3);
    expect([s.recallNum, s.recallDen]).toEqual([2, 3]);
    expect(s.precision).toBe(1);
  });
  it("key A-B B-C, response A-C: recall 1/2", () => {
    const s = mucScore("A-B B-C", "A-C");
    expect([s.recallNum, s.recallDen]).toEqual([1, 2]);
  });
  it("key B-C C-D D-E E-G G-H H-J, response A-B B-C D-E E-F G-H H-I: recall 3/6, precision 3/6", () => {
    const s = mucScore("B-C C-D D-E E-G G-H H-J", "A-B B-C D-E E-F G-H H-I");
    expect([s.recallNum, s.recallDen]).toEqual([3, 6]);
    expect([s.precisionNum, s.precisionDen]).toEqual([3, 6]);
  });
  it("key A-B B-C D-E E-F F-G, response A-B C-D F-G G-H: recall 2/5, precision 2/4", () => {
    const s = mucScore("A-B B-C D-E E-F F-G", "A-B C-D F-G G-H");
    expect([s.recallNum, s.recallDen]).toEqual([2, 5]);
    expect([s.precisionNum, s.precisionDen]).toEqual([2, 4]);
  });
});

describe("Bagga & Baldwin 1998 (B³)", () => {
  const key = entities("12345 67 89ABC");
  const first = entities("12345 6789ABC");
  const second = entities("1234589ABC 67");

  it("B³ precision is 16/21 for the first response and 7/12 for the second; recall 1 for both", () => {
    const a = toScore(bcub(alignDocument(key, first)));
    const b = toScore(bcub(alignDocument(key, second)));
    expect(a.precision).toBeCloseTo(16 / 21, 12);
    expect(b.precision).toBeCloseTo(7 / 12, 12);
    expect(a.recall).toBe(1);
    expect(b.recall).toBe(1);
  });
  it("MUC precision is 9/10 for both responses", () => {
    for (const response of [first, second]) {
      const s = toScore(muc(alignDocument(key, response)));
      expect([s.precisionNum, s.precisionDen]).toEqual([9, 10]);
      expect(s.recall).toBe(1);
    }
  });
  it("with equal weight per entity, precision is 39/49 and 3/4", () => {
    const a = toScore(bcub(alignDocument(key, first), "entity"));
    const b = toScore(bcub(alignDocument(key, second), "entity"));
    expect(a.precision).toBeCloseTo(39 / 49, 12);
    expect(b.precision).toBeCloseTo(3 / 4, 12);
    expect(a.recall).toBe(1);
  });
});
