/**
 * The job queue (pg-boss on the same PostgreSQL), shared by web and worker processes.
 *
 * One queue, `score-submission`, with the `stately` policy: per submission (singleton key =
 * submission id) at most one job waits and one runs, so enqueueing twice is harmless and a
 * re-queue while a job runs waits for it. Jobs retry with backoff on infrastructure errors
 * and expire if a worker dies, after which pg-boss retries them on another worker.
 */
import PgBoss from "pg-boss";

/** The queue name used by web (send) and workers (work). */
export const SCORE_QUEUE = "score-submission";

/** The payload of a scoring job. */
export interface ScoreJobData {
  submissionId: string;
}

/** Options of the scoring queue (exported for tests and the worker). */
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
    const boss = new PgBoss({ connectionString, max: 4 });
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
 * Puts one scoring job per submission on the queue. A submission that already has a
 * waiting job is skipped by pg-boss (same singleton key), which is what a re-queue wants.
 *
 * @param submissionIds ids of submissions in status QUEUED
 */
export async function enqueueScoring(submissionIds: readonly string[]): Promise<void> {
  if (submissionIds.length === 0) return;
  const boss = await getBoss();
  for (const submissionId of submissionIds) {
    await boss.send(SCORE_QUEUE, { submissionId } satisfies ScoreJobData, { singletonKey: submissionId });
  }
}

/** Stops the process-wide instance, letting active jobs finish for up to `timeoutMs`. */
export async function stopBoss(timeoutMs = 10_000): Promise<void> {
  const pending = globalForBoss.corefboardBoss;
  globalForBoss.corefboardBoss = undefined;
  if (pending) await (await pending).stop({ graceful: true, timeout: timeoutMs, wait: true });
}
