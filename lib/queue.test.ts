/**
 * The queue against a real (embedded) Postgres and pg-boss: enqueueing around running jobs,
 * NOTIFY / LISTEN with reconnection, enqueueAfterCommit's never-throw contract.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "./db/test-db";
import { activeJobs, cancelJobs, enqueueAfterCommit, enqueueScoring, getBoss, listenForScoring, SCORE_QUEUE, stopBoss } from "./queue";
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
