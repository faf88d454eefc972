/**
 * The job queue (pg-boss 10 on the same PostgreSQL), shared by web and worker processes.
 *
 * One queue, `score-submission`, with the `stately` policy: per submission (singleton key =
 * submission id) at most one job waits, one waits for a retry, and one runs, so enqueueing
 * twice is harmless. Jobs retry with exponential backoff on infrastructure errors, and
 * expire (`SCORE_JOB_EXPIRE_SECONDS`, see `lib/scoring-config.ts`) if a worker dies.
 *
 * The queue is only a delivery mechanism: the submission row's status is the truth, and
 * `lib/scoring-job.ts` claims a row atomically before scoring it, so a job delivered twice
 * is a no-op and the reconciler (`lib/reconciler.ts`) can re-enqueue freely.
 *
 * pg-boss 10 caveat (stately): while a submission's job is `active`, a newer `created` job
 * for the same submission cannot be fetched, and pg-boss' fetch then returns nothing for the
 * whole queue until the active job ends. Hence the reconciler enqueues only submissions
 * without a live job, and cancels active jobs that outlived the stale threshold (their
 * worker is gone) instead of waiting for pg-boss' own expiry.
 */
import PgBoss from "pg-boss";
import { scoringConfig } from "./worker/config";

/** The queue name used by web (send) and workers (work). */
export const SCORE_QUEUE = "score-submission";

/** pg-boss' schema in the database. */
export const BOSS_SCHEMA = "pgboss";

/** The payload of a scoring job. */
export interface ScoreJobData {
  submissionId: string;
}

/**
 * Options of the scoring queue, used when {@link ensureScoreQueue} creates it. Retries: 5, after
 * about 5–10, 10–20, 20–40, 40–80 and 80–160 s (pg-boss' jittered backoff on `retryDelay`).
 * `expireInSeconds` here is only the fallback: every job is sent with the configured expiry.
 */
export const SCORE_QUEUE_OPTIONS = {
  name: SCORE_QUEUE,
  policy: "stately" as const,
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

const globalForBoss = globalThis as unknown as { corefboardBoss?: Promise<PgBoss> };

/**
 * The process-wide pg-boss instance, started and with the scoring queue created.
 *
 * @param connectionString defaults to `process.env.DATABASE_URL`
 * @throws Error when no connection string is set, or pg-boss cannot start
 */
export function getBoss(connectionString: string | undefined = process.env.DATABASE_URL): Promise<PgBoss> {
  if (!connectionString) throw new Error("getBoss: DATABASE_URL is not set");
  globalForBoss.corefboardBoss ??= (async () => {
    const boss = new PgBoss({ connectionString, schema: BOSS_SCHEMA, max: 4 });
    boss.on("error", (error) => console.error(`pg-boss: ${error instanceof Error ? error.message : String(error)}`));
    await boss.start();
    await ensureScoreQueue(boss);
    return boss;
  })().catch((error) => {
    globalForBoss.corefboardBoss = undefined;
    throw error;
  });
  return globalForBoss.corefboardBoss;
}

/** Creates the scoring queue if it does not exist yet (safe to call concurrently). */
export async function ensureScoreQueue(boss: PgBoss): Promise<void> {
  if (await boss.getQueue(SCORE_QUEUE)) return;
  try {
    await boss.createQueue(SCORE_QUEUE, SCORE_QUEUE_OPTIONS);
  } catch (error) {
    if (!(await boss.getQueue(SCORE_QUEUE))) throw error;
  }
}

/**
 * Puts one scoring job per submission on the queue, with the configured job expiry. A
 * submission that already has a waiting job is skipped by pg-boss (same singleton key).
 * Callers should have set the submissions to QUEUED first; if this call fails or never
 * happens, the reconciler enqueues them later.
 *
 * @param submissionIds ids of submissions in status QUEUED
 * @param options `boss` to use instead of the process-wide instance
 */
export async function enqueueScoring(submissionIds: readonly string[], options: { boss?: PgBoss } = {}): Promise<void> {
  if (submissionIds.length === 0) return;
  const boss = options.boss ?? (await getBoss());
  const expireInSeconds = scoringConfig().jobExpireSeconds;
  for (let i = 0; i < submissionIds.length; i += 500) {
    await boss.insert(
      submissionIds.slice(i, i + 500).map((submissionId) => ({
        name: SCORE_QUEUE,
        data: { submissionId } satisfies ScoreJobData,
        singletonKey: submissionId,
        expireInSeconds,
      })),
    );
  }
}

/**
 * Which of `submissionIds` have a live scoring job (waiting, waiting for a retry, or
 * running).
 *
 * @returns the subset of ids with a job in state created, retry or active
 */
export async function submissionsWithLiveJobs(boss: PgBoss, submissionIds: readonly string[]): Promise<Set<string>> {
  if (submissionIds.length === 0) return new Set();
  const { rows } = await boss.getDb().executeSql(
    `SELECT DISTINCT singleton_key FROM ${BOSS_SCHEMA}.job
      WHERE name = $1 AND state IN ('created', 'retry', 'active') AND singleton_key = ANY($2::text[])`,
    [SCORE_QUEUE, submissionIds],
  );
  return new Set(rows.map((r: { singleton_key: string }) => r.singleton_key));
}

/**
 * Cancels scoring jobs that have been `active` for longer than `olderThanMs`: their worker
 * is gone (a live one finishes or gives up within the scoring timeout), and an abandoned
 * active job would block the submission's next job until pg-boss expires it.
 *
 * @returns the submission ids (singleton keys) of the cancelled jobs
 */
export async function cancelAbandonedJobs(boss: PgBoss, olderThanMs: number): Promise<string[]> {
  const { rows } = await boss.getDb().executeSql(
    `SELECT id, singleton_key FROM ${BOSS_SCHEMA}.job
      WHERE name = $1 AND state = 'active' AND started_on < now() - $2::int * interval '1 millisecond'`,
    [SCORE_QUEUE, Math.round(olderThanMs)],
  );
  if (rows.length === 0) return [];
  await boss.cancel(SCORE_QUEUE, rows.map((r: { id: string }) => r.id));
  return rows.map((r: { singleton_key: string | null }) => r.singleton_key).filter((k: string | null): k is string => k !== null);
}

/**
 * Stops the process-wide instance, letting active jobs finish for up to `timeoutMs`
 * (milliseconds, default 10 s). Does nothing when none was started.
 */
export async function stopBoss(timeoutMs = 10_000): Promise<void> {
  const pending = globalForBoss.corefboardBoss;
  globalForBoss.corefboardBoss = undefined;
  if (pending) await (await pending).stop({ graceful: true, timeout: timeoutMs, wait: true });
}
