/**
 * Runs that sit on the same point of a scatter chart (the same recall and precision, e.g. two
 * uploads of one file) would hide each other: only the last marker drawn would show. Here
 * they are grouped, and each member of a group of k > 1 is drawn a few pixels off its true
 * position, on a small circle around it (member j at angle 360°·j/k, starting straight up),
 * so every run's marker stays visible. The offset is in pixels, not data units, so it reads
 * as "side by side" at any zoom and never moves a marker by more than `radius` pixels. The
 * grouping and the order are deterministic (input order), so the server and every browser
 * draw the same picture; the chart's tooltip lists every run of the group with its exact
 * numbers.
 */

/** A point with its coordinates in data units. */
export interface Located {
  x: number;
  y: number;
}

/** A point as drawn: its pixel offset from its true position and the group it belongs to. */
export interface Spread<T> {
  point: T;
  /** pixel offset to the right (0 when alone) */
  dx: number;
  /** pixel offset downwards (0 when alone) */
  dy: number;
  /** every point at this spot, the point itself included, in input order (length 1 when alone) */
  group: T[];
}

/**
 * Groups points that coincide and spreads each group around its position.
 *
 * Two points coincide when both coordinates differ by at most the tolerance (absolute, in
 * data units); a point joins the first group whose first member it coincides with (a greedy,
 * input-ordered clustering), so groups never chain far from their first point.
 *
 * @param points the points, in drawing order
 * @param options `radius`: pixels between a group's members and its position (default 6);
 *   `toleranceX`, `toleranceY`: how close counts as the same spot (default 0: exactly equal)
 * @returns one entry per input point, in input order
 */
export function spreadCoincident<T extends Located>(points: readonly T[], options: { radius?: number; toleranceX?: number; toleranceY?: number } = {}): Spread<T>[] {
  const radius = options.radius ?? 6;
  const tx = options.toleranceX ?? 0;
  const ty = options.toleranceY ?? 0;
  const groups: T[][] = [];
  const groupOf: number[] = [];
  for (const p of points) {
    let g = groups.findIndex((members) => Math.abs(members[0].x - p.x) <= tx && Math.abs(members[0].y - p.y) <= ty);
    if (g < 0) g = groups.push([]) - 1;
    groups[g].push(p);
    groupOf.push(g);
  }
  const seen = new Array<number>(groups.length).fill(0);
  return points.map((point, i) => {
    const group = groups[groupOf[i]];
    const j = seen[groupOf[i]]++;
    if (group.length === 1) return { point, dx: 0, dy: 0, group };
    const angle = (2 * Math.PI * j) / group.length - Math.PI / 2;
    return { point, dx: round(radius * Math.cos(angle)), dy: round(radius * Math.sin(angle)), group };
  });
}

/** Rounds to 1/1000 of a pixel, so that cos(90°) is 0 and the SVG text is stable. */
function round(x: number): number {
  const r = Math.round(x * 1000) / 1000;
  return r === 0 ? 0 : r;
}
