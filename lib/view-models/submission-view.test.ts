/**
 * The submission page's view model (metric rows, the transposed pronoun disclosure, the compare
 * options, links and flags, the scores under each evaluation setting) and the page's query parsing.
 */
import { describe, expect, it } from "vitest";
import type { ComparableRun } from "../boards/significance";
import type { BoardMetricsJson, MetricsJson } from "../boards/scores";
import type { SubmissionView } from "../runs/submissions";
import { parseSubmissionQuery } from "../validations/submission-query";
import type { RunFinalState } from "../runs/final-selection";
import {
  compareOptions,
  documentScoresView,
  finalRunView,
  hasRawFractions,
  metricRows,
  runControlsView,
  runRankLinks,
  submissionPageView,
  transposeDisclosure,
  variantScoreTable,
} from "./submission-view";

const SCORES: BoardMetricsJson = {
  muc: { recall: 0.5, precision: 0.75, f1: 0.6, recall_num: 2, recall_den: 4, precision_num: 3, precision_den: 4 },
  mentions: { recall: 1, precision: 0.8, f1: 8 / 9, recall_num: 4, recall_den: 4, precision_num: 4, precision_den: 5 },
  blanc: {
    recall: 0.7,
    precision: 0.6,
    f1: 0.65,
    coref_links: { recall_num: 3, recall_den: 4, precision_num: 3, precision_den: 5 },
    noncoref_links: { recall_num: 10, recall_den: 12, precision_num: 10, precision_den: 11 },
  },
  conll: { f1: 0.5123 },
};

describe("metricRows", () => {
  it("lists count metrics in board order, then BLANC, then the CoNLL F1, with the counts behind recall and precision", () => {
    const rows = metricRows(SCORES);
    expect(rows.map((r) => r.id)).toEqual(["mentions", "muc", "blanc", "conll"]);
    const muc = rows[1];
    expect(muc.label).toBe("MUC");
    expect(muc.recall).toEqual({ value: 0.5, counts: [{ num: 2, den: 4 }] });
    expect(muc.precision).toEqual({ value: 0.75, counts: [{ num: 3, den: 4 }] });
    expect(muc.f1).toEqual({ value: 0.6, counts: [] });
    expect(rows[2].recall?.counts).toEqual([
      { num: 3, den: 4 },
      { num: 10, den: 12 },
    ]);
    expect(rows[2].precision?.counts).toEqual([
      { num: 3, den: 5 },
      { num: 10, den: 11 },
    ]);
    const conll = rows[3];
    expect(conll).toMatchObject({ label: "CoNLL F1", recall: null, precision: null, summary: true, f1: { value: 0.5123 } });
    expect(hasRawFractions(rows)).toBe(true);
  });

  it("gives a macro-average (counts null) and BLANC without link counts no fractions", () => {
    const rows = metricRows({
      muc: { recall: 0.5, precision: 0.5, f1: 0.5, recall_num: null, recall_den: null, precision_num: null, precision_den: null },
      blanc: { recall: 0.4, precision: 0.4, f1: 0.4 },
    });
    expect(rows.map((r) => [r.id, r.recall?.counts.length, r.precision?.counts.length])).toEqual([
      ["muc", 0, 0],
      ["blanc", 0, 0],
    ]);
    expect(hasRawFractions(rows)).toBe(false);
    expect(metricRows({})).toEqual([]);
  });
});

describe("transposeDisclosure", () => {
  const disclosure = {
    columns: ["he", "she", "Total"],
    rows: [
      { id: "raw", label: "A: Raw word count", values: [5, 3, 8] },
      { id: "exclusion:pleonastic", label: "Excluded: pleonastic", values: [1, 0, 1] },
      { id: "correct", label: "Correct resolutions (in the evaluation set)", values: [2, 1, 3] },
      { id: "rr", label: "Resolution rate RR = correct / C", values: [0.5, null, 0.375] },
    ],
  };

  it("makes each pronoun type (then the total) a row and each line of the table a column", () => {
    const t = transposeDisclosure(disclosure);
    expect(t.columns.map((c) => [c.id, c.short, c.rate])).toEqual([
      ["raw", "A raw", false],
      ["exclusion:pleonastic", "Excl. pleonastic", false],
      ["correct", "Correct", false],
      ["rr", "RR (%)", true],
    ]);
    expect(t.columns[0].label).toBe("A: Raw word count");
    expect(t.rows).toEqual([
      { pronoun: "he", total: false, values: [5, 1, 2, 0.5] },
      { pronoun: "she", total: false, values: [3, 0, 1, null] },
      { pronoun: "Total", total: true, values: [8, 1, 3, 0.375] },
    ]);
  });

  it("turning it round twice gives the standard table's numbers back", () => {
    const t = transposeDisclosure(disclosure);
    const back = t.columns.map((c, i) => ({ id: c.id, values: t.rows.map((r) => r.values[i]) }));
    expect(back).toEqual(disclosure.rows.map((r) => ({ id: r.id, values: r.values })));
  });
});

describe("compareOptions", () => {
  it("labels each run with team, system, baseline mark and UTC minute", () => {
    const runs: ComparableRun[] = [
      { id: "a", team: "Team A", systemName: "sys", submittedAt: new Date("2026-11-20T14:03:59Z"), isBaseline: false },
      { id: "b", team: "Org", systemName: "base", submittedAt: new Date("2026-01-02T00:00:00Z"), isBaseline: true },
    ];
    expect(compareOptions(runs)).toEqual([
      { id: "a", label: "Team A · sys · 2026-11-20 14:03 UTC" },
      { id: "b", label: "Org · base (baseline) · 2026-01-02 00:00 UTC" },
    ]);
  });
});

/** A submission view with the fields the page view reads. */
function submission(overrides: Partial<SubmissionView> = {}): SubmissionView {
  return {
    id: "run 1",
    status: "SCORED",
    systemName: "span-bert",
    team: { id: "t", name: "Team A" },
    task: { id: "k", slug: "lit bank", title: "LitBank", primaryMetric: "conll" },
    phase: { id: "p/1", name: "test", displayTimeZone: "UTC" },
    track: null,
    goldVersion: 2,
    scores: SCORES,
    variants: {},
    datasets: [{ id: "d", name: "main", language: "", fileName: "x", missing: false, goldVersion: 2, scores: null, variants: {} }],
    file: { name: "x.conll", sha256: "0".repeat(64), size: 12345 },
    ...overrides,
  } as SubmissionView;
}

describe("submissionPageView", () => {
  it("builds the links with encoded segments, the title and the one-dataset sentences", () => {
    const v = submissionPageView(submission(), [], parseSubmissionQuery({}));
    expect(v.hrefs.task).toBe("/tasks/lit%20bank");
    expect(v.hrefs.board).toBe("/tasks/lit%20bank/phases/p%2F1/leaderboard");
    expect(v.hrefs.trackBoard).toBe(v.hrefs.board);
    expect(v.severalDatasets).toBe(false);
    expect(v.rescoring).toBe(false);
    expect(v.goldVersionText).toBe("gold version 2");
    expect(v.goldVersionDetail).toBe("2");
    expect(v.fileSizeText).toBe("12,345 bytes");
    expect(v.fractionsOpen).toBe(false);
    expect(v.documentSort).toBeNull();
    expect(v.metricRows.map((r) => r.id)).toEqual(["mentions", "muc", "blanc", "conll"]);
    expect(v.rawFractions).toBe(true);
  });

  it("says per dataset for several datasets, marks a rescoring run, and links the track's board", () => {
    const two = submission().datasets.concat({ id: "e", name: "other", language: "", fileName: null, missing: true, goldVersion: null, scores: null, variants: {} });
    const v = submissionPageView(submission({ datasets: two, status: "QUEUED", track: { id: "tr", name: "LLM" }, file: undefined }), [], parseSubmissionQuery({ fractions: "yes" }));
    expect(v.severalDatasets).toBe(true);
    expect(v.goldVersionText).toBe("the gold versions listed per dataset");
    expect(v.goldVersionDetail).toBe("per dataset (see Datasets)");
    expect(v.rescoring).toBe(true);
    expect(v.hrefs.trackBoard).toBe("/tasks/lit%20bank/phases/p%2F1/leaderboard?track=tr");
    expect(v.fileSizeText).toBeNull();
    expect(v.fractionsOpen).toBe(true);
  });

  it("has no metric rows and no rescoring without scores, and no gold version before scoring", () => {
    const v = submissionPageView(submission({ scores: null, status: "QUEUED", goldVersion: null }), [], parseSubmissionQuery(null));
    expect(v.metricRows).toEqual([]);
    expect(v.rawFractions).toBe(false);
    expect(v.rescoring).toBe(false);
    expect(v.goldVersionDetail).toBeNull();
  });
});

describe("variantScoreTable", () => {
  const CRAC = {
    profile: "crac",
    label: "CRAC",
    primary: { match: "head", zeroMatch: "dependent", removeSingletons: true, removeZeros: false },
    variants: [
      { id: "partial", label: "Partial match", match: "partial", zeroMatch: "dependent", removeSingletons: true, removeZeros: false },
      { id: "exact", label: "Exact match", match: "exact", zeroMatch: "dependent", removeSingletons: true, removeZeros: false },
    ],
  } as SubmissionView["evaluation"];
  const f1s = (conll: number, muc?: number): MetricsJson => ({
    conll: { f1: conll },
    ...(muc === undefined ? {} : { muc: { recall: muc, precision: muc, f1: muc, recall_num: muc * 10, recall_den: 10, precision_num: muc * 10, precision_den: 10 } }),
  });
  const dataset = (name: string, over: Partial<SubmissionView["datasets"][number]> = {}): SubmissionView["datasets"][number] => ({
    id: name,
    name,
    language: "cs",
    fileName: `${name}.conllu`,
    missing: false,
    goldVersion: 1,
    scores: f1s(0.6, 0.7),
    variants: { partial: f1s(0.65, 0.75), exact: f1s(0.5) },
    ...over,
  });

  it("gives each dataset the primary setting then each variant in the profile's order, CoNLL F1 first, and the macro-average last on several datasets", () => {
    const table = variantScoreTable(
      submission({
        evaluation: CRAC,
        scores: f1s(0.4),
        variants: { exact: f1s(0.3), partial: f1s(0.45) },
        datasets: [dataset("cs"), dataset("pl", { language: "pl", variants: { exact: f1s(0.2) } }), dataset("de", { missing: true, fileName: null, scores: null, variants: {} })],
      }),
    )!;
    expect(table.metrics).toEqual([
      { id: "conll", label: "CoNLL" },
      { id: "muc", label: "MUC" },
    ]);
    expect(table.groups.map((g) => [g.dataset, g.language, g.missing])).toEqual([
      ["cs", "cs", false],
      ["pl", "pl", false],
      ["de", "cs", true],
      [null, "", false],
    ]);
    expect(table.groups[0].settings).toEqual([
      { id: "", label: "Primary setting", f1: [0.6, 0.7] },
      { id: "partial", label: "Partial match", f1: [0.65, 0.75] },
      { id: "exact", label: "Exact match", f1: [0.5, null] },
    ]);
    // A variant without scores on a dataset is left out; a left-out dataset has no rows.
    expect(table.groups[1].settings.map((x) => x.id)).toEqual(["", "exact"]);
    expect(table.groups[2].settings).toEqual([]);
    expect(table.groups[3].settings).toEqual([
      { id: "", label: "Primary setting", f1: [0.4, null] },
      { id: "partial", label: "Partial match", f1: [0.45, null] },
      { id: "exact", label: "Exact match", f1: [0.3, null] },
    ]);
  });

  it("one dataset: no macro-average group; variants the run was not scored with are ignored; the page view carries the table", () => {
    const s = submission({ evaluation: CRAC, datasets: [dataset("main", { variants: { partial: f1s(0.65), singletons: f1s(0.9) } })] });
    const table = variantScoreTable(s)!;
    expect(table.groups.map((g) => g.dataset)).toEqual(["main"]);
    expect(table.groups[0].settings.map((x) => [x.id, x.f1])).toEqual([
      ["", [0.6, 0.7]],
      ["partial", [0.65, null]],
    ]);
    expect(submissionPageView(s, [], parseSubmissionQuery({})).variantScores).toEqual(table);
  });

  it("is null without variant scores: a profile without variants, or a run not scored yet", () => {
    expect(variantScoreTable(submission())).toBeNull();
    expect(variantScoreTable(submission({ evaluation: CRAC, datasets: [dataset("main", { variants: {} })] }))).toBeNull();
    expect(variantScoreTable(submission({ evaluation: null, scores: null, datasets: [dataset("main", { scores: null })] }))).toBeNull();
    expect(submissionPageView(submission(), [], parseSubmissionQuery({})).variantScores).toBeNull();
  });
});

describe("parseSubmissionQuery", () => {
  it("reads the fractions flag as 1/true/yes in any case, and nothing else", () => {
    for (const yes of ["1", "true", "YES", " Yes "]) expect(parseSubmissionQuery({ fractions: yes }).fractions, yes).toBe(true);
    for (const no of ["0", "no", "", "on", undefined]) expect(parseSubmissionQuery({ fractions: no }).fractions, String(no)).toBe(false);
    expect(parseSubmissionQuery({ fractions: ["yes", "no"] }).fractions).toBe(true);
  });

  it("reads the document sort: a metric defaults to descending, the document to ascending; bad values fall back", () => {
    expect(parseSubmissionQuery({ sort: "muc" })).toEqual({ fractions: false, sort: "muc", order: "desc" });
    expect(parseSubmissionQuery({ sort: "muc", order: "asc" })).toEqual({ fractions: false, sort: "muc", order: "asc" });
    expect(parseSubmissionQuery({ sort: "document" })).toEqual({ fractions: false, sort: "document", order: "asc" });
    expect(parseSubmissionQuery({ sort: "nonsense", order: "sideways", fractions: "1" })).toEqual({ fractions: true, sort: null, order: "asc" });
    expect(parseSubmissionQuery({ other: "x" })).toEqual({ fractions: false, sort: null, order: "asc" });
  });

  it("gives the page view the document table's first sort", () => {
    expect(submissionPageView(submission(), [], parseSubmissionQuery({ sort: "conll" })).documentSort).toEqual({ column: "conll", descending: true });
  });
});

describe("the submission page's cards", () => {
  it("gives the breadcrumbs, the cards' sentences, the file's short sha256 and the variants' labels", () => {
    const v = submissionPageView(submission({ track: { id: "tr", name: "LLM" } }), [], parseSubmissionQuery({}));
    expect(v.breadcrumbs).toEqual([
      { href: "/tasks/lit%20bank", label: "LitBank" },
      { href: "/tasks/lit%20bank/phases/p%2F1/leaderboard?track=tr", label: "test leaderboard, LLM track" },
    ]);
    expect(v.scoresDescription).toBe("Percentages with 2 decimals; hover over a number for its exact value. The numerators and denominators behind recall and precision are under the table.");
    expect(v.variantScoresDescription).toBe("F1 in % under the primary setting and each of the task's evaluation variants, on the phase's dataset; the CoNLL F1 first.");
    expect(v.fileShaPrefix).toBe("000000000000");
    expect(v.alsoScoredText).toBeNull();
    const withVariants = submissionPageView(
      submission({ evaluation: { label: "CRAC", variants: [{ label: "Partial match" }, { label: "Exact match" }] } } as Partial<SubmissionView>),
      [],
      parseSubmissionQuery({}),
    );
    expect(withVariants.alsoScoredText).toBe("Partial match; Exact match");
  });

  it("says why there are no scores, and has no scores description then", () => {
    const failed = submissionPageView(submission({ scores: null, status: "FAILED" }), [], parseSubmissionQuery({}));
    expect(failed.scoresDescription).toBeNull();
    expect(failed.noScoresText).toBe("This run has no scores.");
    expect(submissionPageView(submission({ scores: null, status: "QUEUED", file: undefined }), [], parseSubmissionQuery({})).noScoresText).toBe(
      "Scores appear here as soon as scoring finishes; this page updates by itself.",
    );
  });

  it("links document names to their error views only when the viewer may see them", () => {
    expect(documentScoresView(true, { available: true, canViewErrors: true })).toEqual({
      description: "F1 per document in %, grouped by dataset (documents are named within a dataset); click a column header to sort. A document's name opens its error view.",
      linkDocuments: true,
    });
    expect(documentScoresView(false, { available: true, canViewErrors: false })).toEqual({
      description: "F1 per document in %; click a column header to sort.",
      linkDocuments: false,
    });
  });

  it("links the rank line to the track's board and to the counted run", () => {
    const track = { id: "t 1", name: "LLM" };
    expect(runRankLinks({ kind: "ranked", rank: 1, of: 2, metric: "conll", track }, "/b")).toEqual({ board: "/b?track=t%201", counted: null });
    expect(runRankLinks({ kind: "not-counted", rule: "BEST", metric: "conll", counted: { submissionId: "r/2", systemName: "x", rank: 1 }, track: null }, "/b")).toEqual({
      board: "/b",
      counted: "/submissions/r%2F2",
    });
    expect(runRankLinks({ kind: "unranked", reason: "baseline", metric: "conll", closesAt: new Date(0), frozenAt: null }, "/b")).toEqual({ board: "/b", counted: null });
  });

  it("gives the team withdrawal until the close and the organizers disqualification, but not on a withdrawn run", () => {
    const closes = new Date("2026-11-20T14:03:00Z");
    const base = { viewerCanWithdraw: false, viewerIsOrganizer: false, withdrawnAt: null, withdrawableUntil: closes, disqualified: null };
    expect(runControlsView(base)).toBeNull();
    expect(runControlsView({ ...base, viewerCanWithdraw: true })).toEqual({ withdrawClosesAtText: "2026-11-20 14:03 UTC", organizer: null });
    expect(runControlsView({ ...base, viewerIsOrganizer: true })?.organizer).toEqual({ heading: "Disqualify this run", currentReason: null, canReinstate: false });
    expect(runControlsView({ ...base, viewerIsOrganizer: true, disqualified: { reason: "Leak", at: closes } })?.organizer).toEqual({
      heading: "Disqualified: change the reason or reinstate",
      currentReason: "Leak",
      canReinstate: true,
    });
    expect(runControlsView({ ...base, viewerIsOrganizer: true, withdrawnAt: closes })).toBeNull();
  });

  it("shapes the final-run state: the change allowed is unmarking a marked run, marking an unmarked one", () => {
    const state: RunFinalState = {
      submissionId: "r",
      selected: false,
      count: 1,
      limit: 2,
      canSelect: true,
      canUnselect: false,
      reason: null,
      closesAt: new Date("2026-11-20T14:03:00Z"),
      others: [{ systemName: "other" }] as RunFinalState["others"],
    };
    expect(finalRunView(state)).toEqual({ selected: false, count: 1, limit: 2, canChange: true, reason: null, others: ["other"], closesAtText: "2026-11-20 14:03 UTC" });
    expect(finalRunView({ ...state, selected: true }).canChange).toBe(false);
  });
});
