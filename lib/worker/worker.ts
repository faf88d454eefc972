/**
 * The scoring worker: takes `score-submission` jobs from pg-boss and runs
 * `scoreSubmission` on each, runs the reconciler at start and periodically, and stops
 * gracefully. Started by `scripts/worker.ts` (`npm run worker`); any number of worker
 * processes can run against one database.
 *
 * - Concurrency: `concurrency` pg-boss pollers, each taking one job at a time (pg-boss 10
 *   has no team size; one `work()` call is one sequential poller).
 * - One log line per job: job id, submission, outcome, attempt, milliseconds.
 * - A bad job never stops the worker: a malformed payload is logged and completed, a
 *   scoring failure is recorded on the submission, an infrastructure error is logged and
 *   retried by pg-boss.
 * - `stop()`: stops fetching, lets running jobs finish for up to `shutdownTimeoutMs`, then
 *   interrupts them (their submissions go back to QUEUED), stops pg-boss.
 */
import { hostname } from "node:os";
import type PgBoss from "pg-boss";
import { getPrisma } from "../db/client";
import { getBoss, SCORE_QUEUE, stopBoss, type ScoreJobData } from "../queue";
import { reconcile } from "./reconciler";
import { scoreSubmission, type ScoreOutcome } from "./scoring-job";
import { isUuid } from "../services/db";
import type { ScoringConfig } from "./config";

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** Postgres URL (the worker's Prisma client and pg-boss use it). */
  connectionString: string;
  /** Jobs run at once (`WORKER_CONCURRENCY`). */
  concurrency: number;
  config: ScoringConfig;
  /** Where log lines go (default `console.log`). */
  log?: (line: string) => void;
}

/** A running worker. */
export interface WorkerHandle {
  /** e.g. `host:pid` */
  workerId: string;
  /** Submissions being scored right now. */
  inFlight(): string[];
  /** Graceful stop (see the file comment); safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts a worker: pg-boss, the pollers and the periodic reconciler.
 *
 * @param options connection, concurrency, scoring settings, logger
 * @returns a handle to stop it
 * @throws when pg-boss cannot start (database unreachable)
 */
export async function startWorker(options: WorkerOptions): Promise<WorkerHandle> {
  const { config, concurrency } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const workerId = `${hostname()}:${process.pid}`;
  const prisma = getPrisma(options.connectionString);
  const boss = await getBoss(options.connectionString);
  const running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();

  let reconciling: Promise<void> | undefined;
  const runReconcile = (): Promise<void> =>
    (reconciling ??= reconcile({ prisma, boss, config, skipIds: running.keys() })
      .then((r) => {
        if (r.reset || r.failed || r.cancelledJobs || r.enqueued) {
          log(`reconcile reset=${r.reset} failed=${r.failed} cancelled_jobs=${r.cancelledJobs} enqueued=${r.enqueued}`);
        }
      })
      .catch((error: unknown) => log(`reconcile error: ${message(error)}`))
      .finally(() => {
        reconciling = undefined;
      }));

  const handle = async (jobs: PgBoss.JobWithMetadata<ScoreJobData>[]): Promise<unknown> => {
    const results: unknown[] = [];
    for (const job of jobs) results.push(await runJob(job));
    return results.length === 1 ? results[0] : undefined;
  };

  const runJob = async (job: PgBoss.JobWithMetadata<ScoreJobData>): Promise<unknown> => {
    const started = Date.now();
    const submissionId = job.data?.submissionId;
    if (typeof submissionId !== "string" || !isUuid(submissionId)) {
      log(`job=${job.id} status=DISCARDED reason="payload has no valid submissionId" ms=0`);
      return { status: "DISCARDED" };
    }
    const controller = new AbortController();
    let outcome: ScoreOutcome;
    const done = scoreSubmission(submissionId, {
      workerId,
      prisma,
      config,
      signal: controller.signal,
      finalAttempt: job.retryCount >= job.retryLimit,
    });
    running.set(submissionId, { controller, done: done.catch(() => undefined) });
    try {
      outcome = await done;
    } catch (error) {
      const ms = Date.now() - started;
      if (controller.signal.aborted) {
        log(`job=${job.id} submission=${submissionId} status=INTERRUPTED ms=${ms} (worker shutting down; back to the queue)`);
      } else {
        const retry = job.retryCount < job.retryLimit ? `retry ${job.retryCount + 1}/${job.retryLimit} later` : "no retries left";
        log(`job=${job.id} submission=${submissionId} status=ERROR ms=${ms} (${retry}): ${message(error)}`);
      }
      throw error;
    } finally {
      running.delete(submissionId);
    }
    const ms = Date.now() - started;
    switch (outcome.status) {
      case "SCORED":
        log(`job=${job.id} submission=${submissionId} status=SCORED attempt=${outcome.attempt} gold=v${outcome.goldVersion} warnings=${outcome.warnings} ms=${ms}`);
        break;
      case "FAILED":
        log(`job=${job.id} submission=${submissionId} status=FAILED attempt=${outcome.attempt} stage=${outcome.errorStage} ms=${ms}`);
        break;
      case "SKIPPED":
        log(`job=${job.id} submission=${submissionId} status=SKIPPED reason="${outcome.reason}" ms=${ms}`);
        break;
    }
    return { status: outcome.status };
  };

  await runReconcile();
  const workOptions = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: config.pollSeconds };
  for (let i = 0; i < concurrency; i++) await boss.work<ScoreJobData>(SCORE_QUEUE, workOptions, handle);
  const timer = setInterval(() => void runReconcile(), config.reconcileIntervalMs);
  timer.unref();

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      clearInterval(timer);
      await boss.offWork(SCORE_QUEUE).catch(() => undefined);
      const deadline = Date.now() + config.shutdownTimeoutMs;
      while (running.size > 0 && Date.now() < deadline) await delay(100);
      if (running.size > 0) {
        log(`stopping: interrupting ${running.size} running job(s); their submissions go back to the queue`);
        const pending = [...running.values()];
        for (const r of pending) r.controller.abort(new Error("the worker is shutting down"));
        await Promise.race([Promise.all(pending.map((r) => r.done)), delay(10_000)]);
        await delay(200); // let pg-boss record the failed jobs (it does not await that)
      }
      await reconciling;
      await stopBoss(1000);
    })());

  log(`worker ${workerId} ready: concurrency=${concurrency} timeout_ms=${config.timeoutMs} stale_ms=${config.staleAfterMs} reconcile_ms=${config.reconcileIntervalMs}`);
  return { workerId, inFlight: () => [...running.keys()], stop };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
