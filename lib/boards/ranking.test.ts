import { describe, expect, it } from "vitest";
import { rankRuns, TIE_POLICY, type Run } from "./ranking";
import type { MetricsJson } from "./scores";

const t0 = Date.UTC(2025, 0, 1);
let seq = 0;

/** A run of `team` submitted `minutes` after t0 with the given CoNLL F1 (null: no conll row) and optional MUC F1. */
function run(team: string, minutes: number, conll: number | null, extra: { muc?: number; baseline?: boolean; id?: string } = {}): Run {
  const scores: MetricsJson = {};
  if (conll !== null) scores.conll = { f1: conll };
  if (extra.muc !== undefined) {
    scores.muc = { recall: extra.muc, precision: extra.muc, f1: extra.muc, recall_num: 1, recall_den: 1, precision_num: 1, precision_den: 1 };
  }
  return { submissionId: extra.id ?? `s${String(seq++).padStart(3, "0")}`, teamId: team, submittedAt: new Date(t0 + minutes * 60_000), isBaseline: extra.baseline ?? false, scores };
}

const summary = (rows: ReturnType<typeof rankRuns>) => rows.map((r) => [r.rank, r.teamId, r.value]);

describe("rankRuns", () => {
  it("ranks descending by the metric's F1 with competition ranking (1224)", () => {
    const runs = [run("a", 1, 0.5), run("b", 2, 0.7), run("c", 3, 0.7), run("d", 4, 0.6)];
    expect(summary(rankRuns(runs, "conll", "BEST", false))).toEqual([
      [1, "b", 0.7],
      [1, "c", 0.7],
      [3, "d", 0.6],
      [4, "a", 0.5],
    ]);
  });

  it("lists the earlier submission first among equal values, whatever the input order", () => {
    const late = run("late", 30, 0.8);
    const early = run("early", 10, 0.8);
    const middle = run("middle", 20, 0.8);
    const rows = rankRuns([late, early, middle], "conll", "BEST", false);
    expect(rows.map((r) => r.teamId)).toEqual(["early", "middle", "late"]);
    expect(rows.map((r) => r.rank)).toEqual([1, 1, 1]);
  });

  it("breaks a tie of value and time by submission id, so the order is total", () => {
    const b = run("x", 5, 0.4, { id: "bbb" });
    const a = run("y", 5, 0.4, { id: "aaa" });
    expect(rankRuns([b, a], "conll", "BEST", false).map((r) => r.submissionId)).toEqual(["aaa", "bbb"]);
  });

  it("treats values that differ in the last bit as different (ties are exact equality)", () => {
    const x = 0.1 + 0.2; // 0.30000000000000004
    const rows = rankRuns([run("a", 1, 0.3), run("b", 2, x)], "conll", "BEST", false);
    expect(summary(rows)).toEqual([
      [1, "b", x],
      [2, "a", 0.3],
    ]);
  });

  it("BEST keeps each team's highest run; on a tie within the team, the earlier one", () => {
    const a1 = run("a", 1, 0.6);
    const a2 = run("a", 2, 0.9);
    const a3 = run("a", 3, 0.9);
    const b1 = run("b", 4, 0.7);
    const rows = rankRuns([a3, a1, b1, a2], "conll", "BEST", false);
    expect(rows.map((r) => r.submissionId)).toEqual([a2.submissionId, b1.submissionId]);
    expect(rows.map((r) => r.rank)).toEqual([1, 2]);
  });

  it("LATEST keeps each team's most recent run even when an earlier one scored higher", () => {
    const a1 = run("a", 1, 0.9);
    const a2 = run("a", 5, 0.2);
    const b1 = run("b", 2, 0.5);
    const rows = rankRuns([a2, b1, a1], "conll", "LATEST", false);
    expect(rows.map((r) => r.submissionId)).toEqual([b1.submissionId, a2.submissionId]);
    expect(summary(rows)).toEqual([
      [1, "b", 0.5],
      [2, "a", 0.2],
    ]);
  });

  it("allRuns lists every run of every team, ranked together", () => {
    const runs = [run("a", 1, 0.6), run("a", 2, 0.9), run("b", 3, 0.6)];
    const rows = rankRuns(runs, "conll", "LATEST", true);
    expect(summary(rows)).toEqual([
      [1, "a", 0.9],
      [2, "a", 0.6],
      [2, "b", 0.6],
    ]);
  });

  it("ranks by the chosen metric, which can reorder the board", () => {
    const runs = [run("a", 1, 0.9, { muc: 0.1 }), run("b", 2, 0.5, { muc: 0.8 })];
    expect(rankRuns(runs, "conll", "BEST", false).map((r) => r.teamId)).toEqual(["a", "b"]);
    expect(summary(rankRuns(runs, "muc", "BEST", false))).toEqual([
      [1, "b", 0.8],
      [2, "a", 0.1],
    ]);
  });

  it("lists runs missing the metric last and unranked; BEST prefers a run that has it", () => {
    const a1 = run("a", 1, null);
    const a2 = run("a", 2, 0.3);
    const b1 = run("b", 3, null);
    const c1 = run("c", 4, 0.5);
    const rows = rankRuns([a1, a2, b1, c1], "conll", "BEST", false);
    expect(rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
      [c1.submissionId, 1, 0.5],
      [a2.submissionId, 2, 0.3],
      [b1.submissionId, null, null],
    ]);
  });

  it("under LATEST a latest run without the metric is listed unranked (not replaced by an older one)", () => {
    const a1 = run("a", 1, 0.9);
    const a2 = run("a", 2, null);
    const rows = rankRuns([a1, a2], "conll", "LATEST", false);
    expect(rows.map((r) => [r.submissionId, r.rank])).toEqual([[a2.submissionId, null]]);
  });

  it("lists every baseline in score order without a rank and without shifting participants' ranks", () => {
    const base1 = run("org", 1, 0.95, { baseline: true });
    const base2 = run("org", 2, 0.4, { baseline: true });
    const p1 = run("p", 3, 0.8);
    const q1 = run("q", 4, 0.8);
    const r1 = run("r", 5, 0.5);
    const rows = rankRuns([r1, base2, q1, base1, p1], "conll", "BEST", false);
    expect(rows.map((r) => [r.submissionId, r.rank, r.isBaseline])).toEqual([
      [base1.submissionId, null, true],
      [p1.submissionId, 1, false],
      [q1.submissionId, 1, false],
      [r1.submissionId, 3, false],
      [base2.submissionId, null, true],
    ]);
  });

  it("does not mutate its input and returns an empty board for no runs", () => {
    const runs = [run("a", 2, 0.1), run("b", 1, 0.2)];
    const copy = structuredClone(runs);
    rankRuns(runs, "conll", "BEST", false);
    expect(runs).toEqual(copy);
    expect(rankRuns([], "conll", "BEST", false)).toEqual([]);
  });

  describe("by a secondary variant", () => {
    /** `run` with a `partial` variant whose CoNLL F1 is `partial` (null: no partial scores stored). */
    const withPartial = (team: string, minutes: number, conll: number, partial: number | null, extra: { baseline?: boolean } = {}): Run => ({
      ...run(team, minutes, conll, extra),
      variants: partial === null ? { exact: { conll: { f1: 0.99 } } } : { partial: { conll: { f1: partial } }, exact: { conll: { f1: 0.99 } } },
    });

    it("orders runs by the variant's value, not the primary one, with the same tie policy", () => {
      const a = withPartial("a", 1, 0.9, 0.5);
      const b = withPartial("b", 2, 0.5, 0.7);
      const c = withPartial("c", 3, 0.7, 0.7);
      expect(rankRuns([a, b, c], "conll", "BEST", false).map((r) => r.teamId)).toEqual(["a", "c", "b"]);
      const rows = rankRuns([a, b, c], "conll", "BEST", false, "partial");
      expect(summary(rows)).toEqual([
        [1, "b", 0.7],
        [1, "c", 0.7],
        [3, "a", 0.5],
      ]);
      // The primary scores travel with the row unchanged.
      expect(rows[0].scores).toEqual({ conll: { f1: 0.5 } });
    });

    it("BEST picks each team's best run by the variant", () => {
      const a1 = withPartial("a", 1, 0.9, 0.2);
      const a2 = withPartial("a", 2, 0.3, 0.6);
      const b1 = withPartial("b", 3, 0.8, 0.4);
      expect(rankRuns([a1, a2, b1], "conll", "BEST", false).map((r) => r.submissionId)).toEqual([a1.submissionId, b1.submissionId]);
      expect(rankRuns([a1, a2, b1], "conll", "BEST", false, "partial").map((r) => [r.submissionId, r.rank, r.value])).toEqual([
        [a2.submissionId, 1, 0.6],
        [b1.submissionId, 2, 0.4],
      ]);
    });

    it("lists runs without the variant's scores last and unranked, and a team's run with them is preferred", () => {
      const a1 = withPartial("a", 1, 0.9, null);
      const a2 = withPartial("a", 2, 0.1, 0.3);
      const b1 = withPartial("b", 3, 0.9, null);
      const c1 = run("c", 4, 0.9); // no variants at all
      const base = withPartial("org", 0, 0.5, 0.95, { baseline: true });
      const rows = rankRuns([a1, a2, b1, c1, base], "conll", "BEST", false, "partial");
      expect(rows.map((r) => [r.submissionId, r.rank, r.value])).toEqual([
        [base.submissionId, null, 0.95],
        [a2.submissionId, 1, 0.3],
        [b1.submissionId, null, null],
        [c1.submissionId, null, null],
      ]);
    });

    it("ranks by another metric of the variant", () => {
      const mucOf = (f1: number) => ({ recall: f1, precision: f1, f1, recall_num: 1, recall_den: 1, precision_num: 1, precision_den: 1 });
      const a = { ...run("a", 1, 0.9), variants: { partial: { conll: { f1: 0.9 }, muc: mucOf(0.1) } } };
      const b = { ...run("b", 2, 0.5), variants: { partial: { conll: { f1: 0.5 }, muc: mucOf(0.8) } } };
      expect(summary(rankRuns([a, b], "muc", "BEST", false, "partial"))).toEqual([
        [1, "b", 0.8],
        [2, "a", 0.1],
      ]);
    });
  });

  it("states the tie policy in one sentence", () => {
    expect(TIE_POLICY).toMatch(/share a rank/);
    expect(TIE_POLICY).toMatch(/1, 2, 2, 4/);
    expect(TIE_POLICY).toMatch(/earlier submission is listed first/);
  });
});

describe("rankRuns by one dataset", () => {
  /** A run whose macro CoNLL F1 is `macro` and whose en/cs scores are given (null: left out). */
  function multi(team: string, minutes: number, macro: number, en: number | null, cs: number | null, partialEn?: number): Run {
    const base = run(team, minutes, macro);
    const on = (v: number | null) => ({ missing: v === null, scores: v === null ? {} : { conll: { f1: v } } });
    return {
      ...base,
      datasets: { en: { ...on(en), ...(partialEn !== undefined ? { variants: { partial: { conll: { f1: partialEn } } } } : {}) }, cs: on(cs) },
    };
  }

  it("ranks by the dataset's value; a run that left the dataset out counts 0 there; BEST selects on the dataset", () => {
    const a1 = multi("a", 1, 0.8, 0.9, 0.7);
    const a2 = multi("a", 2, 0.5, 0.95, 0.05);
    const b = multi("b", 3, 0.7, 0.6, 0.8);
    const c = multi("c", 4, 0.45, null, 0.9);
    expect(summary(rankRuns([a1, a2, b, c], "conll", "BEST", false))).toEqual([
      [1, "a", 0.8],
      [2, "b", 0.7],
      [3, "c", 0.45],
    ]);
    const en = rankRuns([a1, a2, b, c], "conll", "BEST", false, { dataset: "en" });
    expect(en.map((r) => [r.rank, r.submissionId, r.value])).toEqual([
      [1, a2.submissionId, 0.95],
      [2, b.submissionId, 0.6],
      [3, c.submissionId, 0],
    ]);
    expect(summary(rankRuns([a1, a2, b, c], "conll", "BEST", false, { dataset: "cs" }))).toEqual([
      [1, "c", 0.9],
      [2, "b", 0.8],
      [3, "a", 0.7],
    ]);
  });

  it("combines with a variant; a run without an entry for the dataset has no value", () => {
    const a = multi("a", 1, 0.8, 0.9, 0.7, 0.3);
    const b = multi("b", 2, 0.7, 0.6, 0.8, 0.4);
    const old = run("c", 3, 0.9);
    expect(summary(rankRuns([a, b, old], "conll", "BEST", false, { dataset: "en", variant: "partial" }))).toEqual([
      [1, "b", 0.4],
      [2, "a", 0.3],
      [null, "c", null],
    ]);
    // A missing dataset is 0 in every setting and metric.
    const gone = multi("d", 4, 0.1, null, 0.2);
    expect(rankRuns([gone], "muc", "BEST", false, { dataset: "en", variant: "partial" })[0].value).toBe(0);
  });
});

describe("rankRuns with TEAM_SELECTED", () => {
  const marked = (r: Run): Run => ({ ...r, finalSelected: true });

  it("a team is represented by the best of its final runs, even when an unmarked run scores higher", () => {
    const aBest = run("a", 1, 0.9);
    const aFinal1 = marked(run("a", 2, 0.6));
    const aFinal2 = marked(run("a", 3, 0.7));
    const b = marked(run("b", 4, 0.65));
    const rows = rankRuns([aBest, aFinal1, aFinal2, b], "conll", "TEAM_SELECTED", false);
    expect(rows.map((r) => [r.submissionId, r.rank, r.selection])).toEqual([
      [aFinal2.submissionId, 1, "final"],
      [b.submissionId, 2, "final"],
    ]);
  });

  it("a team that marked none is represented by its latest run, flagged latest-fallback; baselines carry no selection", () => {
    const early = run("a", 1, 0.9);
    const latest = run("a", 5, 0.2);
    const base = run("org", 0, 0.5, { baseline: true });
    const rows = rankRuns([early, latest, base], "conll", "TEAM_SELECTED", false);
    expect(rows.map((r) => [r.submissionId, r.rank, r.selection])).toEqual([
      [base.submissionId, null, null],
      [latest.submissionId, 1, "latest-fallback"],
    ]);
  });

  it("allRuns lists every run without a selection; BEST and LATEST rows have selection null", () => {
    const runs = [marked(run("a", 1, 0.4)), run("a", 2, 0.8)];
    expect(rankRuns(runs, "conll", "TEAM_SELECTED", true).map((r) => [r.value, r.selection])).toEqual([
      [0.8, null],
      [0.4, null],
    ]);
    expect(rankRuns(runs, "conll", "BEST", false).map((r) => [r.value, r.selection])).toEqual([[0.8, null]]);
    expect(rankRuns(runs, "conll", "LATEST", false).map((r) => [r.value, r.selection])).toEqual([[0.8, null]]);
  });

  it("among final runs, ties go to the earlier submission and a run with a value beats one without", () => {
    const none = marked(run("a", 1, null));
    const tieLate = marked(run("a", 3, 0.5));
    const tieEarly = marked(run("a", 2, 0.5));
    const rows = rankRuns([none, tieLate, tieEarly], "conll", "TEAM_SELECTED", false);
    expect(rows.map((r) => r.submissionId)).toEqual([tieEarly.submissionId]);
  });
});
