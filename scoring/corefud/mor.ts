/**
 * MOR, the mention overlap ratio (Žabokrtský et al. 2022, "Findings of the Shared Task on
 * Multilingual Coreference Resolution", CRAC 2022, Section 4), as the CorefUD scorer v1.2
 * computes it (`mention_overlap` in `scorer/eval/evaluator.py`).
 *
 * It does not use the mention alignment: key and response mentions (every occurrence in an
 * entity, after singleton and zero filtering) are paired 1-to-1 so that the total number of
 * shared nodes is maximal. Then
 *   recall = Σ overlap / Σ_{key mentions} |K|,  precision = Σ overlap / Σ_{response mentions} |S|.
 * Upstream solves one dense assignment per group of mentions whose spans chain-overlap; the
 * maximum total is the same as the sum over connected groups of mentions that share a node,
 * which is what is solved here, on sparse overlaps, in time linear in the overlaps.
 */
import type { Counts } from "../metrics/counts.js";
import { maxWeightMatchingTotal, type WeightedEdge } from "../metrics/assignment.js";
import { nodeSetHash, sameNodes } from "./align.js";

/**
 * MOR counts of one document.
 *
 * @param key the key mentions' node sets (ascending node codes; any integers), one per occurrence
 * @param response the response mentions' node sets
 * @returns recallNum = precisionNum = the maximum total overlap (an integer number of nodes);
 *   recallDen = Σ |K|; precisionDen = Σ |S|. Never throws.
 */
export function mentionOverlap(key: readonly (readonly number[])[], response: readonly (readonly number[])[]): Counts {
  let recallDen = 0;
  for (const k of key) recallDen += k.length;
  let precisionDen = 0;
  for (const s of response) precisionDen += s.length;

  // Identical node sets are paired first: some optimal matching always pairs them, since for
  // K = S, |K ∩ S'| + |K' ∩ K| ≤ |K| + |K' ∩ S'| for any other K', S' (inclusion–exclusion).
  let total = 0;
  const waiting = new Map<number, number[]>(); // hash → unpaired key mentions with that hash
  key.forEach((k, i) => {
    const h = nodeSetHash(k, -1);
    const list = waiting.get(h);
    if (list) list.push(i);
    else waiting.set(h, [i]);
  });
  const keyPaired = new Uint8Array(key.length);
  const responseLeft: number[] = [];
  response.forEach((s, j) => {
    const list = waiting.get(nodeSetHash(s, -1));
    const at = list ? list.findIndex((i) => sameNodes(key[i], s)) : -1;
    if (at < 0) {
      responseLeft.push(j);
      return;
    }
    keyPaired[list![at]] = 1;
    list!.splice(at, 1);
    total += s.length;
  });

  // Overlaps |K ∩ S| of the rest, through the key mentions holding each node.
  const holders = new Map<number, number[]>();
  key.forEach((k, i) => {
    if (keyPaired[i]) return;
    for (const node of k) {
      const list = holders.get(node);
      if (list) list.push(i);
      else holders.set(node, [i]);
    }
  });
  const edges: WeightedEdge[] = [];
  const overlap = new Map<number, number>();
  for (const j of responseLeft) {
    overlap.clear();
    for (const node of response[j]) {
      const list = holders.get(node);
      if (list) for (const i of list) overlap.set(i, (overlap.get(i) ?? 0) + 1);
    }
    for (const [i, w] of overlap) edges.push({ left: i, right: j, weight: w });
  }
  total += maxWeightMatchingTotal(key.length, response.length, edges);
  return { recallNum: total, recallDen, precisionNum: total, precisionDen };
}
