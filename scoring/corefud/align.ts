/**
 * CorefUD mention preparation and alignment, as the CorefUD scorer v1.2 (ufal/corefud-scorer,
 * `scorer/corefud/reader.py`, `scorer/base/reader.py`, `scorer/base/mention.py`,
 * `scorer/corefud/mention.py`; matching from the Universal Anaphora scorer 2.0, Yu et al. 2023)
 * does it.
 *
 * Preparation of one side (`prepareSide`):
 * 1. each entity's mentions are put in udapi's order (first node; longer first; last node;
 *    then opening order), and entities are ordered by their first mention (udapi's
 *    `CorefEntity.__lt__`); when two entities' first mentions have the same first node, size
 *    and last node (a span annotated in both), the entity with the smaller eid string comes
 *    first, as udapi's `CorefMention.__lt__` compares `entity.eid` (Python's string order:
 *    by code point, so "e10" < "e7"). udapi orders the entities of the whole file, so an
 *    entity whose eid an earlier document of the file used (udapi's one entity split across
 *    documents; `CorefUDDocument.carried`) comes before the others, by where it first
 *    appeared. This order decides which entity a span held by several entities is looked up
 *    in: the last one (step 4);
 * 2. a mention's identity is its node set, plus its head under `head` match; repeated
 *    identities inside one entity are merged (the first is kept);
 * 3. with `removeSingletons`, entities of one mention are dropped; then with `removeZeros`,
 *    zeros are deleted from the entities (an entity left empty is dropped: upstream keeps it,
 *    which makes MUC count −1 links for it and LEA divide by zero);
 * 4. every entity keeps its copy of a span it shares with another entity (each counts in its
 *    own entity's size and links), but the lookup from a mention to its entity
 *    (`entityOf`, upstream's `get_mention_to_clusterid_map`) gives the last entity, in the
 *    order of step 1, that holds it.
 *
 * Alignment (`alignMentions`), 1-to-1, over the distinct identities of each side:
 * 0. `dependent` zeros (unless zeros are removed): key zeros × response zeros, weight
 *    10·F1(DEPS pairs) + F1(DEPS parents) within a sentence, 0 across sentences; SciPy's
 *    assignment on the dense matrix; pairs of weight 0 are dropped;
 * 1. identical identities are paired;
 * 2. `partial` / `head`: the rest by SciPy's assignment on the score matrix (rows: key
 *    mentions, columns: response mentions, each sorted by first node, last node, size):
 *    partial(K, S) = |S|/|K| if S ⊆ K and head(K) ∈ S; head(K, S) = 1 if identical, else
 *    |K ∩ S|/|K| if the heads are the same node; 0 otherwise. Pairs scoring 0 are dropped.
 *    This realises the documented tie-break rules (the highest score, i.e. the smallest
 *    proportional difference, then the earlier start, then the earlier end).
 * The result is one lookup table shared by both sides (`resolve`): for every pair whose two
 * identities differ, key → response is written for all pairs, then response → key for all
 * pairs, in the order identical, partial/head, zero pairs; a later write wins.
 *
 * Quirks of the reference reproduced here (each has a test in `corefud/score.test.ts`):
 * - the lookup table is shared, so a response mention identical to a key mention that was
 *   paired elsewhere (only possible through step 0) resolves through that key mention's entry;
 * - SciPy's choice among tied optima (`lsa.ts`); mentions that tie in the sort keep the order
 *   of first sight, where upstream iterates a Python set;
 * - a zero whose head has no DEPS (`_`) makes the dependent step divide by zero upstream as
 *   soon as it meets a zero of the other side in its sentence: here that is a FormatError
 *   pointing at the DEPS column.
 * Large score matrices: when rows × columns exceeds `DENSE_LIMIT`, each connected block of
 * non-zero scores is solved on its own with SciPy's rules (the optimum is the same; a tie
 * spanning blocks could then be broken differently from upstream).
 */
import { FormatError, type CorefUDDocument, type CorefUDMention, type EntityFirstSeen } from "../types.js";
import { linearSumAssignment } from "./lsa.js";
import { compareCodePoints, compareMentionNodes } from "./order.js";

/** How mentions are matched: `exact`, `partial` or `head`. */
export type Matching = "exact" | "partial" | "head";

/** Largest dense score matrix (rows × columns) solved in one piece. */
export const DENSE_LIMIT = 1_000_000;

/** A mention occurrence in a prepared entity. */
export interface Occurrence {
  /** Identity number (shared by key and response: see `Identities`). */
  id: number;
  mention: CorefUDMention;
}

/** Interns mention identities of both sides of a document to small integers. */
export class Identities {
  /** Hash of (nodes, head) → identities with that hash (collisions are compared node by node). */
  private readonly byHash = new Map<number, number | number[]>();
  /** Per identity: its nodes. */
  readonly nodes: (readonly number[])[] = [];
  /** Per identity: the head node under `head` match (the identity includes it), else -1. */
  readonly head: number[] = [];

  constructor(readonly matching: Matching) {}

  /** The identity number of `m`, creating it on first sight. */
  intern(m: CorefUDMention): number {
    const head = this.matching === "head" ? m.head : -1;
    const hash = nodeSetHash(m.nodes, head);
    const found = this.byHash.get(hash);
    if (found !== undefined) {
      for (const id of typeof found === "number" ? [found] : found) {
        if (this.head[id] === head && sameNodes(this.nodes[id], m.nodes)) return id;
      }
    }
    const id = this.nodes.length;
    this.nodes.push(m.nodes);
    this.head.push(head);
    if (found === undefined) this.byHash.set(hash, id);
    else if (typeof found === "number") this.byHash.set(hash, [found, id]);
    else found.push(id);
    return id;
  }

  get size(): number {
    return this.nodes.length;
  }
}

/** A 32-bit hash of a node set (and a head, -1 for none). */
export function nodeSetHash(nodes: readonly number[], head: number): number {
  let h = Math.imul(head | 0, 0x9e3779b1) ^ nodes.length;
  // First, last and a few inner nodes make collisions rare; equality is checked anyway.
  const step = nodes.length > 8 ? Math.floor(nodes.length / 8) : 1;
  for (let i = 0; i < nodes.length; i += step) h = Math.imul(h ^ (nodes[i] | 0), 0x85ebca6b) ^ (h >>> 13);
  h = Math.imul(h ^ (nodes[nodes.length - 1] | 0), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** True when two ascending node lists are equal. */
export function sameNodes(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** One side of a document, ready for alignment and metrics. */
export interface PreparedSide {
  /** Entities of occurrences, in udapi's order, repeated identities merged, filters applied. */
  entities: Occurrence[][];
  /** Identity → index of the last entity holding it (`get_mention_to_clusterid_map`; step 4), or -1. */
  entityOf: Int32Array;
  /** The distinct identities in order of first occurrence, with the first occurrence's mention. */
  distinct: Occurrence[];
}

/**
 * udapi's mention order inside an entity (`CorefMention.__lt__`): first node, then more nodes
 * first, then last node, then opening order (line, column).
 */
function udapiOrder(a: CorefUDMention, b: CorefUDMention): number {
  return compareMentionNodes(a.nodes, b.nodes) || a.line - b.line || a.column - b.column;
}

/**
 * The base scorer's mention order (`Mention.__lt__`): first node, last node, number of nodes.
 * Used to sort the rows and columns of the assignment and by the zero metric.
 */
export function positionOrder(a: readonly number[], b: readonly number[]): number {
  return a[0] - b[0] || a[a.length - 1] - b[b.length - 1] || a.length - b.length;
}

/** An entity being ordered: its mentions in udapi's order, its eid, and where it first appeared. */
interface OrderedEntity {
  mentions: CorefUDMention[];
  eid: string;
  carried: EntityFirstSeen | null;
}

/**
 * udapi's entity order (`CorefEntity.__lt__`): by first mention in the whole file
 * (`compareMentionNodes`, then the entities' eid strings). An entity carried from an earlier
 * document (an eid used there too) comes first, by where it first appeared.
 */
function entityOrder(a: OrderedEntity, b: OrderedEntity): number {
  const p = a.carried;
  const q = b.carried;
  if ((p === null) !== (q === null)) return p === null ? 1 : -1;
  const byPlace = p !== null && q !== null ? p.document - q.document || compareMentionNodes(p.nodes, q.nodes) : compareMentionNodes(a.mentions[0].nodes, b.mentions[0].nodes);
  return byPlace || compareCodePoints(a.eid, b.eid);
}

/**
 * Orders, merges and filters one side's entities (steps 1–3 of the module doc).
 *
 * @param doc the side's document (`entities`, their `eids`, and `carried` when the reader
 *   marked entities carried from an earlier document), or null for a missing document
 * @param ids the document's identity table (shared with the other side)
 * @param removeSingletons drop entities of one mention (after merging repeats)
 * @param removeZeros delete zero mentions (after dropping singletons)
 * @returns the prepared side; `entityOf` is sized for the identities known after this call,
 *   so prepare both sides before reading either side's `entityOf` (use `finishSide`)
 */
export function prepareSide(
  doc: Pick<CorefUDDocument, "entities" | "eids" | "carried"> | null,
  ids: Identities,
  removeSingletons: boolean,
  removeZeros: boolean,
): Omit<PreparedSide, "entityOf"> {
  const sorted: OrderedEntity[] = [];
  doc?.entities.forEach((e, i) => {
    if (e.length === 0) return;
    sorted.push({ mentions: [...e].sort(udapiOrder), eid: doc.eids[i], carried: doc.carried?.[i] ?? null });
  });
  sorted.sort(entityOrder);
  const ordered = sorted.map((e) => e.mentions);
  const out: Occurrence[][] = [];
  const seen = new Set<number>();
  for (const entity of ordered) {
    seen.clear();
    let merged: Occurrence[] = [];
    for (const mention of entity) {
      const id = ids.intern(mention);
      if (seen.has(id)) continue;
      seen.add(id);
      merged.push({ id, mention });
    }
    if (removeSingletons && merged.length === 1) continue;
    if (removeZeros) merged = merged.filter((o) => !o.mention.zero);
    if (merged.length > 0) out.push(merged);
  }
  const distinct: Occurrence[] = [];
  const first = new Set<number>();
  for (const entity of out) {
    for (const o of entity) {
      if (!first.has(o.id)) {
        first.add(o.id);
        distinct.push(o);
      }
    }
  }
  return { entities: out, distinct };
}

/** Adds `entityOf` (identity → last entity holding it) once every identity is interned. */
export function finishSide(side: Omit<PreparedSide, "entityOf">, identityCount: number): PreparedSide {
  const entityOf = new Int32Array(identityCount).fill(-1);
  side.entities.forEach((entity, e) => {
    for (const o of entity) entityOf[o.id] = e;
  });
  return { ...side, entityOf };
}

/** Where to point errors about a side's mentions. */
export interface SideFile {
  file: string;
}

/** The result of aligning a document. */
export interface Alignment {
  /** Pairs `[keyIdentity, responseIdentity]`: identical, then partial/head, then zero pairs. */
  pairs: [number, number][];
  /**
   * The shared lookup table: identity → the identity it stands for on the other side, for
   * identities of pairs whose two members differ (see the module doc). -1 when none.
   */
  partner: Int32Array;
}

/**
 * Aligns the distinct mentions of key and response (steps 0–2 of the module doc).
 *
 * @param key the prepared key side; `response` likewise
 * @param ids the identity table of both sides
 * @param options matching mode, zero matching, whether zeros were removed, and the file
 *   names for errors
 * @returns the pairs and the shared lookup table
 * @throws FormatError when the dependent step meets a zero whose head has an empty DEPS
 *   (`_`) and a zero of the other side in the same sentence (upstream divides by zero there)
 */
export function alignMentions(
  key: PreparedSide,
  response: PreparedSide,
  ids: Identities,
  options: { matching: Matching; zeroMatch: "dependent" | "linear"; removeZeros: boolean; keyFile: string; responseFile: string },
): Alignment {
  const keyLeft = new Map<number, CorefUDMention>();
  for (const o of key.distinct) keyLeft.set(o.id, o.mention);
  const responseLeft = new Map<number, CorefUDMention>();
  for (const o of response.distinct) responseLeft.set(o.id, o.mention);

  // Step 0: zeros by their dependencies.
  let zeroPairs: [number, number][] = [];
  if (!options.removeZeros && options.zeroMatch === "dependent") {
    const keyZeros = key.distinct.filter((o) => o.mention.zero);
    const responseZeros = response.distinct.filter((o) => o.mention.zero);
    if (keyZeros.length > 0 && responseZeros.length > 0) {
      zeroPairs = assign(keyZeros, responseZeros, (k, s) => zeroDependentScore(k, s, options), sentenceBlocks);
      for (const [k, s] of zeroPairs) {
        keyLeft.delete(k);
        responseLeft.delete(s);
      }
    }
  }

  // Step 1: identical identities.
  const identical: [number, number][] = [];
  for (const id of keyLeft.keys()) {
    if (responseLeft.has(id)) identical.push([id, id]);
  }
  for (const [id] of identical) {
    keyLeft.delete(id);
    responseLeft.delete(id);
  }

  // Step 2: partial or head matching of the rest.
  let scored: [number, number][] = [];
  if (options.matching !== "exact" && keyLeft.size > 0 && responseLeft.size > 0) {
    const rows = key.distinct.filter((o) => keyLeft.has(o.id));
    const columns = response.distinct.filter((o) => responseLeft.has(o.id));
    scored =
      options.matching === "partial"
        ? assign(rows, columns, partialScore, partialBlocks)
        : assign(rows, columns, headScore, headBlocks);
  }

  const pairs = [...identical, ...scored, ...zeroPairs];
  const partner = new Int32Array(ids.size).fill(-1);
  for (const [k, s] of pairs) if (k !== s) partner[k] = s;
  for (const [k, s] of pairs) if (k !== s) partner[s] = k;
  return { pairs, partner };
}

type Scorer = (key: Occurrence, response: Occurrence) => number;
/** Groups rows and columns that can score above 0 (for matrices over `DENSE_LIMIT`). */
type Blocker = (rows: Occurrence[], columns: Occurrence[]) => [Occurrence[], Occurrence[]][];

/**
 * SciPy's assignment maximising the total score of `rows` × `columns`, each sorted by
 * `positionOrder` (stable); pairs scoring 0 dropped. Returns identity pairs in row order.
 */
function assign(rowsIn: Occurrence[], columnsIn: Occurrence[], score: Scorer, blocks?: Blocker): [number, number][] {
  const byPosition = (a: Occurrence, b: Occurrence) => positionOrder(a.mention.nodes, b.mention.nodes);
  const rows = [...rowsIn].sort(byPosition);
  const columns = [...columnsIn].sort(byPosition);
  if (blocks && rows.length * columns.length > DENSE_LIMIT) {
    const out: [number, number][] = [];
    for (const [r, c] of blocks(rows, columns)) out.push(...assign(r, c, score));
    return out;
  }
  const similarity = new Float64Array(rows.length * columns.length);
  const cost = new Float64Array(rows.length * columns.length);
  for (let i = 0; i < rows.length; i++) {
    for (let j = 0; j < columns.length; j++) {
      const s = score(rows[i], columns[j]);
      similarity[i * columns.length + j] = s;
      cost[i * columns.length + j] = -s;
    }
  }
  const out: [number, number][] = [];
  for (const [i, j] of linearSumAssignment(cost, rows.length, columns.length)) {
    if (similarity[i * columns.length + j] > 0) out.push([rows[i].id, columns[j].id]);
  }
  return out;
}

/** `|common| / |a|` and `|common| / |b|` F-score of two sets, 0 when either ratio is 0. */
function fScore(a: Set<string | number>, b: Set<string | number>, file: () => never): number {
  let common = 0;
  for (const x of a) if (b.has(x)) common++;
  if (a.size === 0 || b.size === 0) file();
  const p = common / a.size;
  const r = common / b.size;
  return p > 0 && r > 0 ? (2 * p * r) / (p + r) : 0;
}

/**
 * The dependent zero score (`zero_dependent_match_score`): 0 across sentences, else
 * 10 × F1 of the heads' DEPS (parent, relation) pairs + F1 of their parents.
 */
function zeroDependentScore(
  key: Occurrence,
  response: Occurrence,
  files: { keyFile: string; responseFile: string },
): number {
  const k = key.mention;
  const s = response.mention;
  if (k.sentence !== s.sentence) return 0;
  const missing = (): never => {
    const [m, file] = k.headDeps === null || k.headDeps.length === 0 ? [k, files.keyFile] : [s, files.responseFile];
    const at = m.headDepsAt ?? { line: m.line, column: m.column, lineText: undefined };
    throw new FormatError({
      file,
      line: at.line,
      column: at.column,
      expected:
        "enhanced dependencies (DEPS) on this zero's empty node: dependent zero matching compares them with the other side's zeros in this sentence (use --zero-match linear to match zeros by position)",
      found: "'_'",
      lineText: at.lineText,
    });
  };
  const kDeps = new Set((k.headDeps ?? []).map((d) => `${d.parent}:${d.deprel}`));
  const sDeps = new Set((s.headDeps ?? []).map((d) => `${d.parent}:${d.deprel}`));
  let score = 0;
  score += 10 * fScore(kDeps, sDeps, missing);
  const kParents = new Set((k.headDeps ?? []).map((d) => d.parent));
  const sParents = new Set((s.headDeps ?? []).map((d) => d.parent));
  score += fScore(kParents, sParents, missing);
  return score;
}

/** True when every node of `inner` (ascending) is in `outer` (ascending). */
function isSubset(inner: readonly number[], outer: readonly number[]): boolean {
  let j = 0;
  for (const x of inner) {
    while (j < outer.length && outer[j] < x) j++;
    if (j === outer.length || outer[j] !== x) return false;
    j++;
  }
  return true;
}

/** Number of nodes two ascending node lists share. */
function commonNodes(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return n;
}

/** `corefud_partial_match_score`: |S|/|K| when S ⊆ K and K's head is in S, else 0. */
function partialScore(key: Occurrence, response: Occurrence): number {
  const k = key.mention.nodes;
  const s = response.mention.nodes;
  if (!s.includes(key.mention.head) || !isSubset(s, k)) return 0;
  return (commonNodes(k, s) * 1.0) / k.length;
}

/** `head_match_score`: 1 for the same identity, |K ∩ S|/|K| for the same head, else 0. */
function headScore(key: Occurrence, response: Occurrence): number {
  if (key.id === response.id) return 1.0;
  if (key.mention.head !== response.mention.head) return 0;
  return (commonNodes(key.mention.nodes, response.mention.nodes) * 1.0) / key.mention.nodes.length;
}

/**
 * Blocks of rows and columns with the same `keyOf` value (only such pairs can score above 0):
 * the head node for head match, the sentence for dependent zeros.
 */
function sameKeyBlocks(keyOf: (o: Occurrence) => number): Blocker {
  return (rows, columns) => {
    const groups = new Map<number, [Occurrence[], Occurrence[]]>();
    for (const r of rows) {
      let g = groups.get(keyOf(r));
      if (!g) groups.set(keyOf(r), (g = [[], []]));
      g[0].push(r);
    }
    for (const c of columns) groups.get(keyOf(c))?.[1].push(c);
    return [...groups.values()].filter(([r, c]) => r.length > 0 && c.length > 0);
  };
}
/** Blocks for head match: rows and columns sharing a head node. */
const headBlocks = sameKeyBlocks((o) => o.mention.head);
/** Blocks for dependent zeros: rows and columns of the same sentence. */
const sentenceBlocks = sameKeyBlocks((o) => o.mention.sentence);

/** Blocks for partial match: connected groups of rows and columns that share a node. */
function partialBlocks(rows: Occurrence[], columns: Occurrence[]): [Occurrence[], Occurrence[]][] {
  const n = rows.length + columns.length;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const ownerOfNode = new Map<number, number>();
  const all = [...rows, ...columns];
  all.forEach((o, i) => {
    for (const node of o.mention.nodes) {
      const other = ownerOfNode.get(node);
      if (other === undefined) ownerOfNode.set(node, i);
      else {
        const a = find(i);
        const b = find(other);
        if (a !== b) parent[a] = b;
      }
    }
  });
  const groups = new Map<number, [Occurrence[], Occurrence[]]>();
  all.forEach((o, i) => {
    const g = find(i);
    let group = groups.get(g);
    if (!group) groups.set(g, (group = [[], []]));
    group[i < rows.length ? 0 : 1].push(o);
  });
  return [...groups.values()].filter(([r, c]) => r.length > 0 && c.length > 0);
}
