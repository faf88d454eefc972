/**
 * The queue against a real (embedded) Postgres and pg-boss: enqueueing around running jobs,
 * NOTIFY / LISTEN with reconnection, enqueueAfterCommit's never-throw contract.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "./db/test-db";
import pg from "pg";
import { activeJobs, cancelJobs, enqueueAfterCommit, enqueueScoring, getBoss, listenForScoring, REBALANCE_SQL, rebalanceScoreQueue, SCORE_QUEUE, stopBoss, submissionsWithWaitingJobs, type ScoreJobData } from "./queue";
import { RESPONSE, createPhase, createSubmission, jobsOf } from "./worker/scoring-job.fixtures";

const testDb = useTestDatabase();
afterAll(() => stopBoss(1000));

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("enqueueScoring", () => {
  it("one waiting job per submission; none while its job runs (it would block the queue), one again after", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    const boss = await getBoss();
    await enqueueScoring([id, id]);
    await enqueueScoring([id]);
    const [job] = await jobsOf(boss, id);
    expect((await jobsOf(boss, id)).map((j) => j.state)).toEqual(["created"]);

    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE id = $1`, [job.id]);
    expect(await activeJobs(boss, { submissionIds: [id] })).toEqual([{ jobId: job.id, submissionId: id, startedOn: expect.any(Date) }]);
    expect(await activeJobs(boss, { submissionIds: [id], startedBeforeMs: 60_000 })).toEqual([]);
    await enqueueScoring([id]);
    expect((await jobsOf(boss, id)).map((j) => j.state)).toEqual(["active"]);

    await cancelJobs(boss, [job.id]);
    await enqueueScoring([id]);
    expect((await jobsOf(boss, id)).map((j) => j.state)).toEqual(["cancelled", "created"]);
    await boss.cancel(SCORE_QUEUE, (await jobsOf(boss, id))[1].id);
  });
});

describe("listenForScoring", () => {
  it("wakes on every enqueue, and reconnects (waking once more) when its connection is killed", async () => {
    const f = await createPhase(testDb.prisma);
    let wakes = 0;
    const lines: string[] = [];
    const listener = listenForScoring(testDb.connectionString, () => wakes++, (line) => lines.push(line));
    try {
      await waitFor("the first connect", () => wakes === 1);
      await enqueueScoring([await createSubmission(testDb.prisma, f, RESPONSE)]);
      await waitFor("the notification", () => wakes === 2);
      await enqueueScoring([]);
      await new Promise((r) => setTimeout(r, 200));
      expect(wakes).toBe(2);

      const killed = await testDb.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE query = 'LISTEN corefboard_score'`;
      expect(killed[0].n).toBe(1);
      await waitFor("the reconnect", () => wakes === 3);
      expect(lines.join("\n")).toMatch(/queue listener: connection (error|closed).*reconnecting in 500 ms/);
      await enqueueScoring([await createSubmission(testDb.prisma, f, RESPONSE)]);
      await waitFor("a notification after the reconnect", () => wakes === 4);
    } finally {
      await listener.close();
    }
    await enqueueScoring([await createSubmission(testDb.prisma, f, RESPONSE)]);
    await new Promise((r) => setTimeout(r, 200));
    expect(wakes).toBe(4);
  });
});

describe("enqueueAfterCommit", () => {
  it("logs a failed enqueue with its context and never throws (the reconciler enqueues the rows later)", async () => {
    const saved = process.env.DATABASE_URL;
    await stopBoss(1000);
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      delete process.env.DATABASE_URL;
      await expect(enqueueAfterCommit(["a", "b"], "gold v2 of phase p")).resolves.toBeUndefined();
      expect(log).toHaveBeenCalledWith(
        "enqueueScoring failed for 2 submission(s) (gold v2 of phase p); the reconciler will retry: getBoss: DATABASE_URL is not set",
      );
    } finally {
      process.env.DATABASE_URL = saved;
      log.mockRestore();
    }
  });
});

describe("fair per team (rebalanceScoreQueue)", () => {
  it("team A enqueues 5 runs, then team B 1: B's run is fetched right after A's first, before A's second", async () => {
    const boss = await getBoss();
    // Leave only this test's jobs waiting (earlier tests may leave some).
    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'cancelled' WHERE name = $1 AND state IN ('created', 'retry')`, [SCORE_QUEUE]);
    const a = await createPhase(testDb.prisma);
    const b = await createPhase(testDb.prisma);
    expect(a.teamId).not.toBe(b.teamId);
    const aIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      aIds.push(await createSubmission(testDb.prisma, a, RESPONSE));
      await enqueueScoring([aIds[i]]);
    }
    const bId = await createSubmission(testDb.prisma, b, RESPONSE);
    await enqueueScoring([bId]);

    const priorities = async () => {
      const { rows } = await boss.getDb().executeSql(`SELECT singleton_key, priority FROM pgboss.job WHERE name = $1 AND state = 'created'`, [SCORE_QUEUE]);
      return Object.fromEntries(rows.map((r: { singleton_key: string; priority: number }) => [r.singleton_key, r.priority]));
    };
    expect(await priorities()).toEqual({ [aIds[0]]: 0, [aIds[1]]: -1, [aIds[2]]: -2, [aIds[3]]: -3, [aIds[4]]: -4, [bId]: 0 });

    const next = async () => {
      const [job] = (await boss.fetch<ScoreJobData>(SCORE_QUEUE)) ?? [];
      return job?.data.submissionId;
    };
    expect(await next()).toBe(aIds[0]);
    expect(await next()).toBe(bId);
    expect(await next()).toBe(aIds[1]);

    // A third team arriving while A has two running and three waiting goes first; A's waiting
    // runs keep their order.
    const c = await createPhase(testDb.prisma);
    const cId = await createSubmission(testDb.prisma, c, RESPONSE);
    await enqueueScoring([cId]);
    expect(await priorities()).toEqual({ [aIds[2]]: -2, [aIds[3]]: -3, [aIds[4]]: -4, [cId]: 0 });
    expect(await next()).toBe(cId);
    expect(await next()).toBe(aIds[2]);

    // When A's running jobs end, a rebalance moves its waiting ones up (nothing of A runs ahead
    // of aIds[3] but aIds[2]).
    const { rows: active } = await boss.getDb().executeSql(`SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active' AND singleton_key = ANY($2::text[])`, [SCORE_QUEUE, aIds.slice(0, 2)]);
    await boss.complete(SCORE_QUEUE, active.map((r: { id: string }) => r.id));
    expect(await rebalanceScoreQueue(boss)).toBe(2);
    expect(await priorities()).toEqual({ [aIds[3]]: -1, [aIds[4]]: -2 });
    expect(await next()).toBe(aIds[3]);
    expect(await next()).toBe(aIds[4]);
    expect(await next()).toBeUndefined();
    const { rows: left } = await boss.getDb().executeSql(`SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active'`, [SCORE_QUEUE]);
    await boss.cancel(SCORE_QUEUE, left.map((r: { id: string }) => r.id));
  });
});

describe("rebalanceScoreQueue's statement", () => {
  it("looks each job's submission up by its id (an index lookup (no scan of all submissions), and ignores a job whose key is not a uuid", async () => {
    const boss = await getBoss();
    const client = new pg.Client({ connectionString: testDb.connectionString });
    await client.connect();
    try {
      await client.query("BEGIN");
      // The test tables are tiny, where a scan is the planner's cheapest choice: forbid scans and
      // hash/merge joins so that the plan shows whether a lookup by the primary key is possible
      // at all (with `s.id::text = singleton_key` it is not: the plan keeps a seq scan).
      await client.query("SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off");
      const plan = (await client.query(`EXPLAIN ${REBALANCE_SQL}`, [SCORE_QUEUE])).rows.map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"]).join("\n");
      // The primary key, or the unique (id, phase_id) index, which has id first: a lookup by id either way.
      expect(plan).toMatch(/Index (Only )?Scan using submissions_(pkey|id_phase_id_key) on submissions s/);
      expect(plan).toMatch(/Index Cond: \(id = \(jobs\.key\)::uuid\)/);
      expect(plan).not.toMatch(/Seq Scan on submissions/);
      await client.query("ROLLBACK");
    } finally {
      await client.end();
    }

    // A job whose singleton key is not a uuid would make the cast fail: it is left out.
    await boss.send(SCORE_QUEUE, { submissionId: "x" }, { singletonKey: "not-a-uuid" });
    await expect(rebalanceScoreQueue(boss)).resolves.toBeGreaterThanOrEqual(0);
    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'cancelled' WHERE name = $1 AND singleton_key = 'not-a-uuid'`, [SCORE_QUEUE]);
  });
});

describe("submissionsWithWaitingJobs", () => {
  it("names the submissions with a created job, not those whose job runs", async () => {
    const f = await createPhase(testDb.prisma);
    const [waiting, running, none] = [await createSubmission(testDb.prisma, f, RESPONSE), await createSubmission(testDb.prisma, f, RESPONSE), await createSubmission(testDb.prisma, f, RESPONSE)];
    const boss = await getBoss();
    await enqueueScoring([waiting, running]);
    const [job] = await jobsOf(boss, running);
    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE id = $1`, [job.id]);
    expect(await submissionsWithWaitingJobs(boss, [waiting, running, none])).toEqual(new Set([waiting]));
    await boss.getDb().executeSql(`UPDATE pgboss.job SET state = 'cancelled' WHERE name = $1 AND singleton_key = ANY($2::text[])`, [SCORE_QUEUE, [waiting, running]]);
  });
});
