/**
 * The anaphor-decomposable score of zeros (Žabokrtský et al. 2022, "Findings of the Shared
 * Task on Multilingual Coreference Resolution", CRAC 2022), as the CorefUD scorer v1.2 computes
 * it (`als_zeros` / `anaphor_level_score` in `scorer/eval/evaluator.py`).
 *
 * Each entity is ordered by position (first node, last node, size). Every key mention after
 * the first of its entity that is a zero is an anaphor. Its counterpart is the response
 * mention with the same identity if the response has one, else its partner in the lookup
 * table (quirk reproduced: identity comes first, so a dependent zero pairing can be
 * overridden). The anaphor is
 * - a FN (missed) when it has no counterpart, or the counterpart is the first mention of
 *   some response entity;
 * - a WL (wrong link) when the counterpart's response entity is not among those of the
 *   counterparts of the mentions before it in its key entity;
 * - else a TP.
 * A FP is a response zero, not first in its entity, that is no anaphor's counterpart.
 * recall = TP / (TP + FN + WL), precision = TP / (TP + FP + WL).
 */
import type { Counts } from "../metrics/counts.js";
import { positionOrder, type Occurrence, type PreparedSide } from "./align.js";

/**
 * Zero-anaphor counts of one document.
 *
 * @param key the prepared key side; `response` likewise
 * @param partner the shared lookup table of the alignment (identity → partner or -1)
 * @returns recallNum = precisionNum = TP, recallDen = TP + FN + WL, precisionDen = TP + FP + WL
 *   (integers). Never throws.
 */
export function zeroScore(key: PreparedSide, response: PreparedSide, partner: Int32Array): Counts {
  const byPosition = (a: Occurrence, b: Occurrence) => positionOrder(a.mention.nodes, b.mention.nodes);
  const responseEntities = response.entities.map((e) => [...e].sort(byPosition));
  const firstMentions = new Set(responseEntities.map((e) => e[0].id));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let wl = 0;
  const covered = new Set<number>();
  const previous = new Set<number>();
  for (const entity of key.entities) {
    const ordered = [...entity].sort(byPosition);
    previous.clear();
    ordered.forEach((o, i) => {
      let counterpart = -1;
      if (response.entityOf[o.id] >= 0) counterpart = o.id;
      else if (partner[o.id] >= 0) counterpart = partner[o.id];
      const entityOfCounterpart = counterpart >= 0 ? response.entityOf[counterpart] : -1;
      if (i > 0 && o.mention.zero) {
        if (counterpart < 0 || firstMentions.has(counterpart)) fn++;
        else if (!previous.has(entityOfCounterpart)) wl++;
        else tp++;
        if (counterpart >= 0) covered.add(counterpart);
      }
      if (counterpart >= 0 && entityOfCounterpart >= 0) previous.add(entityOfCounterpart);
    });
  }
  for (const entity of responseEntities) {
    for (const o of entity) {
      if (!firstMentions.has(o.id) && !covered.has(o.id) && o.mention.zero) fp++;
    }
  }
  return { recallNum: tp, recallDen: tp + fn + wl, precisionNum: tp, precisionDen: tp + fp + wl };
}
