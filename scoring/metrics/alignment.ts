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
import { spanKey, type Entity } from "../types.js";
import type { Counts } from "./counts.js";

/**
 * For each mention id, the distinct chains holding it, as a compact adjacency list: the
 * chains holding id `i` are `chains[start[i]]` .. `chains[start[i + 1] - 1]`, in chain order.
 */
export interface ChainsHolding {
  /** `mentionCount + 1` offsets into `chains`. */
  start: Int32Array;
  /** Chain indices. */
  chains: Int32Array;
}

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
  /**
   * For each id, every key chain holding it (needed only where `keyHasRepeats`, since
   * otherwise `keyChainOf` says it all). Built on the first call and kept, so the metrics
   * that need it share one copy.
   */
  keyHolding(): ChainsHolding;
  /** For each id, every response chain holding it; built on the first call, like `keyHolding`. */
  responseHolding(): ChainsHolding;
  /** Exact-span mention identification counts. */
  mentions: Counts;
  /** How many repeated response copies of key-matched spans were removed. */
  removedRepeats: number;
}

/**
 * Aligns one document's key and response entities.
 *
 * @param key key entities (mentions are inclusive `[start, end]` token spans, indices below
 *   2^26; see `spanKey`)
 * @param response response entities
 * @returns chains of mention ids and the mention-identification counts (integers: distinct
 *   spans, see the module doc); never throws
 */
export function alignDocument(key: readonly Entity[], response: readonly Entity[]): AlignedDocument {
  const idOf = new Map<number, number>();
  const keyChains: number[][] = [];
  for (const entity of key) {
    const chain: number[] = [];
    for (const m of entity) {
      const span = spanKey(m[0], m[1]);
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
      const id = idOf.get(spanKey(m[0], m[1]));
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
      const span = spanKey(m[0], m[1]);
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
  let keyHolding: ChainsHolding | undefined;
  let responseHolding: ChainsHolding | undefined;
  return {
    mentionCount,
    key: keyChains,
    response: responseChains,
    keyChainOf: keyIndex.chainOf,
    responseChainOf: responseIndex.chainOf,
    keyHasRepeats: keyIndex.repeats,
    responseHasRepeats: responseIndex.repeats,
    keyHolding: () => (keyHolding ??= chainsHolding(keyChains, mentionCount)),
    responseHolding: () => (responseHolding ??= chainsHolding(responseChains, mentionCount)),
    mentions: {
      recallNum: matched.size,
      recallDen: keySpanCount,
      precisionNum: matched.size,
      precisionDen: matched.size + twinless.size,
    },
    removedRepeats,
  };
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

/** For each of the ids 0..n-1, the distinct chains holding it (see `ChainsHolding`). */
function chainsHolding(chains: number[][], n: number): ChainsHolding {
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

/**
 * The sizes B³ and CEAF divide by, as the reference scorer (v8.01, `BCUBED`, `CEAF`) counts them.
 *
 * @param unit `mention`: the number of mentions of each side, a mention held twice counted
 *   twice; `entity`: the number of non-empty chains of each side
 * @returns `key` and `response`, non-negative integers
 */
export function sideTotals(doc: AlignedDocument, unit: "mention" | "entity"): { key: number; response: number } {
  if (unit === "entity") {
    let key = 0;
    for (const k of doc.key) if (k.length > 0) key++;
    return { key, response: doc.response.length };
  }
  let key = 0;
  for (const k of doc.key) key += k.length;
  let response = 0;
  for (const r of doc.response) response += r.length;
  return { key, response };
}
