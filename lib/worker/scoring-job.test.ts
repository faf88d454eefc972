/**
 * scoreSubmission against a real (embedded) Postgres, with real scoring threads.
 */
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { getBoss, stopBoss } from "../queue";
import { reconcile } from "./reconciler";
import { scoringConfig, type ScoringConfig } from "../scoring-config";
import { ClaimLostError, SCORER_VERSION, scoreSubmission } from "./scoring-job";
import { BROKEN, KEY, KEY_V2, RESPONSE, addGold, bigResponse, createPhase, createSubmission } from "./scoring-job.fixtures";
import { createScoringPool } from "./scoring-pool";
import { packFile } from "../storage";
import { evaluate, type Report } from "../../scoring/index";
import { readCorpus } from "../../scoring/formats/index";

const testDb = useTestDatabase();
afterAll(() => stopBoss(1000));

const CONFIG: ScoringConfig = scoringConfig({ SCORING_TIMEOUT_MS: "20000", SCORING_STALE_MS: "30000" });
const WORKER = { workerId: "test", config: CONFIG };

function expectedReport(key: string, response: string, removeSingletons = false): Report {
  return evaluate(readCorpus(key, "key.conll"), readCorpus(response, "system.conll"), { removeSingletons });
}

/** The rows the spec asks for, written out from the report by hand. */
function expectedScores(report: Report) {
  const m = report.metrics;
  const counted = (metric: string, s: { recallNum: number; recallDen: number; precisionNum: number; precisionDen: number; recall: number; precision: number; f1: number }) => ({
    metric,
    recallNum: s.recallNum,
    recallDen: s.recallDen,
    precisionNum: s.precisionNum,
    precisionDen: s.precisionDen,
    recall: s.recall,
    precision: s.precision,
    f1: s.f1,
  });
  const frac = (n: number, d: number) => (d === 0 ? 0 : n / d);
  const f = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r));
  const link = (metric: string, c: { recallNum: number; recallDen: number; precisionNum: number; precisionDen: number }) => {
    const recall = frac(c.recallNum, c.recallDen);
    const precision = frac(c.precisionNum, c.precisionDen);
    return { metric, ...c, recall, precision, f1: f(precision, recall) };
  };
  const none = { recallNum: null, recallDen: null, precisionNum: null, precisionDen: null };
  return [
    counted("mentions", m.mentions!),
    counted("muc", m.muc!),
    counted("bcub", m.bcub!),
    counted("ceafm", m.ceafm!),
    counted("ceafe", m.ceafe!),
    counted("lea", m.lea!),
    { metric: "blanc", ...none, recall: m.blanc!.recall, precision: m.blanc!.precision, f1: m.blanc!.f1 },
    link("blanc_coref", m.blanc!.coref),
    link("blanc_noncoref", m.blanc!.noncoref),
    { metric: "conll", ...none, recall: null, precision: null, f1: m.conll!.f1 },
  ].sort((a, b) => a.metric.localeCompare(b.metric));
}

async function storedScores(submissionId: string) {
  const rows = await testDb.prisma.score.findMany({ where: { submissionId }, orderBy: { metric: "asc" } });
  return rows.map(({ metric, recallNum, recallDen, precisionNum, precisionDen, recall, precision, f1 }) => ({
    metric,
    recallNum,
    recallDen,
    precisionNum,
    precisionDen,
    recall,
    precision,
    f1,
  }));
}

async function storedDocumentScores(submissionId: string) {
  const rows = await testDb.prisma.documentScore.findMany({ where: { submissionId } });
  return rows
    .map(({ document, metric, recallNum, recallDen, precisionNum, precisionDen }) => ({ document, metric, recallNum, recallDen, precisionNum, precisionDen }))
    .sort((a, b) => `${a.document}/${a.metric}`.localeCompare(`${b.document}/${b.metric}`));
}

function expectedDocumentScores(report: Report) {
  const rows = [];
  for (const d of report.perDocument) {
    for (const metric of ["mentions", "muc", "bcub", "ceafm", "ceafe", "lea"] as const) rows.push({ document: d.id, metric, ...d.counts[metric]! });
    rows.push({ document: d.id, metric: "blanc_coref", ...d.counts.blanc!.coref });
    rows.push({ document: d.id, metric: "blanc_noncoref", ...d.counts.blanc!.noncoref });
  }
  return rows.sort((a, b) => `${a.document}/${a.metric}`.localeCompare(`${b.document}/${b.metric}`));
}

describe("scoreSubmission", () => {
  it("scores a valid submission: one Score row per metric and per-document rows, equal to evaluate()", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const outcome = await scoreSubmission(id, WORKER);
    expect(outcome).toMatchObject({ status: "SCORED", attempt: 1, goldVersion: 1, scorerVersion: SCORER_VERSION });

    const report = expectedReport(KEY, RESPONSE);
    expect(report.metrics.muc!.f1).toBeGreaterThan(0);
    expect(report.metrics.muc!.f1).toBeLessThan(1);
    expect(await storedScores(id)).toEqual(expectedScores(report));
    expect(await storedDocumentScores(id)).toEqual(expectedDocumentScores(report));
    expect(await storedDocumentScores(id)).toHaveLength(2 * 8);

    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "SCORED", attempts: 1, goldVersion: 1, scorerVersion: SCORER_VERSION, errorStage: null, errorMessage: null });
    expect(row.scoredAt).toBeInstanceOf(Date);
    expect(SCORER_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("a file that does not parse ends FAILED (validation) with a readable message and its location", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, BROKEN, "broken.conll");
    const outcome = await scoreSubmission(id, WORKER);
    expect(outcome).toMatchObject({ status: "FAILED", errorStage: "validation" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe("FAILED");
    expect(row.errorStage).toBe("validation");
    expect(row.errorMessage).toMatch(/^Your file could not be read: broken\.conll:\d+:\d+: expected /);
    expect(row.errorLocation).toMatchObject({ file: "broken.conll", line: expect.any(Number), column: expect.any(Number), expected: expect.any(String), found: expect.any(String) });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(0);
  });

  it("a phase without an active gold key ends FAILED (platform), telling that the organizers must upload one", async () => {
    const f = await createPhase(testDb.prisma, { gold: null });
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const outcome = await scoreSubmission(id, WORKER);
    expect(outcome).toMatchObject({ status: "FAILED", errorStage: "platform" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "FAILED", errorStage: "platform", errorLocation: null });
    expect(row.errorMessage).toMatch(/no active gold key/);
    expect(row.errorMessage).toMatch(/organizers must upload a gold key/);
  });

  it("a gold key that does not parse ends FAILED (platform) without showing gold content", async () => {
    const secret = "#begin document (alpha); part 0\nSECRETWORD\t(7\n#end document\n";
    const f = await createPhase(testDb.prisma, { gold: secret });
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "FAILED", errorStage: "platform" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row.errorMessage).toMatch(/gold key \(version 1\) could not be read\./);
    // Not even where the gold key is broken reaches the team.
    expect(row.errorMessage).not.toMatch(/line \d+|column \d+/);
    expect(JSON.stringify(row)).not.toContain("SECRETWORD");
  });

  it("a damaged stored file ends FAILED (platform)", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    await testDb.prisma.submissionFile.updateMany({ where: { submissionId: id }, data: { gzip: packFile(Buffer.from(BROKEN)).gzip } });
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "FAILED", errorStage: "platform" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row.errorMessage).toMatch(/damaged/);
  });

  it("scoring over the time limit ends FAILED (scoring); the pool's next run is scored", async () => {
    const f = await createPhase(testDb.prisma);
    // Parsing 300,000 mentions takes far longer than 50 ms.
    const id = await createSubmission(testDb.prisma, f, bigResponse(300_000));
    const outcome = await scoreSubmission(id, { workerId: "test", config: { ...CONFIG, timeoutMs: 50 } });
    expect(outcome).toMatchObject({ status: "FAILED", errorStage: "scoring" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row.errorMessage).toMatch(/^Scoring took longer than the limit of 0\.1 seconds and was stopped\./);
    const next = await createSubmission(testDb.prisma, f, RESPONSE);
    expect(await scoreSubmission(next, WORKER)).toMatchObject({ status: "SCORED" });
  });

  it("a run's time budget scales with its size: a big run over a small per-MB allowance ends FAILED saying why, and is scored under a larger one", async () => {
    const f = await createPhase(testDb.prisma);
    const text = bigResponse(300_000);
    const mb = Buffer.byteLength(text) / 1e6;
    expect(mb).toBeGreaterThan(3);
    // 100 ms + 1 ms per MB: far too little for parsing 300,000 mentions.
    const tight = await createSubmission(testDb.prisma, f, text);
    expect(await scoreSubmission(tight, { workerId: "test", config: { ...CONFIG, baseMs: 100, msPerMb: 1 } })).toMatchObject({ status: "FAILED", errorStage: "scoring" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id: tight } });
    expect(row.status).toBe("FAILED");
    expect(row.errorMessage).toMatch(
      /^Scoring took longer than the limit of 0\.1 seconds and was stopped\. A run's limit is 100 ms plus 1 ms per MB of gold key and run file, at most 20 seconds; this run has \d\.\d\d MB\. Check/,
    );
    // The same base with 5 s per MB: the run's size buys it the time it needs (capped at 20 s).
    const roomy = await createSubmission(testDb.prisma, f, text);
    expect(await scoreSubmission(roomy, { workerId: "test", config: { ...CONFIG, baseMs: 100, msPerMb: 5000 } })).toMatchObject({ status: "SCORED" });
  });

  it("a run over the memory cap ends FAILED (scoring), saying how much it may use; the pool replaces the thread", async () => {
    const pool = createScoringPool({ threads: 1, maxMemoryMb: 64 });
    try {
      const f = await createPhase(testDb.prisma);
      const big = await createSubmission(testDb.prisma, f, bigResponse(300_000));
      const config = { ...CONFIG, maxMemoryMb: 64 };
      expect(await scoreSubmission(big, { workerId: "test", config, pool })).toMatchObject({ status: "FAILED", errorStage: "scoring" });
      const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id: big } });
      expect(row).toMatchObject({ status: "FAILED", errorStage: "scoring", errorLocation: null });
      expect(row.errorMessage).toMatch(/^Scoring needs more than 64 MB of memory, the limit for one run, and was stopped\./);
      expect(await testDb.prisma.score.count({ where: { submissionId: big } })).toBe(0);
      const small = await createSubmission(testDb.prisma, f, RESPONSE);
      expect(await scoreSubmission(small, { workerId: "test", config, pool })).toMatchObject({ status: "SCORED" });
    } finally {
      await pool.destroy();
    }
  });

  it("a job whose claim is taken away while it scores (signal aborted with ClaimLostError) stops and writes nothing", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const controller = new AbortController();
    const job = scoreSubmission(id, {
      workerId: "test",
      config: { ...CONFIG, testDelayMs: 60_000 },
      signal: controller.signal,
      onClaim: (claim) => {
        expect(claim).toMatchObject({ submissionId: id, phaseId: f.phaseId, workerId: "test", attempts: 1 });
      },
    });
    await waitFor(async () => (await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).status === "SCORING");
    // What a re-queue does to the row; the worker's heartbeat then aborts the job.
    await testDb.prisma.submission.update({ where: { id }, data: { status: "QUEUED", attempts: 0, startedAt: null, workerId: null, heartbeatAt: null } });
    controller.abort(new ClaimLostError(id));
    expect(await job).toEqual({ status: "SKIPPED", submissionId: id, reason: "claim lost while scoring" });
    expect(await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "QUEUED", attempts: 0 });
  });

  it("a test delay for one system name (COREFBOARD_TEST_SCORE_DELAY_SYSTEM) holds that system's runs only", async () => {
    const f = await createPhase(testDb.prisma);
    const config = { ...CONFIG, testDelayMs: 60_000, testDelaySystem: "slow run" };
    const other = await createSubmission(testDb.prisma, f, RESPONSE);
    expect(await scoreSubmission(other, { workerId: "test", config })).toMatchObject({ status: "SCORED" });
    const slow = await createSubmission(testDb.prisma, f, RESPONSE);
    await testDb.prisma.submission.update({ where: { id: slow }, data: { systemName: "slow run" } });
    const controller = new AbortController();
    const job = scoreSubmission(slow, { workerId: "test", config, signal: controller.signal });
    await waitFor(async () => (await testDb.prisma.submission.findUniqueOrThrow({ where: { id: slow } })).status === "SCORING");
    await new Promise((done) => setTimeout(done, 300));
    expect(await testDb.prisma.submission.findUniqueOrThrow({ where: { id: slow } })).toMatchObject({ status: "SCORING", scoredAt: null });
    controller.abort(new Error("stop"));
    await expect(job).rejects.toThrow("stop");
  });

  it("a shutdown abort puts the row back to QUEUED and rethrows the reason", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const controller = new AbortController();
    const job = scoreSubmission(id, { workerId: "test", config: { ...CONFIG, testDelayMs: 60_000 }, signal: controller.signal });
    await waitFor(async () => (await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).status === "SCORING");
    controller.abort(new Error("the worker is shutting down"));
    await expect(job).rejects.toThrow("the worker is shutting down");
    expect(await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "QUEUED", attempts: 1, workerId: null, heartbeatAt: null });
  });

  it("two concurrent calls on one submission: exactly one scores it, the other does nothing", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const other = testDb.newClient();
    const outcomes = await Promise.all([
      scoreSubmission(id, { ...WORKER, workerId: "a" }),
      scoreSubmission(id, { ...WORKER, workerId: "b", prisma: other }),
    ]);
    const statuses = outcomes.map((o) => o.status).sort();
    expect(statuses).toEqual(["SCORED", "SKIPPED"]);
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "SCORED", attempts: 1 });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(10);
    // A late duplicate delivery is a no-op as well.
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SKIPPED", reason: "status is SCORED" });
    expect((await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).attempts).toBe(1);
  });

  it("a worker that lost its claim (reset as stale, re-scored by another) writes nothing when it wakes up", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const slow = scoreSubmission(id, { workerId: "slow", config: { ...CONFIG, testDelayMs: 1500 } });
    await waitFor(async () => (await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).status === "SCORING");
    // Another process decides the slow one is dead and takes over.
    const boss = await getBoss();
    const reset = await reconcile({ boss, config: { ...CONFIG, staleAfterMs: 1 } });
    expect(reset.reset).toBeGreaterThanOrEqual(1);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED", attempt: 2 });
    expect(await slow).toMatchObject({ status: "SKIPPED" });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "SCORED", attempts: 2 });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(10);
  });

  it("a gold re-queue during scoring (attempts reset to 0) wins: the old claim cannot write over the new one", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const old = scoreSubmission(id, { ...WORKER, workerId: "old", config: { ...CONFIG, testDelayMs: 1500 } });
    await waitFor(async () => (await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).status === "SCORING", 10_000, 5);
    // What uploading a new gold version does (lib/tasks/gold.ts): every submission of the
    // phase back to QUEUED with attempts 0, so the next claim is attempt 1 again.
    await addGold(testDb.prisma, f, 2, KEY_V2);
    await testDb.prisma.submission.update({ where: { id }, data: { status: "QUEUED", attempts: 0, startedAt: null, workerId: null, heartbeatAt: null } });
    // The new claim holds the row (attempt 1, SCORING) while the old one finishes.
    const fresh = scoreSubmission(id, { ...WORKER, workerId: "new", config: { ...CONFIG, testDelayMs: 3000 } });
    await waitFor(async () => (await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).status === "SCORING", 10_000, 5);
    expect(await old).toMatchObject({ status: "SKIPPED" });
    expect(await fresh).toMatchObject({ status: "SCORED", attempt: 1, goldVersion: 2 });
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "SCORED", attempts: 1, goldVersion: 2 });
    expect(await storedScores(id)).toEqual(expectedScores(expectedReport(KEY_V2, RESPONSE)));
  });

  it("an infrastructure error puts the row back to QUEUED and rethrows; on the final attempt it ends FAILED (platform)", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    // Every transaction after the claim's (the claim is one too: the team's lock) fails.
    const failing = (fail: (call: number) => boolean) => {
      let calls = 0;
      return new Proxy(testDb.prisma, {
        get(target, prop, receiver) {
          if (prop === "$transaction" && fail(calls++)) return () => Promise.reject(new Error("connection reset by peer"));
          return Reflect.get(target, prop, receiver);
        },
      });
    };
    await expect(scoreSubmission(id, { ...WORKER, prisma: failing((call) => call > 0) })).rejects.toThrow("connection reset by peer");
    let row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "QUEUED", attempts: 1, errorStage: null });

    await expect(scoreSubmission(id, { ...WORKER, prisma: failing((call) => call > 0), finalAttempt: true })).rejects.toThrow("connection reset by peer");
    row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    // The final-attempt FAILED write goes through the broken transaction too, so the row
    // falls back to QUEUED (for the reconciler). When only the score write fails, it ends FAILED:
    expect(row).toMatchObject({ status: "QUEUED", attempts: 2 });
    const failsOnce = failing((call) => call === 1);
    await expect(scoreSubmission(id, { ...WORKER, prisma: failsOnce, finalAttempt: true })).rejects.toThrow();
    row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "FAILED", errorStage: "platform", attempts: 3 });
    expect(row.errorMessage).toMatch(/does not count against your submission limit/);
  });

  it("a re-queued submission (new gold version) is re-scored with the new version and its old rows replaced", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    await scoreSubmission(id, WORKER);
    expect(await storedScores(id)).toEqual(expectedScores(expectedReport(KEY, RESPONSE)));

    await addGold(testDb.prisma, f, 2, KEY_V2);
    await testDb.prisma.submission.update({ where: { id }, data: { status: "QUEUED" } });
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED", goldVersion: 2, attempt: 2 });

    const v2 = expectedReport(KEY_V2, RESPONSE);
    expect(v2.metrics.conll!.f1).not.toBe(expectedReport(KEY, RESPONSE).metrics.conll!.f1);
    expect(await storedScores(id)).toEqual(expectedScores(v2));
    const docs = await storedDocumentScores(id);
    expect(docs).toEqual(expectedDocumentScores(v2));
    expect(new Set(docs.map((d) => d.document))).toEqual(new Set(v2.perDocument.map((d) => d.id)));
    expect(v2.perDocument).toHaveLength(1);
    expect(docs.some((d) => d.document.startsWith("beta"))).toBe(false);
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "SCORED", goldVersion: 2, scorerVersion: SCORER_VERSION });
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000, pollMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
