/**
 * What a scoring worker (`worker.ts`) does with one job of each queue: `score-submission`
 * (score the run, one log line per job) and `board-significance` (compute a board's
 * significance markers and intervals).
 */
import type PgBoss from "pg-boss";
import { computeBoardSignificance, requestDefaultBoards } from "../boards";
import { isUuid } from "../db";
import { rebalanceScoreQueue, type ScoreJobData, type SignificanceJobData } from "../queue";
import { errorMessage, type Running, type WorkerContext } from "./context";
import { scoreSubmission, type ScoreOutcome } from "./scoring-job";
import type { ScoringPool } from "./scoring-pool";

/** What the score job handler tells the rest of the worker. */
export interface ScoreJobHooks {
  /** A job that held a claim of `teamId` ended (scored, failed, interrupted or errored). */
  claimEnded(teamId: string): void;
  /** Called to wake the significance poller once a scored run has asked for its phase's default boards. */
  notifySignificance(): void;
}

/**
 * The handler of one `score-submission` job: discards a payload without a valid
 * `submissionId`, has the waiting jobs' priorities recomputed (fair per team), scores the
 * run with `pool` (`scoreSubmission`; the job is in `ctx.running` meanwhile, so heartbeats
 * refresh its claim and `stop()` can interrupt it), logs one line with its outcome, and for
 * a SCORED run asks for its phase's default boards' significance.
 *
 * @returns the handler: resolves with `{ status }` for pg-boss's record
 * @throws (the handler) what `scoreSubmission` throws, after logging it as INTERRUPTED or
 *   ERROR; pg-boss then retries the job while it has retries left
 */
export function scoreJobHandler(ctx: WorkerContext, pool: ScoringPool, hooks: ScoreJobHooks): (job: PgBoss.JobWithMetadata<ScoreJobData>) => Promise<unknown> {
  const { workerId, prisma, boss, config, log, running } = ctx;
  return async (job) => {
    const started = Date.now();
    const submissionId = job.data?.submissionId;
    if (typeof submissionId !== "string" || !isUuid(submissionId)) {
      log(`job=${job.id} status=DISCARDED reason="payload has no valid submissionId" ms=0`);
      return { status: "DISCARDED" };
    }
    // Jobs that ended since the last rebalance (this poller's previous one among them) no longer
    // count against their team: move the team's waiting runs up (fair per team, `lib/queue.ts`).
    void rebalanceScoreQueue(boss).catch((error: unknown) => log(`queue rebalance failed (the reconciler retries): ${errorMessage(error)}`));
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
      log(scoreErrorLine(job, submissionId, entry.controller.signal.aborted, Date.now() - started, error));
      throw error;
    } finally {
      running.delete(job.id);
      if (entry.claim) hooks.claimEnded(entry.claim.teamId);
    }
    const ms = Date.now() - started;
    if (outcome.status === "SCORED") requestSignificance(ctx, submissionId, hooks);
    log(scoreOutcomeLine(job.id, submissionId, outcome, ms));
    return { status: outcome.status };
  };
}

/**
 * The log line of a score job that threw: INTERRUPTED when it was aborted (the worker is
 * shutting down; the run goes back to the queue), else ERROR with its retries.
 *
 * @param aborted whether the job's abort signal fired
 * @param ms how long the job ran
 */
export function scoreErrorLine(job: Pick<PgBoss.JobWithMetadata, "id" | "retryCount" | "retryLimit">, submissionId: string, aborted: boolean, ms: number, error: unknown): string {
  if (aborted) return `job=${job.id} submission=${submissionId} status=INTERRUPTED ms=${ms} (worker shutting down; back to the queue)`;
  const retry = job.retryCount < job.retryLimit ? `retry ${job.retryCount + 1}/${job.retryLimit} later` : "no retries left";
  return `job=${job.id} submission=${submissionId} status=ERROR ms=${ms} (${retry}): ${errorMessage(error)}`;
}

/**
 * The log line of a score job that ended with an outcome: `job=… submission=… status=…`
 * with the outcome's details and the milliseconds it took.
 */
export function scoreOutcomeLine(jobId: string, submissionId: string, outcome: ScoreOutcome, ms: number): string {
  switch (outcome.status) {
    case "SCORED":
      return `job=${jobId} submission=${submissionId} status=SCORED attempt=${outcome.attempt} gold=${outcome.goldVersion === null ? "per-dataset" : `v${outcome.goldVersion}`} datasets=${outcome.datasets.scored} kept=${outcome.datasets.kept} missing=${outcome.datasets.missing} warnings=${outcome.warnings} ms=${ms}`;
    case "FAILED":
      return `job=${jobId} submission=${submissionId} status=FAILED attempt=${outcome.attempt} stage=${outcome.errorStage} ms=${ms}`;
    case "SKIPPED":
      return `job=${jobId} submission=${submissionId} status=SKIPPED reason="${outcome.reason}" ms=${ms}`;
    case "DEFERRED":
      // The row stays QUEUED without a job: the end of the team's run enqueues it again.
      return `job=${jobId} submission=${submissionId} status=DEFERRED reason="${outcome.reason}" ms=${ms}`;
  }
}

/**
 * A run was scored, so its phase's default boards change: has their significance computed
 * (off the request path) and wakes the significance poller. In the background; a failure is
 * logged.
 */
function requestSignificance(ctx: WorkerContext, submissionId: string, hooks: ScoreJobHooks): void {
  void ctx.prisma.submission
    .findUnique({ where: { id: submissionId }, select: { phaseId: true } })
    .then(async (s) => {
      if (!s) return;
      await requestDefaultBoards(s.phaseId);
      hooks.notifySignificance();
    })
    .catch((error: unknown) => ctx.log(`significance request for submission=${submissionId} failed: ${errorMessage(error)}`));
}

/**
 * The handler of one `board-significance` job: computes the board's significance
 * (`computeBoardSignificance`) and logs one line with the outcome; a payload without a valid
 * `phaseId` is logged and discarded.
 */
export function significanceJobHandler(log: (line: string) => void): (jobs: PgBoss.Job<SignificanceJobData>[]) => Promise<void> {
  return async ([job]) => {
    const started = Date.now();
    if (!job?.data || typeof job.data.phaseId !== "string" || !isUuid(job.data.phaseId)) {
      log(`job=${job?.id} significance status=DISCARDED reason="payload has no valid phaseId"`);
      return;
    }
    const outcome = await computeBoardSignificance(job.data);
    const detail = outcome.status === "computed" ? ` board="${outcome.key}" rows=${outcome.rows} bootstrap_ms=${outcome.ms}` : outcome.status === "fresh" ? ` board="${outcome.key}"` : ` reason="${outcome.reason}"`;
    log(`job=${job.id} significance phase=${job.data.phaseId} status=${outcome.status.toUpperCase()}${detail} ms=${Date.now() - started}`);
  };
}
