/**
 * Mention alignment: turns key and response entities of one document into chains of
 * mention ids, so that every metric works on plain integer arrays.
 *
 * This follows `IdentifMentions` of the CoNLL reference scorer (v8.01) exactly:
 * - every distinct key span gets one id; a span that occurs twice in the key (in one
 *   entity or in two) keeps the same id at each place, so the key chains can share it;
 * - a response span equal to a key span is matched to it once: the first copy (in entity
 *   order, then mention order) is kept and later copies are removed from the response;
 *   entities left empty are dropped;
 * - response spans with no key twin ("twinless" mentions) get fresh ids; a twinless span
 *   repeated in the response is not removed and keeps one id;
 * - mention identification counts distinct spans: recall = matched / distinct key spans,
 *   precision = matched / distinct response spans.
 */
import type { Entity } from "../types.js";
import type { Counts } from "./counts.js";

/** One document's key and response as chains of mention ids. */
export interface AlignedDocument {
  /** Number of distinct mention ids (key spans, then twinless response spans). */
  mentionCount: number;
  /** Key chains of ids, in key entity order. */
  key: number[][];
  /** Response chains of ids after removal of repeated matched spans; no empty chain. */
  response: number[][];
  /** For each id, the index of the last key chain holding it, or -1. */
  keyChainOf: Int32Array;
  /** For each id, the index of the last response chain holding it, or -1. */
  responseChainOf: Int32Array;
  /** True when some id occurs more than once over all key chains. */
  keyHasRepeats: boolean;
  /** True when some id occurs more than once over all response chains. */
  responseHasRepeats: boolean;
  /** Exact-span mention identification counts. */
  mentions: Counts;
  /** How many repeated response copies of key-matched spans were removed. */
  removedRepeats: number;
}

/**
 * Aligns one document's key and response entities.
 *
 * @param key key entities (mentions are inclusive token spans)
 * @param response response entities
 * @returns chains of mention ids and the mention-identification counts (see module doc)
 */
export function alignDocument(key: readonly Entity[], response: readonly Entity[]): AlignedDocument {
  const idOf = new Map<number, number>();
  const keyChains: number[][] = [];
  for (const entity of key) {
    const chain: number[] = [];
    for (const m of entity) {
      const span = spanKey(m);
      let id = idOf.get(span);
      if (id === undefined) {
        id = idOf.size;
        idOf.set(span, id);
      }
      chain.push(id);
    }
    keyChains.push(chain);
  }
  const keySpanCount = idOf.size;

  // First pass: match response spans to key spans; drop later copies of matched spans.
  const matched = new Set<number>();
  let removedRepeats = 0;
  const kept: Entity[] = [];
  for (const entity of response) {
    const keep: Entity = [];
    for (const m of entity) {
      const id = idOf.get(spanKey(m));
      if (id !== undefined && matched.has(id)) {
        removedRepeats++;
        continue;
      }
      if (id !== undefined) matched.add(id);
      keep.push(m);
    }
    if (keep.length > 0) kept.push(keep);
  }

  // Second pass: ids for twinless spans; build response chains.
  const twinless = new Map<number, number>();
  let next = keySpanCount;
  const responseChains: number[][] = [];
  for (const entity of kept) {
    const chain: number[] = [];
    for (const m of entity) {
      const span = spanKey(m);
      let id = idOf.get(span);
      if (id === undefined) {
        id = twinless.get(span);
        if (id === undefined) {
          id = next++;
          twinless.set(span, id);
        }
      }
      chain.push(id);
    }
    responseChains.push(chain);
  }

  const mentionCount = next;
  const keyIndex = chainIndex(keyChains, mentionCount);
  const responseIndex = chainIndex(responseChains, mentionCount);
  return {
    mentionCount,
    key: keyChains,
    response: responseChains,
    keyChainOf: keyIndex.chainOf,
    responseChainOf: responseIndex.chainOf,
    keyHasRepeats: keyIndex.repeats,
    responseHasRepeats: responseIndex.repeats,
    mentions: {
      recallNum: matched.size,
      recallDen: keySpanCount,
      precisionNum: matched.size,
      precisionDen: matched.size + twinless.size,
    },
    removedRepeats,
  };
}

/** A span as one number (exact for token indices below 2^26). */
function spanKey(m: readonly [number, number]): number {
  return m[0] * 67108864 + m[1];
}

/** For each id the last chain holding it (-1 if none), and whether any id occurs twice. */
function chainIndex(chains: number[][], n: number): { chainOf: Int32Array; repeats: boolean } {
  const chainOf = new Int32Array(n).fill(-1);
  const seen = new Uint8Array(n);
  let repeats = false;
  for (let c = 0; c < chains.length; c++) {
    for (const id of chains[c]) {
      if (seen[id]) repeats = true;
      seen[id] = 1;
      chainOf[id] = c;
    }
  }
  return { chainOf, repeats };
}

/**
 * For each id, the distinct chains holding it, as a compact adjacency list
 * (`start[id]..start[id+1]` indexes into `chains`). Used only where ids can repeat.
 */
export function chainsHolding(chains: number[][], n: number): { start: Int32Array; chains: Int32Array } {
  const count = new Int32Array(n + 1);
  const lastSeen = new Int32Array(n).fill(-1);
  for (let c = 0; c < chains.length; c++) {
    for (const id of chains[c]) {
      if (lastSeen[id] !== c) {
        lastSeen[id] = c;
        count[id + 1]++;
      }
    }
  }
  for (let i = 0; i < n; i++) count[i + 1] += count[i];
  const out = new Int32Array(count[n]);
  const fill = count.slice(0, n);
  lastSeen.fill(-1);
  for (let c = 0; c < chains.length; c++) {
    for (const id of chains[c]) {
      if (lastSeen[id] !== c) {
        lastSeen[id] = c;
        out[fill[id]++] = c;
      }
    }
  }
  return { start: count, chains: out };
}
