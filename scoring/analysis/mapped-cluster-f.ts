/**
 * Mapped cluster F: the evaluation of possibly overlapping clusterings of "Evaluation of
 * Semantic Clusters" (ACL 1995, P95-1038, sections 3.2 and 3.3), applied to coreference.
 *
 * Elements are mention spans and a class is the set of spans of one entity. Unlike the
 * CoNLL metrics, nothing is de-duplicated across entities: a span may belong to several key
 * entities and to several response entities (overlapping classes are what the method was
 * designed for), and each membership counts.
 *
 * 1. F table. A row per response entity S, a column per key entity G, cell
 *    F(S, G) = 2|S ∩ G| / (|S| + |G|) (the element-level F-measure of the pair). Only pairs
 *    sharing a span are computed; all other cells are 0.
 * 2. Marks. Each row marks its best column when that F EXCEEDS the threshold (strictly
 *    greater; the paper's 0.20 by default). Ties on F go to the lowest key index. A row with
 *    no cell above the threshold is unmapped.
 * 3. Conflicts. A column marked by more than one row is in conflict. Repeat until no column
 *    is in conflict: take the LOWEST-indexed column in conflict; for each row marked on it,
 *    its loss is its F on this column minus its F on its next-best column (the next column
 *    in its own order of F descending, ties by key index, among columns above the threshold
 *    that it has not been moved away from), or its whole F on this column when it has no
 *    such column left. The row with the smallest loss is re-mapped to its next-best column
 *    (or becomes unmapped); ties on the loss move the LATER response entity. A row never
 *    returns to a column it was moved away from, so every move consumes one of the finitely
 *    many cells above the threshold and the loop ends. A move may create a conflict on
 *    another column (of any index); it is found by the next "lowest column" search. Losses
 *    are compared exactly: as floats when they differ by more than 1e-9, else as fractions,
 *    so mathematically equal losses always tie.
 * 4. One contingency table over all pairs: for each mapped pair (S, G), |S ∩ G| goes to
 *    YES-YES, |S \ G| to YES-NO (system yes, expert no) and |G \ S| to NO-YES; every span of
 *    an unmapped response entity goes to YES-NO and every span of an unmapped key entity to
 *    NO-YES. Precision = YY / (YY + YN), recall = YY / (YY + NY), F = 2PR / (P + R).
 *    Because each key entity ends mapped at most once, YY + NY is the sum of the key
 *    entities' sizes and YY + YN the sum of the response entities' sizes.
 */
import { spanKey, type Entity } from "../types.js";
import type { Counts } from "../metrics/counts.js";

/** The paper's threshold: a response entity maps to a key entity only if their F exceeds it. */
export const MAPPED_F_THRESHOLD = 0.2;

/** Options of `mappedClusterF`. */
export interface MappedClusterFOptions {
  /** The F a pair must strictly exceed to map, a number in [0, 1] (default `MAPPED_F_THRESHOLD`). */
  threshold?: number;
}

/** Where one response entity ended up. */
export interface MappedEntity {
  /** Index of the response entity (in the `response` array). */
  response: number;
  /** Index of the key entity it maps to, or `null` when unmapped. */
  key: number | null;
  /** F(S, G) of the pair, a fraction in (threshold, 1]; 0 when unmapped. */
  f: number;
}

/** The result of `mappedClusterF`. */
export interface MappedClusterF {
  /**
   * The single contingency table as counts: recallNum = precisionNum = YES-YES,
   * recallDen = YES-YES + NO-YES (all key spans, with multiplicity over entities),
   * precisionDen = YES-YES + YES-NO (all response spans likewise). All integers; `toScore`
   * gives recall, precision and F as fractions in [0, 1].
   */
  counts: Counts;
  /** One entry per response entity, in response order. */
  mapping: MappedEntity[];
}

/** A cell of the F table, F = num / den = 2|S ∩ G| / (|S| + |G|), kept as integers for exact comparisons. */
interface Cell {
  key: number;
  num: number;
  den: number;
  f: number;
}

/**
 * Mapped cluster F of a response against a key (P95-1038; see the module comment for every
 * rule, tie-break and the order in which conflicts are resolved).
 *
 * @param key the key entities; a span may occur in several of them
 * @param response the response entities; a span may occur in several of them. Within one
 *   entity a repeated span counts once (an entity is the set of its spans)
 * @param options `threshold`: the F a pair must strictly exceed to map (default 0.2)
 * @returns the contingency counts and each response entity's mapping. Time is linear in the
 *   number of (span, entity) memberships plus the number of non-zero F cells (times a log
 *   for sorting each row), so thousands of entities take milliseconds.
 * @throws RangeError when `threshold` is not a number in [0, 1]
 */
export function mappedClusterF(
  key: readonly Entity[],
  response: readonly Entity[],
  options: MappedClusterFOptions = {},
): MappedClusterF {
  const threshold = options.threshold ?? MAPPED_F_THRESHOLD;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1)) {
    throw new RangeError(`mapped cluster F threshold must be a number in [0, 1], got ${String(threshold)}`);
  }

  const keySets = key.map(spanSet);
  const responseSets = response.map(spanSet);

  // span -> key entities holding it (each entity once, since its spans are a set).
  const holders = new Map<number, number[]>();
  keySets.forEach((spans, k) => {
    for (const s of spans) {
      const list = holders.get(s);
      if (list) list.push(k);
      else holders.set(s, [k]);
    }
  });

  // Each row's cells above the threshold, best first (F descending, then key index).
  const shared = new Map<number, number>();
  const candidates: Cell[][] = responseSets.map((spans) => {
    shared.clear();
    for (const s of spans) {
      const list = holders.get(s);
      if (list) for (const k of list) shared.set(k, (shared.get(k) ?? 0) + 1);
    }
    const cells: Cell[] = [];
    for (const [k, c] of shared) {
      const num = 2 * c;
      const den = spans.size + keySets[k].size;
      const f = num / den;
      if (f > threshold) cells.push({ key: k, num, den, f });
    }
    cells.sort((x, y) => y.num * x.den - x.num * y.den || x.key - y.key);
    return cells;
  });

  // position[r]: index into candidates[r] of its current mark (= length when unmapped).
  const position = new Int32Array(response.length);
  const rowsOn: number[][] = key.map(() => []);
  const inConflict = new MinHeap();
  const mark = (r: number) => {
    const cell = candidates[r][position[r]];
    if (!cell) return;
    const rows = rowsOn[cell.key];
    rows.push(r);
    if (rows.length === 2) inConflict.push(cell.key);
  };
  for (let r = 0; r < response.length; r++) mark(r);

  while (inConflict.size > 0) {
    const column = inConflict.pop();
    const rows = rowsOn[column];
    if (rows.length < 2) continue; // resolved since it was queued
    let mover = -1;
    let moverLoss = 0;
    for (const r of rows) {
      const loss = floatLoss(candidates[r], position[r]);
      // Floats decide clear cases; near-ties are settled exactly.
      let c = -1;
      if (mover >= 0) {
        c = Math.abs(loss - moverLoss) > 1e-9
          ? Math.sign(loss - moverLoss)
          : compare(exactLoss(candidates[r], position[r]), exactLoss(candidates[mover], position[mover]));
      }
      // Ties move the later response entity (rows are held in marking order, not index order).
      if (c < 0 || (c === 0 && r > mover)) {
        mover = r;
        moverLoss = loss;
      }
    }
    rows.splice(rows.indexOf(mover), 1);
    position[mover]++;
    mark(mover);
    if (rows.length >= 2) inConflict.push(column);
  }

  const counts: Counts = { recallNum: 0, recallDen: 0, precisionNum: 0, precisionDen: 0 };
  const mapping: MappedEntity[] = [];
  const keyMapped = new Uint8Array(key.length);
  for (let r = 0; r < response.length; r++) {
    const size = responseSets[r].size;
    counts.precisionDen += size;
    const cell = candidates[r][position[r]];
    if (!cell) {
      mapping.push({ response: r, key: null, f: 0 });
      continue;
    }
    keyMapped[cell.key] = 1;
    const common = cell.num / 2;
    counts.recallNum += common;
    counts.precisionNum += common;
    mapping.push({ response: r, key: cell.key, f: cell.f });
  }
  for (const spans of keySets) counts.recallDen += spans.size;
  return { counts, mapping };
}

/** An entity's distinct spans as span keys. */
function spanSet(entity: Entity): Set<number> {
  const out = new Set<number>();
  for (const [start, end] of entity) out.add(spanKey(start, end));
  return out;
}

/** A non-negative fraction with BigInt parts (the products can exceed 2^53). */
interface Fraction {
  num: bigint;
  den: bigint;
}

/** F on the current cell minus F on the next one (or minus 0 when there is none), as a float. */
function floatLoss(cells: Cell[], at: number): number {
  const next = cells[at + 1];
  return cells[at].f - (next ? next.f : 0);
}

/** `floatLoss` as an exact fraction. */
function exactLoss(cells: Cell[], at: number): Fraction {
  const here = cells[at];
  const next = cells[at + 1];
  if (!next) return { num: BigInt(here.num), den: BigInt(here.den) };
  return {
    num: BigInt(here.num) * BigInt(next.den) - BigInt(next.num) * BigInt(here.den),
    den: BigInt(here.den) * BigInt(next.den),
  };
}

/** Sign of a − b for fractions with positive denominators. */
function compare(a: Fraction, b: Fraction): number {
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** A binary min-heap of column indices (duplicates allowed; callers re-check on pop). */
class MinHeap {
  private items: number[] = [];
  get size(): number {
    return this.items.length;
  }
  push(x: number): void {
    const a = this.items;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= x) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }
  pop(): number {
    const a = this.items;
    const top = a[0];
    const last = a.pop() as number;
    if (a.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const c = l + 1 < a.length && a[l + 1] < a[l] ? l + 1 : l;
        if (a[c] >= last) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}
