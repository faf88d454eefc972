import { describe, expect, it } from "vitest";
import type { ComparePage } from "../boards/compare";
import type { RunComparison } from "../boards/significance";
import {
  comparableRunOptions,
  compareHref,
  comparePageTitle,
  compareView,
  formatPoints,
  formatPValue,
  phaseOptions,
  phaseRunOptions,
  pValueProse,
  verdict,
} from "./compare-view";

const NAMES = { A: "sys-one", B: "sys-two" };

describe("verdict", () => {
  it("names the better run when p < level: A for a positive Δ, B for a negative one", () => {
    expect(verdict(0.032, 0.003, 0.05, NAMES)).toEqual({ significant: true, better: "A", text: "Run A (sys-one) is better (p = 0.003)" });
    expect(verdict(-0.1, 0.0004, 0.05, NAMES)).toEqual({ significant: true, better: "B", text: "Run B (sys-two) is better (p < 0.001)" });
  });

  it("says there is no significant difference at p ≥ level, or with no difference at all", () => {
    expect(verdict(0.02, 0.412, 0.05, NAMES)).toEqual({ significant: false, better: null, text: "No significant difference (p = 0.412)" });
    expect(verdict(0.02, 0.05, 0.05, NAMES).significant).toBe(false);
    expect(verdict(0, 0.001, 0.05, NAMES).better).toBeNull();
  });
});

describe("numbers", () => {
  it("writes points with a sign and 2 decimals, zero without a sign", () => {
    expect(formatPoints(0.012345)).toBe("+1.23");
    expect(formatPoints(-0.004)).toBe("-0.40");
    expect(formatPoints(0.00001)).toBe("0.00");
    expect(formatPoints(-0.00004)).toBe("0.00");
  });

  it("writes p-values with 3 decimals, and tiny ones as < 0.001", () => {
    expect(formatPValue(0.0123)).toBe("0.012");
    expect(formatPValue(0.0009)).toBe("< 0.001");
    expect(pValueProse(0.5)).toBe("p = 0.500");
    expect(pValueProse(0.0001)).toBe("p < 0.001");
  });
});

/** A comparison of two single-dataset runs: A better on CoNLL (significant), not on MUC, B better on B³. */
function comparison(overrides: Partial<RunComparison> = {}): RunComparison {
  const run = (id: string, systemName: string, team: string) => ({
    id,
    systemName,
    team: { id: `t-${id}`, name: team },
    submittedAt: new Date("2026-01-02T03:04:05Z"),
    goldVersion: 2,
    scores: {},
    canViewErrors: true,
  });
  return {
    task: { slug: "my task", title: "My task", primaryMetric: "conll" },
    phase: { id: "p1", name: "test" },
    a: run("run-a", "sys-one", "Team A"),
    b: run("run-b", "sys-two", "Team B"),
    bootstrap: {
      documents: 30,
      samples: 1000,
      seed: 42,
      metrics: [
        { metric: "muc", a: 0.7, b: 0.69, delta: 0.01, pValue: 0.3, ci95: [-0.01, 0.03] },
        { metric: "bcub", a: 0.6, b: 0.65, delta: -0.05, pValue: 0.01, ci95: [-0.08, -0.02] },
        { metric: "conll", a: 0.8, b: 0.768, delta: 0.032, pValue: 0.003, ci95: [0.01, 0.05] },
      ],
    },
    documentMetric: "conll",
    documents: [
      { document: "d2", a: 0.9, b: 0.5, delta: 0.4 },
      { document: "d1", a: 0.5, b: 0.6, delta: -0.1 },
      { document: "d3", a: 0.5, b: 0.50001, delta: -0.00001 },
    ],
    ...overrides,
  };
}

describe("compareView", () => {
  it("gives each metric its verdict, numbers and exact values, and marks the primary metric", () => {
    const view = compareView(comparison(), 0.05);
    expect(view.metrics.map((m) => [m.metric, m.label, m.primary, m.delta, m.p, m.verdict.better])).toEqual([
      ["muc", "MUC", false, "+1.00", "0.300", null],
      ["bcub", "B³", false, "-5.00", "0.010", "B"],
      ["conll", "CoNLL", true, "+3.20", "0.003", "A"],
    ]);
    expect(view.metrics[1].interval).toBe("[-8.00, -2.00]");
    expect(view.metrics[1].verdict.text).toBe("Run B (sys-two) is better (p = 0.010)");
    expect(view.metrics[2]).toMatchObject({ a: 0.8, b: 0.768, deltaExact: 0.032, pExact: 0.003, intervalExact: [0.01, 0.05] });
  });

  it("says in one sentence which run is better on the primary metric, or that neither is", () => {
    expect(compareView(comparison(), 0.05).headline).toBe("On CoNLL F1, run A (sys-one) is better by 3.20 points (p = 0.003).");
    const c = comparison({ task: { slug: "t", title: "T", primaryMetric: "muc" } });
    expect(compareView(c, 0.05).headline).toBe("On MUC F1, the difference between the runs is not significant (Δ = +1.00 points, p = 0.300).");
    const b = comparison({ task: { slug: "t", title: "T", primaryMetric: "bcub" } });
    expect(compareView(b, 0.05).headline).toBe("On B³ F1, run B (sys-two) is better by 5.00 points (p = 0.010).");
  });

  it("builds the page's links and the runs' lines", () => {
    const view = compareView(comparison(), 0.05);
    expect(view.task).toEqual({ title: "My task", href: "/tasks/my%20task" });
    expect(view.board.href).toBe("/tasks/my%20task/phases/p1/leaderboard");
    expect(view.swapHref).toBe("/compare?a=run-b&b=run-a");
    expect(view.pickHref).toBe("/compare?phase=p1");
    expect(view.runs.map((r) => [r.letter, r.href, r.team, r.scoredWith])).toEqual([
      ["A", "/submissions/run-a", "Team A", "gold version 2"],
      ["B", "/submissions/run-b", "Team B", "gold version 2"],
    ]);
    expect(view.bootstrap.smallestP).toBe("1/1,001");
  });

  it("says which run did better on each document, none when equal to 2 decimals", () => {
    const docs = compareView(comparison(), 0.05).documents!;
    expect(docs.map((d) => [d.document, d.delta, d.better])).toEqual([
      ["d2", "+40.00", "A"],
      ["d1", "-10.00", "B"],
      ["d3", "0.00", null],
    ]);
    expect(compareView(comparison({ documents: null }), 0.05).documents).toBeNull();
  });

  it("describes a macro-average's datasets", () => {
    const c = comparison();
    c.a = { ...c.a, goldVersion: null, datasets: [{ name: "en", missing: false, goldVersion: 1 }, { name: "de", missing: true, goldVersion: null }] };
    expect(compareView(c, 0.05).runs[0].scoredWith).toBe("macro-average over 2 datasets (en: gold version 1; de: missing, counts 0)");
  });
});

describe("pickers", () => {
  it("groups phases by task, with their run counts", () => {
    const groups = phaseOptions([
      { id: "p1", name: "dev", task: { slug: "t1", title: "Task one" }, runs: 3 },
      { id: "p2", name: "test", task: { slug: "t1", title: "Task one" }, runs: 1200 },
      { id: "p3", name: "test", task: { slug: "t2", title: "Task two" }, runs: 2 },
    ]);
    expect(groups).toEqual([
      { label: "Task one", options: [{ value: "p1", label: "dev (3 runs)" }, { value: "p2", label: "test (1,200 runs)" }] },
      { label: "Task two", options: [{ value: "p3", label: "test (2 runs)" }] },
    ]);
  });

  it("labels a phase's runs with team, system, baseline, track and the primary score", () => {
    const options = phaseRunOptions({
      task: { slug: "t", title: "T", primaryMetric: "conll" },
      phase: { id: "p", name: "test" },
      truncated: false,
      runs: [
        { id: "r1", systemName: "best", team: "Team A", track: "closed", isBaseline: false, submittedAt: new Date(), primary: 0.78123 },
        { id: "r2", systemName: "rule-based", team: "Organizers", track: null, isBaseline: true, submittedAt: new Date(), primary: 0.5 },
      ],
    });
    expect(options).toEqual([
      { value: "r1", label: "Team A · best · track closed · 78.12 % CoNLL F1" },
      { value: "r2", label: "Organizers · rule-based (baseline) · 50.00 % CoNLL F1" },
    ]);
  });

  it("labels the runs comparable with a given one by their submission time", () => {
    expect(comparableRunOptions([{ id: "r", systemName: "s", team: "T", submittedAt: new Date("2026-03-04T05:06:07Z"), isBaseline: false }])).toEqual([
      { value: "r", label: "T · s · 2026-03-04 05:06 UTC" },
    ]);
  });

  it("builds the page's addresses", () => {
    expect(compareHref()).toBe("/compare");
    expect(compareHref({ phase: "p 1" })).toBe("/compare?phase=p+1");
    expect(compareHref({ a: "x", b: "y" })).toBe("/compare?a=x&b=y");
  });
});

describe("comparePageTitle", () => {
  it("names the runs, the first run, or the phase", () => {
    expect(comparePageTitle({ kind: "comparison", comparison: comparison() })).toBe("Compare sys-one and sys-two");
    const second: ComparePage = { kind: "second", error: null, first: { id: "r", systemName: "mine", team: "T", phase: { id: "p", name: "test" } }, comparable: [] };
    expect(comparePageTitle(second)).toBe("Compare mine with another run");
    const runs: ComparePage = { kind: "runs", error: null, phase: { task: { slug: "t", title: "LitBank", primaryMetric: "conll" }, phase: { id: "p", name: "test" }, runs: [], truncated: false } };
    expect(comparePageTitle(runs)).toBe("Compare runs of LitBank: test");
    expect(comparePageTitle({ kind: "phases", error: null, phases: [] })).toBe("Compare runs");
  });
});
