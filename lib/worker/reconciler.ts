/**
 * The reconciler: makes sure no submission is ever stuck. Workers run it at start and
 * every `RECONCILE_INTERVAL_MS`; it is safe to run from several processes at once (every
 * step is a guarded UPDATE or an idempotent enqueue).
 *
 * 1. A SCORING row whose `started_at` is older than `SCORING_STALE_MS` has lost its worker
 *    (a live worker finishes or gives up within `SCORING_TIMEOUT_MS`, which is shorter).
 *    It goes back to QUEUED, or, when it has already been claimed `SCORING_MAX_ATTEMPTS`
 *    times (a submission that keeps killing its worker), to FAILED with stage `platform`.
 * 2. pg-boss jobs that have been active for longer than the stale threshold are cancelled
 *    (their worker is gone; see the stately caveat in `lib/queue.ts`).
 * 3. Every QUEUED submission without a live job (waiting, retrying or running) is enqueued.
 *    Submissions whose job waits for a retry are left alone, so backoff is respected.
 */
import type PgBoss from "pg-boss";
import { getPrisma, type PrismaClient } from "../db/client";
import { cancelAbandonedJobs, enqueueScoring, getBoss, submissionsWithLiveJobs } from "../queue";
import { scoringConfig, type ScoringConfig } from "./config";

/** Options of {@link reconcile}. */
export interface ReconcileOptions {
  prisma?: PrismaClient;
  boss?: PgBoss;
  config?: ScoringConfig;
  /** Submissions this process is scoring right now: never reset, whatever their age. */
  skipIds?: Iterable<string>;
}

/** What one pass did. */
export interface ReconcileResult {
  /** stale SCORING rows put back to QUEUED */
  reset: number;
  /** stale SCORING rows that reached the attempt limit and were marked FAILED (platform) */
  failed: number;
  /** abandoned active pg-boss jobs cancelled */
  cancelledJobs: number;
  /** QUEUED submissions that had no live job and were enqueued */
  enqueued: number;
}

/** Message template (Postgres `format`, `%s` = attempts) of a submission failed by the attempt limit. */
const TOO_MANY_ATTEMPTS =
  "Scoring was interrupted %s times (the scoring worker stopped while working on this file), so it was given up. This is a platform problem and does not count against your submission limit; please tell the organizers.";

/** The error message of a submission failed by the attempt limit after `attempts` claims. */
export function tooManyAttemptsMessage(attempts: number): string {
  return TOO_MANY_ATTEMPTS.replace("%s", String(attempts));
}

/**
 * One reconciliation pass (see the file comment).
 *
 * @param options `prisma`, `boss` and `config` default to the shared instances and the
 *   environment; `skipIds` are submissions this process is scoring
 * @returns counts of what was done
 */
export async function reconcile(options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const prisma = options.prisma ?? getPrisma();
  const config = options.config ?? scoringConfig();
  const boss = options.boss ?? (await getBoss());
  const skip = [...(options.skipIds ?? [])];
  const stale = config.staleAfterMs;

  const failedIds = await prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE submissions
         SET status = 'FAILED', error_stage = 'platform', error_message = format(${TOO_MANY_ATTEMPTS}, attempts), error_location = NULL,
             scored_at = NULL, gold_version = NULL, scorer_version = NULL
       WHERE status = 'SCORING'
         AND (started_at IS NULL OR started_at < now() - ${stale}::int * interval '1 millisecond')
         AND attempts >= ${config.maxAttempts}
         AND NOT (id::text = ANY(${skip}::text[]))
       RETURNING id::text`;
    if (rows.length) {
      const ids = rows.map((r) => r.id);
      await tx.score.deleteMany({ where: { submissionId: { in: ids } } });
      await tx.documentScore.deleteMany({ where: { submissionId: { in: ids } } });
    }
    return rows.map((r) => r.id);
  });

  const resetRows = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE submissions SET status = 'QUEUED'
     WHERE status = 'SCORING'
       AND (started_at IS NULL OR started_at < now() - ${stale}::int * interval '1 millisecond')
       AND NOT (id::text = ANY(${skip}::text[]))
     RETURNING id::text`;

  const cancelled = await cancelAbandonedJobs(boss, stale);

  // Oldest first, so that pg-boss (which fetches by creation) keeps submission order.
  const queued = await prisma.submission.findMany({
    where: { status: "QUEUED" },
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  let enqueued = 0;
  for (let i = 0; i < queued.length; i += 1000) {
    const ids = queued.slice(i, i + 1000).map((p) => p.id);
    const live = await submissionsWithLiveJobs(boss, ids);
    const missing = ids.filter((id) => !live.has(id));
    await enqueueScoring(missing, { boss });
    enqueued += missing.length;
  }

  return { reset: resetRows.length, failed: failedIds.length, cancelledJobs: cancelled.length, enqueued };
}
