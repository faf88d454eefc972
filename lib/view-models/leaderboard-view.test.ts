import { describe, expect, it } from "vitest";
import type { StoredBoardSignificance } from "../services/board-significance";
import type { BoardMetricsJson, Leaderboard, LeaderboardRow } from "../services/leaderboard";
import { leaderboardPageQuerySchema, parseLeaderboardPageQuery, type ParsedLeaderboardPageQuery } from "../validations/leaderboard-query";
import { parseInput } from "../validations/parse";
import { ValidationError } from "../errors";
import { leaderboardHref } from "../hrefs";
import {
  boardChartRuns,
  boardLinkState,
  boardNotices,
  boardTableColumns,
  hiddenFields,
  leaderboardTitle,
  leaderboardView,
  pagerStates,
  pageSummary,
  rankingPhrase,
  requestedLinkState,
  sortState,
  type BoardColumn,
} from "./leaderboard-view";

/** A count score with F1 `f` (recall and precision equal to it). */
const score = (f: number) => ({ recall: f, precision: f, f1: f, recall_num: f * 10, recall_den: 10, precision_num: f * 10, precision_den: 10 });

/** Scores of the standard metrics, each `f` (CoNLL too). */
function scores(f: number, extra: BoardMetricsJson = {}): BoardMetricsJson {
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

function row(i: number, over: Partial<LeaderboardRow> = {}): LeaderboardRow {
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

function board(over: Partial<Leaderboard> = {}): Leaderboard {
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

/** The board as the service pages it: after `cursor`, among the teams matching `team`. */
const paged = (b: Leaderboard, page: { cursor?: string; team?: string }): Leaderboard => ({ ...b, page: { ...b.page, cursor: page.cursor ?? null, team: page.team ?? null } });
const parsed = (query: Record<string, string> = {}): ParsedLeaderboardPageQuery => parseLeaderboardPageQuery(query);
const READY: StoredBoardSignificance = {
  status: "ready",
  computedAt: new Date(0),
  significance: { metric: "conll", samples: 1000, seed: 1, level: 0.05, rows: { s1: { versusAbove: { submissionId: "s0", delta: 0.01, pValue: 0.3, significant: false }, interval: { lo: 0.8, hi: 0.9 } } } },
};
const params = (href: string) => new URL(href, "http://h").searchParams;
const kinds = (columns: BoardColumn[]) => columns.map((c) => (c.kind === "metric" || c.kind === "variant" ? `${c.kind}:${c.metric}` : c.kind === "dataset" ? `dataset:${c.dataset.name}` : c.kind));

describe("leaderboardPageQuerySchema", () => {
  it("reads switches with the 1/true/yes rule, trims, and treats empty as absent", () => {
    const q = parseInput(leaderboardPageQuerySchema, { rp: "TRUE", ci: " yes ", all: "0", team: "  Alpha ", cursor: "", metric: " muc " });
    expect(q).toMatchObject({ rp: true, ci: true, allRuns: false, team: "Alpha", cursor: null, metric: "muc", format: "json", limit: null });
  });

  it("takes allRuns as all, and intervals implies significance", () => {
    expect(parseInput(leaderboardPageQuerySchema, { allRuns: "1" }).allRuns).toBe(true);
    expect(parseInput(leaderboardPageQuerySchema, { intervals: "1" })).toMatchObject({ significance: true, intervals: true });
    expect(parseInput(leaderboardPageQuerySchema, {})).toMatchObject({ significance: false, intervals: false, metric: null });
  });

  it("refuses a bad metric, format or limit with a 422 naming the parameter (the API's way)", () => {
    for (const [name, value] of [
      ["metric", "nope"],
      ["format", "xml"],
      ["limit", "0"],
      ["limit", "501"],
      ["limit", "ten"],
    ]) {
      let error: unknown;
      try {
        parseInput(leaderboardPageQuerySchema, { [name]: value });
      } catch (e) {
        error = e;
      }
      expect(error, `${name}=${value}`).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fieldErrors.map((f) => f.path)).toEqual([name]);
    }
    expect(parseInput(leaderboardPageQuerySchema, { limit: "25", format: "csv" })).toMatchObject({ limit: 25, format: "csv" });
  });

  it("the page's parse never throws: a bad value falls back to its default and is reported with its value", () => {
    const { query, invalid } = parseLeaderboardPageQuery({ metric: ["nope", "muc"], team: "x".repeat(101), rp: "1" });
    expect(query.metric).toBeNull();
    expect(query.team).toBeNull();
    expect(query.rp).toBe(true);
    expect(invalid.metric?.value).toBe("nope");
    expect(invalid.team?.message).toMatch(/at most 100/);
    expect(parseLeaderboardPageQuery(undefined).invalid).toEqual({});
  });
});

describe("boardTableColumns", () => {
  it("puts the ranking metric right after the fixed columns, then the other metrics, the submission time last", () => {
    const columns = boardTableColumns({ rows: [row(0)], metric: "lea", showRp: false });
    expect(kinds(columns)).toEqual(["metric:lea", "metric:muc", "metric:bcub", "metric:ceafm", "metric:ceafe", "metric:blanc", "metric:conll", "submitted"]);
    expect(columns[0]).toMatchObject({ ranked: true, ariaSort: "descending", label: "LEA F1 (%)" });
    expect(columns.slice(1).every((c) => !c.ranked && c.ariaSort === undefined)).toBe(true);
  });

  it("puts the 95 % intervals next to the ranking column when shown", () => {
    expect(kinds(boardTableColumns({ rows: [row(0)], metric: "conll", showRp: false, intervals: true })).slice(0, 3)).toEqual(["metric:conll", "interval", "metric:muc"]);
  });

  it("gives R, P and F1 on demand (never for CoNLL), with (%) in each header", () => {
    const columns = boardTableColumns({ rows: [row(0)], metric: "muc", showRp: true });
    const muc = columns[0];
    expect(muc.kind === "metric" && muc.parts).toEqual(["recall", "precision", "f1"]);
    expect(muc.kind === "metric" && muc.label).toBe("MUC (%)");
    const conll = columns.find((c) => c.kind === "metric" && c.metric === "conll")!;
    expect(conll.kind === "metric" && conll.parts).toEqual(["f1"]);
    expect(conll.kind === "metric" && conll.label).toBe("CoNLL F1 (%)");
  });

  it("adds optional metrics some row has, and Mentions only when ranking by it", () => {
    const withMor = [row(0, { scores: scores(0.5, { mor: score(0.4) }) })];
    expect(kinds(boardTableColumns({ rows: withMor, metric: "conll", showRp: false }))).toContain("metric:mor");
    expect(kinds(boardTableColumns({ rows: [row(0)], metric: "conll", showRp: false }))).not.toContain("metric:mentions");
    expect(kinds(boardTableColumns({ rows: [row(0)], metric: "mentions", showRp: false }))[0]).toBe("metric:mentions");
  });

  it("a variant ranking the board puts its column first; its CoNLL column precedes it among the variants", () => {
    const variants = [
      { id: "partial", label: "Partial match" },
      { id: "exact", label: "Exact match" },
    ];
    const columns = boardTableColumns({ rows: [row(0)], metric: "muc", showRp: false, variants, rankedVariant: "partial" });
    expect(columns[0]).toMatchObject({ kind: "variant", metric: "muc", ranked: true, variant: { id: "partial" } });
    expect(columns.filter((c) => c.ranked)).toHaveLength(1);
    expect(kinds(columns).slice(-4)).toEqual(["metric:conll", "variant:conll", "variant:conll", "submitted"]);
  });

  it("a dataset ranking the board by CoNLL ranks by its column; by another metric it adds the ranked value first", () => {
    const datasets = [
      { name: "a", scored: true },
      { name: "b", scored: false },
    ];
    const byConll = boardTableColumns({ rows: [row(0)], metric: "conll", showRp: false, datasets, rankDataset: "b" });
    expect(kinds(byConll)[0]).toBe("dataset:b");
    expect(byConll.filter((c) => c.ranked)).toHaveLength(1);
    const byMuc = boardTableColumns({ rows: [row(0)], metric: "muc", showRp: false, datasets, rankDataset: "b" });
    expect(byMuc[0]).toMatchObject({ kind: "ranked-value", dataset: "b", label: "MUC F1 (%)", ariaSort: "descending" });
    expect(byMuc.filter((c) => c.ranked)).toHaveLength(1);
  });

  it("headers link to the board ranked by their column (not the ranking column, nor one that cannot rank)", () => {
    const targets: unknown[] = [];
    const columns = boardTableColumns({
      rows: [row(0)],
      metric: "conll",
      showRp: false,
      variants: [{ id: "partial", label: "Partial match" }],
      datasets: [{ name: "a", scored: true }],
      intervals: true,
      sortHref: (t) => {
        targets.push(t);
        return `#${t.metric}-${t.variant}-${t.rankDataset}`;
      },
    });
    expect(columns[0].sortHref).toBeNull();
    expect(columns.find((c) => c.kind === "interval")!.sortHref).toBeNull();
    expect(columns.find((c) => c.kind === "submitted")!.sortHref).toBeNull();
    expect(columns.find((c) => c.kind === "metric" && c.metric === "muc")!.sortHref).toBe("#muc-null-null");
    expect(columns.find((c) => c.kind === "variant")!.sortHref).toBe("#conll-partial-null");
    expect(columns.find((c) => c.kind === "dataset")!.sortHref).toBe("#conll-null-a");
    // Without a sortHref (a published final board), no header sorts.
    expect(boardTableColumns({ rows: [row(0)], metric: "conll", showRp: false }).every((c) => c.sortHref === null)).toBe(true);
  });
});

describe("links", () => {
  const b = board({ track: { id: "tr1", name: "Open", description: "" }, tracks: [{ id: "tr1", name: "Open", description: "" }] });

  it("the board's state keeps the track always, the metric only when the address named it", () => {
    expect(boardLinkState(b, parsed().query)).toMatchObject({ metric: null, track: "tr1", all: false, cursor: null, team: null });
    // The filter and the cursor are those the service applied (a refused one is not kept).
    expect(boardLinkState(paged(b, { cursor: "c9", team: "x" }), parsed({ metric: "muc", rp: "1", cursor: "c9", team: "x" }).query)).toMatchObject({ metric: "muc", rp: true, cursor: "c9", team: "x" });
    expect(boardLinkState(b, parsed({ cursor: "c9", team: "x" }).query)).toMatchObject({ cursor: null, team: null });
  });

  it("the sign-in link comes back to the address as asked", () => {
    const { query } = parsed({ metric: "muc", variant: "x", allRuns: "yes", team: "t", cursor: "c", format: "csv" });
    expect(leaderboardHref("lit", "p1", requestedLinkState(query))).toBe("/tasks/lit/phases/p1/leaderboard?metric=muc&variant=x&all=1&team=t&cursor=c");
  });

  it("sorting drops the cursor (page 1) and the variant and ranking dataset of the old ranking, keeping the rest", () => {
    const state = { metric: "conll" as const, variant: "partial", track: "tr1", dataset: "ds", rankDataset: "r", all: true, rp: true, ci: true, team: "alp", cursor: "c50" };
    expect(sortState(state, { metric: "muc", variant: null, rankDataset: null })).toEqual({ ...state, metric: "muc", variant: null, rankDataset: null, cursor: null });
  });

  it("the sort links of the page's columns keep the filter and display switches and drop the cursor", () => {
    // `all` comes from the board (what the service applied), the display switches from the address.
    const view = leaderboardView(paged({ ...b, allRuns: true }, { team: "Team", cursor: "c50" }), parsed({ rp: "1", ci: "1", all: "1", team: "Team", cursor: "c50" }), {}, READY);
    const muc = view.columns.find((c) => c.kind === "metric" && c.metric === "muc")!;
    const q = params(muc.sortHref!);
    expect(q.get("metric")).toBe("muc");
    expect(q.get("cursor")).toBeNull();
    expect([q.get("track"), q.get("all"), q.get("rp"), q.get("ci"), q.get("team")]).toEqual(["tr1", "1", "1", "1", "Team"]);
    expect(view.columns[0]).toMatchObject({ kind: "metric", metric: "conll", ariaSort: "descending", sortHref: null });
  });

  it("display toggles keep the page; switching runs or tracks starts at page 1", () => {
    const view = leaderboardView(paged(b, { cursor: "c50" }), parsed({ cursor: "c50" }), {}, READY);
    expect(params(view.controls.rp.href).get("cursor")).toBe("c50");
    expect(params(view.controls.rp.href).get("rp")).toBe("1");
    expect(params(view.controls.ci!.href).get("cursor")).toBe("c50");
    expect(params(view.controls.runs[1].href).get("cursor")).toBeNull();
    expect(params(view.controls.runs[1].href).get("all")).toBe("1");
    expect(params(view.controls.tracks![0].href).get("cursor")).toBeNull();
  });

  it("JSON and CSV links name the board's metric and the team filter, and no cursor", () => {
    const view = leaderboardView(paged(board(), { team: "A b", cursor: "c" }), parsed({ team: "A b", cursor: "c" }), {}, READY);
    expect(view.controls.json).toBe("/api/v1/phases/p1/leaderboard?metric=conll&team=A+b");
    expect(view.controls.csv).toBe("/api/v1/phases/p1/leaderboard?metric=conll&team=A+b&format=csv");
  });

  it("the forms keep the state in hidden fields, without their own fields and the cursor", () => {
    const state = { metric: "muc" as const, variant: "v", track: "t", all: true, rp: true, team: "x", cursor: "c" };
    expect(hiddenFields(state, ["team"])).toEqual([
      { name: "metric", value: "muc" },
      { name: "variant", value: "v" },
      { name: "track", value: "t" },
      { name: "all", value: "1" },
      { name: "rp", value: "1" },
    ]);
    expect(hiddenFields(state, ["metric", "variant", "rankDataset"]).map((f) => f.name)).toEqual(["track", "all", "rp", "team"]);
  });
});

describe("paging", () => {
  it("says which rows are shown, with thousands separated", () => {
    expect(pageSummary({ total: 1000, offset: 50 }, 50)).toBe("Rows 51–100 of 1,000");
    expect(pageSummary({ total: 3, offset: 0 }, 3)).toBe("Rows 1–3 of 3");
    expect(pageSummary({ total: 1234, offset: 1200 }, 34)).toBe("Rows 1,201–1,234 of 1,234");
    expect(pageSummary({ total: 0, offset: 0 }, 0)).toBe("No rows");
    expect(pageSummary({ total: 60, offset: 100 }, 0)).toBe("No rows on this page (60 in all)");
  });

  it("links the next page after the next cursor, and the first page once past it", () => {
    const state = { metric: "muc" as const, team: "x", cursor: "c50" };
    expect(pagerStates(state, { cursor: "c50", nextCursor: "c100" })).toEqual({ next: { ...state, cursor: "c100" }, first: { ...state, cursor: null } });
    expect(pagerStates({}, { cursor: null, nextCursor: null })).toEqual({ next: null, first: null });
  });

  it("the page's pager writes those links and the summary of the board's page", () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(50 + i));
    const b = board({ rows, page: { total: 120, offset: 50, limit: 50, cursor: "c50", nextCursor: "c100", team: null, version: "v1" } });
    const { pager } = leaderboardView(b, parsed({ cursor: "c50" }), {}, READY);
    expect(pager.summary).toBe("Rows 51–100 of 120");
    expect(params(pager.next!).get("cursor")).toBe("c100");
    expect(pager.first).toBe("/tasks/lit/phases/p1/leaderboard");
    expect(pager.clear).toBeNull();
  });

  it("a team filter that matches nothing says so (not that the board is empty), and can be cleared", () => {
    const b = board({ rows: [], page: { total: 0, offset: 0, limit: 50, cursor: null, nextCursor: null, team: "zzz", version: "v1" } });
    const view = leaderboardView(b, parsed({ team: "zzz" }), {}, READY);
    expect(view.noMatch).toContain("“zzz”");
    expect(view.empty).toBeNull();
    expect(view.pager.clear).toBe("/tasks/lit/phases/p1/leaderboard");
    const empty = leaderboardView(board({ rows: [] }), parsed(), {}, READY);
    expect(empty.empty).toBe("No scored runs yet in this phase.");
    expect(empty.noMatch).toBeNull();
  });
});

describe("significance", () => {
  it("ready: markers for the table; intervals column only when computed", () => {
    const view = leaderboardView(board(), parsed({ ci: "1" }), {}, READY);
    expect(view.tableSignificance).toBe((READY as Extract<StoredBoardSignificance, { status: "ready" }>).significance);
    expect(kinds(view.columns)[1]).toBe("interval");
    expect(view.controls.ci?.label).toBe("Hide 95 % intervals");
  });

  it("pending: no markers, no intervals column, the toggle stays", () => {
    const view = leaderboardView(board(), parsed({ ci: "1" }), {}, { status: "pending" });
    expect(view.significance.status).toBe("pending");
    expect(view.tableSignificance).toBeNull();
    expect(kinds(view.columns)).not.toContain("interval");
    expect(view.controls.ci).not.toBeNull();
  });

  it("none: the reason, no toggle, and for a variant board a link to the primary setting", () => {
    const variantBoard = board({ variant: "partial", evaluation: { profile: "crac", label: "CRAC", variants: [{ id: "partial", label: "Partial match" }] } });
    const view = leaderboardView(paged(variantBoard, { cursor: "c" }), parsed({ variant: "partial", cursor: "c" }), {}, { status: "none", reason: "Stored for the primary setting only." });
    expect(view.significance).toEqual({ status: "none", reason: "Stored for the primary setting only.", primarySettingHref: "/tasks/lit/phases/p1/leaderboard" });
    expect(view.controls.ci).toBeNull();
  });
});

describe("texts", () => {
  it("names the page and the ranking", () => {
    expect(leaderboardTitle("test", "LitBank")).toBe("Leaderboard · test phase · LitBank");
    expect(rankingPhrase("conll", null)).toBe("CoNLL F1");
    expect(rankingPhrase("muc", "Partial match")).toBe("MUC F1, partial match");
    expect(rankingPhrase("muc", "primary")).toBe("MUC F1, primary setting");
  });

  it("reports bad parameters with what is shown instead", () => {
    const b = board({ track: { id: "t1", name: "Open", description: "" }, tracks: [{ id: "t1", name: "Open", description: "" }, { id: "t2", name: "Closed", description: "" }] });
    const notices = boardNotices(b, parsed({ metric: "nope", track: "LLM" }), { track: "No track LLM." });
    expect(notices[0]).toMatch(/^“nope” is not a metric\. Choose one of: .*MUC.*\. Showing the default ranking\.$/);
    expect(notices[1]).toBe("“LLM” is not a track of this phase: choose one of Open and Closed. Showing the Open track.");
    expect(boardNotices(board(), parsed(), { cursor: "bad" })).toEqual(["This page link is out of date or not valid. Showing the first page."]);
    expect(boardNotices(board(), parsed({ format: "xml" }), {})).toEqual([]);
  });

  it("charts the page's ranked runs in rank order, without disqualified, hidden or unscored ones", () => {
    const rows = [row(0), row(1, { disqualified: { reason: "x", at: new Date(0) }, rank: null }), row(2, { hidden: true, rank: null }), row(3, { value: null, rank: null }), row(4, { isBaseline: true, rank: null })];
    const runs = boardChartRuns(board({ rows, metric: "muc" }));
    expect(runs.map((r) => r.id)).toEqual(["s0", "s4"]);
    expect(runs[1].label).toBe("Team 4 · sys-4 (baseline)");
    expect(runs[0].primary).toEqual({ recall: 0.9, precision: 0.9 });
    expect(runs[0].metrics.map((m) => m.metric)).toEqual(["muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll"]);
  });
});
