/**
 * Error categories of Kummerfeld & Klein (2013), "Error-Driven Analysis of Challenges in
 * Coreference Resolution", EMNLP 2013, Section 3 ("Error Classification").
 *
 * K&K describe the errors of a response as the edits that turn it into the key, applied in
 * a fixed order, and name each group of edits:
 *
 * 1. Alter Span: a response mention is moved onto the key mention it was meant to be
 *    ("span" error). Afterwards the response mention counts as having the key's span.
 * 2. Split and Remove: each response entity is split into one piece per key entity it holds
 *    mentions of, plus its mentions that are in no key entity, which are removed. Removing
 *    a whole response entity whose mentions are all outside the key is one "extra-entity"
 *    error; removing a mention from an entity that keeps other, key, mentions is one
 *    "extra-mention" error. A response entity holding mentions of k > 1 key entities
 *    needs k - 1 splits: k - 1 "conflated" errors.
 * 3. Introduce and Merge: key mentions the response lacks are introduced and merged in. A
 *    key entity none of whose mentions are in the response is one "missing-entity" error;
 *    otherwise each missing mention is one "missing-mention" error. A key entity whose
 *    mentions (those the response has) lie in k > 1 response entities needs k - 1 merges:
 *    k - 1 "divided" errors.
 *
 * Counting rules used here (so `counts[kind]` always equals the number of `errors` of that
 * kind):
 * - span: one error per (response mention, key mention) pair, see "Span errors" below;
 * - extra-entity / missing-entity: one error per response / key entity, listing all its spans;
 * - extra-mention / missing-mention: one error per mention;
 * - conflated: one error per split-off piece. The pieces of a response entity are its
 *   shared mentions grouped by key entity; the piece holding the entity's earliest shared
 *   mention (by start, then end) stays, and each other piece is one error naming the key
 *   entity of the piece and the key entity of the piece that stays (`keyEntities`
 *   `[piece, staying]`). So `counts.conflated` is the sum of (k - 1);
 * - divided: the same with the sides swapped: the pieces of a key entity are its shared
 *   mentions grouped by response entity; the piece holding the earliest shared mention
 *   stays, each other piece is one error (`responseEntities` `[piece, staying]`).
 *
 * Span errors. K&K's tool (berkeley-coreference-analyser) pairs a twinless response mention
 * with a twinless key mention when the two differ only in leading or trailing punctuation,
 * "the" or "'s", or else when they have the same syntactic head in the gold parse. We have
 * neither parse trees nor heads (nor, in every format, token texts), so we pair by overlap
 * instead: a response mention with no key mention of the same span may pair with a key
 * mention with no response mention of the same span when the two spans share at least one
 * token. Pairs are one to one, chosen greedily in this order of preference: spans sharing
 * their start or their end first, then the larger token overlap, then document order of
 * the pair (its earlier span by start and end, then its later span). That order does not
 * depend on which side is the key, so swapping key and response swaps the missing and
 * extra counts, and divided and conflated, and keeps the span count.
 *
 * Other departures from K&K's tool:
 * - it needs mention types (pronoun or not) that we do not have, so the piece that "stays"
 *   in a split or merge is the one holding the earliest mention, not the earliest
 *   non-pronoun mention, and an entity is extra (or missing) only when none of its mentions
 *   is a key (or response) mention, where the tool lets key (response) pronouns in;
 * - singletons count on both sides (the tool drops response singletons and needs more
 *   than one mention for an extra or missing entity): a missing key singleton is a missing
 *   entity, an extra response singleton an extra entity.
 *
 * Repeated spans. A span given twice on one side (in one entity or in two) is kept once,
 * in the first place it appears (entity order, then mention order); later copies are
 * ignored, and an entity left with no mention is skipped (it gives no error). This is how
 * `alignDocument` (metrics/alignment.ts) treats a response span with a key twin; unlike
 * `alignDocument` we apply the same rule to key spans and to twinless response spans,
 * because the error categories need each span in at most one entity per side. A file
 * scored against itself therefore has no errors even when it repeats spans.
 *
 * Everything is linear in the number of mentions apart from sorting and the local scan for
 * overlapping spans; nothing here throws.
 */
import { spanKey, type Corpus, type Entity, type Mention } from "../types.js";

/** One of K&K's seven error types (see the module doc). */
export type ErrorKind =
  | "span"
  | "missing-mention"
  | "extra-mention"
  | "missing-entity"
  | "extra-entity"
  | "divided"
  | "conflated";

/** Every `ErrorKind`, in the order errors are listed and shown. */
export const ERROR_KINDS: readonly ErrorKind[] = [
  "span",
  "missing-mention",
  "extra-mention",
  "missing-entity",
  "extra-entity",
  "divided",
  "conflated",
];

/** Position of each kind in `ERROR_KINDS`. */
const KIND_ORDER = Object.fromEntries(ERROR_KINDS.map((kind, i) => [kind, i])) as Record<ErrorKind, number>;

/** How many errors of each kind (non-negative integers). */
export type ErrorCounts = Record<ErrorKind, number>;

/**
 * A fresh counts object.
 *
 * @returns an `ErrorCounts` with every kind at 0 (a new object each call); never throws.
 *   Source: the seven error types of K&K 2013, Section 3.
 */
export function zeroErrorCounts(): ErrorCounts {
  return {
    span: 0,
    "missing-mention": 0,
    "extra-mention": 0,
    "missing-entity": 0,
    "extra-entity": 0,
    divided: 0,
    conflated: 0,
  };
}

/**
 * Adds counts kind by kind.
 *
 * @param into the counts to add to; changed in place
 * @param add the counts to add (not changed)
 * @returns `into`, each kind increased by `add`'s count of that kind (numbers of errors);
 *   never throws. Source: the error types of K&K 2013, Section 3.
 */
export function addErrorCounts(into: ErrorCounts, add: ErrorCounts): ErrorCounts {
  for (const kind of ERROR_KINDS) into[kind] += add[kind];
  return into;
}

/** One error found in one document. */
export interface CorefError {
  kind: ErrorKind;
  /** the spans to highlight and link to, in the key's coordinates where the key has them; sorted by start, end */
  mentions: Mention[];
  /** indices into the key document's `entities` involved (may be empty, e.g. extra entity) */
  keyEntities: number[];
  /** indices into the response document's `entities` involved (may be empty, e.g. missing entity) */
  responseEntities: number[];
  /** for "span" only: the response's span (mentions[0] is the key's span) */
  responseSpan?: Mention;
  /** one short English sentence, e.g. "Response span [3, 5] should be [3, 4]." using token indices */
  message: string;
}

/** One document's errors and their counts (`counts[kind]` = number of `errors` of that kind). */
export interface DocumentErrors {
  counts: ErrorCounts;
  errors: CorefError[];
}

/** A side's mentions after dropping repeated spans (first copy wins). */
interface Side {
  /** spanKey → index of the (original) entity holding the span's first copy. */
  entityOf: Map<number, number>;
  /** Kept entities: original index, mentions in reading order (never empty), their span keys. */
  entities: SideEntity[];
}

interface SideEntity {
  index: number;
  mentions: Mention[];
  keys: number[];
}

function readSide(entities: readonly Entity[]): Side {
  const entityOf = new Map<number, number>();
  const kept: Side["entities"] = [];
  for (let e = 0; e < entities.length; e++) {
    const mentions: Mention[] = [];
    const keys: number[] = [];
    for (const m of entities[e] ?? []) {
      if (!m) continue; // a hole in an untyped array: nothing to read
      const key = spanKey(m[0], m[1]);
      if (entityOf.has(key)) continue;
      entityOf.set(key, e);
      mentions.push(m);
      keys.push(key);
    }
    if (mentions.length > 0) kept.push({ index: e, mentions, keys });
  }
  return { entityOf, entities: kept };
}

/** Compares spans by start, then end. */
function bySpan(a: Mention, b: Mention): number {
  return a[0] - b[0] || a[1] - b[1];
}

function sortedSpans(mentions: Mention[]): Mention[] {
  return [...mentions].sort(bySpan);
}

function show(m: Mention): string {
  return `[${m[0]}, ${m[1]}]`;
}

function showList(mentions: Mention[], max = 3): string {
  const shown = mentions.slice(0, max).map(show).join(", ");
  return mentions.length > max ? `${shown} and ${mentions.length - max} more` : shown;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A candidate span-error pair and what ranks it. */
interface Candidate {
  key: Mention;
  response: Mention;
  sharesBoundary: boolean;
  overlap: number;
  lo: Mention;
  hi: Mention;
}

/**
 * Pairs twinless response spans with overlapping twinless key spans, one to one (see the
 * module doc for the order of preference).
 */
function pairSpans(keyTwinless: Mention[], responseTwinless: Mention[]): Candidate[] {
  if (keyTwinless.length === 0 || responseTwinless.length === 0) return [];
  const keys = sortedSpans(keyTwinless);
  let maxWidth = 0;
  for (const k of keys) if (k[1] - k[0] > maxWidth) maxWidth = k[1] - k[0];
  const candidates: Candidate[] = [];
  for (const r of responseTwinless) {
    const [s, e] = r;
    if (!(s <= e)) continue;
    // Key spans overlapping [s, e] start in [s - maxWidth, e]; find the first by binary search.
    const from = s - maxWidth;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid][0] < from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < keys.length && keys[i][0] <= e; i++) {
      const k = keys[i];
      const overlap = Math.min(e, k[1]) - Math.max(s, k[0]) + 1;
      if (!(overlap > 0)) continue;
      const keyFirst = bySpan(k, r) <= 0;
      candidates.push({
        key: k,
        response: r,
        sharesBoundary: k[0] === s || k[1] === e,
        overlap,
        lo: keyFirst ? k : r,
        hi: keyFirst ? r : k,
      });
    }
  }
  candidates.sort(
    (a, b) =>
      Number(b.sharesBoundary) - Number(a.sharesBoundary) ||
      b.overlap - a.overlap ||
      bySpan(a.lo, b.lo) ||
      bySpan(a.hi, b.hi),
  );
  const usedKey = new Set<number>();
  const usedResponse = new Set<number>();
  const pairs: Candidate[] = [];
  for (const c of candidates) {
    const k = spanKey(c.key[0], c.key[1]);
    const r = spanKey(c.response[0], c.response[1]);
    if (usedKey.has(k) || usedResponse.has(r)) continue;
    usedKey.add(k);
    usedResponse.add(r);
    pairs.push(c);
  }
  return pairs;
}

/**
 * The pieces of an entity: its shared mentions grouped by the other side's entity
 * (`groups[i]` for `mentions[i]`, -1 for a mention that is not shared). Returns null when
 * the shared mentions lie in fewer than two groups; else the group holding the earliest
 * shared mention (by start, end), which stays, and the other groups in order of first
 * appearance, each with its mentions sorted.
 */
function splitPieces(
  mentions: Mention[],
  groups: Int32Array | number[],
): { staying: number; others: { group: number; mentions: Mention[] }[] } | null {
  let first = -1;
  let several = false;
  for (const g of groups) {
    if (g < 0) continue;
    if (first < 0) first = g;
    else if (g !== first) {
      several = true;
      break;
    }
  }
  if (!several) return null;
  const byGroup = new Map<number, Mention[]>();
  let earliest: Mention | null = null;
  let staying = -1;
  for (let i = 0; i < mentions.length; i++) {
    const g = groups[i];
    if (g < 0) continue;
    const m = mentions[i];
    let list = byGroup.get(g);
    if (!list) byGroup.set(g, (list = []));
    list.push(m);
    if (earliest === null || bySpan(m, earliest) < 0) {
      earliest = m;
      staying = g;
    }
  }
  const others: { group: number; mentions: Mention[] }[] = [];
  for (const [group, list] of byGroup) if (group !== staying) others.push({ group, mentions: sortedSpans(list) });
  return { staying, others };
}

/**
 * Finds K&K's errors in one document.
 *
 * @param key the key entities (each a list of inclusive `[start, end]` token spans)
 * @param response the response entities, same shape
 * @returns `counts` (numbers of errors per kind) and `errors`, listed in `ERROR_KINDS`
 *   order, then by their first mention (start, end); `counts[kind]` equals the number of
 *   errors of that kind. Spans are token indices; entity numbers are indices into `key` and
 *   `response` as given. Empty inputs give zero counts; never throws. Source: K&K 2013,
 *   Section 3 (error types), with the departures listed in the module doc.
 */
export function analyzeDocumentErrors(key: readonly Entity[], response: readonly Entity[]): DocumentErrors {
  const k = readSide(key);
  const r = readSide(response);
  const errors: CorefError[] = [];
  // 1. Span errors: pair twinless response spans with overlapping twinless key spans.
  const corrected = spanErrors(k, r, errors);
  // Response entities on corrected spans (key coordinates where the key has the span).
  const fixed = correctedSide(r, corrected);
  // 2a. Extra mentions and entities (Split + Remove); 3b. conflated entities (Split).
  responseEntityErrors(fixed, k, errors);
  // 2b. Missing mentions and entities (Introduce + Merge); 3a. divided entities (Merge).
  keyEntityErrors(k, fixed, errors);
  if (errors.length > 1) errors.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || bySpan(a.mentions[0], b.mentions[0]));
  const counts = zeroErrorCounts();
  for (const err of errors) counts[err.kind]++;
  return { counts, errors };
}

/**
 * Step 1 of `analyzeDocumentErrors`: pairs the twinless response spans (`r`) with overlapping
 * twinless key spans (`k`), and appends a `span` error for each pair to `errors`.
 * @returns response spanKey → the key span it is corrected to
 */
function spanErrors(k: Side, r: Side, errors: CorefError[]): Map<number, Mention> {
  const keyTwinless: Mention[] = [];
  for (const e of k.entities) for (let i = 0; i < e.keys.length; i++) if (!r.entityOf.has(e.keys[i])) keyTwinless.push(e.mentions[i]);
  const responseTwinless: Mention[] = [];
  for (const e of r.entities) for (let i = 0; i < e.keys.length; i++) if (!k.entityOf.has(e.keys[i])) responseTwinless.push(e.mentions[i]);
  const corrected = new Map<number, Mention>();
  for (const p of pairSpans(keyTwinless, responseTwinless)) {
    const rk = spanKey(p.response[0], p.response[1]);
    corrected.set(rk, p.key);
    errors.push({
      kind: "span",
      mentions: [p.key],
      keyEntities: [k.entityOf.get(spanKey(p.key[0], p.key[1]))!],
      responseEntities: [r.entityOf.get(rk)!],
      responseSpan: p.response,
      message: `Response span ${show(p.response)} should be ${show(p.key)}.`,
    });
  }
  return corrected;
}

/**
 * The response side `r` with its spans corrected (`corrected`, from `spanErrors`): each
 * corrected span in key coordinates, `entityOf` keyed by the corrected spans.
 */
function correctedSide(r: Side, corrected: ReadonlyMap<number, Mention>): Side {
  const responseEntityOf = new Map<number, number>();
  const responseEntities: SideEntity[] = [];
  for (const e of r.entities) {
    if (corrected.size === 0) {
      for (const key of e.keys) responseEntityOf.set(key, e.index);
      responseEntities.push(e);
      continue;
    }
    const mentions: Mention[] = [];
    const keys: number[] = [];
    for (let i = 0; i < e.keys.length; i++) {
      const fixed = corrected.get(e.keys[i]);
      const m = fixed ?? e.mentions[i];
      const key = fixed ? spanKey(fixed[0], fixed[1]) : e.keys[i];
      mentions.push(m);
      keys.push(key);
      responseEntityOf.set(key, e.index);
    }
    responseEntities.push({ index: e.index, mentions, keys });
  }
  return { entityOf: responseEntityOf, entities: responseEntities };
}

/**
 * Steps 2a and 3b of `analyzeDocumentErrors`: appends to `errors` the extra mentions and
 * entities of the corrected response side `response` (Split + Remove), and its entities that
 * conflate key entities of `k` (Split).
 */
function responseEntityErrors(response: Side, k: Side, errors: CorefError[]): void {
  for (const e of response.entities) {
    const groups = e.keys.map((key) => k.entityOf.get(key) ?? -1);
    const extra: Mention[] = [];
    for (let i = 0; i < groups.length; i++) if (groups[i] < 0) extra.push(e.mentions[i]);
    if (extra.length === e.mentions.length) {
      const spans = sortedSpans(extra);
      errors.push({
        kind: "extra-entity",
        mentions: spans,
        keyEntities: [],
        responseEntities: [e.index],
        message: `Response entity ${e.index} (${plural(spans.length, "mention")}: ${showList(spans)}) is not in the key.`,
      });
      continue;
    }
    for (const m of extra) {
      errors.push({
        kind: "extra-mention",
        mentions: [m],
        keyEntities: [],
        responseEntities: [e.index],
        message: `Response mention ${show(m)} in response entity ${e.index} is not a key mention.`,
      });
    }
    const pieces = splitPieces(e.mentions, groups);
    if (!pieces) continue;
    for (const piece of pieces.others) {
      errors.push({
        kind: "conflated",
        mentions: piece.mentions,
        keyEntities: [piece.group, pieces.staying],
        responseEntities: [e.index],
        message: `Response entity ${e.index} conflates key entity ${piece.group} (${showList(piece.mentions)}) with key entity ${pieces.staying}.`,
      });
    }
  }
}

/**
 * Steps 2b and 3a of `analyzeDocumentErrors`: appends to `errors` the key mentions and
 * entities of `k` missing from the corrected response side `response` (Introduce + Merge),
 * and the key entities it divides (Merge).
 */
function keyEntityErrors(k: Side, response: Side, errors: CorefError[]): void {
  for (const e of k.entities) {
    const groups = e.keys.map((key) => response.entityOf.get(key) ?? -1);
    const missing: Mention[] = [];
    for (let i = 0; i < groups.length; i++) if (groups[i] < 0) missing.push(e.mentions[i]);
    if (missing.length === e.mentions.length) {
      const spans = sortedSpans(missing);
      errors.push({
        kind: "missing-entity",
        mentions: spans,
        keyEntities: [e.index],
        responseEntities: [],
        message: `Key entity ${e.index} (${plural(spans.length, "mention")}: ${showList(spans)}) is missing from the response.`,
      });
      continue;
    }
    for (const m of missing) {
      errors.push({
        kind: "missing-mention",
        mentions: [m],
        keyEntities: [e.index],
        responseEntities: [],
        message: `Key mention ${show(m)} of key entity ${e.index} is missing from the response.`,
      });
    }
    const pieces = splitPieces(e.mentions, groups);
    if (!pieces) continue;
    for (const piece of pieces.others) {
      errors.push({
        kind: "divided",
        mentions: piece.mentions,
        keyEntities: [e.index],
        responseEntities: [piece.group, pieces.staying],
        message: `Key entity ${e.index} is divided: ${showList(piece.mentions)} ${piece.mentions.length === 1 ? "is" : "are"} in response entity ${piece.group}, apart from response entity ${pieces.staying}.`,
      });
    }
  }
}

/** Error counts of a whole corpus. */
export interface CorpusErrors {
  /** Counts summed over the key documents. */
  totals: ErrorCounts;
  /** One entry per key document, in key order. */
  perDocument: { id: string; counts: ErrorCounts; missingInResponse: boolean }[];
}

/**
 * Counts K&K's errors over a corpus.
 *
 * @param key the key (gold) corpus
 * @param response the response (system) corpus
 * @returns `totals` (numbers of errors per kind, summed over documents) and, for each key
 *   document in key order, its id, counts and whether the response lacks it. Documents are
 *   matched by `id` exactly as `evaluate` matches them: a key document missing from the
 *   response is analysed against an empty response (so all its entities are missing
 *   entities); response-only documents are ignored; when the response repeats an id, the
 *   last document with it is used. Never throws. Source: K&K 2013, Section 3 (error types).
 */
export function analyzeErrors(key: Corpus, response: Corpus): CorpusErrors {
  const responseById = new Map(response.documents.map((d) => [d.id, d]));
  const totals = zeroErrorCounts();
  const perDocument: CorpusErrors["perDocument"] = [];
  for (const keyDoc of key.documents) {
    const responseDoc = responseById.get(keyDoc.id);
    const { counts } = analyzeDocumentErrors(keyDoc.entities, responseDoc?.entities ?? []);
    addErrorCounts(totals, counts);
    perDocument.push({ id: keyDoc.id, counts, missingInResponse: !responseDoc });
  }
  return { totals, perDocument };
}
