/**
 * The score JSON module: the shape the CLI has always printed (keys, order, snake_case
 * counts), per-document JSON from counts equal to `evaluate`'s own scores, BLANC's two
 * averaging rules, the round trip through text, and the validator's errors.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "./cli/main.js";
import { evaluate, type Report } from "./evaluate.js";
import { readConll2012 } from "./formats/conll2012.js";
import type { Counts } from "./metrics/counts.js";
import {
  countsFromJson,
  countsToJson,
  metricsJsonFromCounts,
  metricsToJson,
  parseMetricsJson,
  parseReportJson,
  reportToJson,
  SCORE_JSON_METRICS,
  ScoreJsonError,
  scoresFromJson,
  type CountScoreJson,
  type MetricScoresLike,
} from "./score-json.js";

const here = dirname(fileURLToPath(import.meta.url));
const data = join(here, "test", "fixtures", "reference-scorer", "data");
const read = (name: string) => readConll2012(readFileSync(join(data, name), "utf8"), name);
/** TC-A key {a} {b c} {d e f} against response {a} {b c x} {d y} {x'} (the CLI tests' pair). */
const TC_A = (): Report => evaluate(read("TC-A.key"), read("TC-A-4.response"));

const c = (recallNum: number, recallDen: number, precisionNum: number, precisionDen: number): Counts => ({ recallNum, recallDen, precisionNum, precisionDen });

describe("metricsToJson and reportToJson", () => {
  it("keep the CLI's shape: registry order, fractions plus snake_case counts, BLANC link counts, CoNLL f1 only", () => {
    const report = TC_A();
    const json = reportToJson(report, false);
    expect(Object.keys(json)).toEqual(["documents", "metrics", "warnings"]);
    expect(json.documents).toBe(1);
    expect(Object.keys(json.metrics)).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "conll"]);
    expect(json.metrics.muc).toEqual({ recall: 1 / 3, precision: 1 / 3, f1: 1 / 3, recall_num: 1, recall_den: 3, precision_num: 1, precision_den: 3 });
    expect(Object.keys(json.metrics.muc!)).toEqual(["recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"]);
    expect(json.metrics.blanc).toEqual({
      recall: report.metrics.blanc!.recall,
      precision: report.metrics.blanc!.precision,
      f1: report.metrics.blanc!.f1,
      coref_links: countsToJson(report.metrics.blanc!.coref),
      noncoref_links: countsToJson(report.metrics.blanc!.noncoref),
    });
    expect(json.metrics.blanc!.noncoref_links).toMatchObject({ recall_num: 5, recall_den: 11 });
    expect(json.metrics.conll).toEqual({ f1: report.metrics.conll!.f1 });
  });

  it("put the optional metrics after LEA and before BLANC, and per_document in key order only when asked", () => {
    const report = evaluate(read("TC-A.key"), read("TC-A-4.response"), { mappedClusterF: true });
    const json = reportToJson(report, true);
    expect(Object.keys(json.metrics)).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "mcf", "blanc", "conll"]);
    expect(json.metrics.mcf).toMatchObject({ recall_num: 4, recall_den: 6, precision_num: 4, precision_den: 7 });
    expect(json.per_document).toEqual([{ document: "LuoTestCase", missing_in_response: false, metrics: metricsToJson(report.perDocument[0].scores) }]);

    const mor = { ...c(7, 9, 7, 8), recall: 7 / 9, precision: 7 / 8, f1: 14 / 17 };
    const zero = { ...c(1, 2, 1, 1), recall: 0.5, precision: 1, f1: 2 / 3 };
    const scores: MetricScoresLike = { zero, conll: { f1: 0.5 }, mor, muc: report.metrics.muc };
    expect(Object.keys(metricsToJson(scores))).toEqual(["muc", "mor", "zero", "conll"]);
    expect(metricsToJson(scores).mor).toEqual({ recall: 7 / 9, precision: 7 / 8, f1: 14 / 17, recall_num: 7, recall_den: 9, precision_num: 7, precision_den: 8 });
    expect(SCORE_JSON_METRICS).toEqual(["mentions", "muc", "bcub", "ceafm", "ceafe", "lea", "mcf", "mor", "zero", "blanc", "conll"]);
  });

  it("leave out what was not computed", () => {
    expect(metricsToJson({})).toEqual({});
    const only = evaluate(read("TC-A.key"), read("TC-A-4.response"), { metrics: ["lea"] });
    expect(Object.keys(metricsToJson(only.metrics))).toEqual(["lea"]);
  });
});

describe("metricsJsonFromCounts", () => {
  it("gives each document the scores evaluate gave it, from its counts alone", () => {
    for (const [key, response] of [
      ["TC-A.key", "TC-A-4.response"],
      ["TC-M.key", "TC-M-6.response"],
      ["TC-N.key", "TC-N-3.response"],
    ]) {
      const report = evaluate(read(key), read(response), { mappedClusterF: true });
      for (const d of report.perDocument) expect(metricsJsonFromCounts(d.counts)).toEqual(metricsToJson(d.scores));
    }
  });

  it("needs both BLANC parts for BLANC and MUC, B³ and CEAFe for CoNLL", () => {
    expect(metricsJsonFromCounts({ blanc: { coref: c(1, 1, 1, 1) } as never, muc: c(1, 2, 1, 2), bcub: c(1, 1, 1, 1) })).toEqual({
      muc: { recall: 0.5, precision: 0.5, f1: 0.5, recall_num: 1, recall_den: 2, precision_num: 1, precision_den: 2 },
      bcub: { recall: 1, precision: 1, f1: 1, recall_num: 1, recall_den: 1, precision_num: 1, precision_den: 1 },
    });
    const conll = metricsJsonFromCounts({ muc: c(1, 2, 1, 2), bcub: c(1, 1, 1, 1), ceafe: c(0, 1, 0, 1) }).conll;
    expect(conll?.f1).toBeCloseTo((0.5 + 1 + 0) / 3, 15);
  });

  it("averages BLANC by the rule of the input's format", () => {
    // The key has no coreference links, the response has 2 (all wrong); non-coreference 3 of 3 found, 3 of 4 right.
    const blanc = { coref: c(0, 0, 0, 2), noncoref: c(3, 3, 3, 4) };
    const fn = (2 * 1 * 0.75) / 1.75;
    // Reference scorer: a key without coreference links scores the non-coreference part only.
    const reference = metricsJsonFromCounts({ blanc }).blanc!;
    expect([reference.recall, reference.precision, reference.f1]).toEqual([1, 0.75, fn]);
    expect(metricsJsonFromCounts({ blanc }, "reference")).toEqual(metricsJsonFromCounts({ blanc }));
    // CorefUD scorer: a part is dropped only when both its denominators are 0, so the wrong links count.
    const corefud = metricsJsonFromCounts({ blanc }, "corefud").blanc!;
    expect([corefud.recall, corefud.precision, corefud.f1]).toEqual([0.5, 0.375, fn / 2]);
    expect(corefud.coref_links).toEqual({ recall_num: 0, recall_den: 0, precision_num: 0, precision_den: 2 });
    // Both rules: nothing kept gives 0.
    const none = { coref: c(0, 0, 0, 0), noncoref: c(0, 0, 0, 0) };
    for (const rule of ["reference", "corefud"] as const) expect(metricsJsonFromCounts({ blanc: none }, rule).blanc).toMatchObject({ recall: 0, precision: 0, f1: 0 });
  });
});

describe("reading score JSON back", () => {
  it("round-trips a whole report through text, and scores back to evaluate's", () => {
    const report = evaluate(read("TC-A.key"), read("TC-A-4.response"), { mappedClusterF: true });
    const json = reportToJson(report, true);
    expect(parseReportJson(JSON.parse(JSON.stringify(json)))).toEqual(json);
    expect(scoresFromJson(parseMetricsJson(JSON.parse(JSON.stringify(json.metrics))))).toEqual(report.metrics);
    expect(countsFromJson(countsToJson(c(1.5, 2, 3, 4)))).toEqual(c(1.5, 2, 3, 4));
  });

  it("reads the CLI's own output, warnings and per-document scores included", async () => {
    let stdout = "";
    const code = await main(["score", join(data, "TC-A.key"), join(data, "TC-B-1.response"), "--format", "json", "--per-document", "--mapped-cluster-f"], {
      stdout: (s) => (stdout += s),
      stderr: () => undefined,
    });
    expect(code).toBe(0);
    const parsed = parseReportJson(JSON.parse(stdout));
    expect(parsed.warnings.map((w) => w.code)).toContain("missing-document");
    expect(parsed.per_document?.[0].missing_in_response).toBe(true);
    expect(parsed).toEqual(JSON.parse(stdout));
  });

  it("keeps warnings with their optional fields", () => {
    const json = { documents: 0, metrics: {}, warnings: [{ code: "missing-document", message: "m", file: "r.conll", line: 3, document: "d" }, { code: "x", message: "y" }] };
    expect(parseReportJson(json)).toEqual(json);
  });

  it("accepts a sum of fractions rounded a hair above 1, and nothing more", () => {
    const score = (recall: number): CountScoreJson => ({ recall, precision: 1, f1: 1, recall_num: 3, recall_den: 3, precision_num: 3, precision_den: 3 });
    expect(parseMetricsJson({ bcub: score(1 + 1e-15) }).bcub?.recall).toBe(1 + 1e-15);
    expect(() => parseMetricsJson({ bcub: score(1.01) })).toThrow("metrics.bcub.recall: expected a fraction in [0, 1], got 1.01");
  });

  const muc = { recall: 0.5, precision: 0.5, f1: 0.5, recall_num: 1, recall_den: 2, precision_num: 1, precision_den: 2 };
  const links = { recall_num: 1, recall_den: 2, precision_num: 1, precision_den: 2 };
  it.each([
    ["not an object", [], "metrics: expected an object, got an array"],
    ["an unknown metric", { muc, b3: muc }, "metrics.b3: unknown key; expected mentions, muc, bcub, ceafm, ceafe, lea, mcf, mor, zero, blanc, conll"],
    ["a missing count", { muc: { recall: 0.5, precision: 0.5, f1: 0.5, recall_num: 1, recall_den: 2, precision_num: 1 } }, "metrics.muc.precision_den: missing"],
    ["an unknown field", { muc: { ...muc, recal: 1 } }, "metrics.muc.recal: unknown key"],
    ["a negative count", { lea: { ...muc, recall_num: -1 } }, "metrics.lea.recall_num: expected a finite number ≥ 0, got -1"],
    ["a count as text", { lea: { ...muc, recall_den: "2" } }, 'metrics.lea.recall_den: expected a finite number ≥ 0, got "2"'],
    ["a NaN fraction", { mor: { ...muc, f1: Number.NaN } }, "metrics.mor.f1: expected a fraction in [0, 1], got NaN"],
    ["BLANC without link counts", { blanc: { recall: 1, precision: 1, f1: 1, coref_links: links } }, "metrics.blanc.noncoref_links: missing"],
    ["bad BLANC link counts", { blanc: { recall: 1, precision: 1, f1: 1, coref_links: links, noncoref_links: null } }, "metrics.blanc.noncoref_links: expected an object, got null"],
    ["CoNLL with a recall", { conll: { f1: 0.5, recall: 0.5 } }, "metrics.conll.recall: unknown key; expected f1"],
  ])("rejects %s, naming the key", (_, value, message) => {
    let error: unknown;
    try {
      parseMetricsJson(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScoreJsonError);
    expect((error as Error).message).toContain(message);
    expect((error as ScoreJsonError).path).toBe(message.slice(0, message.indexOf(":")));
  });

  it.each([
    ["documents not whole", { documents: 1.5, metrics: {}, warnings: [] }, "report.documents: expected a whole number ≥ 0, got 1.5"],
    ["no warnings", { documents: 1, metrics: {} }, "report.warnings: missing"],
    ["a warning without message", { documents: 1, metrics: {}, warnings: [{ code: "c" }] }, "report.warnings[0].message: missing"],
    ["a warning line 0", { documents: 1, metrics: {}, warnings: [{ code: "c", message: "m", line: 0 }] }, "report.warnings[0].line: expected a line number ≥ 1, got 0"],
    ["bad per-document metrics", { documents: 1, metrics: {}, warnings: [], per_document: [{ document: "d", missing_in_response: false, metrics: { muc: 1 } }] }, "report.per_document[0].metrics.muc: expected an object, got 1"],
    ["a per-document flag as text", { documents: 1, metrics: {}, warnings: [], per_document: [{ document: "d", missing_in_response: "no", metrics: {} }] }, 'report.per_document[0].missing_in_response: expected true or false, got "no"'],
  ])("rejects a report with %s", (_, value, message) => {
    expect(() => parseReportJson(value)).toThrow(message);
  });
});
