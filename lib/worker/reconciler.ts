/**
 * The reconciler: makes sure no submission is ever stuck. Workers run it at start and
 * every `RECONCILE_INTERVAL_MS`; it is safe to run from several processes at once (every
 * step is a guarded UPDATE from `lib/submission-states.ts`, a cancel of a job whose worker
 * is gone, or an idempotent enqueue). A pass costs a handful of indexed queries.
 *
 * 1. A SCORING row is stale when its heartbeat is older than `SCORING_HEARTBEAT_STALE_MS`
 *    (its worker died: a live worker refreshes it every `WORKER_HEARTBEAT_MS`), or when it
 *    was claimed longer ago than `SCORING_STALE_MS` (a stuck worker). A stale row goes back
 *    to QUEUED, or, when it has already been claimed `SCORING_MAX_ATTEMPTS` times (a
 *    submission that keeps killing its worker), to FAILED with stage `platform`.
 * 2. Running pg-boss jobs older than the heartbeat threshold whose submission is not held
 *    by a live claim are cancelled at once: their worker is gone, and an abandoned active
 *    job would block the queue (see the stately caveat in `lib/queue.ts`).
 * 3. Every QUEUED submission without a live job (waiting, retrying or running) is enqueued,
 *    which wakes the workers. Submissions whose job waits for a retry are left alone, so
 *    backoff is respected. So are those whose team has a run SCORING under a live claim: a
 *    worker would only defer them (one run per team at a time, `claimSubmission`); the
 *    worker that ends the team's run enqueues the team's next one ({@link enqueueTeamNext}),
 *    and should that not happen (it died, or the enqueue failed), the team has no live claim
 *    any more and this step enqueues them.
 *
 * 4. The waiting jobs' priorities are recomputed (fair per team, `rebalanceScoreQueue` in
 *    `lib/queue.ts`).
 *
 * So a run whose worker was killed is scored again within about heartbeat threshold +
 * reconcile interval (20 + 5 s by default) after its last heartbeat, by any live worker.
 */
import type PgBoss from "pg-boss";
import { getPrisma, type PrismaClient } from "../db/client";
import { activeJobs, cancelJobs, enqueueScoring, getBoss, rebalanceScoreQueue, submissionsWithLiveJobs, submissionsWithWaitingJobs } from "../queue";
import { claimableQueuedIds, failStaleExhausted, liveClaimIds, requeueStale, type Staleness } from "../submission-states";
import { scoringConfig, type ScoringConfig } from "../scoring-config";

export { tooManyAttemptsMessage } from "../submission-states";

/** Options of {@link reconcile}. */
export interface ReconcileOptions {
  prisma?: PrismaClient;
  boss?: PgBoss;
  config?: ScoringConfig;
  /** Submissions this process is scoring right now: never reset and their jobs never cancelled. */
  skipIds?: Iterable<string>;
}

/** What one pass did. */
export interface ReconcileResult {
  /** stale SCORING rows put back to QUEUED */
  reset: number;
  /** stale SCORING rows that reached the attempt limit and were marked FAILED (platform) */
  failed: number;
  /** abandoned running pg-boss jobs cancelled */
  cancelledJobs: number;
  /** QUEUED submissions that had no live job and were enqueued */
  enqueued: number;
}

/**
 * One reconciliation pass (see the file comment).
 *
 * @param options `prisma`, `boss` and `config` default to the shared instances and the
 *   environment; `skipIds` are submissions this process is scoring
 * @returns counts of what was done
 * @throws database errors (the next pass retries; every step is idempotent)
 */
export async function reconcile(options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const prisma = options.prisma ?? getPrisma();
  const config = options.config ?? scoringConfig();
  const boss = options.boss ?? (await getBoss());
  const skipIds = [...(options.skipIds ?? [])];
  const skip = new Set(skipIds);

  const failed = await failStaleExhausted(prisma, { ...config, skipIds });
  const reset = await requeueStale(prisma, { ...config, skipIds });

  const running = (await activeJobs(boss, { startedBeforeMs: config.heartbeatStaleMs })).filter((j) => !skip.has(j.submissionId));
  const live = await liveClaimIds(prisma, running.map((j) => j.submissionId), config);
  const abandoned = running.filter((j) => !live.has(j.submissionId));
  await cancelJobs(boss, abandoned.map((j) => j.jobId));

  // Oldest first, so that pg-boss (which fetches by creation) keeps submission order; not
  // those of a team with a run being scored (they would only be deferred: one run per team).
  const queued = await claimableQueuedIds(prisma, config);
  let enqueued = 0;
  for (let i = 0; i < queued.length; i += 1000) {
    const ids = queued.slice(i, i + 1000);
    const withJob = await submissionsWithLiveJobs(boss, ids);
    const missing = ids.filter((id) => !withJob.has(id));
    await enqueueScoring(missing, { boss });
    enqueued += missing.length;
  }

  // Fair per team: recompute the waiting jobs' priorities (jobs that ended since, or skipped rows).
  await rebalanceScoreQueue(boss);

  return { reset: reset.length, failed: failed.length, cancelledJobs: abandoned.length, enqueued };
}

/**
 * Enqueues a team's next run once its run being scored has ended (one run per team at a time,
 * `claimSubmission`): the oldest of the team's QUEUED submissions that has no live job, unless
 * one of them already has a job waiting (that one will be fetched and claimed). The enqueue
 * wakes every worker (`NOTIFY`), so a deferred run starts within moments, not at the next
 * reconcile. A run left out here (a job still finishing its deferral) is enqueued by the
 * reconciler, which does so for every QUEUED run of a team with no live claim.
 *
 * @param options `teamId`; `prisma` and `boss` default to the shared instances; `stale`, the
 *   staleness thresholds: nothing is enqueued while the team has a run SCORING under a live
 *   claim (another worker's), whose end enqueues the next one instead (`claimableQueuedIds`)
 * @returns the id enqueued, or null when none was needed
 * @throws database errors
 */
export async function enqueueTeamNext(options: { teamId: string; prisma?: PrismaClient; boss?: PgBoss; stale: Staleness }): Promise<string | null> {
  const prisma = options.prisma ?? getPrisma();
  const boss = options.boss ?? (await getBoss());
  // Empty while the team has a run SCORING under a live claim.
  const queued = await claimableQueuedIds(prisma, options.stale, { teamId: options.teamId, limit: 1000 });
  if (queued.length === 0) return null;
  const waiting = await submissionsWithWaitingJobs(boss, queued);
  if (waiting.size > 0) return null;
  const live = await submissionsWithLiveJobs(boss, queued);
  const next = queued.find((id) => !live.has(id));
  if (!next) return null;
  await enqueueScoring([next], { boss });
  return next;
}
