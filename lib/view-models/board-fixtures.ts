/**
 * Leaderboards for tests of the views and the table, without a database: rows with every
 * standard metric, a one-dataset board around them, and the macro-averaged board of a
 * CRAC-style phase. Test code only.
 */
import type { BoardMetricsJson, Leaderboard, LeaderboardRow } from "../boards";

/** A count score with F1 `f` (recall and precision equal to it). */
export const score = (f: number) => ({ recall: f, precision: f, f1: f, recall_num: f * 10, recall_den: 10, precision_num: f * 10, precision_den: 10 });

/** Scores of the standard metrics, each `f` (CoNLL too). */
export function scores(f: number, extra: BoardMetricsJson = {}): BoardMetricsJson {
  return {
    mentions: score(f),
    muc: score(f),
    bcub: score(f),
    ceafm: score(f),
    ceafe: score(f),
    lea: score(f),
    blanc: { recall: f, precision: f, f1: f },
    conll: { f1: f },
    ...extra,
  };
}

/** Row `i` of a board: rank i + 1, team and run named by `i`, every metric at 0.9 - i / 100; `over` replaces fields. */
export function row(i: number, over: Partial<LeaderboardRow> = {}): LeaderboardRow {
  return {
    rank: i + 1,
    value: 0.9 - i / 100,
    team: { id: `team-${i}`, name: `Team ${i}` },
    systemName: `sys-${i}`,
    submissionId: `s${i}`,
    submittedAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
    isBaseline: false,
    track: null,
    paperUrl: null,
    codeUrl: null,
    goldVersion: 1,
    scorerVersion: "1",
    scores: scores(0.9 - i / 100),
    variants: {},
    missing: false,
    datasets: {},
    disqualified: null,
    selection: null,
    own: false,
    ...over,
  };
}

/** A published one-dataset board ("main") of the phase "test" of task "lit", live timing, rows 0-2 unless given; `over` replaces fields. */
export function board(over: Partial<Leaderboard> = {}): Leaderboard {
  const rows = over.rows ?? [row(0), row(1), row(2)];
  return {
    task: { id: "t", slug: "lit", title: "LitBank", primaryMetric: "conll" },
    phase: { id: "p1", name: "test", displayTimeZone: "UTC", selectionRule: "BEST" },
    evaluation: { profile: "conll2012", label: "CoNLL-2012", variants: [] },
    metric: "conll",
    variant: null,
    tracks: [],
    track: null,
    datasets: [{ id: "d", name: "main", language: "en", scored: true }],
    dataset: null,
    rankDataset: null,
    allRuns: false,
    tiePolicy: "Ties share a rank.",
    policy: { timing: "live", closesAt: new Date(0), frozenAt: null, finalRunLimit: 2, ownTeamOnly: false, freezeApplied: false, organizerView: false, final: false },
    rows,
    page: { total: rows.length, offset: 0, limit: 50, cursor: null, nextCursor: null, team: null, version: "v1" },
    generatedAt: new Date(0),
    ...over,
  };
}

/** A macro-averaged board of a CRAC-style phase: datasets named `en_gum_<genre>` (or as given), each row's CoNLL F1 per dataset. */
export function macroBoard(perDataset: Record<string, number[]>, over: Partial<Leaderboard> = {}): Leaderboard {
  const names = Object.keys(perDataset);
  const rows = (over.rows ?? [row(0), row(1), row(2)]).map((r, i) => ({
    ...r,
    goldVersion: null,
    datasets: Object.fromEntries(names.map((n) => [n, { missing: false, goldVersion: 1, conllF1: perDataset[n][i] ?? null }])),
  }));
  return board({
    evaluation: { profile: "crac", label: "CRAC (CorefUD scorer: head match, singletons excluded, dependent zeros)", variants: [{ id: "partial", label: "Partial match" }] },
    datasets: names.map((name, i) => ({ id: `d${i}`, name, language: name.split("_")[0], scored: true })),
    ...over,
    rows,
  });
}
