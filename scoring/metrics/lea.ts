/**
 * LEA, the link-based entity-aware metric (Moosavi & Strube 2016, "Which Coreference
 * Evaluation Metric Do You Trust? A Proposal for a Link-based Entity Aware Metric", ACL),
 * as in the reference scorer's LEA branch and coval.
 *
 *   recall = Σ_K importance(K) · resolution(K) / Σ_K importance(K), importance(K) = |K|,
 *   resolution(K) = Σ_R link(K ∩ R) / link(K), link(E) = |E|(|E| − 1)/2;
 * precision swaps key and response. A singleton entity has one self-link: it is resolved
 * (resolution 1) exactly when the other side has the same mention as a singleton too.
 */
import type { AlignedDocument } from "./alignment.js";
import type { Counts } from "./counts.js";

/**
 * LEA counts for one aligned document.
 *
 * @returns recallNum = Σ_K |K| · resolution(K), recallDen = Σ_K |K|; precision likewise
 *   over response entities. Numerators are sums of fractions.
 */
export function lea(doc: AlignedDocument): Counts {
  const recall = side(doc.key, doc.response, doc.responseChainOf);
  const precision = side(doc.response, doc.key, doc.keyChainOf);
  return { recallNum: recall.num, recallDen: recall.den, precisionNum: precision.num, precisionDen: precision.den };
}

/** Σ |E| · resolution(E) and Σ |E| for the entities `from`, resolved against `to`. */
function side(from: number[][], to: number[][], toChainOf: Int32Array): { num: number; den: number } {
  let num = 0;
  let den = 0;
  const count = new Int32Array(to.length);
  const touched: number[] = [];
  for (const entity of from) {
    const size = entity.length;
    if (size === 0) continue;
    den += size;
    if (size === 1) {
      const other = toChainOf[entity[0]];
      if (other >= 0 && to[other].length === 1) num += 1;
      continue;
    }
    let common = 0;
    for (const id of entity) {
      const j = toChainOf[id];
      if (j < 0) continue;
      if (count[j] === 0) touched.push(j);
      common += count[j]++; // adds the links to the mentions of this group seen so far
    }
    for (const j of touched) count[j] = 0;
    touched.length = 0;
    num += (size * common) / ((size * (size - 1)) / 2);
  }
  return { num, den };
}
