/**
 * Mapped cluster F (P95-1038): a hand-worked example with its derivation, the threshold
 * rule, tie-breaks, degenerate inputs, and the optional `mcf` metric of `evaluate`.
 */
import { describe, expect, it } from "vitest";
import type { Corpus, Entity } from "../types.js";
import { toScore } from "../metrics/counts.js";
import { evaluate } from "../evaluate.js";
import { MAPPED_F_THRESHOLD, mappedClusterF } from "./mapped-cluster-f.js";

/** "abc def" -> two entities of one-token mentions, letter a..z at token 0..25. */
function entities(spec: string): Entity[] {
  if (spec.trim() === "") return [];
  return spec.split(" ").map((g) => [...g].map((ch) => [ch.charCodeAt(0) - 97, ch.charCodeAt(0) - 97] as const));
}

describe("mappedClusterF: hand-worked example", () => {
  /*
   * Key (expert) entities, columns:      Response (system) entities, rows:
   *   G0 = {a b c d}   (|G0| = 4)          S0 = {a b c}        (|S0| = 3)
   *   G1 = {d e f}     (|G1| = 3)          S1 = {a b d e}      (|S1| = 4)
   *   G2 = {g h}       (|G2| = 2)          S2 = {g x}          (|S2| = 2)
   *   G3 = {i j k l m} (|G3| = 5)          S3 = {m w y z}      (|S3| = 4)
   *                                        S4 = {l p q r s t}  (|S4| = 6)
   *                                        S5 = {e f}          (|S5| = 2)
   * Overlaps: span d is in two key entities (G0, G1); spans a and b are in two response
   * entities (S0, S1), and e in S1 and S5. Each membership counts.
   *
   * F table, F(S, G) = 2|S ∩ G| / (|S| + |G|), cells not shown are 0:
   *          G0            G1            G2           G3
   *   S0  2·3/7 = 6/7
   *   S1  2·3/8 = 3/4   2·2/7 = 4/7
   *   S2                              2·1/4 = 1/2
   *   S3                                           2·1/9 = 2/9 ≈ 0.222
   *   S4                                           2·1/11 = 2/11 ≈ 0.182  (not above 0.2)
   *   S5                2·2/5 = 4/5
   *
   * Marks (best cell above 0.2 per row): S0→G0, S1→G0, S2→G2, S3→G3, S5→G1; S4 has no
   * cell above the threshold and is unmapped.
   *
   * Conflict 1, column G0 (marked by S0 and S1):
   *   loss(S0) = 6/7 − 0 (no other column)        = 6/7
   *   loss(S1) = 3/4 − 4/7 (its next best is G1)  = 5/28
   *   S1 loses less, so S1 moves to G1 (and can never return to G0).
   * Conflict 2, created by that move, column G1 (marked by S5 and S1):
   *   loss(S1) = 4/7 − 0 (G0 is excluded, nothing else) = 4/7
   *   loss(S5) = 4/5 − 0                                = 4/5
   *   S1 loses less, so S1 becomes unmapped. No conflict is left.
   *
   * Final mapping: S0→G0, S1 unmapped, S2→G2, S3→G3, S4 unmapped, S5→G1.
   * Contingency table:
   *                     YES-YES  YES-NO  NO-YES
   *   S0,G0 (abc | abcd)   3        0       1    (d)
   *   S2,G2 (gx | gh)      1        1 (x)   1    (h)
   *   S3,G3 (mwyz | ijklm) 1        3 (wyz) 4    (ijkl)
   *   S5,G1 (ef | def)     2        0       1    (d, again: it is in G1 too)
   *   S1 unmapped          .        4       .
   *   S4 unmapped          .        6       .
   *   (every key entity is mapped, so no unmapped key spans)
   *   total                7       14       7
   * P = 7/(7+14) = 1/3, R = 7/(7+7) = 1/2, F = 2·(1/3)(1/2)/(1/3 + 1/2) = 2/5.
   */
  const key = entities("abcd def gh ijklm");
  const response = entities("abc abde gx mwyz lpqrst ef");

  it("maps, resolves both conflicts and fills the table as derived", () => {
    const r = mappedClusterF(key, response);
    expect(r.mapping).toEqual([
      { response: 0, key: 0, f: 6 / 7 },
      { response: 1, key: null, f: 0 },
      { response: 2, key: 2, f: 1 / 2 },
      { response: 3, key: 3, f: 2 / 9 },
      { response: 4, key: null, f: 0 },
      { response: 5, key: 1, f: 4 / 5 },
    ]);
    expect(r.counts).toEqual({ recallNum: 7, recallDen: 14, precisionNum: 7, precisionDen: 21 });
    const s = toScore(r.counts);
    expect(s.precision).toBe(1 / 3);
    expect(s.recall).toBe(1 / 2);
    expect(s.f1).toBeCloseTo(2 / 5, 15);
  });

  it("without S5, S1 keeps G1 after the first conflict", () => {
    // Rows S0..S4 only: conflict on G0 moves S1 to G1 (4/7), which nobody else marks.
    // Table: S0,G0 3/0/1; S1,G1 2 (d e)/2 (a b)/1 (f); S2,G2 1/1/1; S3,G3 1/3/4; S4 -/6/-.
    // YY = 7, YN = 12, NY = 7: P = 7/19, R = 7/14.
    const r = mappedClusterF(key, response.slice(0, 5));
    expect(r.mapping.map((m) => m.key)).toEqual([0, 1, 2, 3, null]);
    expect(r.mapping[1].f).toBe(4 / 7);
    expect(r.counts).toEqual({ recallNum: 7, recallDen: 14, precisionNum: 7, precisionDen: 19 });
  });

  it("a lower threshold lets S4 in, and then G3 is in conflict", () => {
    // Threshold 0.15: S4 marks G3 (2/11) too. loss(S3) = 2/9, loss(S4) = 2/11 < 2/9, so S4
    // moves and is unmapped again: the same result as with 0.2.
    const r = mappedClusterF(key, response, { threshold: 0.15 });
    expect(r.mapping.map((m) => m.key)).toEqual([0, null, 2, 3, null, 1]);
    expect(r.counts).toEqual({ recallNum: 7, recallDen: 14, precisionNum: 7, precisionDen: 21 });
  });
});

describe("mappedClusterF: rules", () => {
  it("identical partitions give P = R = F = 1", () => {
    const e = entities("abc de f ghij");
    const s = toScore(mappedClusterF(e, e).counts);
    expect([s.recall, s.precision, s.f1]).toEqual([1, 1, 1]);
  });

  it("identical overlapping clusterings give P = R = F = 1", () => {
    const e = entities("abc cde ef a");
    const r = mappedClusterF(e, e);
    expect(r.mapping.map((m) => m.key)).toEqual([0, 1, 2, 3]);
    expect(toScore(r.counts).f1).toBe(1);
  });

  it("an empty response gives R = 0 (and P = 0 by the 0/0 rule)", () => {
    const r = mappedClusterF(entities("abc de"), []);
    expect(r.counts).toEqual({ recallNum: 0, recallDen: 5, precisionNum: 0, precisionDen: 0 });
    expect(toScore(r.counts).recall).toBe(0);
    expect(toScore(r.counts).f1).toBe(0);
    expect(toScore(mappedClusterF([], []).counts).f1).toBe(0);
  });

  it("F exactly at the threshold does not map; just above does", () => {
    // {a b c d e} vs {a v w x y}: F = 2·1/10 = 0.2 exactly.
    const key = entities("abcde");
    const response = entities("avwxy");
    expect(MAPPED_F_THRESHOLD).toBe(0.2);
    const at = mappedClusterF(key, response);
    expect(at.mapping).toEqual([{ response: 0, key: null, f: 0 }]);
    expect(at.counts).toEqual({ recallNum: 0, recallDen: 5, precisionNum: 0, precisionDen: 5 });
    const below = mappedClusterF(key, response, { threshold: 0.19 });
    expect(below.mapping).toEqual([{ response: 0, key: 0, f: 0.2 }]);
    expect(below.counts).toEqual({ recallNum: 1, recallDen: 5, precisionNum: 1, precisionDen: 5 });
  });

  it("ties on F go to the lowest key index; ties on loss move the later response entity", () => {
    // {a b} vs key {a c} and {b d}: F = 1/2 with both; the mark goes to G0.
    expect(mappedClusterF(entities("ac bd"), entities("ab")).mapping[0].key).toBe(0);
    // Two identical rows on one column, no other column: equal losses, the later one moves.
    const r = mappedClusterF(entities("ab"), entities("ab ab"));
    expect(r.mapping.map((m) => m.key)).toEqual([0, null]);
    expect(r.counts).toEqual({ recallNum: 2, recallDen: 2, precisionNum: 2, precisionDen: 4 });
  });

  it("a span repeated inside one entity counts once", () => {
    const key: Entity[] = [[[0, 0], [1, 1], [0, 0]]];
    const response: Entity[] = [[[0, 0], [0, 0], [1, 1]]];
    const r = mappedClusterF(key, response);
    expect(r.mapping[0]).toEqual({ response: 0, key: 0, f: 1 });
    expect(r.counts).toEqual({ recallNum: 2, recallDen: 2, precisionNum: 2, precisionDen: 2 });
  });

  it("spans are compared whole: [0, 1] and [0, 0] are different elements", () => {
    const r = mappedClusterF([[[0, 1], [3, 3]]], [[[0, 0], [3, 3]]]);
    expect(r.mapping[0].f).toBe(0.5);
    expect(r.counts.recallNum).toBe(1);
  });

  it("rejects a threshold outside [0, 1]", () => {
    for (const threshold of [-0.1, 1.5, Number.NaN]) {
      expect(() => mappedClusterF([], [], { threshold })).toThrow(RangeError);
    }
    expect(() => mappedClusterF([], [], { threshold: 0 })).not.toThrow();
    expect(() => mappedClusterF([], [], { threshold: 1 })).not.toThrow();
  });

  it("agrees with a dense, step-by-step implementation of the rules on random inputs", () => {
    let state = 99;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) >> 8; // high bits
    const make = (count: number): Entity[] =>
      Array.from({ length: count }, () => Array.from({ length: 1 + (next() % 4) }, () => {
        const t = next() % 10;
        return [t, t] as const;
      }));
    for (let trial = 0; trial < 300; trial++) {
      const key = make(1 + (next() % 5));
      const response = make(next() % 6);
      const threshold = [0, 0.2, 0.4][trial % 3];
      const got = mappedClusterF(key, response, { threshold });
      expect(got.mapping.map((m) => m.key)).toEqual(denseMapping(key, response, threshold));
    }
  });

  it("handles 5,000 overlapping entities per side", () => {
    // Deterministic pseudo-random overlapping clusterings over 20,000 one-token spans.
    let state = 12345;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) >> 8; // high bits
    const make = (): Entity[] =>
      Array.from({ length: 5000 }, () => {
        const base = next() % 20000;
        return Array.from({ length: 1 + (next() % 8) }, () => {
          const t = (base + (next() % 12)) % 20000;
          return [t, t] as const;
        });
      });
    const key = make();
    const response = make();
    const r = mappedClusterF(key, response);
    expect(r.mapping).toHaveLength(5000);
    // Each key entity ends with at most one response entity.
    const used = r.mapping.filter((m) => m.key !== null).map((m) => m.key);
    expect(new Set(used).size).toBe(used.length);
    expect(r.counts.recallNum).toBeLessThanOrEqual(r.counts.recallDen);
  });
});

describe("evaluate with mappedClusterF", () => {
  const doc = (id: string, es: Entity[]) => ({ id, name: id, part: null, tokens: [], sentenceStarts: [0], entities: es, line: 1 });
  const corpus = (docs: ReturnType<typeof doc>[]): Corpus => ({ file: "t", documents: docs, warnings: [] });
  const key = corpus([doc("d1", entities("abcd def gh ijklm")), doc("d2", entities("ab cd"))]);
  const response = corpus([doc("d1", entities("abc abde gx mwyz lpqrst ef")), doc("d2", entities("ab cd"))]);

  it("is off by default", () => {
    const r = evaluate(key, response);
    expect(r.metrics.mcf).toBeUndefined();
    expect(r.perDocument[0].counts.mcf).toBeUndefined();
  });

  it("fills per-document counts on the raw entities and sums them for the corpus score", () => {
    const r = evaluate(key, response, { mappedClusterF: true });
    // d1 is the hand-worked example (span a and b repeated across response entities, which
    // the CoNLL alignment would de-duplicate); d2 is perfect: 4 of 4 both ways.
    expect(r.perDocument[0].counts.mcf).toEqual({ recallNum: 7, recallDen: 14, precisionNum: 7, precisionDen: 21 });
    expect(r.perDocument[1].counts.mcf).toEqual({ recallNum: 4, recallDen: 4, precisionNum: 4, precisionDen: 4 });
    expect(r.metrics.mcf).toEqual(toScore({ recallNum: 11, recallDen: 18, precisionNum: 11, precisionDen: 25 }));
    expect(r.perDocument[1].scores.mcf?.f1).toBe(1);
    // The other metrics are unchanged by the option.
    const plain = evaluate(key, response);
    expect(r.metrics.muc).toEqual(plain.metrics.muc);
    expect(r.metrics.conll).toEqual(plain.metrics.conll);
  });

  it("takes a threshold", () => {
    const r = evaluate(key, response, { mappedClusterF: { threshold: 0.9 } });
    // d1: no cell exceeds 0.9 (the best is S0's 6/7 ≈ 0.857), so nothing maps;
    // d2 maps perfectly (F = 1 > 0.9).
    expect(r.perDocument[0].counts.mcf?.recallNum).toBe(0);
    expect(r.perDocument[1].counts.mcf?.recallNum).toBe(4);
    expect(() => evaluate(key, response, { mappedClusterF: { threshold: 2 } })).toThrow(RangeError);
  });
});

/**
 * The module's rules spelled out densely for checking: the full F table as exact fractions,
 * marks, then "lowest column in conflict; smallest loss moves; ties move the later row".
 */
function denseMapping(key: Entity[], response: Entity[], threshold: number): (number | null)[] {
  const set = (e: Entity) => new Set(e.map(([a, b]) => `${a},${b}`));
  const K = key.map(set);
  const R = response.map(set);
  // f[r][k] = [2|S∩G|, |S|+|G|]
  const f = R.map((S) => K.map((G) => [2 * [...S].filter((x) => G.has(x)).length, S.size + G.size] as const));
  const value = (r: number, k: number) => f[r][k][0] / f[r][k][1];
  const excluded = R.map(() => new Set<number>());
  const best = (r: number): number | null => {
    let at: number | null = null;
    for (let k = 0; k < K.length; k++) {
      if (excluded[r].has(k) || !(value(r, k) > threshold)) continue;
      if (at === null || f[r][k][0] * f[r][at][1] > f[r][at][0] * f[r][k][1]) at = k;
    }
    return at;
  };
  const mark = R.map((_, r) => best(r));
  for (;;) {
    let column = -1;
    for (let k = 0; k < K.length && column < 0; k++) if (mark.filter((m) => m === k).length > 1) column = k;
    if (column < 0) return mark;
    let mover = -1;
    let moverLoss = 0;
    for (let r = 0; r < R.length; r++) {
      if (mark[r] !== column) continue;
      excluded[r].add(column);
      const alt = best(r);
      excluded[r].delete(column);
      const loss = value(r, column) - (alt === null ? 0 : value(r, alt));
      // Later rows win ties (a tolerance stands in for the exact comparison here).
      if (mover < 0 || loss <= moverLoss + 1e-12) {
        mover = r;
        moverLoss = loss;
      }
    }
    excluded[mover].add(column);
    mark[mover] = best(mover);
  }
}
