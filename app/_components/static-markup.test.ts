/**
 * `renderStaticMarkup` against react-dom's `renderToStaticMarkup` (what the leaderboard table's
 * cached fragment must equal), what it refuses, and the table's fragment kept per rows array.
 */
import { createContext, createElement as h, Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { BoardSignificance, LeaderboardRow } from "@/lib/boards";
import { leaderboardView } from "@/lib/view-models/leaderboard-view";
import { parseLeaderboardPageQuery } from "@/lib/validations/leaderboard-query";
import type { StoredBoardSignificance } from "@/lib/boards/board-significance";
import { board, macroBoard, row, scores } from "@/lib/view-models/board-fixtures";
import type { Leaderboard } from "@/lib/boards";
import { BoardTable, type BoardTableProps } from "./board-table";
import { createHash } from "node:crypto";
import { boardTableFragment, isPageLoad } from "./cached-board-table";
import { renderStaticMarkup } from "./static-markup";
import { clientNavigationTarget } from "./client-links";

const same = (node: ReactNode) => expect(renderStaticMarkup(node)).toBe(renderToStaticMarkup(node));

describe("renderStaticMarkup", () => {
  it("writes what react-dom's renderToStaticMarkup writes: escaping, aliases, booleans, void elements, fragments, components", () => {
    const Cell = ({ value, children }: { value: number; children?: ReactNode }) => h("td", { "data-exact": String(value), title: `${value} < 1 & "x" 'y'` }, value, children);
    same(
      h(
        "div",
        { className: `a&b"<>'`, tabIndex: 0, role: "region", "aria-label": "x<y", "data-x": true, "aria-hidden": false, hidden: true, title: undefined, id: null },
        h("table", null, h("tbody", null, h("tr", { className: "" }, h(Cell, { value: 0.5 }, "a", 1, "b", null, false, true, 0, undefined, [["n", ["ested"]]]), h(Cell, { value: 0 })))),
        h("time", { dateTime: "2020-01-01T00:00:00.000Z", title: "t" }, "x", " ", "y"),
        h("br"),
        h("hr", { className: "h" }),
        h("abbr", { title: "a'b" }, "&"),
        h("label", { htmlFor: "q" }, "<label>"),
        h(Fragment, null, "t", h(Fragment, null, h("s", null, "u"))),
        h("div", { dangerouslySetInnerHTML: { __html: "<b>raw</b> &amp;" } }),
        h("a", { href: "/x?a=1&b=2", "data-testid": "l" }, "ok"),
        h("a", { href: "" }, "empty href"),
        h("th", { "aria-sort": "descending", scope: "col", rowSpan: 2, colSpan: 3 }),
        h("details", { open: false }, h("summary", null, "s")),
        h("details", { open: true }),
        "text with \u00a0 and ≈ – —",
        12.5,
        -0,
      ),
    );
  });

  it("equals react-dom on the leaderboard tables: plain, recall and precision, significance with intervals, every kind of row, several datasets, a dataset's board", () => {
    for (const props of tableCases()) same(h(BoardTable, props));
  });

  it("refuses what is not static markup, naming it and where it is", () => {
    const clientComponent = Object.assign(() => h("b", null, "x"), { $$typeof: Symbol.for("react.client.reference") });
    const Async = async () => h("b", null, "x");
    const Context = createContext(1);
    expect(() => renderStaticMarkup(h("div", null, h("span", null, h(clientComponent))))).toThrow(/client component.*\(at div > span\)/);
    expect(() => renderStaticMarkup(h(Async))).toThrow(/async component Async/);
    expect(() => renderStaticMarkup(h("button", { onClick: () => {} }))).toThrow(/event handler onClick/);
    expect(() => renderStaticMarkup(h("span", { style: { color: "red" } }))).toThrow(/style object/);
    expect(() => renderStaticMarkup(h("input", { defaultValue: "x" }))).toThrow(/<input>/);
    expect(() => renderStaticMarkup(h("svg", null))).toThrow(/<svg>/);
    expect(() => renderStaticMarkup(h(Context.Provider, { value: 2 }, "x"))).toThrow(/special element/);
    expect(() => renderStaticMarkup(h("td", { title: true }))).toThrow(/boolean value of title/);
    expect(() => renderStaticMarkup(h("br", null, "x"))).toThrow(/void element <br>/);
    expect(() => renderStaticMarkup(h("img", { src: "" }))).toThrow(/empty src/);
    expect(() => renderStaticMarkup(h("div", { dangerouslySetInnerHTML: { __html: "x" } }, "y"))).toThrow(/both children/);
  });
});

describe("the leaderboard table's fragment (boardTableFragment)", () => {
  const boardTableHtml = (props: Parameters<typeof boardTableFragment>[0]) => boardTableFragment(props).html;
  const base = (rows: LeaderboardRow[]): Parameters<typeof boardTableHtml>[0] => ({ rows, metric: "conll", showRp: false, teamProgress: { slug: "lit", phaseId: "p1" } });

  it("is the table react-dom renders, with team links to the phase's progress pages", () => {
    const rows = [row(0), row(1)];
    const html = boardTableHtml(base(rows));
    expect(html).toBe(renderToStaticMarkup(h(BoardTable, { rows, metric: "conll", showRp: false, teamHref: (id) => `/tasks/lit/phases/p1/teams/${id}`, significance: null, intervals: false })));
    expect(html).toContain('href="/tasks/lit/phases/p1/teams/team-0"');
  });

  it("is made once per rows array and props: the same array gives the kept HTML, a new array or other props a new one", () => {
    const rows = [row(0), row(1)];
    const first = boardTableHtml(base(rows));
    // The service never changes a shared rows array; this test does, to see whether the table is made again.
    rows[0] = { ...rows[0]!, team: { id: "team-0", name: "Renamed Team" } };
    expect(boardTableHtml(base(rows))).toBe(first);
    expect(boardTableHtml(base([...rows]))).toContain("Renamed Team");
    const withRp = boardTableHtml({ ...base(rows), showRp: true });
    expect(withRp).toContain("Renamed Team");
    expect(withRp).not.toBe(first);
  });

  it("names the fragment by the digest of its text: one id, one text", () => {
    const rows = [row(0), row(1)];
    const a = boardTableFragment(base(rows));
    expect(a.id).toBe(createHash("sha256").update(a.html, "utf8").digest("base64url"));
    expect(boardTableFragment(base([...rows])).id).toBe(a.id);
    expect(boardTableFragment({ ...base(rows), showRp: true }).id).not.toBe(a.id);
  });

  it("keys significance by the page's rows: facts of a run on the page change the HTML, facts of runs elsewhere do not", () => {
    const rows = [row(0), row(1)];
    const facts = (others: BoardSignificance["rows"], s1: BoardSignificance["rows"][string]): BoardSignificance => ({ metric: "conll", samples: 1000, seed: 1, level: 0.05, rows: { s1, ...others } });
    const notDifferent = { versusAbove: { submissionId: "s0", delta: 0.01, pValue: 0.3, significant: false }, interval: null };
    const different = { versusAbove: { submissionId: "s0", delta: 0.01, pValue: 0.01, significant: true }, interval: null };
    const a = boardTableHtml({ ...base(rows), significance: facts({}, notDifferent) });
    expect(a).toContain('data-testid="not-significant"');
    expect(boardTableHtml({ ...base(rows), significance: facts({ s9: notDifferent }, notDifferent) })).toBe(a);
    expect(boardTableHtml({ ...base(rows), significance: facts({}, different) })).not.toContain('data-testid="not-significant"');
    // An interval of any run of the board shows the interval column, also on a page without one.
    expect(boardTableHtml({ ...base(rows), significance: facts({ s9: { versusAbove: null, interval: { lo: 0.1, hi: 0.2 } } }, notDifferent) })).toContain('data-testid="col-ci"');
  });
});

describe("isPageLoad (whose table is handed over instead of sent in the payload)", () => {
  it("is a request asking for text/html, as browsers' page loads do; the App Router's own requests and other clients are not", () => {
    expect(isPageLoad("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8")).toBe(true);
    expect(isPageLoad("TEXT/HTML")).toBe(true);
    expect(isPageLoad("application/json, text/html;q=0.5")).toBe(true);
    expect(isPageLoad("*/*")).toBe(false);
    expect(isPageLoad("text/x-component")).toBe(false);
    expect(isPageLoad("text/htmlx")).toBe(false);
    expect(isPageLoad(null)).toBe(false);
  });
});

describe("clientNavigationTarget (the table's links, client-side)", () => {
  const click = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, defaultPrevented: false };
  const link = (href: string | null, over: { target?: string | null; download?: boolean } = {}) => ({ href, target: over.target ?? null, download: over.download ?? false });
  const here = "https://board.example/tasks/lit/phases/p1/leaderboard?metric=muc";

  it("takes a plain click on a link to a page of this site", () => {
    expect(clientNavigationTarget(click, link("/submissions/s1"), here)).toBe("/submissions/s1");
    expect(clientNavigationTarget(click, link("?metric=lea#board-results"), here)).toBe("/tasks/lit/phases/p1/leaderboard?metric=lea#board-results");
    expect(clientNavigationTarget(click, link("https://board.example/metrics/muc", { target: "_self" }), here)).toBe("/metrics/muc");
  });

  it("leaves to the browser modified and middle clicks, new tabs, downloads, other sites and places on this page", () => {
    for (const over of [{ metaKey: true }, { ctrlKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }, { defaultPrevented: true }]) {
      expect(clientNavigationTarget({ ...click, ...over }, link("/x"), here)).toBeNull();
    }
    expect(clientNavigationTarget(click, link("/x", { target: "_blank" }), here)).toBeNull();
    expect(clientNavigationTarget(click, link("/x", { download: true }), here)).toBeNull();
    expect(clientNavigationTarget(click, link("https://elsewhere.example/x"), here)).toBeNull();
    expect(clientNavigationTarget(click, link("#board-results"), here)).toBeNull();
    expect(clientNavigationTarget(click, link(null), here)).toBeNull();
  });
});

/** The tables compared with react-dom: the props of each. */
function tableCases(): BoardTableProps[] {
  const query = (q: Record<string, string> = {}) => parseLeaderboardPageQuery(q);
  const ready = (significance: BoardSignificance): StoredBoardSignificance => ({ status: "ready", computedAt: new Date(0), significance });
  const odd = [
    row(0, { own: true, team: { id: "t<0>", name: `Team "<script>" & 'co'` }, paperUrl: "https://x.example/p?a=1&b=2", codeUrl: "https://x.example/c" }),
    row(1, { isBaseline: true, selection: "latest-fallback" }),
    row(2, { hidden: true, afterFreeze: true }),
    row(3, { rank: null, disqualified: { reason: "used the <gold> key", at: new Date(Date.UTC(2026, 1, 2)) } }),
    row(4, { scores: scores(0.5, { conll: undefined, blanc: undefined }) }),
  ];
  const significance: BoardSignificance = {
    metric: "conll",
    samples: 1000,
    seed: 1,
    level: 0.05,
    rows: { s1: { versusAbove: { submissionId: "s0", delta: 0.01, pValue: 0.3, significant: false }, interval: { lo: 0.8, hi: 0.9 } }, s2: { versusAbove: { submissionId: "s1", delta: 0.2, pValue: 0.0001, significant: true }, interval: { lo: 0.7, hi: 0.8 } } },
  };
  const fromView = (b: Leaderboard, q: Record<string, string>, stored: StoredBoardSignificance | null, columns: string | null = null): BoardTableProps => {
    const parsed = query(q);
    const view = leaderboardView(b, parsed, {}, stored ?? { status: "pending" }, { columns });
    const multi = b.datasets.length > 1;
    return {
      rows: b.rows,
      metric: b.metric,
      showRp: parsed.query.rp,
      significance: view.tableSignificance,
      columns: view.columns,
      best: view.best,
      bestLabel: view.bestLabel,
      teamHref: (id) => `/teams/${id}`,
      variants: b.evaluation.variants,
      rankedVariant: b.variant,
      trackName: b.track?.name ?? null,
      datasets: multi && !b.dataset ? b.datasets : [],
      rankDataset: b.rankDataset,
      datasetName: multi ? (b.dataset?.name ?? null) : null,
    };
  };
  const gum = { en_gum_academic: [0.5, 0.6, 0.6], en_gum_bio: [0.7, 0.4, 0], cs_pdt: [0.3, 0.2, 0.1] };
  const macro = macroBoard(gum);
  const withMissing = macroBoard(gum, { rows: [row(0), row(1), row(2)] });
  withMissing.rows[1] = { ...withMissing.rows[1]!, datasets: { ...withMissing.rows[1]!.datasets, cs_pdt: { missing: true, goldVersion: 1, conllF1: 0 } } };
  return [
    { rows: odd, metric: "conll", showRp: false },
    { rows: odd, metric: "muc", showRp: true, teamHref: (id) => `/teams/${encodeURIComponent(id)}` },
    fromView(board({ rows: odd }), {}, null),
    fromView(board({ rows: odd }), { rp: "1", ci: "1" }, ready(significance)),
    fromView(board({ rows: odd, metric: "lea" }), { metric: "lea" }, ready(significance)),
    fromView(macro, {}, null),
    fromView(withMissing, {}, null, "all"),
    fromView(macro, { rankDataset: "cs_pdt" }, null),
    fromView({ ...macro, dataset: macro.datasets[2]!, rows: macro.rows.map((r, i) => ({ ...r, missing: i === 1 })) }, { dataset: "cs_pdt" }, null),
    fromView(board({ evaluation: { profile: "crac", label: "CRAC", variants: [{ id: "partial", label: "Partial match" }] }, track: { id: "tr", name: "Open <track>" } as Leaderboard["track"] }), {}, null),
  ];
}
