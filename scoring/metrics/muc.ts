/**
 * MUC (Vilain, Burger, Aberdeen, Connolly & Hirschman 1995, "A Model-Theoretic Coreference
 * Scoring Scheme", MUC-6).
 *
 * Recall = Σ_K (|K| − |p(K)|) / Σ_K (|K| − 1), where p(K) partitions key entity K by the
 * response entities; precision swaps key and response. Here the numerator is computed the
 * way the reference scorer (`MUCScorer`) does: for each response entity, the number of its
 * mentions whose key entity is shared by a later mention of the same response entity,
 * which equals Σ_R (|R ∩ key mentions| − number of key entities met by R). A mention held
 * by two key entities counts for the last of them, as in the reference scorer.
 */
import type { AlignedDocument } from "./alignment.js";
import type { Counts } from "./counts.js";

/**
 * MUC link counts for one aligned document.
 *
 * @returns recallNum = precisionNum = correct links; recallDen = key links Σ(|K|−1);
 *   precisionDen = response links Σ(|R|−1). Singletons contribute no link.
 */
export function muc(doc: AlignedDocument): Counts {
  let keyLinks = 0;
  for (const k of doc.key) if (k.length > 0) keyLinks += k.length - 1;
  let responseLinks = 0;
  let correct = 0;
  const seenIn = new Int32Array(doc.key.length).fill(-1);
  for (let r = 0; r < doc.response.length; r++) {
    const chain = doc.response[r];
    responseLinks += chain.length - 1;
    let inKey = 0;
    let distinct = 0;
    for (const id of chain) {
      const k = doc.keyChainOf[id];
      if (k < 0) continue;
      inKey++;
      if (seenIn[k] !== r) {
        seenIn[k] = r;
        distinct++;
      }
    }
    correct += inKey - distinct;
  }
  return { recallNum: correct, recallDen: keyLinks, precisionNum: correct, precisionDen: responseLinks };
}
