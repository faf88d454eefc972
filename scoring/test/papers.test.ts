/**
 * The worked examples of the papers in shared/seeds, reproduced exactly.
 * - Vilain et al. (1995), MUC: four key/response link sets with their recall and precision.
 * - Bagga & Baldwin (1998) via the UPenn CAMP MUC-7 description: the key
 *   {1 2 3 4 5} {6 7} {8 9 A B C} against two responses that MUC cannot tell apart
 *   (precision 9/10 for both) but B³ can (precision 16/21 vs 7/12; with equal weight per
 *   entity 39/49 vs 3/4); recall is 1 for both.
 * Each element (letter or digit) is a one-token mention at its own token index. The examples
 * (entities and published figures) are data in `scoring/examples/papers.ts`; the expected
 * numbers here are written out so that a change to that data cannot pass unnoticed.
 */
import { describe, expect, it } from "vitest";
import { alignDocument } from "../metrics/alignment.js";
import { bcub } from "../metrics/bcub.js";
import { muc } from "../metrics/muc.js";
import { toScore } from "../metrics/counts.js";
import { BAGGA_BALDWIN_1998, entitiesFromSpec, VILAIN_1995, type PaperExample } from "../examples/papers.js";

/** MUC of an example's only response against its key. */
function mucScore(example: PaperExample) {
  return toScore(muc(alignDocument(example.key, example.responses[0].entities)));
}

/** The example of `examples` whose key and only response are written `key` and `response`. */
function example(examples: readonly PaperExample[], key: string, response: string): PaperExample {
  const found = examples.find((e) => e.keySpec === key && e.responses.length === 1 && e.responses[0].spec === response);
  if (!found) throw new Error(`no example with key ${key} and response ${response}`);
  return found;
}

/** The entity of one-token mentions named `elements` ("1" is token 0, "A" token 9), written out independently of papers.ts. */
function chain(elements: string): number[][] {
  return [...elements].map((x) => {
    const i = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".indexOf(x);
    return [i, i];
  });
}

describe("Vilain et al. 1995 (MUC)", () => {
  it("link lists become entities: groups sharing an element merge, elements in token order", () => {
    expect(entitiesFromSpec("A-B B-C B-D")).toEqual([chain("ABCD")]);
    expect(entitiesFromSpec("A-B B-C D-E E-F G-H H-I")).toEqual([chain("ABC"), chain("DEF"), chain("GHI")]);
    expect(entitiesFromSpec("A-B C-D F-G G-H")).toEqual([chain("AB"), chain("CD"), chain("FGH")]);
    expect(chain("A")).toEqual([[9, 9]]);
  });
  it("key A-B B-C B-D, response A-B C-D: recall 2/3, precision 1", () => {
    const s = mucScore(example(VILAIN_1995, "A-B B-C B-D", "A-B C-D"));
    expect(s.recallNum / s.recallDen).toBe(2 / 3);
    expect([s.recallNum, s.recallDen]).toEqual([2, 3]);
    expect(s.precision).toBe(1);
  });
  it("key A-B B-C, response A-C: recall 1/2", () => {
    const s = mucScore(example(VILAIN_1995, "A-B B-C", "A-C"));
    expect([s.recallNum, s.recallDen]).toEqual([1, 2]);
  });
  it("key B-C C-D D-E E-G G-H H-J, response A-B B-C D-E E-F G-H H-I: recall 3/6, precision 3/6", () => {
    const s = mucScore(example(VILAIN_1995, "B-C C-D D-E E-G G-H H-J", "A-B B-C D-E E-F G-H H-I"));
    expect([s.recallNum, s.recallDen]).toEqual([3, 6]);
    expect([s.precisionNum, s.precisionDen]).toEqual([3, 6]);
  });
  it("key A-B B-C D-E E-F F-G, response A-B C-D F-G G-H: recall 2/5, precision 2/4", () => {
    const s = mucScore(example(VILAIN_1995, "A-B B-C D-E E-F F-G", "A-B C-D F-G G-H"));
    expect([s.recallNum, s.recallDen]).toEqual([2, 5]);
    expect([s.precisionNum, s.precisionDen]).toEqual([2, 4]);
  });
});

describe("Bagga & Baldwin 1998 (B³)", () => {
  const { key } = BAGGA_BALDWIN_1998;
  const [first, second] = BAGGA_BALDWIN_1998.responses.map((r) => r.entities);
  it("the example is the papers' key {1 2 3 4 5} {6 7} {8 9 A B C} with the responses of Figures 2 and 4", () => {
    expect(BAGGA_BALDWIN_1998.keySpec).toBe("12345 67 89ABC");
    expect(BAGGA_BALDWIN_1998.responses.map((r) => r.spec)).toEqual(["12345 6789ABC", "1234589ABC 67"]);
    expect(key).toEqual([chain("12345"), chain("67"), chain("89ABC")]);
    expect(first).toEqual([chain("12345"), chain("6789ABC")]);
    expect(second).toEqual([chain("1234589ABC"), chain("67")]);
  });

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
