/**
 * Maximum-weight bipartite matching on a sparse graph, for CEAF's optimal one-to-one
 * alignment of key and response entities. Luo (2005) solves it with the Kuhn–Munkres
 * (Hungarian) algorithm on the full similarity matrix, as the reference scorer does
 * (Algorithm::Munkres); the optimum found here is the same.
 *
 * Method: the shortest-augmenting-path form of the Hungarian algorithm (Jonker & Volgenant
 * 1987; Crouse 2016, "On implementing 2D rectangular assignment algorithms", as used by
 * SciPy's linear_sum_assignment), run on the edges that exist. Each left node also gets a
 * private "stay unmatched" column of weight 0, so a perfect assignment of the left side
 * always exists and its optimum is the maximum-weight matching. Costs are C − w (C the
 * largest weight), all ≥ 0, so every left node's search is a Dijkstra that stops at the
 * first free column and never looks past its own unmatched column: searches stay local
 * even when a group of overlapping entities is very large.
 */

/** An edge between left node `left` and right node `right` with weight `weight` > 0. */
export interface WeightedEdge {
  left: number;
  right: number;
  weight: number;
}

/** The result: the total weight and, for each left node, its matched right node or -1. */
export interface Matching {
  total: number;
  matchOfLeft: Int32Array;
}

/**
 * The total weight of a maximum-weight matching, solved separately in each connected component
 * of the graph (components are independent problems). Most components are one edge (for CEAF
 * the groups of entities that share mentions, for MOR the groups of mentions that share words):
 * its weight is the component's optimum. A larger component is solved on its own matrix when
 * it has at most `DENSE_MAX_SIDE` nodes on either side (`denseMaxWeightTotal`), else by the
 * sparse search (`maxWeightMatching`). Components are found with a union–find over typed
 * arrays and taken in the order of their first edge; totals are summed in that order.
 *
 * Solving a whole document of up to 48 entities on its 48 × 48 matrix (the earlier rule) cost
 * O(n³) where nearly every entity pairs with one other: on the 108 GUM documents of
 * `npm run bench` case (e), CEAFe, CEAFm and MOR took 6.7 M steps of n³ that way, against
 * 6.2 thousand for their components of more than one edge.
 *
 * @param leftCount number of left nodes; `rightCount` of right nodes
 * @param edges edges with weights > 0 (others are ignored), at most one per pair
 * @returns the optimum total; never throws
 */
export function maxWeightMatchingTotal(leftCount: number, rightCount: number, edges: readonly WeightedEdge[]): number {
  const m = edges.length;
  if (m === 0) return 0;
  if (m === 1) return edges[0].weight > 0 ? edges[0].weight : 0;
  // Union–find over left nodes 0..L-1 and right nodes L..L+R-1.
  const parent = new Int32Array(leftCount + rightCount);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (let k = 0; k < m; k++) {
    const e = edges[k];
    if (!(e.weight > 0)) continue;
    const a = find(e.left);
    const b = find(leftCount + e.right);
    if (a !== b) parent[a] = b;
  }
  // Edges per component (indexed by root), and each component's order of first appearance.
  const size = new Int32Array(parent.length);
  const rootOf = new Int32Array(m).fill(-1);
  const order: number[] = [];
  for (let k = 0; k < m; k++) {
    const e = edges[k];
    if (!(e.weight > 0)) continue;
    const root = find(e.left);
    rootOf[k] = root;
    if (size[root]++ === 0) order.push(root);
  }
  // Edges grouped by component (counting sort on the roots, stable).
  const begin = new Int32Array(parent.length);
  let at = 0;
  for (const root of order) {
    begin[root] = at;
    at += size[root];
  }
  const grouped = new Int32Array(at);
  const fill = begin.slice();
  for (let k = 0; k < m; k++) if (rootOf[k] >= 0) grouped[fill[rootOf[k]]++] = k;

  const localId = new Int32Array(parent.length).fill(-1);
  let total = 0;
  for (const root of order) {
    const from = begin[root];
    const count = size[root];
    if (count === 1) {
      total += edges[grouped[from]].weight;
      continue;
    }
    // Renumber the component's nodes locally.
    let lefts = 0;
    let rights = 0;
    const local: WeightedEdge[] = [];
    for (let p = from; p < from + count; p++) {
      const e = edges[grouped[p]];
      let l = localId[e.left];
      if (l < 0) l = localId[e.left] = lefts++;
      let r = localId[leftCount + e.right];
      if (r < 0) r = localId[leftCount + e.right] = rights++;
      local.push({ left: l, right: r, weight: e.weight });
    }
    for (let p = from; p < from + count; p++) {
      const e = edges[grouped[p]];
      localId[e.left] = -1;
      localId[leftCount + e.right] = -1;
    }
    total += Math.max(lefts, rights) <= DENSE_MAX_SIDE ? denseMaxWeightTotal(lefts, rights, local) : maxWeightMatching(lefts, rights, local).total;
  }
  return total;
}

/**
 * Components with at most this many nodes on their larger side are solved on the full matrix
 * (`denseMaxWeightTotal`): the plain O(n³) loops over a small matrix beat the sparse search's heap.
 */
const DENSE_MAX_SIDE = 48;

/**
 * The total weight of a maximum-weight matching by the Hungarian algorithm on the full square
 * matrix of side max(leftCount, rightCount) (Kuhn 1955, Munkres 1957, in the O(n³)
 * potentials-and-shortest-path form): cost −w for an edge, 0 for a missing pair or a padding
 * row or column, which is leaving the node unmatched. All weights here are > 0, so a minimum-cost
 * perfect assignment of this matrix is a maximum-weight matching. Matched weights are summed in
 * row order.
 */
function denseMaxWeightTotal(leftCount: number, rightCount: number, edges: readonly WeightedEdge[]): number {
  const n = Math.max(leftCount, rightCount);
  const w = n + 1;
  // 1-based rows and columns, as in the textbook form; row 0 and column 0 are the sentinels.
  const cost = new Float64Array(w * w);
  for (const e of edges) if (e.weight > 0) cost[(e.left + 1) * w + e.right + 1] = -e.weight;
  const u = new Float64Array(w);
  const v = new Float64Array(w);
  const rowOf = new Int32Array(w); // rowOf[j]: the row matched to column j, 0 for none
  const way = new Int32Array(w);
  const minv = new Float64Array(w);
  const used = new Uint8Array(w);
  for (let i = 1; i <= n; i++) {
    rowOf[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = rowOf[j0];
      let delta = Infinity;
      let j1 = 0;
      const base = i0 * w;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const reduced = cost[base + j] - u[i0] - v[j];
        if (reduced < minv[j]) {
          minv[j] = reduced;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[rowOf[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (rowOf[j0] !== 0);
    do {
      const j1 = way[j0];
      rowOf[j0] = rowOf[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  const colOf = new Int32Array(w);
  for (let j = 1; j <= n; j++) colOf[rowOf[j]] = j;
  let total = 0;
  for (let i = 1; i <= n; i++) total -= cost[i * w + colOf[i]];
  return total;
}

/**
 * Finds a matching of maximum total weight (not necessarily of maximum size).
 *
 * @param leftCount number of left nodes (ids 0..leftCount-1)
 * @param rightCount number of right nodes (ids 0..rightCount-1)
 * @param edges edges with weights; edges of weight ≤ 0 are ignored (never useful);
 *   at most one edge per (left, right) pair
 * @returns the optimum total (the sum of the matched edges' weights) and the matching
 */
export function maxWeightMatching(leftCount: number, rightCount: number, edges: readonly WeightedEdge[]): Matching {
  const matchOfLeft = new Int32Array(leftCount).fill(-1);
  const useful = edges.filter((e) => e.weight > 0);
  if (useful.length === 0) return { total: 0, matchOfLeft };
  let maxWeight = 0;
  for (const e of useful) if (e.weight > maxWeight) maxWeight = e.weight;

  // Columns: real right nodes 0..R-1, then row i's "unmatched" column R + i.
  const columns = rightCount + leftCount;
  const start = new Int32Array(leftCount + 1);
  for (const e of useful) start[e.left + 1]++;
  for (let i = 0; i < leftCount; i++) start[i + 1] += start[i] + 1; // +1: the unmatched column
  const adjColumn = new Int32Array(start[leftCount]);
  const adjCost = new Float64Array(start[leftCount]);
  const adjWeight = new Float64Array(start[leftCount]);
  const fill = start.slice(0, leftCount);
  for (const e of useful) {
    const p = fill[e.left]++;
    adjColumn[p] = e.right;
    adjCost[p] = maxWeight - e.weight;
    adjWeight[p] = e.weight;
  }
  for (let i = 0; i < leftCount; i++) {
    const p = fill[i]++;
    adjColumn[p] = rightCount + i;
    adjCost[p] = maxWeight;
    adjWeight[p] = 0;
  }

  const u = new Float64Array(leftCount);
  const v = new Float64Array(columns);
  const rowOfColumn = new Int32Array(columns).fill(-1);
  const columnOfRow = new Int32Array(leftCount).fill(-1);
  const shortest = new Float64Array(columns).fill(Infinity);
  const pathRow = new Int32Array(columns);
  const scanned = new Uint8Array(columns);
  const touched: number[] = [];
  const scannedRows: number[] = [];
  const scannedColumns: number[] = [];
  const heap = new MinHeap(64);

  for (let current = 0; current < leftCount; current++) {
    for (const j of touched) {
      shortest[j] = Infinity;
      scanned[j] = 0;
    }
    touched.length = 0;
    scannedRows.length = 0;
    scannedColumns.length = 0;
    heap.clear();

    let row = current;
    let minValue = 0;
    let sink = -1;
    while (sink < 0) {
      scannedRows.push(row);
      for (let p = start[row]; p < start[row + 1]; p++) {
        const j = adjColumn[p];
        if (scanned[j]) continue;
        const reduced = minValue + adjCost[p] - u[row] - v[j];
        if (reduced < shortest[j]) {
          if (shortest[j] === Infinity) touched.push(j);
          shortest[j] = reduced;
          pathRow[j] = row;
          heap.push(j, reduced);
        }
      }
      // The current row's unmatched column is always reachable, so the heap never runs dry.
      let j = -1;
      while (heap.size > 0) {
        const key = heap.topKey();
        const candidate = heap.pop();
        if (!scanned[candidate] && key === shortest[candidate]) {
          j = candidate;
          break;
        }
      }
      if (j < 0) throw new Error("maxWeightMatching: no augmenting path (impossible: every row has an unmatched column)");
      minValue = shortest[j];
      scanned[j] = 1;
      scannedColumns.push(j);
      if (rowOfColumn[j] < 0) sink = j;
      else row = rowOfColumn[j];
    }

    // Dual update (keeps every reduced cost ≥ 0 and matched edges at 0).
    u[current] += minValue;
    for (const r of scannedRows) if (r !== current) u[r] += minValue - shortest[columnOfRow[r]];
    for (const j of scannedColumns) v[j] -= minValue - shortest[j];

    // Augment along the alternating path ending at the sink.
    let j = sink;
    for (;;) {
      const r = pathRow[j];
      rowOfColumn[j] = r;
      const previous = columnOfRow[r];
      columnOfRow[r] = j;
      if (r === current) break;
      j = previous;
    }
  }

  let total = 0;
  for (let i = 0; i < leftCount; i++) {
    const j = columnOfRow[i];
    if (j >= rightCount) continue;
    for (let p = start[i]; p < start[i + 1]; p++) {
      if (adjColumn[p] === j) {
        total += adjWeight[p];
        break;
      }
    }
    matchOfLeft[i] = j;
  }
  return { total, matchOfLeft };
}

/** A binary min-heap of (node, key) pairs; stale entries are skipped by the caller. */
class MinHeap {
  private nodes: Int32Array;
  private keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.nodes = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  topKey(): number {
    return this.keys[0];
  }

  push(node: number, key: number): void {
    if (this.size === this.nodes.length) {
      const nodes = new Int32Array(this.nodes.length * 2);
      nodes.set(this.nodes);
      const keys = new Float64Array(this.keys.length * 2);
      keys.set(this.keys);
      this.nodes = nodes;
      this.keys = keys;
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent] <= key) break;
      this.nodes[i] = this.nodes[parent];
      this.keys[i] = this.keys[parent];
      i = parent;
    }
    this.nodes[i] = node;
    this.keys[i] = key;
  }

  pop(): number {
    const top = this.nodes[0];
    const lastNode = this.nodes[--this.size];
    const lastKey = this.keys[this.size];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.keys[child + 1] < this.keys[child]) child++;
      if (this.keys[child] >= lastKey) break;
      this.nodes[i] = this.nodes[child];
      this.keys[i] = this.keys[child];
      i = child;
    }
    this.nodes[i] = lastNode;
    this.keys[i] = lastKey;
    return top;
  }
}
