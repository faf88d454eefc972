/**
 * Maximum-weight bipartite matching on a sparse graph, for CEAF's optimal one-to-one
 * alignment of key and response entities (Luo 2005 uses the Kuhn–Munkres algorithm on the
 * full similarity matrix; the optimum is the same).
 *
 * Method: successive shortest augmenting paths with Dijkstra and Johnson potentials
 * (min-cost flow with cost −w), stopping as soon as no augmenting path increases the
 * total weight. Runs in O(V · E log V) on the edges that exist, instead of O(n³) on a
 * dense n × n matrix, so large documents with many entities stay fast.
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
 * Finds a matching of maximum total weight (not necessarily of maximum size).
 *
 * @param leftCount number of left nodes (ids 0..leftCount-1)
 * @param rightCount number of right nodes
 * @param edges positive-weight edges; edges of weight ≤ 0 are ignored (never useful)
 * @returns the optimum total (sum of matched weights) and the matching
 */
export function maxWeightMatching(leftCount: number, rightCount: number, edges: readonly WeightedEdge[]): Matching {
  const matchOfLeft = new Int32Array(leftCount).fill(-1);
  const matchOfRight = new Int32Array(rightCount).fill(-1);
  const useful = edges.filter((e) => e.weight > 0);
  if (useful.length === 0) return { total: 0, matchOfLeft };

  // Adjacency (left -> edges) in CSR form.
  const start = new Int32Array(leftCount + 1);
  for (const e of useful) start[e.left + 1]++;
  for (let i = 0; i < leftCount; i++) start[i + 1] += start[i];
  const adjRight = new Int32Array(useful.length);
  const adjWeight = new Float64Array(useful.length);
  const fill = start.slice(0, leftCount);
  for (const e of useful) {
    const p = fill[e.left]++;
    adjRight[p] = e.right;
    adjWeight[p] = e.weight;
  }

  // Node numbering for Dijkstra: left nodes 0..L-1, right nodes L..L+R-1.
  // Costs are −w on left→right edges (residual forward) and +w on matched right→left.
  // Potentials start valid for the DAG source→left→right: pot(left) = 0,
  // pot(right) = min over incoming (−w).
  const n = leftCount + rightCount;
  const pot = new Float64Array(n);
  for (let l = 0; l < leftCount; l++) {
    for (let p = start[l]; p < start[l + 1]; p++) {
      const r = leftCount + adjRight[p];
      if (-adjWeight[p] < pot[r]) pot[r] = -adjWeight[p];
    }
  }

  const dist = new Float64Array(n);
  const prevLeft = new Int32Array(n); // for a right node: the left node it was reached from
  const done = new Uint8Array(n);
  const heap = new MinHeap(n);
  let total = 0;

  for (;;) {
    // Dijkstra from a virtual source linked (cost 0) to every free left node.
    dist.fill(Infinity);
    done.fill(0);
    heap.clear();
    for (let l = 0; l < leftCount; l++) {
      if (matchOfLeft[l] < 0 && start[l + 1] > start[l]) {
        dist[l] = -pot[l]; // reduced cost of source→l, with pot(source) = 0
        heap.push(l, dist[l]);
      }
    }
    let bestRight = -1;
    let bestCost = 0; // real cost of the best path found so far (must be < 0 to help)
    while (heap.size > 0) {
      const u = heap.pop();
      if (done[u]) continue;
      done[u] = 1;
      if (u < leftCount) {
        for (let p = start[u]; p < start[u + 1]; p++) {
          const r = adjRight[p];
          if (matchOfLeft[u] === r) continue; // matched edge is only usable backwards
          const v = leftCount + r;
          const d = dist[u] + (-adjWeight[p] + pot[u] - pot[v]);
          if (d < dist[v] - 1e-12) {
            dist[v] = d;
            prevLeft[v] = u;
            heap.push(v, d);
          }
        }
      } else {
        const r = u - leftCount;
        // Real cost of source→…→u→sink, if u is free.
        const real = dist[u] + pot[u];
        if (matchOfRight[r] < 0) {
          if (real < bestCost - 1e-12) {
            bestCost = real;
            bestRight = u;
          }
          continue;
        }
        const l = matchOfRight[r];
        // Backward residual edge right→left with cost +w(l, r).
        let w = 0;
        for (let p = start[l]; p < start[l + 1]; p++) if (adjRight[p] === r) w = adjWeight[p];
        const d = dist[u] + (w + pot[u] - pot[l]);
        if (d < dist[l] - 1e-12) {
          dist[l] = d;
          heap.push(l, d);
          prevLeft[l] = -1;
        }
      }
    }
    if (bestRight < 0) break;
    // Augment along the path ending at bestRight.
    let v = bestRight;
    for (;;) {
      const l = prevLeft[v];
      const r = v - leftCount;
      const previous = matchOfLeft[l];
      matchOfLeft[l] = r;
      matchOfRight[r] = l;
      if (previous < 0) break;
      v = leftCount + previous;
    }
    total -= bestCost;
    // Update potentials, capping unreached nodes at the path's distance.
    const cap = dist[bestRight];
    for (let i = 0; i < n; i++) pot[i] += Math.min(dist[i], cap);
  }

  // Recompute the total exactly from the matching (avoids drift from potentials).
  total = 0;
  for (let l = 0; l < leftCount; l++) {
    const r = matchOfLeft[l];
    if (r < 0) continue;
    for (let p = start[l]; p < start[l + 1]; p++) if (adjRight[p] === r) total += adjWeight[p];
  }
  return { total, matchOfLeft };
}

/** A binary min-heap of (node, key) pairs with lazy deletion. */
class MinHeap {
  private nodes: Int32Array;
  private keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.nodes = new Int32Array(Math.max(16, capacity));
    this.keys = new Float64Array(Math.max(16, capacity));
  }

  clear(): void {
    this.size = 0;
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
