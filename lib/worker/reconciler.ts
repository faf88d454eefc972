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
 *    backoff is respected.
 *
 * 4. The waiting jobs' priorities are recomputed (fair per team, `rebalanceScoreQueue` in
 *    `lib/queue.ts`).
 *
 * So a run whose worker was killed is scored again within about heartbeat threshold +
 * reconcile interval (20 + 5 s by default) after its last heartbeat, by any live worker.
 */
import type PgBoss from "pg-boss";
import { getPrisma, type PrismaClient } from "../db/client";
import { activeJobs, cancelJobs, enqueueScoring, getBoss, rebalanceScoreQueue, submissionsWithLiveJobs } from "../queue";
import { failStaleExhausted, liveClaimIds, requeueStale } from "../submission-states";
import { scoringConfig, type ScoringConfig } from "./config";

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

  // Oldest first, so that pg-boss (which fetches by creation) keeps submission order.
  const queued = await prisma.submission.findMany({
    where: { status: "QUEUED" },
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  let enqueued = 0;
  for (let i = 0; i < queued.length; i += 1000) {
    const ids = queued.slice(i, i + 1000).map((p) => p.id);
    const withJob = await submissionsWithLiveJobs(boss, ids);
    const missing = ids.filter((id) => !withJob.has(id));
    await enqueueScoring(missing, { boss });
    enqueued += missing.length;
  }

  // Fair per team: recompute the waiting jobs' priorities (jobs that ended since, or skipped rows).
  await rebalanceScoreQueue(boss);

  return { reset: reset.length, failed: failed.length, cancelledJobs: abandoned.length, enqueued };
}
