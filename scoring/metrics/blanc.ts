/**
 * BLANC (Recasens & Hovy 2011, "BLANC: Implementing the Rand index for coreference
 * evaluation"), generalised to system mentions by Luo, Pradhan, Recasens & Hovy (2014,
 * "An Extension of BLANC to System Mentions"), as in the reference scorer v8.01
 * (`BLANC_Internal`, `ComputeBLANCFromCounts`).
 *
 * Links are unordered pairs of mentions. C_k (key coreference links) are the pairs inside
 * a key entity, N_k (key non-coreference links) the pairs across two key entities; C_r and
 * N_r likewise for the response. Then
 *   R_c = |C_k ∩ C_r| / |C_k|,  P_c = |C_k ∩ C_r| / |C_r|,
 *   R_n = |N_k ∩ N_r| / |N_k|,  P_n = |N_k ∩ N_r| / |N_r|,
 * and BLANC averages the coreference and non-coreference parts (see `blancScore`).
 *
 * The pairs are never enumerated: with n_ij = |K_i ∩ R_j| over mentions in both,
 *   |C_k| = Σ_i C(|K_i|, 2), |N_k| = C(Σ_i |K_i|, 2) − |C_k|,
 *   |C_k ∩ C_r| = Σ_ij C(n_ij, 2),
 *   |N_k ∩ N_r| = C(m, 2) − Σ_i C(a_i, 2) − Σ_j C(b_j, 2) + Σ_ij C(n_ij, 2),
 * where m is the number of common mentions and a_i, b_j the row and column sums. Memory
 * and time are linear in the number of mentions. Mentions that a side holds more than once
 * (repeated key spans, repeated twinless response spans) break those identities, so pairs
 * involving them are counted one by one with the reference scorer's set semantics.
 */
import type { AlignedDocument, ChainsHolding } from "./alignment.js";
import { harmonicMean, ratio, type Counts } from "./counts.js";

/** BLANC's two parts as counts: coreference links and non-coreference links. */
export interface BlancCounts {
  coref: Counts;
  noncoref: Counts;
}

/** n choose 2. */
const pairs = (n: number): number => (n * (n - 1)) / 2;

/**
 * BLANC link counts for one aligned document (Luo et al. 2014; the reference scorer's
 * `BLANC_Internal`).
 *
 * @param doc the key and response as aligned by `alignDocument`
 * @returns `coref`: recallNum = precisionNum = |C_k ∩ C_r|, recallDen = |C_k|,
 *   precisionDen = |C_r|; `noncoref` likewise with N_k and N_r. All integers; `blancScore`
 *   turns summed counts into fractions. Never throws.
 */
export function blanc(doc: AlignedDocument): BlancCounts {
  const { key, response, mentionCount } = doc;
  const keyOcc = occurrences(key, mentionCount);
  const responseOcc = occurrences(response, mentionCount);
  // A mention is "plain" when each side holds it at most once.
  const plain = new Uint8Array(mentionCount);
  const repeated: number[] = [];
  for (let id = 0; id < mentionCount; id++) {
    if (keyOcc[id] <= 1 && responseOcc[id] <= 1) plain[id] = 1;
    else repeated.push(id);
  }

  // Contingency counts over plain mentions.
  const keyPlain = new Float64Array(key.length);
  const responsePlain = new Float64Array(response.length);
  const rowCommon = new Float64Array(key.length);
  const colCommon = new Float64Array(response.length);
  let keyMentions = 0;
  let responseMentions = 0;
  let common = 0;
  let cellPairs = 0;
  const cell = new Map<number, number>();
  for (let k = 0; k < key.length; k++) {
    cell.clear();
    for (const id of key[k]) {
      if (!plain[id]) continue;
      keyPlain[k]++;
      keyMentions++;
      const r = doc.responseChainOf[id];
      if (r < 0) continue;
      common++;
      rowCommon[k]++;
      colCommon[r]++;
      cell.set(r, (cell.get(r) ?? 0) + 1);
    }
    for (const n of cell.values()) cellPairs += pairs(n);
  }
  for (let r = 0; r < response.length; r++) {
    for (const id of response[r]) {
      if (!plain[id]) continue;
      responsePlain[r]++;
      responseMentions++;
    }
  }
  let keyCoref = 0;
  for (const n of keyPlain) keyCoref += pairs(n);
  let responseCoref = 0;
  for (const n of responsePlain) responseCoref += pairs(n);
  let rowPairs = 0;
  for (const n of rowCommon) rowPairs += pairs(n);
  let colPairs = 0;
  for (const n of colCommon) colPairs += pairs(n);

  const t = {
    keyCoref,
    keyNon: pairs(keyMentions) - keyCoref,
    responseCoref,
    responseNon: pairs(responseMentions) - responseCoref,
    bothCoref: cellPairs,
    bothNon: pairs(common) - rowPairs - colPairs + cellPairs,
  };

  if (repeated.length > 0) {
    // Pairs with at least one repeated mention, each unordered pair once.
    const isRepeated = new Uint8Array(mentionCount);
    for (const id of repeated) isRepeated[id] = 1;
    const keyHolding = doc.keyHolding();
    const responseHolding = doc.responseHolding();
    const kLinks = (x: number, y: number) => links(keyHolding, keyOcc, key, x, y);
    const rLinks = (x: number, y: number) => links(responseHolding, responseOcc, response, x, y);
    for (const x of repeated) {
      for (let y = 0; y < mentionCount; y++) {
        if (isRepeated[y] && y < x) continue;
        const [kc, kn] = kLinks(x, y);
        const [rc, rn] = rLinks(x, y);
        if (kc) t.keyCoref++;
        if (kn) t.keyNon++;
        if (rc) t.responseCoref++;
        if (rn) t.responseNon++;
        if (kc && rc) t.bothCoref++;
        if (kn && rn) t.bothNon++;
      }
    }
  }

  return {
    coref: { recallNum: t.bothCoref, recallDen: t.keyCoref, precisionNum: t.bothCoref, precisionDen: t.responseCoref },
    noncoref: { recallNum: t.bothNon, recallDen: t.keyNon, precisionNum: t.bothNon, precisionDen: t.responseNon },
  };
}

/** How many times each id occurs over all chains. */
function occurrences(chains: number[][], n: number): Int32Array {
  const occ = new Int32Array(n);
  for (const c of chains) for (const id of c) occ[id]++;
  return occ;
}

/**
 * Whether the pair {x, y} is a coreference link and a non-coreference link on one side,
 * with the reference scorer's set semantics: coreference if some chain holds both (for
 * x = y: holds x twice); non-coreference if two different chains hold one each.
 */
function links(
  holding: ChainsHolding,
  occ: Int32Array,
  chains: number[][],
  x: number,
  y: number,
): [boolean, boolean] {
  const xs = holding.chains.subarray(holding.start[x], holding.start[x + 1]);
  const ys = holding.chains.subarray(holding.start[y], holding.start[y + 1]);
  if (xs.length === 0 || ys.length === 0) return [false, false];
  let coref = false;
  if (x === y) {
    for (const c of xs) if (chains[c].indexOf(x) !== chains[c].lastIndexOf(x)) coref = true;
    return [coref, xs.length >= 2 && occ[x] >= 2];
  }
  for (const c of xs) if (ys.includes(c)) coref = true;
  const non = xs.length > 1 || ys.length > 1 || xs[0] !== ys[0];
  return [coref, non];
}

/**
 * How BLANC's two parts are averaged:
 * - `reference` (the CoNLL reference scorer v8.01, `ComputeBLANCFromCounts`): the coreference
 *   part is left out when the KEY has no coreference links, the non-coreference part when the
 *   key has no non-coreference links;
 * - `corefud` (the CorefUD scorer v1.2, `evaluate_documents` with `[blancc, blancn]`): a part is
 *   left out only when both its key and its response denominators are 0.
 */
export type BlancRule = "reference" | "corefud";

/**
 * BLANC recall, precision and F1 (fractions in [0, 1]) from summed link counts. Each of R, P
 * and F is the mean over the parts kept by `rule` (F = mean of the parts' F1, not the harmonic
 * mean of R and P); all are 0 when no part is kept. A part's ratio with a zero denominator is 0.
 *
 * @param c link counts, e.g. `blanc`'s summed over documents
 * @param rule which parts are kept (see `BlancRule`); `reference` by default
 * @returns fractions in [0, 1]; never throws
 */
export function blancScore(c: BlancCounts, rule: BlancRule = "reference"): { recall: number; precision: number; f1: number } {
  const rc = ratio(c.coref.recallNum, c.coref.recallDen);
  const pc = ratio(c.coref.precisionNum, c.coref.precisionDen);
  const rn = ratio(c.noncoref.recallNum, c.noncoref.recallDen);
  const pn = ratio(c.noncoref.precisionNum, c.noncoref.precisionDen);
  const fc = harmonicMean(pc, rc);
  const fn = harmonicMean(pn, rn);
  const noCoref = rule === "reference" ? c.coref.recallDen === 0 : c.coref.recallDen === 0 && c.coref.precisionDen === 0;
  const noNon =
    rule === "reference" ? c.noncoref.recallDen === 0 : c.noncoref.recallDen === 0 && c.noncoref.precisionDen === 0;
  if (noCoref && noNon) return { recall: 0, precision: 0, f1: 0 };
  if (noCoref) return { recall: rn, precision: pn, f1: fn };
  if (noNon) return { recall: rc, precision: pc, f1: fc };
  return { recall: (rc + rn) / 2, precision: (pc + pn) / 2, f1: (fc + fn) / 2 };
}
