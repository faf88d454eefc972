/**
 * Slow, literal implementations of the metrics over aligned id chains, used only by tests
 * as oracles for the fast implementations. Each follows the reference scorer's definition
 * word for word: explicit pair sets for BLANC, exhaustive search for the CEAF alignment,
 * per-mention loops for B³ and MUC. Inputs must be small (CEAF is exponential).
 */
import type { AlignedDocument } from "../metrics/alignment.js";
import type { Counts } from "../metrics/counts.js";
import type { BlancCounts } from "../metrics/blanc.js";

const lastChainOf = (chains: number[][], id: number): number => {
  let found = -1;
  chains.forEach((c, i) => {
    if (c.includes(id)) found = i;
  });
  return found;
};

/** MUC as `MUCScorer`: for each response mention, is a later one in the same key entity? */
export function mucOracle(d: AlignedDocument): Counts {
  let correct = 0;
  for (const r of d.response) {
    for (let i = 0; i < r.length; i++) {
      for (let j = i + 1; j < r.length; j++) {
        const ki = lastChainOf(d.key, r[i]);
        if (ki >= 0 && ki === lastChainOf(d.key, r[j])) {
          correct++;
          break;
        }
      }
    }
  }
  const links = (cs: number[][]) => cs.reduce((a, c) => a + (c.length ? c.length - 1 : 0), 0);
  return { recallNum: correct, recallDen: links(d.key), precisionNum: correct, precisionDen: links(d.response) };
}

/** B³ as `BCUBED`, equal weight per mention. */
export function bcubOracle(d: AlignedDocument): Counts {
  let p = 0;
  let r = 0;
  for (const rc of d.response) {
    for (const m of rc) {
      const k = lastChainOf(d.key, m);
      const kc = k >= 0 ? d.key[k] : [];
      const ci = rc.filter((x) => kc.includes(x)).length;
      p += ci / rc.length;
      if (kc.length) r += ci / kc.length;
    }
  }
  const size = (cs: number[][]) => cs.reduce((a, c) => a + c.length, 0);
  return { recallNum: r, recallDen: size(d.key), precisionNum: p, precisionDen: size(d.response) };
}

/** CEAF with the alignment found by exhaustive search over all one-to-one maps. */
export function ceafOracle(d: AlignedDocument, variant: "mention" | "entity"): Counts {
  const sim = (k: number[], r: number[]) => {
    const inter = k.filter((x) => r.includes(x)).length;
    return variant === "mention" ? inter : (2 * inter) / (k.length + r.length);
  };
  const best = (i: number, used: Set<number>): number => {
    if (i === d.key.length) return 0;
    let b = best(i + 1, used); // key entity i left unaligned
    for (let j = 0; j < d.response.length; j++) {
      if (used.has(j)) continue;
      used.add(j);
      b = Math.max(b, sim(d.key[i], d.response[j]) + best(i + 1, used));
      used.delete(j);
    }
    return b;
  };
  const total = best(0, new Set());
  const size = (cs: number[][]) => cs.reduce((a, c) => a + c.length, 0);
  return variant === "mention"
    ? { recallNum: total, recallDen: size(d.key), precisionNum: total, precisionDen: size(d.response) }
    : { recallNum: total, recallDen: d.key.length, precisionNum: total, precisionDen: d.response.length };
}

/** BLANC as `BLANC_Internal`: explicit sets of "min-max" link strings. */
export function blancOracle(d: AlignedDocument): BlancCounts {
  const sets = (chains: number[][]) => {
    const coref = new Set<string>();
    const non = new Set<string>();
    const link = (a: number, b: number) => (a <= b ? `${a}-${b}` : `${b}-${a}`);
    for (const c of chains) for (let i = 0; i < c.length; i++) for (let j = i + 1; j < c.length; j++) coref.add(link(c[i], c[j]));
    for (let x = 0; x < chains.length; x++)
      for (let y = x + 1; y < chains.length; y++) for (const a of chains[x]) for (const b of chains[y]) non.add(link(a, b));
    return { coref, non };
  };
  const k = sets(d.key);
  const r = sets(d.response);
  const both = (a: Set<string>, b: Set<string>) => [...a].filter((x) => b.has(x)).length;
  const bc = both(k.coref, r.coref);
  const bn = both(k.non, r.non);
  return {
    coref: { recallNum: bc, recallDen: k.coref.size, precisionNum: bc, precisionDen: r.coref.size },
    noncoref: { recallNum: bn, recallDen: k.non.size, precisionNum: bn, precisionDen: r.non.size },
  };
}

/** LEA as coval's `lea`, with positions (i < j) inside each entity. */
export function leaOracle(d: AlignedDocument): Counts {
  const side = (from: number[][], to: number[][]) => {
    let num = 0;
    let den = 0;
    for (const c of from) {
      let common = 0;
      let all: number;
      if (c.length === 1) {
        all = 1;
        const j = lastChainOf(to, c[0]);
        common = j >= 0 && to[j].length === 1 ? 1 : 0;
      } else {
        all = (c.length * (c.length - 1)) / 2;
        for (let i = 0; i < c.length; i++) {
          for (let j = i + 1; j < c.length; j++) {
            const a = lastChainOf(to, c[i]);
            if (a >= 0 && a === lastChainOf(to, c[j])) common++;
          }
        }
      }
      num += (c.length * common) / all;
      den += c.length;
    }
    return { num, den };
  };
  const r = side(d.key, d.response);
  const p = side(d.response, d.key);
  return { recallNum: r.num, recallDen: r.den, precisionNum: p.num, precisionDen: p.den };
}
