/**
 * Dense linear sum assignment that makes the same choices as SciPy's
 * `scipy.optimize.linear_sum_assignment` (SciPy ≥ 1.4, `rectangular_lsap.cpp`), which the CorefUD
 * scorer uses to match mentions. The optimum total is the same as any exact solver's; what this
 * module adds is SciPy's choice among tied optima, which decides *which* mentions are paired
 * when two candidates score the same.
 *
 * Method (Crouse 2016, "On implementing 2D rectangular assignment algorithms", IEEE TAES 52(4),
 * pp. 1685–1686, as SciPy implements it): rows are assigned one at a time, each by a
 * Dijkstra-like shortest augmenting path over the columns. The columns still to scan start in
 * reverse index order; each step takes the column of lowest reduced path cost, and among equal
 * costs prefers a column that is still free (the later one in scan order); a taken column is
 * replaced in the scan list by the last one. A matrix with more rows than columns is solved
 * transposed, and the pairs are then listed in row order.
 *
 * Memory is the dense matrix (rows × columns doubles); time is O(rows² × columns) at worst.
 * Callers keep matrices small (`corefud/align.ts` falls back to a sparse exact solver for
 * large blocks).
 */

/**
 * Minimum-cost assignment of a dense cost matrix, with SciPy's tie-breaking.
 *
 * @param cost row-major `rows × columns` costs (finite numbers); not modified
 * @param rows number of rows
 * @param columns number of columns
 * @returns `min(rows, columns)` pairs `[row, column]`, sorted by row, as SciPy returns them
 * @throws RangeError when `cost.length !== rows * columns` or a cost is not finite
 */
export function linearSumAssignment(cost: ArrayLike<number>, rows: number, columns: number): [number, number][] {
  if (cost.length !== rows * columns) throw new RangeError(`cost has ${cost.length} entries, expected ${rows * columns}`);
  if (rows === 0 || columns === 0) return [];
  const transpose = columns < rows;
  const nr = transpose ? columns : rows;
  const nc = transpose ? rows : columns;
  const c = new Float64Array(nr * nc);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) {
      const value = cost[i * columns + j];
      if (!Number.isFinite(value)) throw new RangeError(`cost[${i}][${j}] is not finite`);
      if (transpose) c[j * nc + i] = value;
      else c[i * nc + j] = value;
    }
  }

  const u = new Float64Array(nr);
  const v = new Float64Array(nc);
  const shortest = new Float64Array(nc);
  const path = new Int32Array(nc).fill(-1);
  const col4row = new Int32Array(nr).fill(-1);
  const row4col = new Int32Array(nc).fill(-1);
  const SR = new Uint8Array(nr);
  const SC = new Uint8Array(nc);
  const remaining = new Int32Array(nc);

  for (let curRow = 0; curRow < nr; curRow++) {
    // Shortest augmenting path from curRow.
    let minVal = 0;
    let numRemaining = nc;
    for (let it = 0; it < nc; it++) remaining[it] = nc - it - 1;
    SR.fill(0);
    SC.fill(0);
    shortest.fill(Infinity);
    let sink = -1;
    let i = curRow;
    while (sink === -1) {
      let index = -1;
      let lowest = Infinity;
      SR[i] = 1;
      for (let it = 0; it < numRemaining; it++) {
        const j = remaining[it];
        const r = minVal + c[i * nc + j] - u[i] - v[j];
        if (r < shortest[j]) {
          path[j] = i;
          shortest[j] = r;
        }
        if (shortest[j] < lowest || (shortest[j] === lowest && row4col[j] === -1)) {
          lowest = shortest[j];
          index = it;
        }
      }
      minVal = lowest;
      if (minVal === Infinity) throw new RangeError("cost matrix is infeasible");
      const j = remaining[index];
      if (row4col[j] === -1) sink = j;
      else i = row4col[j];
      SC[j] = 1;
      remaining[index] = remaining[--numRemaining];
    }

    // Dual update.
    u[curRow] += minVal;
    for (let r = 0; r < nr; r++) {
      if (SR[r] && r !== curRow) u[r] += minVal - shortest[col4row[r]];
    }
    for (let j = 0; j < nc; j++) {
      if (SC[j]) v[j] -= minVal - shortest[j];
    }

    // Augment.
    let j = sink;
    for (;;) {
      const r = path[j];
      row4col[j] = r;
      const previous = col4row[r];
      col4row[r] = j;
      j = previous;
      if (r === curRow) break;
    }
  }

  const pairs: [number, number][] = [];
  if (transpose) {
    // Rows of the original are the columns here: list by original row.
    for (let j = 0; j < nc; j++) if (row4col[j] >= 0) pairs.push([j, row4col[j]]);
  } else {
    for (let r = 0; r < nr; r++) pairs.push([r, col4row[r]]);
  }
  return pairs;
}
