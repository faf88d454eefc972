/**
 * CEAF (Luo 2005, "On Coreference Resolution Performance Metrics", HLT/EMNLP): the best
 * one-to-one alignment g* of key entities to response entities under a similarity φ, then
 * recall = Φ(g*) / Σ_K φ(K, K) and precision = Φ(g*) / Σ_R φ(R, R).
 * - CEAFm (mention-based, φ3): φ3(K, R) = |K ∩ R|; the denominators are mention counts.
 * - CEAFe (entity-based, φ4): φ4(K, R) = 2|K ∩ R| / (|K| + |R|); the denominators are
 *   entity counts.
 *
 * As in the reference scorer (`CEAF`, v8.01), |K ∩ R| counts the mentions of K (with their
 * repeats) that R holds, and sizes include repeats. The alignment is solved exactly, but
 * only inside each connected group of entities that share mentions: entities with nothing
 * in common have similarity 0, so the groups are independent assignment problems.
 */
import { sideTotals, type AlignedDocument } from "./alignment.js";
import type { Counts } from "./counts.js";
import { maxWeightMatchingTotal, type WeightedEdge } from "./assignment.js";

/** Which CEAF: `mention` (CEAFm, φ3) or `entity` (CEAFe, φ4). */
export type CeafVariant = "mention" | "entity";

/**
 * CEAF counts for one aligned document (Luo 2005; the reference scorer's `CEAF`).
 *
 * @param doc the key and response as aligned by `alignDocument`
 * @param variant `mention` for CEAFm (φ3), `entity` for CEAFe (φ4)
 * @returns recallNum = precisionNum = Φ(g*), the optimal total similarity;
 *   CEAFm: recallDen = key mentions, precisionDen = response mentions (repeats included);
 *   CEAFe: recallDen = non-empty key entities, precisionDen = response entities.
 *   `toScore` turns them into fractions in [0, 1]. Never throws.
 */
export function ceaf(doc: AlignedDocument, variant: CeafVariant): Counts {
  const total = optimalSimilarity(doc.key, doc.response, intersections(doc), variant);
  const totals = sideTotals(doc, variant);
  return { recallNum: total, recallDen: totals.key, precisionNum: total, precisionDen: totals.response };
}

/** A non-empty intersection |K ∩ R| between key entity `key` and response entity `response`. */
interface Overlap {
  key: number;
  response: number;
  size: number;
}

/** All non-empty |K ∩ R| (mentions of K, with repeats, that R holds). */
function intersections(doc: AlignedDocument): Overlap[] {
  const { key, response, responseChainOf } = doc;
  const holding = doc.responseHasRepeats ? doc.responseHolding() : null;
  const out: Overlap[] = [];
  const count = new Int32Array(response.length);
  const touched: number[] = [];
  for (let k = 0; k < key.length; k++) {
    for (const id of key[k]) {
      if (holding) {
        for (let p = holding.start[id]; p < holding.start[id + 1]; p++) {
          const r = holding.chains[p];
          if (count[r]++ === 0) touched.push(r);
        }
      } else {
        const r = responseChainOf[id];
        if (r >= 0 && count[r]++ === 0) touched.push(r);
      }
    }
    for (const r of touched) {
      out.push({ key: k, response: r, size: count[r] });
      count[r] = 0;
    }
    touched.length = 0;
  }
  return out;
}

/** The optimal total similarity (solved per connected group of overlapping entities). */
function optimalSimilarity(key: number[][], response: number[][], overlaps: Overlap[], variant: CeafVariant): number {
  const similarity = (o: Overlap): number =>
    variant === "mention" ? o.size : (2 * o.size) / (key[o.key].length + response[o.response].length);
  const edges: WeightedEdge[] = overlaps.map((o) => ({ left: o.key, right: o.response, weight: similarity(o) }));
  return maxWeightMatchingTotal(key.length, response.length, edges);
}
