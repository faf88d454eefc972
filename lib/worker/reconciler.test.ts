/**
 * reconcile against a real (embedded) Postgres and pg-boss: stale claims (by heartbeat and
 * by age), abandoned running jobs, missing jobs.
 */
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { SCORE_QUEUE, enqueueScoring, getBoss, stopBoss, submissionsWithLiveJobs } from "../queue";
import { claimSubmission, releaseClaim } from "../submission-states";
import { scoringConfig, type ScoringConfig } from "../scoring-config";
import { enqueueTeamNext, reconcile, tooManyAttemptsMessage } from "./reconciler";
import { scoreSubmission } from "./scoring-job";
import { RESPONSE, createPhase, createSubmission, jobState, jobsOf, simulateDeadWorker, withNewTeam } from "./scoring-job.fixtures";

const testDb = useTestDatabase();
afterAll(() => stopBoss(1000));

const CONFIG: ScoringConfig = scoringConfig({ SCORING_TIMEOUT_MS: "20000", SCORING_STALE_MS: "30000" });
const WORKER = { workerId: "test", config: CONFIG };

describe("reconcile", () => {
  it("resets a stale SCORING row to QUEUED and enqueues it; it is scored afterwards", async () => {
    const f = await createPhase(testDb.prisma);
    const stale = await createSubmission(testDb.prisma, f, RESPONSE);
    // Another team's: a live claim of the stale row's own team would hold its re-queued run back.
    const fresh = await createSubmission(testDb.prisma, await withNewTeam(testDb.prisma, f), RESPONSE);
    // Rows claimed before heartbeats existed: their age counts from started_at.
    await testDb.prisma.submission.update({ where: { id: stale }, data: { status: "SCORING", attempts: 1, startedAt: new Date(Date.now() - 3600_000) } });
    await testDb.prisma.submission.update({ where: { id: fresh }, data: { status: "SCORING", attempts: 1, startedAt: new Date() } });

    const boss = await getBoss();
    const result = await reconcile({ boss, config: CONFIG });
    expect(result.reset).toBe(1);
    expect(result.enqueued).toBeGreaterThanOrEqual(1);
    expect((await testDb.prisma.submission.findUniqueOrThrow({ where: { id: stale } })).status).toBe("QUEUED");
    expect((await testDb.prisma.submission.findUniqueOrThrow({ where: { id: fresh } })).status).toBe("SCORING");
    expect(await submissionsWithLiveJobs(boss, [stale, fresh])).toEqual(new Set([stale]));

    // A second pass finds the job already there: nothing new is enqueued for it.
    const again = await reconcile({ boss, config: CONFIG });
    expect(again.reset).toBe(0);
    expect(await submissionsWithLiveJobs(boss, [stale])).toEqual(new Set([stale]));

    // What a worker does with that job:
    expect(await scoreSubmission(stale, WORKER)).toMatchObject({ status: "SCORED", attempt: 2 });
    expect(await testDb.prisma.score.count({ where: { submissionId: stale } })).toBe(10);
    await testDb.prisma.submission.update({ where: { id: fresh }, data: { status: "FAILED" } });
  });

  it("a stale heartbeat is re-queued and its abandoned running job cancelled at once; a fresh heartbeat and its job are left alone", async () => {
    const f = await createPhase(testDb.prisma);
    const boss = await getBoss();
    const dead = await createSubmission(testDb.prisma, f, RESPONSE);
    const live = await createSubmission(testDb.prisma, await withNewTeam(testDb.prisma, f), RESPONSE);
    const config = { ...CONFIG, heartbeatStaleMs: 20_000 };
    // Both jobs have run for a minute (longer than the heartbeat threshold, far less than
    // SCORING_STALE_MS): only the heartbeat tells the dead worker from the live one.
    const d = await simulateDeadWorker(testDb.prisma, boss, dead, { heartbeatAgeMs: 25_000, jobAgeMs: 60_000 });
    const l = await simulateDeadWorker(testDb.prisma, boss, live, { workerId: "live-host:1", heartbeatAgeMs: 1000, jobAgeMs: 60_000 });

    const result = await reconcile({ boss, config });
    expect(result).toMatchObject({ reset: 1, failed: 0, cancelledJobs: 1 });
    expect(await testDb.prisma.submission.findUniqueOrThrow({ where: { id: dead } })).toMatchObject({ status: "QUEUED", attempts: 1, workerId: null, heartbeatAt: null });
    expect(await jobState(boss, d.jobId)).toBe("cancelled");
    // Re-enqueued in the same pass, behind no running job:
    expect((await jobsOf(boss, dead)).map((j) => j.state)).toEqual(["cancelled", "created"]);

    expect(await testDb.prisma.submission.findUniqueOrThrow({ where: { id: live } })).toMatchObject({ status: "SCORING", workerId: "live-host:1", attempts: 1 });
    expect(await jobState(boss, l.jobId)).toBe("active");
    expect((await jobsOf(boss, live)).map((j) => j.state)).toEqual(["active"]);

    // The job is scored once by a live worker (attempt 2); the dead claim can write nothing.
    expect(await scoreSubmission(dead, WORKER)).toMatchObject({ status: "SCORED", attempt: 2 });
    expect(await scoreSubmission(dead, WORKER)).toMatchObject({ status: "SKIPPED", reason: "status is SCORED" });
    await testDb.prisma.submission.update({ where: { id: live }, data: { status: "FAILED" } });
    await boss.cancel(SCORE_QUEUE, l.jobId);
  });

  it("cancels a running job whose worker died before claiming (row still QUEUED), so the row gets a new job", async () => {
    const f = await createPhase(testDb.prisma);
    const boss = await getBoss();
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    await enqueueScoring([id], { boss });
    const [job] = await jobsOf(boss, id);
    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 minute' WHERE id = $1`, [job.id]);

    expect(await reconcile({ boss, config: CONFIG })).toMatchObject({ reset: 0, cancelledJobs: 1 });
    expect((await jobsOf(boss, id)).map((j) => j.state)).toEqual(["cancelled", "created"]);
    // A job that started just now is a worker between fetch and claim: left alone.
    const [, fresh] = await jobsOf(boss, id);
    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE id = $1`, [fresh.id]);
    expect(await reconcile({ boss, config: CONFIG })).toMatchObject({ cancelledJobs: 0 });
    expect(await jobState(boss, fresh.id)).toBe("active");
    await boss.cancel(SCORE_QUEUE, fresh.id);
    await testDb.prisma.submission.update({ where: { id }, data: { status: "FAILED" } });
  });

  it("never resets submissions the calling process is scoring (skipIds)", async () => {
    const f = await createPhase(testDb.prisma);
    const boss = await getBoss();
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const d = await simulateDeadWorker(testDb.prisma, boss, id);
    const result = await reconcile({ boss, config: CONFIG, skipIds: [id] });
    expect(result).toMatchObject({ reset: 0, cancelledJobs: 0 });
    expect((await testDb.prisma.submission.findUniqueOrThrow({ where: { id } })).status).toBe("SCORING");
    expect(await jobState(boss, d.jobId)).toBe("active");
    await testDb.prisma.submission.update({ where: { id }, data: { status: "FAILED" } });
    await boss.cancel(SCORE_QUEUE, d.jobId);
  });

  it("a stale row that already used every attempt ends FAILED (platform) instead of looping, its old results deleted", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    expect(await scoreSubmission(id, WORKER)).toMatchObject({ status: "SCORED" });
    await testDb.prisma.submission.update({
      where: { id },
      data: { status: "SCORING", attempts: CONFIG.maxAttempts, startedAt: new Date(Date.now() - 3600_000), heartbeatAt: new Date(Date.now() - 3600_000) },
    });
    const result = await reconcile({ config: CONFIG });
    expect(result.failed).toBe(1);
    const row = await testDb.prisma.submission.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "FAILED", errorStage: "platform", errorMessage: tooManyAttemptsMessage(CONFIG.maxAttempts), goldVersion: null });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(0);
    expect(await testDb.prisma.documentScore.count({ where: { submissionId: id } })).toBe(0);
    expect(await testDb.prisma.runAnalysis.count({ where: { submissionId: id } })).toBe(0);
  });

  it("enqueues QUEUED submissions that have no job, once", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const boss = await getBoss();
    expect(await submissionsWithLiveJobs(boss, [id])).toEqual(new Set());
    await reconcile({ boss, config: CONFIG });
    expect(await submissionsWithLiveJobs(boss, [id])).toEqual(new Set([id]));
    await enqueueScoring([id, id]);
    const { rows } = await boss.getDb().executeSql(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND singleton_key = $2`, [SCORE_QUEUE, id]);
    expect(rows[0].n).toBe(1);
  });
});

describe("one run per team at a time", () => {
  it("reconcile leaves the QUEUED runs of a team with a live claim without a job (they would only be deferred); once the claim ends, the next pass enqueues them", async () => {
    const f = await createPhase(testDb.prisma);
    const boss = await getBoss();
    const scoring = await createSubmission(testDb.prisma, f, RESPONSE);
    const waiting = await createSubmission(testDb.prisma, f, RESPONSE);
    const other = await createSubmission(testDb.prisma, await withNewTeam(testDb.prisma, f), RESPONSE);
    const claim = await claimSubmission(testDb.prisma, scoring, "live:1", CONFIG);
    if (!claim.claimed) throw new Error(claim.reason);

    await reconcile({ boss, config: CONFIG });
    expect(await submissionsWithLiveJobs(boss, [waiting, other])).toEqual(new Set([other]));
    await reconcile({ boss, config: CONFIG });
    expect(await jobsOf(boss, waiting)).toEqual([]);

    // The claim's worker died: once its heartbeat is stale, the team's run is enqueued again.
    await testDb.prisma.$executeRaw`UPDATE submissions SET heartbeat_at = now() - interval '1 hour' WHERE id = ${scoring}::uuid`;
    await reconcile({ boss, config: CONFIG });
    expect(await submissionsWithLiveJobs(boss, [waiting])).toEqual(new Set([waiting]));
    await testDb.prisma.submission.updateMany({ where: { id: { in: [scoring, waiting, other] } }, data: { status: "FAILED" } });
    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'cancelled' WHERE name = $1 AND singleton_key = ANY($2::text[]) AND state < 'completed'`, [SCORE_QUEUE, [scoring, waiting, other]]);
  });

  it("enqueueTeamNext: the team's oldest QUEUED run without a job, none while one waits or the team has a live claim", async () => {
    const f = await createPhase(testDb.prisma);
    const boss = await getBoss();
    const [first, second, third] = [
      await createSubmission(testDb.prisma, f, RESPONSE),
      await createSubmission(testDb.prisma, f, RESPONSE),
      await createSubmission(testDb.prisma, f, RESPONSE),
    ];
    const claim = await claimSubmission(testDb.prisma, first, "live:1", CONFIG);
    if (!claim.claimed) throw new Error(claim.reason);
    // The team's run is still being scored: nothing (its end enqueues the next).
    expect(await enqueueTeamNext({ teamId: f.teamId, boss, stale: CONFIG })).toBeNull();
    await releaseClaim(testDb.prisma, claim.claim);
    await testDb.prisma.submission.update({ where: { id: first }, data: { status: "SCORED" } });

    expect(await enqueueTeamNext({ teamId: f.teamId, boss, stale: CONFIG })).toBe(second);
    expect(await submissionsWithLiveJobs(boss, [second, third])).toEqual(new Set([second]));
    // second's job waits: it will be fetched, nothing more is needed.
    expect(await enqueueTeamNext({ teamId: f.teamId, boss, stale: CONFIG })).toBeNull();
    // second's job runs (and, say, is deferred): third is the oldest without a job.
    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = $1 AND singleton_key = $2`, [SCORE_QUEUE, second]);
    expect(await enqueueTeamNext({ teamId: f.teamId, boss, stale: CONFIG })).toBe(third);
    await testDb.prisma.submission.updateMany({ where: { id: { in: [second, third] } }, data: { status: "FAILED" } });
    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'cancelled' WHERE name = $1 AND singleton_key = ANY($2::text[]) AND state < 'completed'`, [SCORE_QUEUE, [second, third]]);
  });
});
