import { describe, expect, it } from "vitest";
import { LEADERBOARD_CSV_COLUMNS, leaderboardCsv } from "./leaderboard-csv";
import type { LeaderboardRow } from "./types";
import {
  blancRuleForGold,
  documentScoresToJson,
  macroScoreRows,
  rankingValueOfRows,
  scoreRowsFromJson,
  scoresToJson,
  storedMetricNames,
  type ScoreRowData,
  type ScoreRowLike,
} from "./scores";
import { readCorpus } from "../../scoring/formats";
import { evaluate, metricsToJson } from "../../scoring";
import { documentScoreRows, scoreRows } from "../worker/scoring-job";
import { csvCells } from "../tasks/test-fixtures";


const counts = (metric: string, rn: number, rd: number, pn: number, pd: number): ScoreRowLike => {
  const recall = rn / rd;
  const precision = pn / pd;
  return { metric, recallNum: rn, recallDen: rd, precisionNum: pn, precisionDen: pd, recall, precision, f1: (2 * recall * precision) / (recall + precision) };
};
const fractionsOnly = (metric: string, recall: number | null, precision: number | null, f1: number): ScoreRowLike => ({
  metric,
  recallNum: null,
  recallDen: null,
  precisionNum: null,
  precisionDen: null,
  recall,
  precision,
  f1,
});

/** Score rows as the worker stores them for one submission. */
const STORED: ScoreRowLike[] = [
  fractionsOnly("conll", null, null, 0.61),
  counts("muc", 1, 3, 1, 2),
  counts("blanc_coref", 2, 4, 2, 3),
  counts("blanc_noncoref", 5, 6, 5, 7),
  fractionsOnly("blanc", 0.6, 0.7, 0.65),
  counts("bcub", 2.5, 4, 2.5, 3),
  { ...counts("ignored_metric", 1, 1, 1, 1) },
];

describe("scoresToJson", () => {
  it("gives the CLI JSON shape: fractions plus snake_case counts, BLANC link counts, CoNLL f1 only", () => {
    const json = scoresToJson(STORED);
    expect(Object.keys(json)).toEqual(["muc", "bcub", "blanc", "conll"]);
    expect(json.muc).toEqual({ recall: 1 / 3, precision: 1 / 2, f1: (2 * (1 / 3) * (1 / 2)) / (1 / 3 + 1 / 2), recall_num: 1, recall_den: 3, precision_num: 1, precision_den: 2 });
    expect(json.bcub?.recall_num).toBe(2.5);
    expect(json.blanc).toEqual({
      recall: 0.6,
      precision: 0.7,
      f1: 0.65,
      coref_links: { recall_num: 2, recall_den: 4, precision_num: 2, precision_den: 3 },
      noncoref_links: { recall_num: 5, recall_den: 6, precision_num: 5, precision_den: 7 },
    });
    expect(json.conll).toEqual({ f1: 0.61 });
  });

  it("leaves out metrics without rows, and reads a metric from its stored rows alone", () => {
    expect(scoresToJson([])).toEqual({});
    const blancRows = STORED.filter((r) => storedMetricNames("blanc").includes(r.metric));
    expect(blancRows.map((r) => r.metric).sort()).toEqual(["blanc", "blanc_coref", "blanc_noncoref"]);
    expect(scoresToJson(blancRows)).toEqual({ blanc: scoresToJson(STORED).blanc });
    expect(scoresToJson(STORED.filter((r) => storedMetricNames("muc").includes(r.metric)))).toEqual({ muc: scoresToJson(STORED).muc });
  });

  it("refuses damaged rows the worker never writes: a count metric without counts, BLANC without its link counts", () => {
    expect(() => scoresToJson([fractionsOnly("muc", 0.5, 0.5, 0.5)])).toThrow('the stored "muc" score has no counts');
    expect(() => scoresToJson([fractionsOnly("blanc", 0.5, 0.5, 0.5), counts("blanc_coref", 1, 1, 1, 1)])).toThrow("the stored BLANC score has no blanc_noncoref row");
  });

  it("reads back exactly the rows the worker writes for a report, optional metrics included", () => {
    const key = readCorpus(KEY_TEXT, "key.conll");
    const report = evaluate(key, readCorpus(RESPONSE_TEXT, "system.conll"), { mappedClusterF: true });
    const json = metricsToJson(report.metrics);
    expect(Object.keys(json)).toContain("mcf");
    expect(scoreRows(report)).toEqual(scoreRowsFromJson(json));
    expect(scoresToJson(scoreRows(report))).toEqual(json);
    // Per document: the stored counts give back evaluate's own scores.
    const docs = documentScoresToJson(documentScoreRows(report), "reference");
    expect(docs.map((d) => d.metrics)).toEqual([...report.perDocument].sort((a, b) => (a.id < b.id ? -1 : 1)).map((d) => metricsToJson(d.scores)));
    // mor and zero are stored and read like any count metric.
    const withOptional = { ...json, mor: json.muc!, zero: json.lea! };
    expect(scoresToJson(scoreRowsFromJson(withOptional))).toEqual(metricsToJson({ ...report.metrics, mor: report.metrics.muc, zero: report.metrics.lea }));
    expect(scoreRowsFromJson(withOptional).map((r) => r.metric)).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "mcf", "mor", "zero", "blanc", "blanc_coref", "blanc_noncoref", "conll"]);
  });

  it("tags every row with its setting: \"\" for the primary setting, else the variant's id, the numbers unchanged", () => {
    const report = evaluate(readCorpus(KEY_TEXT, "key.conll"), readCorpus(RESPONSE_TEXT, "system.conll"));
    const primary = scoreRows(report);
    expect(primary.length).toBeGreaterThan(5);
    expect(primary.every((r) => r.variant === "")).toBe(true);
    const partial = scoreRows(report, "partial");
    expect(partial.map((r) => r.variant)).toEqual(primary.map(() => "partial"));
    expect(partial.map(({ variant: _, ...r }) => r)).toEqual(primary.map(({ variant: _, ...r }) => r));
    expect(scoreRowsFromJson(metricsToJson(report.metrics), "exact").every((r) => r.variant === "exact")).toBe(true);
  });
});

/** A two-document key and response (CoNLL-2012). */
const KEY_TEXT = "#begin document (a); part 0\nx\t(1)\nx\t(1)\nx\t(2)\nx\t(2)\nx\t(3)\n#end document\n#begin document (b); part 0\nx\t(1)\nx\t(1)\n#end document\n";
const RESPONSE_TEXT = "#begin document (a); part 0\nx\t(1)\nx\t(1)\nx\t(1)\nx\t(2)\nx\t-\n#end document\n#begin document (b); part 0\nx\t(1)\nx\t(2)\n#end document\n";

describe("documentScoresToJson", () => {
  const doc = (document: string, metric: string, rn: number, rd: number, pn: number, pd: number) => ({ document, metric, recallNum: rn, recallDen: rd, precisionNum: pn, precisionDen: pd });

  it("derives fractions, BLANC and CoNLL per document from the counts, documents in name order", () => {
    const out = documentScoresToJson(
      [
      doc("d2", "muc", 0, 0, 0, 0),
      doc("d1", "muc", 1, 2, 1, 1),
      doc("d1", "bcub", 1, 2, 1, 2),
      doc("d1", "ceafe", 1, 1, 1, 1),
      doc("d1", "blanc_coref", 1, 2, 1, 1),
      doc("d1", "blanc_noncoref", 1, 1, 1, 1),
      ],
      "reference",
    );
    expect(out.map((d) => d.document)).toEqual(["d1", "d2"]);
    const d1 = out[0].metrics;
    expect(d1.muc).toMatchObject({ recall: 0.5, precision: 1, recall_num: 1, recall_den: 2 });
    expect(d1.muc?.f1).toBeCloseTo(2 / 3, 15);
    expect(d1.bcub?.f1).toBe(0.5);
    expect(d1.conll?.f1).toBeCloseTo((2 / 3 + 0.5 + 1) / 3, 15);
    // BLANC: mean of the coreference-link F1 (2/3) and the non-coreference-link F1 (1).
    expect(d1.blanc?.f1).toBeCloseTo((2 / 3 + 1) / 2, 15);
    expect(d1.blanc?.coref_links).toEqual({ recall_num: 1, recall_den: 2, precision_num: 1, precision_den: 1 });
    expect(out[1].metrics).toEqual({ muc: { recall: 0, precision: 0, f1: 0, recall_num: 0, recall_den: 0, precision_num: 0, precision_den: 0 } });
    expect(out[1].metrics.conll).toBeUndefined();
  });

  it("averages BLANC by the rule of the gold key's format", () => {
    // A key without coreference links, a response with 2 wrong ones.
    const rows = [doc("d", "blanc_coref", 0, 0, 0, 2), doc("d", "blanc_noncoref", 3, 3, 3, 4)];
    const fn = (2 * 0.75) / 1.75;
    expect(documentScoresToJson(rows, "reference")[0].metrics.blanc).toMatchObject({ recall: 1, precision: 0.75, f1: fn });
    expect(documentScoresToJson(rows, "corefud")[0].metrics.blanc).toMatchObject({ recall: 0.5, precision: 0.375, f1: fn / 2 });
    expect(blancRuleForGold("crac/en_gum-corefud-dev.conllu")).toBe("corefud");
    expect(blancRuleForGold("GOLD.CONLLU")).toBe("corefud");
    for (const name of ["key.conll", "dev.v4_gold_conll", "key.jsonl", "key"]) expect(blancRuleForGold(name)).toBe("reference");
  });
});

describe("macroScoreRows", () => {
  const row = (variant: string, metric: string, f1: number, recall: number | null = f1, precision: number | null = f1): ScoreRowData => ({
    variant,
    metric,
    recallNum: 1,
    recallDen: 2,
    precisionNum: 3,
    precisionDen: 4,
    recall,
    precision,
    f1,
  });
  const A = [row("", "muc", 0.5, 0.4, 0.6), row("", "conll", 0.7, null, null), row("partial", "muc", 0.9)];
  const B = [row("", "muc", 0.3, 0.2, 0.5), row("", "conll", 0.1, null, null)];

  it("averages F1, recall and precision per (variant, metric) over the datasets, a dataset left out counting 0; counts null", () => {
    const out = macroScoreRows([A, B], 3);
    expect(out.map((r) => `${r.variant}/${r.metric}`)).toEqual(["/muc", "/conll", "partial/muc"]);
    const [muc, conll, partial] = out;
    expect(muc.f1).toBeCloseTo((0.5 + 0.3) / 3, 15);
    expect(muc.recall).toBeCloseTo((0.4 + 0.2) / 3, 15);
    expect(muc.precision).toBeCloseTo((0.6 + 0.5) / 3, 15);
    expect([muc.recallNum, muc.recallDen, muc.precisionNum, muc.precisionDen]).toEqual([null, null, null, null]);
    // CoNLL has no recall or precision in any dataset: they stay null.
    expect(conll).toMatchObject({ recall: null, precision: null });
    expect(conll.f1).toBeCloseTo((0.7 + 0.1) / 3, 15);
    // A metric only one dataset has: the others count 0.
    expect(partial.f1).toBeCloseTo(0.9 / 3, 15);
  });

  it("is the mean of the F1s, not the F1 of the mean recall and precision", () => {
    const [muc] = macroScoreRows([A, B], 2);
    const r = (0.4 + 0.2) / 2;
    const p = (0.6 + 0.5) / 2;
    expect(muc.f1).toBe((0.5 + 0.3) / 2);
    expect(muc.f1).not.toBeCloseTo((2 * r * p) / (r + p), 6);
  });

  it("over one dataset gives its fractions (without counts); no rows gives no rows", () => {
    expect(macroScoreRows([A], 1).map((x) => [x.variant, x.metric, x.recall, x.precision, x.f1])).toEqual(A.map((x) => [x.variant, x.metric, x.recall, x.precision, x.f1]));
    expect(macroScoreRows([], 2)).toEqual([]);
  });

  it("refuses a count below the number of lists or below 1, and a (variant, metric) twice in one dataset", () => {
    expect(() => macroScoreRows([A, B], 1)).toThrow(RangeError);
    expect(() => macroScoreRows([], 0)).toThrow(RangeError);
    expect(() => macroScoreRows([A], 1.5)).toThrow(RangeError);
    expect(() => macroScoreRows([[...A, row("", "muc", 0.1)]], 2)).toThrow('dataset 1 has two "muc" rows for variant ""');
  });
});

describe("rankingValueOfRows", () => {
  it("reads the metric's F1 from rows with or without counts (macro-averaged rows have none)", () => {
    expect(rankingValueOfRows(STORED, "muc")).toBe(scoresToJson(STORED).muc!.f1);
    expect(rankingValueOfRows(STORED, "conll")).toBe(0.61);
    expect(rankingValueOfRows(STORED, "blanc")).toBe(0.65);
    expect(rankingValueOfRows([fractionsOnly("muc", 0.5, 0.4, 0.45)], "muc")).toBe(0.45);
    expect(rankingValueOfRows(STORED, "lea")).toBeNull();
  });
});

describe("leaderboardCsv", () => {
  const row = (over: Partial<LeaderboardRow>): LeaderboardRow => ({
    rank: 1,
    value: 0.61,
    team: { id: "t1", name: "Team One" },
    systemName: "sys, v2",
    submissionId: "11111111-1111-1111-1111-111111111111",
    submittedAt: new Date("2025-03-01T12:00:00.000Z"),
    isBaseline: false,
    paperUrl: null,
    codeUrl: null,
    goldVersion: 2,
    scorerVersion: "0.1.0",
    scores: scoresToJson(STORED),
    variants: {},
    track: null,
    missing: false,
    datasets: {},
    ...over,
  });

  it("writes the documented header and full-precision fractions with exact counts", () => {
    const csv = leaderboardCsv({ rows: [row({})] });
    const [header, first, last] = csv.split("\r\n");
    expect(header.split(",")).toEqual(LEADERBOARD_CSV_COLUMNS);
    expect(last).toBe("");
    const cells = new Map(LEADERBOARD_CSV_COLUMNS.map((c, i) => [c, csvCells(first)[i]]));
    expect(cells.get("rank")).toBe("1");
    expect(cells.get("system")).toBe("sys, v2");
    expect(cells.get("submitted_at")).toBe("2025-03-01T12:00:00.000Z");
    expect(cells.get("is_baseline")).toBe("false");
    expect(cells.get("muc_recall")).toBe(String(1 / 3));
    expect(cells.get("muc_recall")).toBe("0.3333333333333333");
    expect(cells.get("muc_recall_den")).toBe("3");
    expect(cells.get("bcub_recall_num")).toBe("2.5");
    expect(cells.get("blanc_noncoref_precision_den")).toBe("7");
    expect(cells.get("conll_f1")).toBe("0.61");
    expect(cells.get("lea_f1")).toBe("");
    expect(cells.get("mentions_recall_num")).toBe("");
  });

  it("leaves the rank empty for baselines and defuses formula-like names", () => {
    const csv = leaderboardCsv({ rows: [row({ rank: null, isBaseline: true, team: { id: "t", name: "=HYPERLINK(\"x\")" } })] });
    const cells = csvCells(csv.split("\r\n")[1]);
    expect(cells[0]).toBe("");
    expect(cells[1]).toBe("'=HYPERLINK(\"x\")");
    expect(cells[5]).toBe("true");
  });
});

