import { describe, expect, it } from "vitest";
import type { StoredBoardSignificance } from "../boards/board-significance";
import type { BoardMetricsJson } from "../boards/scores";
import type { Leaderboard, LeaderboardRow } from "../boards/types";
import { leaderboardPageQuerySchema, parseLeaderboardPageQuery, type ParsedLeaderboardPageQuery } from "../validations/leaderboard-query";
import { parseInput } from "../validations/parse";
import { ValidationError } from "../errors";
import { leaderboardHref } from "../hrefs";
import { leaderboardView } from "./leaderboard-view";
import { boardHeadline, boardNotices, goldHasZeros, headlineText, leaderboardTitle, NO_ZEROS, pageSummary, rankingPhrase } from "./leaderboard-text";
import { boardColumnSet, boardTableColumns, cellKey, columnBests, groupDatasets, heatLevel, shortDatasetNames, type BoardColumn } from "./board-columns";
import { boardLinkState, hiddenFields, pagerStates, requestedLinkState, sortState } from "./board-links";
import { boardChartRuns } from "./board-charts";
import { board, macroBoard, row, score, scores } from "./board-fixtures";

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
    expect(params(view.controls.rp!.href).get("cursor")).toBe("c50");
    expect(params(view.controls.rp!.href).get("rp")).toBe("1");
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

/** Significance being computed: no intervals column. */
const PENDING: StoredBoardSignificance = { status: "pending" };

const GUM = {
  en_gum_academic: [0.5, 0.6, 0.6],
  en_gum_bio: [0.7, 0.4, 0],
  en_gum_court: [0.3, 0.2, 0.1],
  en_gum_interview: [0.5, 0.5, 0.5],
  en_gum_news: [0, 0, 0],
  en_gum_voyage: [0.2, 0.1, 0.9],
};

describe("the macro-averaged board of a phase with several datasets", () => {
  it("is compact by default: rank, team, system, the macro CoNLL F1, then one column per dataset; ?columns=all brings every metric back", () => {
    const b = macroBoard(GUM);
    const compact = leaderboardView(b, parsed(), {}, PENDING);
    expect(compact.columnSet).toBe("compact");
    expect(kinds(compact.columns)).toEqual(["metric:conll", ...Object.keys(GUM).map((n) => `dataset:${n}`)]);
    expect(compact.columns[0]).toMatchObject({ ranked: true, over: "Macro-average", label: "CoNLL F1 (%)" });
    const all = leaderboardView(b, parsed(), {}, READY, { columns: "all" });
    expect(all.columnSet).toBe("all");
    expect(kinds(all.columns)).toEqual(expect.arrayContaining(["metric:muc", "variant:conll", "submitted", "dataset:en_gum_bio"]));
    // Neither a one-dataset board nor a dataset's own board has the switch.
    expect(boardColumnSet(board(), "all")).toBeNull();
    expect(boardColumnSet({ ...b, dataset: b.datasets[0] }, null)).toBeNull();
    expect(leaderboardView(board(), parsed(), {}, READY).controls.columns).toBeNull();
  });

  it("ranked by another metric or a dataset, the ranking column comes first and the compact set follows", () => {
    const byMuc = leaderboardView(macroBoard(GUM, { metric: "muc" }), parsed({ metric: "muc" }), {}, PENDING);
    expect(kinds(byMuc.columns).slice(0, 3)).toEqual(["metric:muc", "metric:conll", "dataset:en_gum_academic"]);
    expect(byMuc.columns[0]).toMatchObject({ over: "Macro-average", ranked: true });
    const byBio = leaderboardView(macroBoard(GUM, { rankDataset: "en_gum_bio" }), parsed({ rankDataset: "en_gum_bio" }), {}, PENDING);
    expect(kinds(byBio.columns).slice(0, 3)).toEqual(["dataset:en_gum_bio", "metric:conll", "dataset:en_gum_academic"]);
    // The ranking dataset stands first under its full name, outside the groups.
    expect(byBio.columns[0]).toMatchObject({ ranked: true, group: null, short: "en_gum_bio" });
  });

  it("on a variant's board, the dataset columns, the compact macro column, the legend and the heatmap are that variant's", () => {
    const b = macroBoard(GUM, { variant: "partial" });
    const view = leaderboardView(b, parsed({ variant: "partial" }), {}, PENDING);
    // The variant's macro CoNLL F1 ranks; the primary macro CoNLL F1 is behind "All metrics".
    expect(kinds(view.columns)).toEqual(["variant:conll", ...Object.keys(GUM).map((n) => `dataset:${n}`)]);
    const bio = view.columns.find((c) => c.kind === "dataset" && c.dataset.name === "en_gum_bio")!;
    expect(bio).toMatchObject({ setting: "Partial match", label: "CoNLL F1, partial match (%)" });
    // Ranking by a dataset's column keeps the setting.
    expect(params(bio.sortHref!).get("variant")).toBe("partial");
    expect(params(bio.sortHref!).get("rankDataset")).toBe("en_gum_bio");
    expect(view.legend).toContain("Dataset columns: CoNLL F1 (%), partial match,");
    expect(view.charts.heatmapSetting).toBe("partial match");
    expect(view.charts.settingNote).toBe("The charts show the partial match setting, by which the board is ranked.");
    // Ranked by one dataset in the variant: that dataset's column is the ranked one (no extra column).
    const byBio = leaderboardView(macroBoard(GUM, { variant: "partial", rankDataset: "en_gum_bio" }), parsed({ variant: "partial", rankDataset: "en_gum_bio" }), {}, PENDING);
    expect(kinds(byBio.columns).slice(0, 3)).toEqual(["dataset:en_gum_bio", "variant:conll", "dataset:en_gum_academic"]);
    expect(byBio.columns[0]).toMatchObject({ ranked: true, setting: "Partial match" });
    // The primary board's columns say nothing of a setting in their label, and the heatmap names the primary one.
    const primary = leaderboardView(macroBoard(GUM), parsed(), {}, PENDING);
    expect(primary.columns.find((c) => c.kind === "dataset")).toMatchObject({ setting: null, label: "CoNLL F1 (%)" });
    expect(primary.charts.heatmapSetting).toBe("primary setting");
    expect(primary.legend).toContain("Dataset columns: CoNLL F1 (%), shaded");
  });

  it("groups the datasets' columns by language, with the prefix each group shares taken off their names", () => {
    expect(shortDatasetNames(["en_gum_academic", "en_gum_bio"], "en")).toEqual(["academic", "bio"]);
    expect(shortDatasetNames(["cs_pcedt", "cs_pdt"], "cs")).toEqual(["pcedt", "pdt"]);
    expect(shortDatasetNames(["ca_ancora"], "ca")).toEqual(["ancora"]);
    expect(shortDatasetNames(["en_gum", "en_gum_x"], "en")).toEqual(["gum", "gum_x"]);
    expect(shortDatasetNames(["main", "other"], "")).toEqual(["main", "other"]);
    // CorefUD-like: languages interleaved in the phase's order; groups in order of first appearance.
    const groups = groupDatasets([
      { name: "cs_pdt", language: "cs" },
      { name: "en_gum", language: "en" },
      { name: "cs_pcedt", language: "cs" },
      { name: "de_potsdamcc", language: "de" },
    ]);
    expect(groups.map((g) => [g.group.label, g.datasets.map((d) => d.short)])).toEqual([
      ["cs", ["pdt", "pcedt"]],
      ["en", ["gum"]],
      ["de", ["potsdamcc"]],
    ]);
    expect(groups[0].group.title).toBe("Czech (cs)");
    // One language: one group that says what the columns hold.
    const one = groupDatasets([{ name: "en_gum_bio", language: "en" }, { name: "en_gum_news", language: "en" }]);
    expect(one.map((g) => g.group.label)).toEqual(["CoNLL F1 (%) per dataset"]);
    // The table's columns follow the groups, so each group's columns are side by side.
    const columns = boardTableColumns({ rows: [row(0)], metric: "conll", showRp: false, datasets: [{ name: "cs_pdt", scored: true, language: "cs" }, { name: "en_gum", scored: true, language: "en" }, { name: "cs_pcedt", scored: true, language: "cs" }], compact: true });
    expect(kinds(columns)).toEqual(["metric:conll", "dataset:cs_pdt", "dataset:cs_pcedt", "dataset:en_gum"]);
  });

  it("says in one line what is ranked", () => {
    const b = macroBoard(GUM);
    expect(headlineText(boardHeadline(b))).toBe("Macro-average CoNLL F1 over 6 datasets · CRAC primary setting · best run per team");
    expect(headlineText(leaderboardView(b, parsed(), {}, READY).headline)).toBe("Macro-average CoNLL F1 over 6 datasets · CRAC primary setting · best run per team");
    const unscored = { ...b, datasets: b.datasets.map((d, i) => ({ ...d, scored: i > 0 })) };
    expect(headlineText(boardHeadline({ ...unscored, variant: "partial", allRuns: true }))).toBe("Macro-average CoNLL F1 (partial match) over 5 datasets · CRAC secondary setting · all runs");
    const byBio = boardHeadline({ ...b, rankDataset: "en_gum_bio", track: { id: "t", name: "LLM", description: "" } });
    expect(headlineText(byBio)).toBe("CoNLL F1 on en_gum_bio alone · CRAC primary setting · best run per team · LLM track");
    expect(byBio.filter((x) => x.mark).map((x) => [x.mark, x.text])).toEqual([
      ["ranked", "CoNLL F1"],
      ["dataset", "en_gum_bio"],
    ]);
    expect(headlineText(boardHeadline({ ...b, dataset: b.datasets[1] }))).toBe("CoNLL F1 on the en_gum_bio dataset · CRAC primary setting · best run per team");
    // A one-dataset board without variants: the ranking and the runs.
    expect(headlineText(boardHeadline(board({ metric: "muc", phase: { id: "p1", name: "test", displayTimeZone: "UTC", selectionRule: "LATEST" } })))).toBe("MUC F1 · latest run per team");
  });

  it("keeps ?columns=all in every link and form, and offers the switch back without it", () => {
    const view = leaderboardView(paged(macroBoard(GUM), { cursor: "c50" }), parsed({ cursor: "c50" }), {}, READY, { columns: "all" });
    const muc = view.columns.find((c) => c.kind === "metric" && c.metric === "muc")!;
    expect(params(muc.sortHref!).get("columns")).toBe("all");
    expect(params(view.controls.runs[1].href).get("columns")).toBe("all");
    expect(view.controls.rankForm.hidden).toContainEqual({ name: "columns", value: "all" });
    expect(view.pager.hidden).toContainEqual({ name: "columns", value: "all" });
    expect(view.controls.datasetForm!.hidden).toContainEqual({ name: "columns", value: "all" });
    const [compact, all] = view.controls.columns!;
    expect([compact.current, all.current]).toEqual([false, true]);
    expect(params(compact.href).get("columns")).toBeNull();
    // The switch is a display toggle: it keeps the page.
    expect(params(compact.href).get("cursor")).toBe("c50");
    const fresh = leaderboardView(macroBoard(GUM), parsed(), {}, READY);
    expect(params(fresh.controls.columns![1].href).get("columns")).toBe("all");
    expect(params(fresh.controls.runs[1].href).get("columns")).toBeNull();
    // Compact shows no metric with recall and precision: no such toggle.
    expect(fresh.controls.rp).toBeNull();
    expect(view.controls.rp).not.toBeNull();
  });

  it("the dataset chooser lists the macro-average and each dataset, keeping the rest of the board's state", () => {
    const view = leaderboardView(macroBoard(GUM, { rankDataset: "en_gum_bio", allRuns: true }), parsed({ rankDataset: "en_gum_bio", all: "1" }), {}, READY);
    const form = view.controls.datasetForm!;
    expect(form.value).toBe("");
    expect(form.options.map((o) => o.value)).toEqual(["", ...Object.keys(GUM)]);
    expect(form.options[1].label).toBe("en_gum_academic (en)");
    expect(form.hidden.map((f) => f.name)).toEqual(["all"]);
  });
});

describe("the best value of each column", () => {
  it("marks the highest among the competing rows, every row of a tie, per column and part", () => {
    const rows = [row(0), row(1), row(2), row(3, { disqualified: { reason: "x", at: new Date(0) }, rank: null }), row(4, { hidden: true, rank: null })];
    const b = macroBoard({ ds_a: [0.5, 0.8, 0.8, 0.95, 0.99], ds_b: [0.1, 0.3, 0.2, 0.9, 0.9] }, { rows });
    const columns = boardTableColumns({ rows: b.rows, metric: "conll", showRp: true, datasets: b.datasets });
    const bests = columnBests(b.rows, columns);
    const key = (kind: string) => cellKey(columns.find((c) => c.key === kind)!);
    // The disqualified and the hidden run do not compete; runs 1 and 2 tie on ds_a.
    expect(bests[key("dataset-ds_a")]).toEqual({ max: 0.8, runs: ["s1", "s2"] });
    expect(bests[key("dataset-ds_b")]).toEqual({ max: 0.3, runs: ["s1"] });
    // The macro-average (row 0 highest: 0.9) and each part of a metric with recall and precision.
    expect(bests["metric-conll:f1"].runs).toEqual(["s0"]);
    const muc = columns.find((c) => c.kind === "metric" && c.metric === "muc")!;
    expect(bests[cellKey(muc, "recall")].runs).toEqual(["s0"]);
    expect(bests[cellKey(muc, "precision")].runs).toEqual(["s0"]);
  });

  it("marks none in a column of one value or of zeros only", () => {
    const b = macroBoard({ ds_a: [0, 0], ds_b: [0.4] }, { rows: [row(0), row(1)] });
    const columns = boardTableColumns({ rows: b.rows, metric: "conll", showRp: false, datasets: b.datasets });
    const bests = columnBests(b.rows, columns);
    expect(bests["dataset-ds_a"]).toBeUndefined();
    expect(bests["dataset-ds_b"]).toBeUndefined();
    expect(columnBests([row(0)], columns)).toEqual({});
  });

  it("says when the rows are one page of the board or a team filter", () => {
    expect(leaderboardView(board(), parsed(), {}, READY).bestLabel).toBe("best in this column");
    const page = board({ page: { total: 120, offset: 0, limit: 50, cursor: null, nextCursor: "c", team: null, version: "v" } });
    const view = leaderboardView(page, parsed(), {}, READY);
    expect(view.bestLabel).toBe("best in this column on this page");
    expect(view.legend).toContain("on this page is in bold");
    expect(leaderboardView(paged(board(), { team: "Team" }), parsed({ team: "Team" }), {}, READY).bestLabel).toBe("best in this column on this page");
  });

  it("shades a value by its share of the column's best", () => {
    expect([0, 0.1, 0.4, 0.5, 0.76, 1].map((v) => heatLevel(v, 1))).toEqual([0, 0, 2, 2, 3, 4]);
    expect(heatLevel(0.3, 0)).toBe(0);
  });
});

describe("zeros", () => {
  /** A zeros score with the key's count of zero anaphors `keyCount` (null: a macro-average, no counts). */
  const zero = (keyCount: number | null, f: number) => ({ recall: f, precision: f, f1: f, recall_num: keyCount === null ? null : 0, recall_den: keyCount, precision_num: keyCount === null ? null : 0, precision_den: keyCount === null ? null : 3 });

  it("reads whether the gold has zeros from the board's fact (the service's), not from the rows", () => {
    const withZeroScores = [row(0, { scores: scores(0.5, { zero: zero(12, 0.4) }) })];
    expect(goldHasZeros(board({ rows: withZeroScores }))).toBeNull();
    expect(goldHasZeros(board({ rows: withZeroScores, zeros: { inGold: false, datasets: {} } }))).toBe(false);
    expect(goldHasZeros(board({ rows: [], zeros: { inGold: true, datasets: {} } }))).toBe(true);
    expect(goldHasZeros(board({ rows: [], zeros: { inGold: null, datasets: {} } }))).toBeNull();
  });

  it("without zeros in the gold: no zeros column, no zeros to rank by, and the metric reads n/a", () => {
    const rows = [row(0, { scores: scores(0.5, { zero: zero(0, 0), mor: score(0.4) }) }), row(1, { scores: scores(0.4, { zero: zero(0, 0), mor: score(0.3) }) })];
    const view = leaderboardView(board({ rows, zeros: { inGold: false, datasets: {} } }), parsed(), {}, READY);
    expect(view.goldZeros).toBe(false);
    expect(kinds(view.columns)).not.toContain("metric:zero");
    expect(kinds(view.columns)).toContain("metric:mor");
    expect(view.controls.rankForm.metrics.map((m) => m.value)).not.toContain("zero");
    expect(view.legend).toContain(`Zeros: ${NO_ZEROS}.`);
    expect(NO_ZEROS).toBe("n/a — the gold has no zeros");
    // With zeros in the gold, the column and the choice stay.
    const withZeros = rows.map((r) => ({ ...r, scores: { ...r.scores, zero: zero(7, 0.3) } }));
    const shown = leaderboardView(board({ rows: withZeros, zeros: { inGold: true, datasets: {} } }), parsed(), {}, READY);
    expect(kinds(shown.columns)).toContain("metric:zero");
    expect(shown.legend).not.toContain("Zeros");
  });
});

describe("exports and charts", () => {
  it("LaTeX and Markdown links carry the CSV link's selection", () => {
    const b = paged(macroBoard(GUM, { rankDataset: "en_gum_bio", variant: "partial", allRuns: true }), { team: "A b", cursor: "c" });
    const { controls } = leaderboardView(b, parsed({ rankDataset: "en_gum_bio", variant: "partial", all: "1", team: "A b", cursor: "c" }), {}, READY, { columns: "all" });
    const selection = (href: string) => {
      const q = params(href);
      q.delete("format");
      return q.toString();
    };
    expect(params(controls.latex).get("format")).toBe("latex");
    expect(params(controls.markdown).get("format")).toBe("markdown");
    expect(selection(controls.latex)).toBe(selection(controls.csv));
    expect(selection(controls.markdown)).toBe(selection(controls.csv));
    expect(selection(controls.csv)).toBe("metric=conll&variant=partial&rankDataset=en_gum_bio&allRuns=1&team=A+b");
  });

  it("labels each run by its system and team, and gives the heatmap one scale and each dataset's best", () => {
    const b = macroBoard({ en_gum_bio: [0.2, 0.8, 0.8], en_gum_news: [0.4, 0.1, 0] }, { rows: [row(0), row(1, { isBaseline: true, rank: null }), row(2)] });
    const view = leaderboardView(b, parsed(), {}, READY);
    expect(view.charts.datasets).toEqual([
      { name: "en_gum_bio", short: "bio" },
      { name: "en_gum_news", short: "news" },
    ]);
    const [first, baseline] = view.charts.runs;
    expect([baseline.system, baseline.team, baseline.label]).toEqual(["sys-1 (baseline)", "Team 1", "Team 1 · sys-1 (baseline)"]);
    expect(first.datasets).toEqual([
      { f1: 0.2, heat: 1, best: false },
      { f1: 0.4, heat: 2, best: true },
    ]);
    expect(baseline.datasets[0]).toEqual({ f1: 0.8, heat: 4, best: true });
    expect(view.charts.runs[2].datasets[0].best).toBe(true);
    // A one-dataset board has no heatmap.
    expect(leaderboardView(board(), parsed(), {}, READY).charts.datasets).toEqual([]);
    expect(boardChartRuns(board()).every((r) => r.datasets.length === 0)).toBe(true);
  });
});
