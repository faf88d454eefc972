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
 */
import { hostname } from "node:os";
import type PgBoss from "pg-boss";
import { getPrisma } from "../db/client";
import { getBoss, listenForScoring, rebalanceScoreQueue, SCORE_QUEUE, SIGNIFICANCE_QUEUE, stopBoss, type ScoreJobData, type SignificanceJobData } from "../queue";
import { pruneBoardChanges } from "../boards/cache";
import { computeBoardSignificance, requestDefaultBoards } from "../boards/board-significance";
import { isUuid } from "../db";
import { heartbeatClaims, type Claim } from "../submission-states";
import type { ScoringConfig } from "../scoring-config";
import { enqueueTeamNext, reconcile } from "./reconciler";
import { ClaimLostError, scoreSubmission, type ScoreOutcome } from "./scoring-job";
import { createScoringPool } from "./scoring-pool";

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

/** A job this process is running. */
interface Running {
  jobId: string;
  submissionId: string;
  controller: AbortController;
  /** set once the row is claimed; heartbeats refresh it */
  claim?: Claim;
  done: Promise<unknown>;
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
  const log = options.log ?? ((line: string) => console.log(line));
  const workerId = `${hostname()}:${process.pid}`;
  const prisma = getPrisma(options.connectionString);
  const boss = await getBoss(options.connectionString);
  const pool = createScoringPool({ threads: concurrency, maxMemoryMb: config.maxMemoryMb });
  /** by pg-boss job id */
  const running = new Map<string, Running>();
  const inFlight = () => [...running.values()].map((r) => r.submissionId);

  let reconciling: Promise<void> | undefined;
  const runReconcile = (): Promise<void> =>
    (reconciling ??= reconcile({ prisma, boss, config, skipIds: inFlight() })
      .then(async (r) => {
        await pruneBoardChanges(prisma).catch((error: unknown) => log(`board changes: pruning failed: ${message(error)}`));
        if (r.reset || r.failed || r.cancelledJobs || r.enqueued) {
          log(`reconcile reset=${r.reset} failed=${r.failed} cancelled_jobs=${r.cancelledJobs} enqueued=${r.enqueued}`);
        }
      })
      .catch((error: unknown) => log(`reconcile error: ${message(error)}`))
      .finally(() => {
        reconciling = undefined;
      }));

  let beating: Promise<void> | undefined;
  let heartbeatFailing = false;
  const heartbeat = (): Promise<void> =>
    (beating ??= (async () => {
      const jobs = [...running.values()].filter((r): r is Running & { claim: Claim } => r.claim !== undefined);
      if (jobs.length === 0) return;
      try {
        const held = new Set(await heartbeatClaims(prisma, jobs.map((r) => r.claim)));
        if (heartbeatFailing) log("heartbeat: database reachable again");
        heartbeatFailing = false;
        for (const r of jobs) {
          // A job that finished meanwhile has no claim to lose.
          if (!held.has(r.claim) && running.has(r.jobId)) r.controller.abort(new ClaimLostError(r.submissionId));
        }
      } catch (error) {
        if (!heartbeatFailing) log(`heartbeat error (retrying every ${config.heartbeatMs} ms): ${message(error)}`);
        heartbeatFailing = true;
      }
    })().finally(() => {
      beating = undefined;
    }));

  /** Set by `stop()`: an ended job no longer enqueues its team's next run (the other workers' reconcilers do). */
  let stopping = false;
  /** A job that held a claim of `teamId` ended: enqueue the team's next run (one run per team at a time). */
  const waking = new Set<Promise<void>>();
  const wakeTeam = (teamId: string) => {
    const p: Promise<void> = enqueueTeamNext({ prisma, boss, teamId, stale: config })
      .then(() => undefined)
      .catch((error: unknown) => log(`team=${teamId}: enqueueing its next run failed (the reconciler retries): ${message(error)}`))
      .finally(() => waking.delete(p));
    waking.add(p);
  };

  /** The significance poller's id (set once it runs), to wake it when a scored run asks for boards. */
  let significanceWorkId: string | undefined;

  const runJob = async (job: PgBoss.JobWithMetadata<ScoreJobData>): Promise<unknown> => {
    const started = Date.now();
    const submissionId = job.data?.submissionId;
    if (typeof submissionId !== "string" || !isUuid(submissionId)) {
      log(`job=${job.id} status=DISCARDED reason="payload has no valid submissionId" ms=0`);
      return { status: "DISCARDED" };
    }
    // Jobs that ended since the last rebalance (this poller's previous one among them) no longer
    // count against their team: move the team's waiting runs up (fair per team, `lib/queue.ts`).
    void rebalanceScoreQueue(boss).catch((error: unknown) => log(`queue rebalance failed (the reconciler retries): ${message(error)}`));
    const entry: Running = { jobId: job.id, submissionId, controller: new AbortController(), done: Promise.resolve() };
    const done = scoreSubmission(submissionId, {
      workerId,
      prisma,
      config,
      pool,
      signal: entry.controller.signal,
      onClaim: (claim) => {
        entry.claim = claim;
      },
      finalAttempt: job.retryCount >= job.retryLimit,
    });
    entry.done = done.catch(() => undefined);
    running.set(job.id, entry);
    let outcome: ScoreOutcome;
    try {
      outcome = await done;
    } catch (error) {
      const ms = Date.now() - started;
      if (entry.controller.signal.aborted) {
        log(`job=${job.id} submission=${submissionId} status=INTERRUPTED ms=${ms} (worker shutting down; back to the queue)`);
      } else {
        const retry = job.retryCount < job.retryLimit ? `retry ${job.retryCount + 1}/${job.retryLimit} later` : "no retries left";
        log(`job=${job.id} submission=${submissionId} status=ERROR ms=${ms} (${retry}): ${message(error)}`);
      }
      throw error;
    } finally {
      running.delete(job.id);
      if (entry.claim && !stopping) wakeTeam(entry.claim.teamId);
    }
    const ms = Date.now() - started;
    switch (outcome.status) {
      case "SCORED":
        // The phase's default boards change: have their significance computed (off the request path).
        void prisma.submission
          .findUnique({ where: { id: submissionId }, select: { phaseId: true } })
          .then(async (s) => {
            if (!s) return;
            await requestDefaultBoards(s.phaseId);
            if (significanceWorkId) boss.notifyWorker(significanceWorkId);
          })
          .catch((error: unknown) => log(`significance request for submission=${submissionId} failed: ${message(error)}`));
        log(`job=${job.id} submission=${submissionId} status=SCORED attempt=${outcome.attempt} gold=${outcome.goldVersion === null ? "per-dataset" : `v${outcome.goldVersion}`} datasets=${outcome.datasets.scored} kept=${outcome.datasets.kept} missing=${outcome.datasets.missing} warnings=${outcome.warnings} ms=${ms}`);
        break;
      case "FAILED":
        log(`job=${job.id} submission=${submissionId} status=FAILED attempt=${outcome.attempt} stage=${outcome.errorStage} ms=${ms}`);
        break;
      case "SKIPPED":
        log(`job=${job.id} submission=${submissionId} status=SKIPPED reason="${outcome.reason}" ms=${ms}`);
        break;
      case "DEFERRED":
        // The row stays QUEUED without a job: the end of the team's run enqueues it again.
        log(`job=${job.id} submission=${submissionId} status=DEFERRED reason="${outcome.reason}" ms=${ms}`);
        break;
    }
    return { status: outcome.status };
  };

  await runReconcile();

  const workIds: string[] = [];
  const wakeAll = () => {
    for (const id of workIds) boss.notifyWorker(id);
  };
  const workOptions = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: config.pollSeconds };
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
  // One poller computes boards' significance (`board-significance.ts`): CPU-bound, one at a time.
  significanceWorkId = await boss.work<SignificanceJobData>(SIGNIFICANCE_QUEUE, { batchSize: 1, pollingIntervalSeconds: config.pollSeconds }, async ([job]) => {
    const started = Date.now();
    if (!job?.data || typeof job.data.phaseId !== "string" || !isUuid(job.data.phaseId)) {
      log(`job=${job?.id} significance status=DISCARDED reason="payload has no valid phaseId"`);
      return;
    }
    const outcome = await computeBoardSignificance(job.data);
    const detail = outcome.status === "computed" ? ` board="${outcome.key}" rows=${outcome.rows} bootstrap_ms=${outcome.ms}` : outcome.status === "fresh" ? ` board="${outcome.key}"` : ` reason="${outcome.reason}"`;
    log(`job=${job.id} significance phase=${job.data.phaseId} status=${outcome.status.toUpperCase()}${detail} ms=${Date.now() - started}`);
  });
  const listener = listenForScoring(options.connectionString, wakeAll, log);
  const reconcileTimer = setInterval(() => void runReconcile(), config.reconcileIntervalMs);
  reconcileTimer.unref();
  const heartbeatTimer = setInterval(() => void heartbeat(), config.heartbeatMs);
  heartbeatTimer.unref();

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      clearInterval(reconcileTimer);
      await listener.close();
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
      clearInterval(heartbeatTimer);
      await Promise.all([reconciling, beating, ...waking]);
      await pool.destroy();
      await stopBoss(1000);
    })());

  log(
    `worker ${workerId} ready: concurrency=${concurrency} timeout_ms=${config.timeoutMs} (per run: ${config.baseMs} + ${config.msPerMb}/MB, capped) max_memory_mb=${config.maxMemoryMb} ` +
      `heartbeat_ms=${config.heartbeatMs} heartbeat_stale_ms=${config.heartbeatStaleMs} stale_ms=${config.staleAfterMs} reconcile_ms=${config.reconcileIntervalMs}`,
  );
  return { workerId, inFlight, stop };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
