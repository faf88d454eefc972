/**
 * scoreSubmission on phases with datasets (issue 10 §1, §4), against a real (embedded)
 * Postgres with real scoring threads: a 3-dataset CorefUD phase scored per dataset with the
 * `crac` profile (primary setting and three variants), the phase-level Score rows as the
 * macro-average of the DatasetScore rows with a missing dataset counting 0, re-scoring only the
 * dataset whose gold key changed, a one-dataset phase whose Score rows are its DatasetScore
 * rows, and a failing dataset file.
 */
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { stopBoss } from "../queue";
import { evaluateOptionsFor, runEvaluation } from "../tasks/evaluation";
import { blancRuleForRun, type ScoreRowData } from "../boards/scores";
import { packFile } from "../storage";
import { requeueSubmissions } from "../submission-states";
import { scoringConfig } from "../scoring-config";
import { scoreRows, scoreSubmission, SCORER_VERSION } from "./scoring-job";
import {
  KEY,
  KEY_CONLLU,
  KEY_CONLLU_DOCS,
  RESPONSE,
  RESPONSE_CONLLU,
  RESPONSE_CONLLU_DOCS,
  addGold,
  conllu,
  createPhase,
  createRun,
  createSubmission,
  type ConlluDoc,
  type PhaseFixture,
} from "./scoring-job.fixtures";
import { ScoringTimeoutError, sharedScoringPool, type ScoringPool } from "./scoring-pool";
import { EVALUATION_PROFILES, evaluate, type Warning } from "../../scoring/index";
import { readCorpus } from "../../scoring/formats/index";

const testDb = useTestDatabase();
afterAll(() => stopBoss(1000));

const CONFIG = scoringConfig({ SCORING_TIMEOUT_MS: "20000", SCORING_STALE_MS: "30000" });
const WORKER = { workerId: "test", config: CONFIG };
const CRAC = EVALUATION_PROFILES.crac;

/** A document under another name (`# newdoc id`), so that datasets hold different documents. */
const renamed = ([, sentences]: ConlluDoc, name: string): ConlluDoc => [name, sentences];
const [KEY_D1, KEY_D2] = KEY_CONLLU_DOCS;
const [RESP_D1, RESP_D2] = RESPONSE_CONLLU_DOCS;

/** en_a: documents d1 and d2, the response leaves d2 out (a warning); en_b: d2 as b-d2; en_c: d1 as c-d1. */
const GOLD = {
  en_a: conllu(KEY_D1, KEY_D2),
  en_b: conllu(renamed(KEY_D2, "b-d2")),
  en_c: conllu(renamed(KEY_D1, "c-d1")),
};
const RESPONSES = {
  en_a: conllu(RESP_D1),
  en_b: conllu(renamed(RESP_D2, "b-d2")),
  en_c: conllu(renamed(RESP_D1, "c-d1")),
};
/** A second gold version of en_b: one more document (b-d1), which the response lacks. */
const GOLD_B_V2 = conllu(renamed(KEY_D2, "b-d2"), renamed(KEY_D1, "b-d1"));

type Name = keyof typeof GOLD;
const NAMES: Name[] = ["en_a", "en_b", "en_c"];
const fileName = (name: string) => `${name}-corefud-test.conllu`;

/** A crac phase with the three datasets, each with gold version 1. */
function threeDatasetPhase(): Promise<PhaseFixture> {
  return createPhase(testDb.prisma, {
    evaluationProfile: "crac",
    datasets: NAMES.map((name) => ({ name, fileName: fileName(name), format: "conllu" as const, gold: GOLD[name] })),
  });
}

const datasetOf = (f: PhaseFixture, name: string) => f.datasets!.find((d) => d.name === name)!;

/** A run with a file for each of `names`. */
function run(f: PhaseFixture, names: Name[]): Promise<string> {
  return createRun(
    testDb.prisma,
    f,
    names.map((name) => ({ datasetId: datasetOf(f, name).id, text: RESPONSES[name] })),
  );
}

/** The DatasetScore rows the worker must write for a key and a response: evaluate() under every crac setting. */
function expectedRows(key: string, keyFile: string, response: string, responseFile: string): ScoreRowData[] {
  const k = readCorpus(key, keyFile);
  const r = readCorpus(response, responseFile);
  return [
    scoreRows(evaluate(k, r, evaluateOptionsFor(CRAC.primary, true))),
    ...CRAC.variants.map((v) => scoreRows(evaluate(k, r, evaluateOptionsFor(v.preset, true)), v.id)),
  ].flat();
}

/** evaluate()'s warnings about the response for a key and a response. */
function expectedWarnings(key: string, keyFile: string, response: string, responseFile: string): Warning[] {
  const k = readCorpus(key, keyFile);
  const report = evaluate(k, readCorpus(response, responseFile), evaluateOptionsFor(CRAC.primary, true));
  return report.warnings.slice(k.warnings.length);
}

const byKey = (a: { variant: string; metric: string }, b: { variant: string; metric: string }) =>
  `${a.variant}/${a.metric}`.localeCompare(`${b.variant}/${b.metric}`);

const ROW_FIELDS = { variant: true, metric: true, recallNum: true, recallDen: true, precisionNum: true, precisionDen: true, recall: true, precision: true, f1: true } as const;

/** The run's DatasetScore rows of one dataset, as ScoreRowData, sorted by variant and metric. */
async function datasetRows(submissionId: string, datasetId: string): Promise<ScoreRowData[]> {
  return (await testDb.prisma.datasetScore.findMany({ where: { submissionId, datasetId }, select: ROW_FIELDS })).sort(byKey);
}

/** The run's phase-level Score rows, sorted by variant and metric. */
async function phaseRows(submissionId: string): Promise<ScoreRowData[]> {
  return (await testDb.prisma.score.findMany({ where: { submissionId }, select: ROW_FIELDS })).sort(byKey);
}

/**
 * Asserts that `phase` is the macro-average of `perDataset` over `n` datasets within 1e-12:
 * one row per (variant, metric) of any dataset, F1/recall/precision = sum / n (absent = 0),
 * counts null.
 */
function expectMacro(phase: ScoreRowData[], perDataset: ScoreRowData[][], n: number): void {
  const keys = [...new Set(perDataset.flat().map((r) => `${r.variant}/${r.metric}`))].sort();
  expect(phase.map((r) => `${r.variant}/${r.metric}`).sort()).toEqual(keys);
  for (const row of phase) {
    const same = perDataset.map((rows) => rows.find((r) => r.variant === row.variant && r.metric === row.metric));
    const mean = (pick: (r: ScoreRowData) => number | null) => same.reduce((sum, r) => sum + (r ? (pick(r) ?? 0) : 0), 0) / n;
    const what = `${row.variant}/${row.metric}`;
    expect(Math.abs(row.f1 - mean((r) => r.f1)), `${what} f1`).toBeLessThanOrEqual(1e-12);
    if (same.every((r) => !r || r.recall === null)) expect(row.recall, `${what} recall`).toBeNull();
    else expect(Math.abs(row.recall! - mean((r) => r.recall)), `${what} recall`).toBeLessThanOrEqual(1e-12);
    if (same.every((r) => !r || r.precision === null)) expect(row.precision, `${what} precision`).toBeNull();
    else expect(Math.abs(row.precision! - mean((r) => r.precision)), `${what} precision`).toBeLessThanOrEqual(1e-12);
    expect([row.recallNum, row.recallDen, row.precisionNum, row.precisionDen], `${what} counts`).toEqual([null, null, null, null]);
  }
}

/** The shared scoring pool, counting its runs and recording the time limit each got. */
function spyPool(): { pool: ScoringPool; calls: { responseFile: string; timeoutMs: number }[] } {
  const inner = sharedScoringPool(CONFIG.maxMemoryMb);
  const calls: { responseFile: string; timeoutMs: number }[] = [];
  const pool: ScoringPool = {
    threads: inner.threads,
    maxMemoryMb: inner.maxMemoryMb,
    run: (input, options) => {
      calls.push({ responseFile: input.responseFile, timeoutMs: options.timeoutMs });
      return inner.run(input, options);
    },
    destroy: () => inner.destroy(),
  };
  return { pool, calls };
}

describe("scoring a phase with several datasets", () => {
  it("scores each dataset the run has a file for; the Score rows are the macro-average with the missing dataset as 0", async () => {
    const f = await threeDatasetPhase();
    const id = await run(f, ["en_a", "en_b"]);
    const spy = spyPool();
    const outcome = await scoreSubmission(id, { ...WORKER, pool: spy.pool });
    expect(outcome).toMatchObject({ status: "SCORED", goldVersion: null, scorerVersion: SCORER_VERSION, datasets: { scored: 2, kept: 0, missing: 1 }, warnings: 1 });
    // One thread call per file, the whole job within one time budget.
    expect(spy.calls.map((c) => c.responseFile)).toEqual([fileName("en_a"), fileName("en_b")]);
    expect(spy.calls[0].timeoutMs).toBeLessThanOrEqual(CONFIG.timeoutMs);
    expect(spy.calls[1].timeoutMs).toBeLessThan(spy.calls[0].timeoutMs);

    // Each dataset's rows are evaluate()'s under every crac setting, on that dataset's files.
    const a = await datasetRows(id, datasetOf(f, "en_a").id);
    const b = await datasetRows(id, datasetOf(f, "en_b").id);
    expect(a).toEqual(expectedRows(GOLD.en_a, "en_a-key-v1.conllu", RESPONSES.en_a, fileName("en_a")).sort(byKey));
    expect(b).toEqual(expectedRows(GOLD.en_b, "en_b-key-v1.conllu", RESPONSES.en_b, fileName("en_b")).sort(byKey));
    expect(new Set(a.map((r) => r.variant))).toEqual(new Set(["", "partial", "exact", "singletons"]));
    expect(a.find((r) => r.variant === "" && r.metric === "conll")!.f1).not.toBe(b.find((r) => r.variant === "" && r.metric === "conll")!.f1);
    expect(await testDb.prisma.datasetScore.count({ where: { submissionId: id, datasetId: datasetOf(f, "en_c").id } })).toBe(0);

    // The phase level: the mean over the 3 datasets, en_c counting 0.
    const phase = await phaseRows(id);
    expectMacro(phase, [a, b], 3);
    const conll = phase.find((r) => r.variant === "" && r.metric === "conll")!.f1;
    expect(conll).toBeGreaterThan(0);
    expect(Math.abs(conll - (a.find((r) => r.variant === "" && r.metric === "conll")!.f1 + b.find((r) => r.variant === "" && r.metric === "conll")!.f1) / 3)).toBeLessThanOrEqual(1e-12);

    // Per-document rows and analyses per dataset, with that dataset's documents.
    const docs = await testDb.prisma.documentScore.findMany({ where: { submissionId: id }, select: { datasetId: true, document: true } });
    const docsOf = (name: string) => [...new Set(docs.filter((d) => d.datasetId === datasetOf(f, name).id).map((d) => d.document))].sort();
    expect(docsOf("en_a")).toEqual(["d1", "d2"]);
    expect(docsOf("en_b")).toEqual(["b-d2"]);
    expect(docsOf("en_c")).toEqual([]);
    const analyses = await testDb.prisma.runAnalysis.findMany({ where: { submissionId: id }, select: { datasetId: true } });
    expect(analyses.map((r) => r.datasetId).sort()).toEqual([datasetOf(f, "en_a").id, datasetOf(f, "en_b").id].sort());

    // The run records each dataset's gold version and that en_c is missing; no phase gold version.
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id }, include: { files: true } });
    expect(row).toMatchObject({ status: "SCORED", goldVersion: null, scorerVersion: SCORER_VERSION });
    expect(row.evaluation).toEqual({
      ...runEvaluation(CRAC),
      datasets: NAMES.map((name) => ({ id: datasetOf(f, name).id, name, goldVersion: 1, missing: name === "en_c" })),
    });
    const goldIds = await testDb.prisma.goldKey.findMany({ where: { phaseId: f.phaseId }, select: { id: true, datasetId: true } });
    for (const file of row.files) expect(file.goldKeyId).toBe(goldIds.find((g) => g.datasetId === file.datasetId)!.id);

    // The warning (en_a's response lacks d2) is tagged with its dataset and says which one.
    const warnings = expectedWarnings(GOLD.en_a, "en_a-key-v1.conllu", RESPONSES.en_a, fileName("en_a"));
    expect(warnings.map((w) => w.code)).toEqual(["missing-document"]);
    expect(row.warnings).toEqual(warnings.map((w) => ({ ...w, message: `dataset en_a: ${w.message}`, dataset: "en_a" })));
  });

  it("re-scores only the dataset whose gold key changed; the others' results stay untouched and count in the new average", async () => {
    const f = await threeDatasetPhase();
    const id = await run(f, ["en_a", "en_b", "en_c"]);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED", datasets: { scored: 3, kept: 0, missing: 0 } });
    const [enA, enB, enC] = NAMES.map((name) => datasetOf(f, name));
    const docsBefore = await testDb.prisma.documentScore.count({ where: { submissionId: id, datasetId: { in: [enA.id, enC.id] } } });
    const warningsBefore = (await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).warnings as unknown as Warning[];
    expect(warningsBefore).toHaveLength(1);

    // Mark the stored results of en_a and en_c: re-scoring them would overwrite the marker.
    const MARKER = 0.4242;
    await testDb.prisma.datasetScore.updateMany({ where: { submissionId: id, datasetId: { in: [enA.id, enC.id] } }, data: { f1: MARKER } });

    // A new gold key for en_b only, and the re-queue its upload does.
    await addGold(testDb.prisma, f, 2, GOLD_B_V2, "en_b-key-v2.conllu", enB.id);
    await testDb.prisma.$transaction((tx) => requeueSubmissions(tx, { id }, { datasetIds: [enB.id] }));
    const spy = spyPool();
    expect(await scoreSubmission(id, { ...WORKER, pool: spy.pool })).toMatchObject({ status: "SCORED", datasets: { scored: 1, kept: 2, missing: 0 }, warnings: 2 });
    expect(spy.calls.map((c) => c.responseFile)).toEqual([fileName("en_b")]);

    const a = await datasetRows(id, enA.id);
    const b = await datasetRows(id, enB.id);
    const c = await datasetRows(id, enC.id);
    expect(a.length).toBeGreaterThan(0);
    expect(a.every((r) => r.f1 === MARKER) && c.every((r) => r.f1 === MARKER)).toBe(true);
    expect(await testDb.prisma.documentScore.count({ where: { submissionId: id, datasetId: { in: [enA.id, enC.id] } } })).toBe(docsBefore);
    expect(b).toEqual(expectedRows(GOLD_B_V2, "en_b-key-v2.conllu", RESPONSES.en_b, fileName("en_b")).sort(byKey));
    const bDocs = await testDb.prisma.documentScore.findMany({ where: { submissionId: id, datasetId: enB.id }, select: { document: true } });
    expect([...new Set(bDocs.map((d) => d.document))].sort()).toEqual(["b-d1", "b-d2"]);
    // The average reads the kept rows as they are stored.
    expectMacro(await phaseRows(id), [a, b, c], 3);

    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id }, include: { files: true } });
    expect((row.evaluation as { datasets: unknown }).datasets).toEqual([
      { id: enA.id, name: "en_a", goldVersion: 1, missing: false },
      { id: enB.id, name: "en_b", goldVersion: 2, missing: false },
      { id: enC.id, name: "en_c", goldVersion: 1, missing: false },
    ]);
    const v2 = await testDb.prisma.goldKey.findFirstOrThrow({ where: { datasetId: enB.id, version: 2 } });
    expect(row.files.find((file) => file.datasetId === enB.id)!.goldKeyId).toBe(v2.id);
    // en_a's stored warning stays; en_b's new one (its response lacks b-d1) follows it.
    const bWarnings = expectedWarnings(GOLD_B_V2, "en_b-key-v2.conllu", RESPONSES.en_b, fileName("en_b"));
    expect(bWarnings.map((w) => w.document)).toEqual(["b-d1"]);
    expect(row.warnings).toEqual([...warningsBefore, ...bWarnings.map((w) => ({ ...w, message: `dataset en_b: ${w.message}`, dataset: "en_b" }))]);

    // A re-queue for everything (e.g. new analysis settings) scores every dataset again.
    await testDb.prisma.$transaction((tx) => requeueSubmissions(tx, { id }));
    const all = spyPool();
    expect(await scoreSubmission(id, { ...WORKER, pool: all.pool })).toMatchObject({ status: "SCORED", datasets: { scored: 3, kept: 0, missing: 0 } });
    expect(all.calls).toHaveLength(3);
    expect(await datasetRows(id, enA.id)).toEqual(expectedRows(GOLD.en_a, "en_a-key-v1.conllu", RESPONSES.en_a, fileName("en_a")).sort(byKey));
  });

  it("a dataset file that does not parse ends FAILED (validation) naming the dataset and the file, with no results left", async () => {
    const f = await threeDatasetPhase();
    const id = await run(f, ["en_a", "en_b", "en_c"]);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });
    const enB = datasetOf(f, "en_b");
    const changed = RESPONSES.en_b.replace("\tpublished\t", "\tprinted\t");
    const stored = packFile(Buffer.from(changed));
    await testDb.prisma.submissionFile.update({ where: { submissionId_datasetId: { submissionId: id, datasetId: enB.id } }, data: { gzip: stored.gzip, sha256: stored.sha256, size: stored.size } });
    await testDb.prisma.$transaction((tx) => requeueSubmissions(tx, { id }));

    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "FAILED", errorStage: "validation" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id }, include: { files: true } });
    expect(row.errorMessage).toMatch(/^Dataset en_b \(en_b-corefud-test\.conllu\): the file could not be read: /);
    expect(row.errorMessage).toContain('found "printed"');
    const line = changed.split("\n").findIndex((l) => l.includes("\tprinted\t")) + 1;
    expect(row.errorLocation).toMatchObject({ file: fileName("en_b"), dataset: "en_b", line });
    expect(row).toMatchObject({ evaluation: null, warnings: [], goldVersion: null });
    for (const table of [testDb.prisma.score, testDb.prisma.datasetScore, testDb.prisma.documentScore, testDb.prisma.runAnalysis] as const) {
      expect(await (table as typeof testDb.prisma.score).count({ where: { submissionId: id } })).toBe(0);
    }
    expect(row.files.map((file) => file.goldKeyId)).toEqual([null, null, null]);
  });

  it("the time limit covers the whole run: a dataset over what is left of it ends FAILED (scoring) saying so", async () => {
    const f = await threeDatasetPhase();
    const id = await run(f, ["en_a", "en_b", "en_c"]);
    const inner = sharedScoringPool(CONFIG.maxMemoryMb);
    let calls = 0;
    // The second file's scoring goes over the limit.
    const pool: ScoringPool = { ...inner, threads: inner.threads, maxMemoryMb: inner.maxMemoryMb, run: (input, options) => (++calls === 2 ? Promise.reject(new ScoringTimeoutError(options.timeoutMs)) : inner.run(input, options)) };
    expect(await scoreSubmission(id, { ...WORKER, pool })).toMatchObject({ status: "FAILED", errorStage: "scoring" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row.errorMessage).toMatch(/^Scoring took longer than the limit of 20 seconds and was stopped while scoring dataset en_b \(en_b-corefud-test\.conllu\)\./);
    expect(row.errorMessage).toContain("The limit covers the whole run: scoring all 3 of its dataset files under all 4 settings of this task's evaluation profile.");
    expect(await testDb.prisma.datasetScore.count({ where: { submissionId: id } })).toBe(0);
  });

  it("a run with no file for any dataset that has a gold key ends FAILED (platform), naming what it covers", async () => {
    const f = await createPhase(testDb.prisma, {
      evaluationProfile: "crac",
      datasets: [
        { name: "en_a", fileName: fileName("en_a"), format: "conllu", gold: GOLD.en_a },
        { name: "en_b", fileName: fileName("en_b"), format: "conllu", gold: null },
      ],
    });
    const id = await createRun(testDb.prisma, f, [{ datasetId: datasetOf(f, "en_b").id, text: RESPONSES.en_b }]);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "FAILED", errorStage: "platform" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row.errorMessage).toMatch(/^None of the datasets your run has a file for \(en_b\) has an active gold key yet/);
    expect(row.errorMessage).toMatch(/does not count against your submission limit/);
  });

  it("a dataset without an active gold key is left out of the average and recorded with goldVersion null", async () => {
    const f = await createPhase(testDb.prisma, {
      evaluationProfile: "crac",
      datasets: [
        { name: "en_a", fileName: fileName("en_a"), format: "conllu", gold: GOLD.en_a },
        { name: "en_b", fileName: fileName("en_b"), format: "conllu", gold: GOLD.en_b },
        { name: "en_c", fileName: fileName("en_c"), format: "conllu", gold: null },
      ],
    });
    const id = await run(f, ["en_a", "en_b", "en_c"]);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED", datasets: { scored: 2, kept: 0, missing: 0 } });
    const a = await datasetRows(id, datasetOf(f, "en_a").id);
    const b = await datasetRows(id, datasetOf(f, "en_b").id);
    expectMacro(await phaseRows(id), [a, b], 2);
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect((row.evaluation as { datasets: unknown }).datasets).toEqual([
      { id: datasetOf(f, "en_a").id, name: "en_a", goldVersion: 1, missing: false },
      { id: datasetOf(f, "en_b").id, name: "en_b", goldVersion: 1, missing: false },
      { id: datasetOf(f, "en_c").id, name: "en_c", goldVersion: null, missing: false },
    ]);
  });
});

describe("scoring a one-dataset phase", () => {
  it("stores the dataset's rows, and Score rows that are exactly the same rows, counts included", async () => {
    const f = await createPhase(testDb.prisma, { evaluationProfile: "crac", gold: KEY_CONLLU, goldFileName: "en_test-corefud-test.conllu" });
    expect(f.datasets).toHaveLength(1);
    const id = await createSubmission(testDb.prisma, f, RESPONSE_CONLLU, "system.conllu");
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED", goldVersion: 1, datasets: { scored: 1, kept: 0, missing: 0 } });
    const dataset = await datasetRows(id, f.datasetId!);
    expect(dataset).toEqual(expectedRows(KEY_CONLLU, "en_test-corefud-test.conllu", RESPONSE_CONLLU, "system.conllu").sort(byKey));
    expect(dataset.find((r) => r.metric === "muc")!.recallDen).toBeGreaterThan(0);
    expect(await phaseRows(id)).toEqual(dataset);
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ goldVersion: 1 });
    expect((row.evaluation as { datasets: unknown }).datasets).toEqual([{ id: f.datasetId, name: "main", goldVersion: 1, missing: false }]);

    // Scored again with the same gold key and settings, the dataset is kept and the Score rows are copied back from it.
    await testDb.prisma.submission.update({ where: { id }, data: { status: "QUEUED" } });
    const spy = spyPool();
    expect(await scoreSubmission(id, { ...WORKER, pool: spy.pool })).toMatchObject({ status: "SCORED", goldVersion: 1, datasets: { scored: 0, kept: 1, missing: 0 } });
    expect(spy.calls).toHaveLength(0);
    expect(await phaseRows(id)).toEqual(dataset);
  });
});

describe("blancRuleForRun", () => {
  it("takes the BLANC rule of the gold key a run's results on a dataset come from", async () => {
    const db = testDb.prisma;
    // CoNLL-2012 gold on one dataset, CorefUD on the other.
    const f = await createPhase(db, {
      datasets: [
        { name: "x", format: "conll2012", gold: KEY },
        { name: "y", format: "conllu", gold: KEY_CONLLU },
      ],
    });
    const [x, y] = f.datasets!;
    // Before any run: the datasets' active gold keys.
    expect(await blancRuleForRun(db, { phaseId: f.phaseId, goldVersion: null }, x.id)).toBe("reference");
    expect(await blancRuleForRun(db, { phaseId: f.phaseId, goldVersion: null }, y.id)).toBe("corefud");
    const id = await createRun(db, f, [
      { datasetId: x.id, text: RESPONSE },
      { datasetId: y.id, text: RESPONSE_CONLLU },
    ]);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED", goldVersion: null });
    expect(await blancRuleForRun(db, { id, phaseId: f.phaseId, goldVersion: null }, x.id)).toBe("reference");
    expect(await blancRuleForRun(db, { id, phaseId: f.phaseId, goldVersion: null }, y.id)).toBe("corefud");
    // Without a dataset: the run's first scored file.
    expect(await blancRuleForRun(db, { id, phaseId: f.phaseId, goldVersion: null })).toBe("reference");

    // A one-dataset phase, as before datasets: by the run's gold version.
    const g = await createPhase(db, { evaluationProfile: "crac", gold: KEY_CONLLU, goldFileName: "key.conllu" });
    expect(await blancRuleForRun(db, { phaseId: g.phaseId, goldVersion: 1 })).toBe("corefud");
    expect(await blancRuleForRun(db, { phaseId: g.phaseId, goldVersion: 7 })).toBe("reference");
    const h = await createPhase(db);
    expect(await blancRuleForRun(db, { phaseId: h.phaseId, goldVersion: 1 })).toBe("reference");
  });
});
