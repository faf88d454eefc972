import { describe, expect, it } from "vitest";
import { maxWeightMatching, maxWeightMatchingTotal, type WeightedEdge } from "./assignment.js";

/** A small deterministic generator (mulberry32), so that every run checks the same graphs. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random bipartite graph: each pair is an edge with probability `density`, weights as CEAF has them. */
function graph(rand: () => number, left: number, right: number, density: number, integer: boolean): WeightedEdge[] {
  const edges: WeightedEdge[] = [];
  for (let l = 0; l < left; l++) {
    for (let r = 0; r < right; r++) {
      if (rand() >= density) continue;
      // Integer weights (CEAFm's |K ∩ R|) make many ties; fractions (CEAFe's φ4) few.
      edges.push({ left: l, right: r, weight: integer ? 1 + Math.floor(rand() * 3) : (2 * (1 + Math.floor(rand() * 5))) / (2 + Math.floor(rand() * 9)) });
    }
  }
  return edges;
}

/** The optimum by trying every injection of the smaller side (tiny graphs only). */
function bruteForce(left: number, right: number, edges: readonly WeightedEdge[]): number {
  const weight = new Map(edges.map((e) => [`${e.left},${e.right}`, e.weight]));
  let best = 0;
  const usedRight = new Array<boolean>(right).fill(false);
  const visit = (l: number, sum: number): void => {
    if (l === left) {
      best = Math.max(best, sum);
      return;
    }
    visit(l + 1, sum); // l stays unmatched
    for (let r = 0; r < right; r++) {
      const w = weight.get(`${l},${r}`);
      if (usedRight[r] || w === undefined) continue;
      usedRight[r] = true;
      visit(l + 1, sum + w);
      usedRight[r] = false;
    }
  };
  visit(0, 0);
  return best;
}

describe("maximum-weight matching", () => {
  it("equals brute force on 300 tiny graphs (the dense solver)", () => {
    const rand = random(7);
    for (let k = 0; k < 300; k++) {
      const left = 1 + Math.floor(rand() * 6);
      const right = 1 + Math.floor(rand() * 6);
      const edges = graph(rand, left, right, 0.3 + rand() * 0.7, k % 2 === 0);
      const expected = bruteForce(left, right, edges);
      expect(maxWeightMatchingTotal(left, right, edges)).toBeCloseTo(expected, 9);
      expect(maxWeightMatching(left, right, edges).total).toBeCloseTo(expected, 9);
    }
  });

  it("the dense solver (groups of up to 48) and the sparse one agree on 200 graphs of up to 60 nodes a side", () => {
    const rand = random(11);
    for (let k = 0; k < 200; k++) {
      const left = 1 + Math.floor(rand() * 60);
      const right = 1 + Math.floor(rand() * 60);
      const edges = graph(rand, left, right, 0.02 + rand() * 0.6, k % 2 === 0);
      const sparse = maxWeightMatching(left, right, edges);
      expect(maxWeightMatchingTotal(left, right, edges)).toBeCloseTo(sparse.total, 9);
      // The sparse solver's matching is one-to-one and adds up to its total.
      const seen = new Set<number>();
      let sum = 0;
      const weight = new Map(edges.map((e) => [`${e.left},${e.right}`, e.weight]));
      sparse.matchOfLeft.forEach((r, l) => {
        if (r < 0) return;
        expect(seen.has(r)).toBe(false);
        seen.add(r);
        sum += weight.get(`${l},${r}`)!;
      });
      expect(sum).toBeCloseTo(sparse.total, 9);
    }
  });

  it("leaves a node unmatched rather than take a worse pair: a path a–x–b–y with weights 1, 3, 1", () => {
    const edges = [
      { left: 0, right: 0, weight: 1 },
      { left: 1, right: 0, weight: 3 },
      { left: 1, right: 1, weight: 1 },
    ];
    expect(maxWeightMatchingTotal(2, 2, edges)).toBe(3);
    expect(maxWeightMatching(2, 2, edges).total).toBe(3);
  });
});
