/**
 * The worker process (scripts/worker.ts) end to end: real child processes, a real
 * (embedded) Postgres, pg-boss, SIGKILL and SIGTERM.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { enqueueScoring, stopBoss } from "../queue";
import { createPhase, createSubmission, RESPONSE } from "./scoring-job.fixtures";

const testDb = useTestDatabase();
afterAll(() => stopBoss(1000));

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

interface Worker {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node --import tsx scripts/worker.ts` against the test database. */
function startWorkerProcess(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: testDb.connectionString,
      NODE_ENV: "test",
      WORKER_POLL_SECONDS: "0.5",
      RECONCILE_INTERVAL_MS: "500",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

async function status(id: string) {
  return testDb.prisma.submission.findUniqueOrThrow({ where: { id }, select: { status: true, attempts: true, goldVersion: true } });
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number, worker?: Worker): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${worker ? `; worker output:\n${worker.output()}` : ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("worker process", () => {
  it("a worker killed mid-job: a second worker resets the stale row and scores it exactly once", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    await enqueueScoring([id]);

    // Worker 1 claims the submission, then sleeps (test-only delay) until it is killed.
    const first = startWorkerProcess({ COREFBOARD_TEST_SCORE_DELAY_MS: "120000" });
    await waitFor("worker 1 to claim the submission", async () => (await status(id)).status === "SCORING", 30_000, first);
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    expect(await status(id)).toMatchObject({ status: "SCORING", attempts: 1 });

    // Worker 2: short timeout and stale threshold, so that the dead claim is noticed in seconds.
    const second = startWorkerProcess({ SCORING_TIMEOUT_MS: "4000", SCORING_STALE_MS: "5000" });
    const scored = await waitFor(
      "worker 2 to score the submission",
      async () => {
        const s = await status(id);
        return s.status === "SCORED" || s.status === "FAILED" ? s : undefined;
      },
      45_000,
      second,
    );
    expect(scored).toMatchObject({ status: "SCORED", attempts: 2, goldVersion: 1 });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(10);
    expect(await testDb.prisma.documentScore.count({ where: { submissionId: id } })).toBe(16);

    // Let the worker run a few more reconcile/poll rounds: nothing scores it again.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await status(id)).toMatchObject({ status: "SCORED", attempts: 2 });
    expect(await testDb.prisma.score.count({ where: { submissionId: id } })).toBe(10);
    expect(second.output()).toMatch(new RegExp(`submission=${id} status=SCORED attempt=2 gold=v1`));
    expect(second.output()).toMatch(/reconcile reset=1 .*cancelled_jobs=1/);

    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.output()).toMatch(/worker: stopped/);
  }, 90_000);

  it("SIGTERM during a job: the job is interrupted after the shutdown timeout, the row goes back to QUEUED, exit code 0", async () => {
    const f = await createPhase(testDb.prisma);
    const id = await createSubmission(testDb.prisma, f, RESPONSE);
    await enqueueScoring([id]);
    const worker = startWorkerProcess({ COREFBOARD_TEST_SCORE_DELAY_MS: "120000", WORKER_SHUTDOWN_TIMEOUT_MS: "500" });
    await waitFor("the worker to claim the submission", async () => (await status(id)).status === "SCORING", 30_000, worker);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(await status(id)).toMatchObject({ status: "QUEUED", attempts: 1 });
    expect(worker.output()).toMatch(/interrupting 1 running job/);
    expect(worker.output()).toMatch(new RegExp(`submission=${id} status=INTERRUPTED`));
  }, 60_000);

  it("exits with a clear message when the configuration is invalid", async () => {
    const worker = startWorkerProcess({ SCORING_TIMEOUT_MS: "5000", SCORING_STALE_MS: "4000" });
    expect((await worker.exited).code).toBe(1);
    expect(worker.output()).toMatch(/SCORING_STALE_MS \(4000\) must be greater than SCORING_TIMEOUT_MS \(5000\)/);
  }, 30_000);
});
