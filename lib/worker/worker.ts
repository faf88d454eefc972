/**
 * The scoring worker: takes `score-submission` jobs from pg-boss and runs
 * `scoreSubmission` on each, keeps its claims alive with heartbeats, runs the reconciler at
 * start and periodically, and stops gracefully. Started by `scripts/worker.ts`
 * (`npm run worker`); any number of worker processes can run against one database.
 *
 * - **Concurrency**: `concurrency` pg-boss pollers (`WORKER_CONCURRENCY`, default 2), each
 *   taking one job at a time (pg-boss 10 has no team size; one `work()` call is one sequential
 *   poller), and a pool of as many warm scoring threads (`scoring-pool.ts`), each with the heap
 *   cap `SCORING_MAX_MEMORY_MB`. A run over the cap or the time limit fails alone; its thread
 *   is replaced.
 * - **One run per team at a time** (across every worker process): a job whose team already has
 *   a run being scored is not claimed (`claimSubmission`); it is completed as `DEFERRED` (one
 *   log line; no pg-boss retry and no attempt used), the row stays QUEUED without a job, and
 *   the slot stays free for other teams. So one team's slow runs never hold more than one
 *   slot, and with two slots another team's run starts at once. When a job that held a claim
 *   ends (scored, failed, interrupted or errored), the worker enqueues the team's next QUEUED
 *   run (`enqueueTeamNext` in `reconciler.ts`), which wakes every worker; the reconciler
 *   enqueues the QUEUED runs of any team without a live claim, should that enqueue be lost.
 * - **No idle waits**: a poller that finished a job fetches the next one at once, and an
 *   idle poller is woken by `NOTIFY` when a job is enqueued (`listenForScoring` in
 *   `lib/queue.ts`, which reconnects after a lost connection). Polling every
 *   `WORKER_POLL_SECONDS` remains as the fallback.
 * - **Heartbeats**: every `WORKER_HEARTBEAT_MS` one UPDATE refreshes `heartbeat_at` of the
 *   rows this worker is scoring (`heartbeatClaims`). A job whose claim is gone (re-queued
 *   as stale, or by a new gold key) is aborted at once and writes nothing. When this process
 *   dies, its heartbeats stop, and the reconciler of any worker (this one restarted, or
 *   another) re-queues its rows once `SCORING_HEARTBEAT_STALE_MS` has passed.
 * - One log line per job: job id, submission, outcome (SCORED, FAILED, SKIPPED, DEFERRED,
 *   INTERRUPTED, ERROR), attempt, milliseconds.
 * - A bad job never stops the worker: a malformed payload is logged and completed, a
 *   scoring failure is recorded on the submission, an infrastructure error is logged and
 *   retried by pg-boss.
 * - **Fair per team**: each job, as it starts, has the waiting jobs' priorities recomputed
 *   (`rebalanceScoreQueue` in `lib/queue.ts`), so that teams take turns for the scoring slots.
 * - **Significance**: one more poller takes `board-significance` jobs and computes a board's
 *   significance markers and intervals (`lib/boards/board-significance.ts`); every SCORED
 *   run asks for its phase's default boards, so pages read them instead of bootstrapping.
 * - `stop()`: stops fetching, lets running jobs finish for up to `shutdownTimeoutMs`, then
 *   interrupts them (their submissions go back to QUEUED), stops the threads and pg-boss.
 *
 * This file sets the worker up and stops it; the handlers of the two queues' jobs are in
 * `job-handlers.ts`, the reconcile passes, heartbeats and team wake-ups in `upkeep.ts`, and
 * what they share in `context.ts`.
 */
import { hostname } from "node:os";
import type PgBoss from "pg-boss";
import { getPrisma } from "../db/client";
import { getBoss, listenForScoring, SCORE_QUEUE, SIGNIFICANCE_QUEUE, stopBoss, type ScoreJobData, type SignificanceJobData } from "../queue";
import type { ScoringConfig } from "../scoring-config";
import { inFlight, type Running, type WorkerContext } from "./context";
import { scoreJobHandler, significanceJobHandler } from "./job-handlers";
import { createScoringPool } from "./scoring-pool";
import { claimHeartbeats, reconcilePasses, teamWaker } from "./upkeep";

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** Postgres URL (the worker's Prisma client, pg-boss and the LISTEN connection use it). */
  connectionString: string;
  /** Jobs run at once (`WORKER_CONCURRENCY`, default 2); also the number of scoring threads. At most one of a team's runs is scored at a time, whatever this is. */
  concurrency: number;
  config: ScoringConfig;
  /** Where log lines go (default `console.log`). */
  log?: (line: string) => void;
}

/** A running worker. */
export interface WorkerHandle {
  /** `host:pid`, recorded on the rows it claims */
  workerId: string;
  /** Submissions being scored right now. */
  inFlight(): string[];
  /** Graceful stop (see the file comment); safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts a worker: the scoring threads, pg-boss, the pollers, the LISTEN connection, the
 * heartbeats and the periodic reconciler (which also runs once before the first job).
 *
 * @param options connection, concurrency, scoring settings, logger
 * @returns a handle to stop it
 * @throws when pg-boss cannot start or the first reconcile fails (database unreachable)
 */
export async function startWorker(options: WorkerOptions): Promise<WorkerHandle> {
  const { config, concurrency } = options;
  const ctx: WorkerContext = {
    workerId: `${hostname()}:${process.pid}`,
    prisma: getPrisma(options.connectionString),
    boss: await getBoss(options.connectionString),
    config,
    log: options.log ?? ((line: string) => console.log(line)),
    running: new Map<string, Running>(),
  };
  const { boss, log } = ctx;
  const pool = createScoringPool({ threads: concurrency, maxMemoryMb: config.maxMemoryMb });
  const reconciler = reconcilePasses(ctx);
  const heartbeat = claimHeartbeats(ctx);
  const waker = teamWaker(ctx);
  /** Set by `stop()`: an ended job no longer enqueues its team's next run (the other workers' reconcilers do). */
  let stopping = false;
  /** The significance poller's id (set once it runs), to wake it when a scored run asks for boards. */
  let significanceWorkId: string | undefined;
  const runJob = scoreJobHandler(ctx, pool, {
    claimEnded: (teamId) => {
      if (!stopping) waker.wake(teamId);
    },
    notifySignificance: () => {
      if (significanceWorkId) boss.notifyWorker(significanceWorkId);
    },
  });

  await reconciler.run();

  const workIds = await startScorePollers(boss, concurrency, config.pollSeconds, runJob);
  // One poller computes boards' significance (`board-significance.ts`): CPU-bound, one at a time.
  significanceWorkId = await boss.work<SignificanceJobData>(SIGNIFICANCE_QUEUE, { batchSize: 1, pollingIntervalSeconds: config.pollSeconds }, significanceJobHandler(log));
  const listener = listenForScoring(options.connectionString, () => {
    for (const id of workIds) boss.notifyWorker(id);
  }, log);
  const reconcileTimer = setInterval(() => void reconciler.run(), config.reconcileIntervalMs);
  reconcileTimer.unref();
  const heartbeatTimer = setInterval(() => void heartbeat.run(), config.heartbeatMs);
  heartbeatTimer.unref();

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      clearInterval(reconcileTimer);
      await listener.close();
      await stopPollingAndJobs(ctx);
      clearInterval(heartbeatTimer);
      await Promise.all([reconciler.current(), heartbeat.current(), ...waker.pending()]);
      await pool.destroy();
      await stopBoss(1000);
    })());

  log(
    `worker ${ctx.workerId} ready: concurrency=${concurrency} timeout_ms=${config.timeoutMs} (per run: ${config.baseMs} + ${config.msPerMb}/MB, capped) max_memory_mb=${config.maxMemoryMb} ` +
      `heartbeat_ms=${config.heartbeatMs} heartbeat_stale_ms=${config.heartbeatStaleMs} stale_ms=${config.staleAfterMs} reconcile_ms=${config.reconcileIntervalMs}`,
  );
  return { workerId: ctx.workerId, inFlight: () => inFlight(ctx), stop };
}

/**
 * Starts `concurrency` pollers of the score queue, each taking one job at a time and, once it
 * is done, fetching the next at once instead of sleeping the polling interval.
 *
 * @param pollSeconds the polling interval (the fallback when no NOTIFY wakes a poller)
 * @returns the pollers' pg-boss worker ids
 */
async function startScorePollers(
  boss: PgBoss,
  concurrency: number,
  pollSeconds: number,
  runJob: (job: PgBoss.JobWithMetadata<ScoreJobData>) => Promise<unknown>,
): Promise<string[]> {
  const workIds: string[] = [];
  const workOptions = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: pollSeconds };
  for (let i = 0; i < concurrency; i++) {
    const poller = i;
    workIds.push(
      await boss.work<ScoreJobData>(SCORE_QUEUE, workOptions, async (jobs) => {
        try {
          const results: unknown[] = [];
          for (const job of jobs) results.push(await runJob(job));
          return results.length === 1 ? results[0] : undefined;
        } finally {
          // There may be more: fetch again at once instead of sleeping the polling interval.
          boss.notifyWorker(workIds[poller]);
        }
      }),
    );
  }
  return workIds;
}

/**
 * The first half of a graceful stop: stops fetching jobs, lets the running ones finish for up
 * to `shutdownTimeoutMs`, then interrupts the rest (their submissions go back to the queue)
 * and waits for them (10 s at most).
 */
async function stopPollingAndJobs(ctx: WorkerContext): Promise<void> {
  const { boss, config, log, running } = ctx;
  await boss.offWork(SCORE_QUEUE).catch(() => undefined);
  await boss.offWork(SIGNIFICANCE_QUEUE).catch(() => undefined);
  const deadline = Date.now() + config.shutdownTimeoutMs;
  while (running.size > 0 && Date.now() < deadline) await delay(100);
  if (running.size > 0) {
    log(`stopping: interrupting ${running.size} running job(s); their submissions go back to the queue`);
    const pending = [...running.values()];
    for (const r of pending) r.controller.abort(new Error("the worker is shutting down"));
    await Promise.race([Promise.all(pending.map((r) => r.done)), delay(10_000)]);
    await delay(200); // let pg-boss record the failed jobs (it does not await that)
  }
}

/** Resolves after `ms` milliseconds. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
