/**
 * Scores one CorefUD document as the CorefUD scorer v1.2 (ufal/corefud-scorer, the CRAC shared
 * task's official scorer) does: key and response must align word for word; mentions are
 * prepared and aligned by `align.ts`; then every metric is computed from the entities and
 * one shared lookup table, with the formulas of `scorer/eval/evaluator.py`:
 *
 * For a key mention m, its response entity is `responseEntityOf[resolve(m)]`, where
 * resolve(m) is the lookup table's entry for m or m itself; a response mention's key entity
 * likewise. Then, with K the key entities and R the response entities:
 * - MUC (Vilain et al. 1995): recall = Σ_K (|K| − unresolved(K) − distinct response entities
 *   met by K) / Σ_K (|K| − 1); precision the other way round;
 * - B³ (Bagga & Baldwin 1998): recall = Σ_K Σ_R n(K, R)² / |K| / Σ_K |K|, n counted from the
 *   key side; precision from the response side;
 * - CEAFm / CEAFe (Luo 2005): φ3(K, R) = number of mentions of K whose resolution is a mention
 *   of R (membership, so a mention held by two response entities counts for both);
 *   φ4 = 2φ3/(|K| + |R|); best 1-to-1 entity assignment;
 * - LEA (Moosavi & Strube 2016): as `metrics/lea.ts`, with the lookups above (a singleton is
 *   resolved when its counterpart is a singleton);
 * - BLANC (Recasens & Hovy 2011; Luo et al. 2014) as upstream's `blancc`/`blancn`: coreference
 *   links of the key whose two mentions resolve to one response entity, and non-coreference
 *   links (across key entities) whose mentions resolve to two different response entities;
 *   denominators from each side's own entities. Corpus scores then use the CorefUD averaging
 *   rule (`blancScore(..., "corefud")`): a part is left out only when both its denominators
 *   are 0. Unlike the CoNLL reference scorer, a key with no coreference links but a response
 *   with some averages in a coreference part of 0 (e.g. a key made only of singletons gets at
 *   most 50 % BLANC there, where the reference scorer gives the non-coreference part alone);
 * - `mentions`: aligned pairs / distinct key (response) mentions;
 * - MOR (`mor.ts`) and the zero score (`zero.ts`) when asked for.
 * All counts are summed over documents by `evaluate`.
 */
import { FormatError, quote, type CorefUDDocument, type CorefUDSentence } from "../types.js";
import type { BlancCounts } from "../metrics/blanc.js";
import type { Counts } from "../metrics/counts.js";
import type { AnyCountMetric } from "../metrics/registry.js";
import { maxWeightMatchingTotal, type WeightedEdge } from "../metrics/assignment.js";
import { alignMentions, finishSide, Identities, prepareSide, type Matching, type Occurrence, type PreparedSide } from "./align.js";
import { mentionOverlap } from "./mor.js";
import { zeroScore } from "./zero.js";

/** What to compute and how. */
export interface CorefUDScoreOptions {
  matching: Matching;
  zeroMatch: "dependent" | "linear";
  removeSingletons: boolean;
  removeZeros: boolean;
  /** The metric ids to compute (registry ids; others are ignored). */
  metrics: ReadonlySet<string>;
  /** File names for errors. */
  keyFile: string;
  responseFile: string;
}

/** One document's counts, by metric id (`blanc` as link counts). */
export type CorefUDCounts = Partial<Record<Exclude<AnyCountMetric, "mcf">, Counts>> & {
  blanc?: BlancCounts;
};

/**
 * Scores one document.
 *
 * @param key the key document's CorefUD view
 * @param response the response's, or null when the response lacks the document (scored as
 *   an empty response)
 * @param options matching, filters, metrics and file names
 * @returns counts per requested metric (numerators of B³, CEAF and LEA are sums of
 *   fractions; the others are integers)
 * @throws FormatError when the response's sentences or words differ from the key's (named at
 *   the response's line and column), or when dependent zero matching meets a zero whose head
 *   has no DEPS (see `align.ts`)
 */
export function scoreCorefUDDocument(
  key: CorefUDDocument,
  response: CorefUDDocument | null,
  options: CorefUDScoreOptions,
): CorefUDCounts {
  if (response) checkAlignment(key.sentences, response.sentences, options.responseFile);
  const ids = new Identities(options.matching);
  const k0 = prepareSide(key, ids, options.removeSingletons, options.removeZeros);
  const r0 = prepareSide(response, ids, options.removeSingletons, options.removeZeros);
  const keySide = finishSide(k0, ids.size);
  const responseSide = finishSide(r0, ids.size);
  const alignment = alignMentions(keySide, responseSide, ids, {
    matching: options.matching,
    zeroMatch: options.zeroMatch,
    removeZeros: options.removeZeros,
    keyFile: options.keyFile,
    responseFile: options.responseFile,
  });
  const { partner } = alignment;
  const resolve = (id: number): number => (partner[id] >= 0 ? partner[id] : id);
  // For each entity's occurrences: the other side's entity they resolve to (-1: none).
  const keyTo = keySide.entities.map((e) => e.map((o) => responseSide.entityOf[resolve(o.id)]));
  const responseTo = responseSide.entities.map((e) => e.map((o) => keySide.entityOf[resolve(o.id)]));

  const m = options.metrics;
  const out: CorefUDCounts = {};
  if (m.has("mentions")) {
    out.mentions = {
      recallNum: alignment.pairs.length,
      recallDen: keySide.distinct.length,
      precisionNum: alignment.pairs.length,
      precisionDen: responseSide.distinct.length,
    };
  }
  if (m.has("muc")) {
    const r = muc(keySide.entities, keyTo);
    const p = muc(responseSide.entities, responseTo);
    out.muc = { recallNum: r.num, recallDen: r.den, precisionNum: p.num, precisionDen: p.den };
  }
  if (m.has("bcub")) {
    const r = bcub(keySide.entities, keyTo);
    const p = bcub(responseSide.entities, responseTo);
    out.bcub = { recallNum: r.num, recallDen: r.den, precisionNum: p.num, precisionDen: p.den };
  }
  if (m.has("ceafm") || m.has("ceafe")) {
    const phi3 = overlaps(keySide, responseSide, resolve);
    if (m.has("ceafm")) out.ceafm = ceaf(keySide, responseSide, phi3, "mention");
    if (m.has("ceafe")) out.ceafe = ceaf(keySide, responseSide, phi3, "entity");
  }
  if (m.has("lea")) {
    const r = lea(keySide.entities, keyTo, responseSide.entities);
    const p = lea(responseSide.entities, responseTo, keySide.entities);
    out.lea = { recallNum: r.num, recallDen: r.den, precisionNum: p.num, precisionDen: p.den };
  }
  if (m.has("blanc")) out.blanc = blanc(keySide, responseSide, keyTo);
  if (m.has("mor")) {
    const nodesOf = (side: PreparedSide) => side.entities.flatMap((e) => e.map((o) => o.mention.nodes));
    out.mor = mentionOverlap(nodesOf(keySide), nodesOf(responseSide));
  }
  if (m.has("zero")) {
    const hasZero = (side: PreparedSide) => side.entities.some((e) => e.some((o) => o.mention.zero));
    // Without zeros on either side there is no anaphor, FP or FN to count.
    out.zero = hasZero(keySide) || hasZero(responseSide) ? zeroScore(keySide, responseSide, partner) : { recallNum: 0, recallDen: 0, precisionNum: 0, precisionDen: 0 };
  }
  return out;
}

/**
 * Checks that key and response have the same sentences and words (FORM), as upstream's
 * `check_data_alignment` (which compares sentence ids and word forms; empty nodes may differ).
 * Sentence ids are compared when both sides have them.
 */
function checkAlignment(key: readonly CorefUDSentence[], response: readonly CorefUDSentence[], file: string): void {
  const n = Math.min(key.length, response.length);
  for (let s = 0; s < n; s++) {
    const k = key[s];
    const r = response[s];
    if (k.sentId !== null && r.sentId !== null && k.sentId !== r.sentId) {
      throw new FormatError({
        file,
        line: r.line,
        column: 1,
        expected: `sentence ${s + 1} of the document to be ${quote(k.sentId)}, as in the key`,
        found: `sent_id ${quote(r.sentId)}`,
      });
    }
    const words = Math.min(k.forms.length, r.forms.length);
    for (let w = 0; w < words; w++) {
      if (k.forms[w] !== r.forms[w]) {
        throw new FormatError({
          file,
          line: r.wordLines[w],
          column: String(w + 1).length + 2,
          expected: `word ${w + 1} of sentence ${s + 1} to be ${quote(k.forms[w])}, as in the key`,
          found: quote(r.forms[w]),
        });
      }
    }
    if (k.forms.length !== r.forms.length) {
      throw new FormatError({
        file,
        line: r.forms.length > k.forms.length ? r.wordLines[k.forms.length] : r.wordLines[r.forms.length - 1] ?? r.line,
        column: 1,
        expected: `${k.forms.length} words in sentence ${s + 1} of the document, as in the key`,
        found: `${r.forms.length} words`,
      });
    }
  }
  if (key.length !== response.length) {
    const last = response[response.length - 1];
    throw new FormatError({
      file,
      line: response.length > key.length ? response[key.length].line : last ? last.wordLines[last.wordLines.length - 1] ?? last.line : 1,
      column: 1,
      expected: `${key.length} sentences in the document, as in the key`,
      found: `${response.length} sentences`,
    });
  }
}

/** MUC numerator and denominator of one side (`muc` upstream, singletons not counted). */
function muc(entities: Occurrence[][], to: number[][]): { num: number; den: number } {
  let num = 0;
  let den = 0;
  const seen = new Set<number>();
  entities.forEach((entity, e) => {
    den += entity.length - 1;
    let tp = entity.length;
    seen.clear();
    for (const other of to[e]) {
      if (other < 0) tp -= 1;
      else seen.add(other);
    }
    num += tp - seen.size;
  });
  return { num, den };
}

/** B³ numerator and denominator of one side (`b_cubed` upstream). */
function bcub(entities: Occurrence[][], to: number[][]): { num: number; den: number } {
  let num = 0;
  let den = 0;
  const counts = new Map<number, number>();
  entities.forEach((entity, e) => {
    counts.clear();
    for (const other of to[e]) if (other >= 0) counts.set(other, (counts.get(other) ?? 0) + 1);
    let correct = 0;
    for (const c of counts.values()) correct += c * c;
    num += correct / entity.length;
    den += entity.length;
  });
  return { num, den };
}

/** φ3(K, R) for every key and response entity pair with a non-zero overlap. */
function overlaps(key: PreparedSide, response: PreparedSide, resolve: (id: number) => number): Map<number, Map<number, number>> {
  // Response entities holding each identity (membership, not only the last one).
  const holders = new Map<number, number[]>();
  response.entities.forEach((entity, r) => {
    for (const o of entity) {
      const list = holders.get(o.id);
      if (list) list.push(r);
      else holders.set(o.id, [r]);
    }
  });
  const phi3 = new Map<number, Map<number, number>>();
  key.entities.forEach((entity, k) => {
    const row = new Map<number, number>();
    for (const o of entity) {
      const list = holders.get(resolve(o.id));
      if (list) for (const r of list) row.set(r, (row.get(r) ?? 0) + 1);
    }
    if (row.size > 0) phi3.set(k, row);
  });
  return phi3;
}

/** CEAFm (φ3) or CEAFe (φ4) counts (`ceafm`, `ceafe` upstream). */
function ceaf(key: PreparedSide, response: PreparedSide, phi3: Map<number, Map<number, number>>, variant: "mention" | "entity"): Counts {
  const edges: WeightedEdge[] = [];
  for (const [k, row] of phi3) {
    for (const [r, n] of row) {
      const weight = variant === "mention" ? n : (2 * n) / (key.entities[k].length + response.entities[r].length);
      edges.push({ left: k, right: r, weight });
    }
  }
  const similarity = maxWeightMatchingTotal(key.entities.length, response.entities.length, edges);
  const size = (side: PreparedSide) =>
    variant === "mention" ? side.entities.reduce((n, e) => n + e.length, 0) : side.entities.length;
  return { recallNum: similarity, recallDen: size(key), precisionNum: similarity, precisionDen: size(response) };
}

/** LEA numerator and denominator of one side (`lea` upstream). */
function lea(entities: Occurrence[][], to: number[][], other: Occurrence[][]): { num: number; den: number } {
  let num = 0;
  let den = 0;
  const counts = new Map<number, number>();
  entities.forEach((entity, e) => {
    const size = entity.length;
    let common = 0;
    let all: number;
    if (size === 1) {
      all = 1;
      const o = to[e][0];
      common = o >= 0 && other[o].length === 1 ? 1 : 0;
    } else {
      all = (size * (size - 1)) / 2.0;
      counts.clear();
      for (const o of to[e]) {
        if (o < 0) continue;
        const c = counts.get(o) ?? 0;
        common += c;
        counts.set(o, c + 1);
      }
    }
    num += (size * common) / all;
    den += size;
  });
  return { num, den };
}

/** BLANC link counts (`blancc`, `blancn` upstream), from the key side's resolutions. */
function blanc(key: PreparedSide, response: PreparedSide, keyTo: number[][]): BlancCounts {
  const pairs = (n: number) => (n * (n - 1)) / 2;
  let corefCommon = 0;
  let resolvedTotal = 0;
  let sumSq = 0;
  const perResponse = new Map<number, number>(); // Σ_K n(K, R) per R
  let cellSq = 0; // Σ_K Σ_R n(K, R)²
  const cell = new Map<number, number>();
  for (const to of keyTo) {
    cell.clear();
    let resolved = 0;
    for (const o of to) {
      if (o < 0) continue;
      resolved++;
      cell.set(o, (cell.get(o) ?? 0) + 1);
    }
    for (const [r, n] of cell) {
      corefCommon += pairs(n);
      cellSq += n * n;
      perResponse.set(r, (perResponse.get(r) ?? 0) + n);
    }
    resolvedTotal += resolved;
    sumSq += resolved * resolved;
  }
  let responseSq = 0;
  for (const n of perResponse.values()) responseSq += n * n;
  // Pairs across two key entities, both resolved, minus those resolving to one response entity.
  const across = (resolvedTotal * resolvedTotal - sumSq) / 2;
  const acrossSame = (responseSq - cellSq) / 2;
  const noncorefCommon = across - acrossSame;

  const links = (side: PreparedSide) => {
    let coref = 0;
    let mentions = 0;
    for (const e of side.entities) {
      coref += pairs(e.length);
      mentions += e.length;
    }
    return { coref, non: pairs(mentions) - coref };
  };
  const k = links(key);
  const r = links(response);
  return {
    coref: { recallNum: corefCommon, recallDen: k.coref, precisionNum: corefCommon, precisionDen: r.coref },
    noncoref: { recallNum: noncorefCommon, recallDen: k.non, precisionNum: noncorefCommon, precisionDen: r.non },
  };
}
