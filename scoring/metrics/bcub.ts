/**
 * B³ (B-CUBED; Bagga & Baldwin 1998, "Algorithms for Scoring Coreference Chains", and the
 * UPenn CAMP MUC-7 system description). For each mention m, with R(m) its response entity
 * and K(m) its key entity: precision(m) = |K(m) ∩ R(m)| / |R(m)| and
 * recall(m) = |K(m) ∩ R(m)| / |K(m)|.
 *
 * Two weightings from the paper:
 * - `mention` (the reference scorer's and the default): every mention weighs the same;
 *   precision = Σ_{m ∈ response} precision(m) / (number of response mentions), recall
 *   likewise over key mentions (a key mention missing from the response scores 0);
 * - `entity`: every entity weighs the same and its mentions share that weight;
 *   precision = Σ_R avg_{m ∈ R} precision(m) / (number of response entities).
 *
 * Twinless mentions and singletons count, as in the reference scorer (`BCUBED`, v8.01):
 * it loops over response mentions, takes K(m) as the last key entity holding m, and counts
 * |K ∩ R| as the mentions of R that K holds (with their repeats).
 */
import { sideTotals, type AlignedDocument } from "./alignment.js";
import type { Counts } from "./counts.js";

/** How B³ weighs mentions: equal weight per mention (reference default) or per entity. */
export type BcubWeighting = "mention" | "entity";

/**
 * B³ counts for one aligned document (Bagga & Baldwin 1998; the reference scorer's `BCUBED`).
 *
 * @param doc the key and response as aligned by `alignDocument`
 * @param weighting `mention` (default): numerators are sums of per-mention fractions and
 *   denominators are mention counts (repeats included); `entity`: numerators are sums of
 *   per-entity averages and denominators are entity counts (non-empty entities).
 * @returns recall and precision counts (numerators are sums of fractions); `toScore` turns
 *   them into fractions in [0, 1]. Never throws.
 */
export function bcub(doc: AlignedDocument, weighting: BcubWeighting = "mention"): Counts {
  const { key, response, keyChainOf } = doc;
  // For each response entity, how many of its mentions each key entity holds.
  const holding = doc.keyHasRepeats ? doc.keyHolding() : null;
  const common = new Float64Array(key.length);
  const stamp = new Int32Array(key.length).fill(-1);
  const recallOfKey = weighting === "entity" ? new Float64Array(key.length) : null;

  let precisionNum = 0;
  let recallNum = 0;
  for (let r = 0; r < response.length; r++) {
    const chain = response[r];
    for (const id of chain) {
      if (holding) {
        for (let p = holding.start[id]; p < holding.start[id + 1]; p++) bump(holding.chains[p], r);
      } else if (keyChainOf[id] >= 0) {
        bump(keyChainOf[id], r);
      }
    }
    let entityPrecision = 0;
    for (const id of chain) {
      const k = keyChainOf[id];
      if (k < 0) continue;
      const ci = common[k];
      entityPrecision += ci / chain.length;
      if (recallOfKey) recallOfKey[k] += ci / key[k].length;
      else recallNum += ci / key[k].length;
    }
    precisionNum += weighting === "entity" ? entityPrecision / chain.length : entityPrecision;
  }

  function bump(k: number, r: number): void {
    if (stamp[k] !== r) {
      stamp[k] = r;
      common[k] = 0;
    }
    common[k]++;
  }

  if (recallOfKey) {
    for (let k = 0; k < key.length; k++) if (key[k].length > 0) recallNum += recallOfKey[k] / key[k].length;
  }
  const totals = sideTotals(doc, weighting);
  return { recallNum, recallDen: totals.key, precisionNum, precisionDen: totals.response };
}
