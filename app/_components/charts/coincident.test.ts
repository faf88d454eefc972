import { describe, expect, it } from "vitest";
import { spreadCoincident } from "./coincident";

const p = (id: string, x: number, y: number) => ({ id, x, y });

describe("spreadCoincident", () => {
  it("leaves points that are alone where they are", () => {
    const out = spreadCoincident([p("a", 10, 20), p("b", 30, 40)]);
    expect(out.map((s) => [s.point.id, s.dx, s.dy, s.group.map((g) => g.id)])).toEqual([
      ["a", 0, 0, ["a"]],
      ["b", 0, 0, ["b"]],
    ]);
  });

  it("puts runs at the same point on a circle of `radius` pixels around it, each somewhere else", () => {
    const out = spreadCoincident([p("a", 50, 50), p("b", 50, 50), p("c", 70, 10), p("d", 50, 50)], { radius: 6 });
    const group = out.filter((s) => s.group.length === 3);
    expect(group.map((s) => s.point.id)).toEqual(["a", "b", "d"]);
    for (const s of group) {
      expect(Math.hypot(s.dx, s.dy)).toBeCloseTo(6, 2);
      expect(s.group.map((g) => g.id)).toEqual(["a", "b", "d"]);
    }
    // The first one straight up, then clockwise (SVG y grows downwards).
    expect([group[0].dx, group[0].dy]).toEqual([0, -6]);
    expect(new Set(group.map((s) => `${s.dx},${s.dy}`)).size).toBe(3);
    expect(out[2]).toMatchObject({ dx: 0, dy: 0 });
  });

  it("places two runs opposite each other", () => {
    const [a, b] = spreadCoincident([p("a", 1, 1), p("b", 1, 1)], { radius: 5 });
    expect([a.dx, a.dy, b.dx, b.dy]).toEqual([0, -5, 0, 5]);
  });

  it("treats points within the tolerance as the same spot, and no others", () => {
    const out = spreadCoincident([p("a", 50, 50), p("b", 50.4, 49.7), p("c", 51, 50)], { toleranceX: 0.5, toleranceY: 0.5 });
    expect(out[0].group.map((g) => g.id)).toEqual(["a", "b"]);
    expect(out[2].group.map((g) => g.id)).toEqual(["c"]);
  });

  it("is deterministic", () => {
    const points = [p("a", 1, 2), p("b", 1, 2), p("c", 1, 2), p("d", 3, 4)];
    expect(spreadCoincident(points)).toEqual(spreadCoincident(points));
  });
});
