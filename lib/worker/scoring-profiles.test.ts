/**
 * scoreSubmission under the tasks' evaluation profiles (issue 10 §3), against a real
 * (embedded) Postgres with real scoring threads: the primary setting and every secondary
 * variant stored, the evaluation and the warnings recorded, and a profile that cannot score its
 * gold key failing cleanly.
 */
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { stopBoss } from "../queue";
import { evaluateOptionsFor, runEvaluation } from "../tasks/evaluation";
import { scoringConfig } from "../scoring-config";
import { scoreSubmission } from "./scoring-job";
import { KEY, KEY_CONLLU, RESPONSE, RESPONSE_CONLLU, conll, createPhase, createSubmission } from "./scoring-job.fixtures";
import { CRAC_PRESET, EVALUATION_PROFILES, evaluate, presetOptions, type EvaluateOptions, type MetricScores, type Report } from "../../scoring/index";
import { readCorpus } from "../../scoring/formats/index";

const testDb = useTestDatabase();
afterAll(() => stopBoss(1000));

const WORKER = { workerId: "test", config: scoringConfig({ SCORING_TIMEOUT_MS: "20000", SCORING_STALE_MS: "30000" }) };
const GOLD = "en_test-corefud-test.conllu";
const TOLERANCE = 1e-9;

function expected(key: string, keyFile: string, response: string, responseFile: string, options: EvaluateOptions): Report {
  return evaluate(readCorpus(key, keyFile), readCorpus(response, responseFile), options);
}

type StoredRow = Awaited<ReturnType<typeof storedRows>>[number];

async function storedRows(submissionId: string) {
  return testDb.prisma.score.findMany({ where: { submissionId }, orderBy: [{ variant: "asc" }, { metric: "asc" }] });
}

/**
 * Asserts that `rows` (one variant's Score rows) hold exactly `metrics`, every number within
 * 1e-9: each count metric's counts and fractions, BLANC's fractions and link counts, CoNLL F1.
 */
function expectRowsMatch(rows: StoredRow[], metrics: MetricScores, label: string): void {
  const byMetric = new Map(rows.map((r) => [r.metric, r]));
  const names: string[] = [];
  const close = (actual: number | null | undefined, wanted: number, what: string) => {
    expect(actual, `${label} ${what}`).not.toBeNull();
    expect(Math.abs((actual as number) - wanted), `${label} ${what}: ${actual} vs ${wanted}`).toBeLessThanOrEqual(TOLERANCE);
  };
  const counted = (name: string, s: { recallNum: number; recallDen: number; precisionNum: number; precisionDen: number; recall?: number; precision?: number; f1?: number }) => {
    names.push(name);
    const row = byMetric.get(name);
    expect(row, `${label} ${name} row`).toBeDefined();
    for (const k of ["recallNum", "recallDen", "precisionNum", "precisionDen"] as const) close(row![k], s[k], `${name}.${k}`);
    if (s.f1 !== undefined) {
      close(row!.recall, s.recall!, `${name}.recall`);
      close(row!.precision, s.precision!, `${name}.precision`);
      close(row!.f1, s.f1, `${name}.f1`);
    }
  };
  for (const [name, score] of Object.entries(metrics)) {
    if (name === "conll") {
      names.push(name);
      close(byMetric.get(name)?.f1, metrics.conll!.f1, "conll.f1");
    } else if (name === "blanc") {
      const b = metrics.blanc!;
      names.push(name);
      close(byMetric.get("blanc")?.f1, b.f1, "blanc.f1");
      close(byMetric.get("blanc")?.recall, b.recall, "blanc.recall");
      close(byMetric.get("blanc")?.precision, b.precision, "blanc.precision");
      counted("blanc_coref", b.coref);
      counted("blanc_noncoref", b.noncoref);
    } else {
      counted(name, score as Parameters<typeof counted>[1]);
    }
  }
  expect(rows.map((r) => r.metric).sort(), `${label}: the stored metrics`).toEqual(names.sort());
}

describe("scoring under evaluation profiles", () => {
  it("crac: stores the primary setting (= the CLI's --preset crac) and the three variants, each equal to evaluate(), and records the evaluation", async () => {
    const f = await createPhase(testDb.prisma, { evaluationProfile: "crac", gold: KEY_CONLLU, goldFileName: GOLD });
    const id = await createSubmission(testDb.prisma, f, RESPONSE_CONLLU, "system.conllu");
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED", warnings: 0 });

    const crac = EVALUATION_PROFILES.crac;
    const rows = await storedRows(id);
    const primaryRows = rows.filter((r) => r.variant === "");
    const primary = expected(KEY_CONLLU, GOLD, RESPONSE_CONLLU, "system.conllu", evaluateOptionsFor(crac.primary, true));
    expect(primary.metrics.zero).toBeDefined();
    expect(primary.metrics.mor).toBeDefined();
    expectRowsMatch(primaryRows, primary.metrics, "primary");

    // The primary setting is the CLI's `--preset crac` on every metric that preset computes.
    const cli = expected(KEY_CONLLU, GOLD, RESPONSE_CONLLU, "system.conllu", presetOptions(CRAC_PRESET));
    expect(Object.keys(cli.metrics).sort()).toEqual([...CRAC_PRESET.metrics, "conll"].sort());
    expectRowsMatch(
      primaryRows.filter((r) => r.metric in cli.metrics || r.metric.startsWith("blanc_")),
      cli.metrics,
      "primary vs --preset crac",
    );

    // Each variant: its own rows, equal to evaluate() with its options, and not the primary's.
    expect([...new Set(rows.map((r) => r.variant))].sort()).toEqual(["", "exact", "partial", "singletons"]);
    const conll = (variant: string) => rows.find((r) => r.variant === variant && r.metric === "conll")!.f1;
    for (const variant of crac.variants) {
      const report = expected(KEY_CONLLU, GOLD, RESPONSE_CONLLU, "system.conllu", evaluateOptionsFor(variant.preset, true));
      expect(Math.abs(conll(variant.id) - report.metrics.conll!.f1)).toBeLessThanOrEqual(TOLERANCE);
      expect(Math.abs(conll(variant.id) - conll(""))).toBeGreaterThan(0.01);
      expectRowsMatch(
        rows.filter((r) => r.variant === variant.id),
        report.metrics,
        variant.id,
      );
    }
    expect(new Set(crac.variants.map((v) => conll(v.id))).size).toBe(3);

    // Per-document rows are the primary setting's only.
    const docs = await testDb.prisma.documentScore.findMany({ where: { submissionId: id } });
    const primaryDocs = primary.perDocument.flatMap((d) => Object.entries(d.counts).flatMap(([m, c]) => (m === "blanc" ? [c, c] : [c])));
    expect(docs).toHaveLength(primaryDocs.length);
    for (const d of primary.perDocument) {
      for (const metric of ["muc", "bcub", "ceafe", "zero"] as const) {
        const row = docs.find((r) => r.document === d.id && r.metric === metric)!;
        expect({ recallNum: row.recallNum, recallDen: row.recallDen, precisionNum: row.precisionNum, precisionDen: row.precisionDen }).toEqual(d.counts[metric]);
      }
    }

    const run = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(run.evaluation).toEqual({ ...runEvaluation(crac), datasets: [{ id: f.datasetId, name: "main", goldVersion: 1, missing: false }] });
    expect(run.evaluation).toMatchObject({
      profile: "crac",
      primary: { match: "head", zeroMatch: "dependent", removeSingletons: true, removeZeros: false },
      variants: [
        { id: "partial", match: "partial", removeSingletons: true },
        { id: "exact", match: "exact", removeSingletons: true },
        { id: "singletons", match: "head", removeSingletons: false },
      ],
    });
    // The gold reader's warning (its discontinuous mention) is about the gold: not stored with the run.
    expect(primary.warnings.map((w) => w.file)).toContain(GOLD);
    expect(run.warnings).toEqual([]);

    // A re-score replaces every variant's rows (no duplicates, no leftovers).
    await testDb.prisma.submission.update({ where: { id }, data: { status: "QUEUED" } });
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED", attempt: 2 });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(rows.length);
  });

  it("crac: a response whose words differ from the key's ends FAILED (validation) at the response's line, even when it is named like the gold file", async () => {
    const f = await createPhase(testDb.prisma, { evaluationProfile: "crac", gold: KEY_CONLLU, goldFileName: GOLD });
    const changed = RESPONSE_CONLLU.replace("\tsmiled\t", "\tlaughed\t");
    const id = await createSubmission(testDb.prisma, f, changed, GOLD);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "FAILED", errorStage: "validation" });
    const run = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    const line = changed.split("\n").findIndex((l) => l.includes("\tlaughed\t")) + 1;
    expect(run.errorLocation).toMatchObject({ file: GOLD, line });
    expect(run.errorMessage).toMatch(/^Your file could not be read: /);
    expect(run.errorMessage).toContain('found "laughed"');
    expect(run).toMatchObject({ evaluation: null, warnings: [] });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(0);
  });

  it("conll2012: the reference scorer's setting only, no variant rows, the evaluation recorded as conll2012", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });
    const rows = await storedRows(id);
    expect(rows.every((r) => r.variant === "")).toBe(true);
    // As before profiles existed: exact spans, singletons kept, every non-optional metric.
    const before = expected(KEY, "key-v1.conll", RESPONSE, "system.conll", { removeSingletons: false });
    expectRowsMatch(rows, before.metrics, "conll2012");
    const run = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(run.evaluation).toEqual({
      profile: "conll2012",
      label: EVALUATION_PROFILES.conll2012.label,
      primary: { match: "exact", zeroMatch: "dependent", removeSingletons: false, removeZeros: false },
      variants: [],
      datasets: [{ id: f.datasetId, name: "main", goldVersion: 1, missing: false }],
    });
  });

  it("stores the primary report's warnings about the response: a key document missing from it is a missing-document warning", async () => {
    const f = await createPhase(testDb.prisma);
    const alphaOnly = conll(["alpha", ["John\t(1)", "saw\t-", "Mary\t(2)", ".\t-", "", "He\t(1)", "greeted\t-", "her\t(2)", "and\t-", "Bill\t(3)", ".\t-"]]);
    const id = await createSubmission(testDb.prisma, f, alphaOnly);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED", warnings: 1 });
    const run = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(run.warnings).toEqual([
      {
        code: "missing-document",
        message: 'key document "beta/part 0" is not in the response; it is scored as an empty response',
        file: "system.conll",
        document: "beta/part 0",
        dataset: "main",
      },
    ]);
    // The scorer's own warnings, each tagged with its dataset (a one-dataset phase: no prefix).
    expect(run.warnings).toEqual(expected(KEY, "key-v1.conll", alphaOnly, "system.conll", {}).warnings.map((w) => ({ ...w, dataset: "main" })));
  });

  it("custom partial match on CoNLL-2012 gold ends FAILED (platform) with evaluate's RangeError message, clearing an earlier evaluation and warnings", async () => {
    const f = await createPhase(testDb.prisma, { gold: KEY.replace("John", "SECRETWORD") });
    const id = await createSubmission(testDb.prisma, f, conll(["alpha", ["John\t(1)"]]));
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });
    expect((await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).warnings).not.toEqual([]);

    // The organizer switches the task to partial match; the run is scored again.
    await testDb.prisma.task.update({ where: { id: f.taskId }, data: { evaluationProfile: "custom", mentionMatching: "partial" } });
    await testDb.prisma.submission.update({ where: { id }, data: { status: "QUEUED" } });
    const outcome = await scoreSubmission(id, WORKER);
    expect(outcome).toMatchObject({ status: "FAILED", errorStage: "platform" });

    let rangeError: unknown;
    try {
      expected(KEY, "key-v1.conll", RESPONSE, "system.conll", { match: "partial" });
    } catch (error) {
      rangeError = error;
    }
    expect(rangeError).toBeInstanceOf(RangeError);
    const message = (rangeError as RangeError).message;
    expect(message).toContain("key-v1.conll");
    const run = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(run).toMatchObject({ status: "FAILED", errorStage: "platform", errorLocation: null, evaluation: null, warnings: [] });
    expect(run.errorMessage).toContain(message);
    expect(run.errorMessage).toMatch(/does not count against your submission limit/);
    expect(JSON.stringify([run.errorMessage, run.errorLocation, run.warnings])).not.toContain("SECRETWORD");
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(0);
  });

  it("custom settings reach the scorer: keepSingletons = false removes singletons, with MOR stored", async () => {
    const f = await createPhase(testDb.prisma, { evaluationProfile: "custom", keepSingletons: false });
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });
    const withoutSingletons = expected(KEY, "key-v1.conll", RESPONSE, "system.conll", { removeSingletons: true, metrics: [...EVALUATION_PROFILES.conll2012.primary.metrics, "mor"] });
    const withSingletons = expected(KEY, "key-v1.conll", RESPONSE, "system.conll", {});
    expect(withoutSingletons.metrics.mentions!.recallDen).not.toBe(withSingletons.metrics.mentions!.recallDen);
    expectRowsMatch(await storedRows(id), withoutSingletons.metrics, "custom");
    const run = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(run.evaluation).toMatchObject({ profile: "custom", primary: { match: "exact", removeSingletons: true }, variants: [] });
  });
});
