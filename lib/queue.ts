/**
 * The job queue (pg-boss 10 on the same PostgreSQL), shared by web and worker processes.
 *
 * One queue, `score-submission`, with the `stately` policy: per submission (singleton key =
 * submission id) at most one job waits, one waits for a retry, and one runs, so enqueueing
 * twice is harmless. Jobs retry with exponential backoff on infrastructure errors, and
 * expire (`SCORE_JOB_EXPIRE_SECONDS`, see `lib/scoring-config.ts`) if a worker hangs.
 *
 * The queue is only a delivery mechanism: the submission row's status is the truth, and
 * every status change goes through `lib/submission-states.ts`, where a worker claims a row
 * atomically before scoring it. A job delivered twice is a no-op, and the reconciler
 * (`lib/worker/reconciler.ts`) can re-enqueue freely.
 *
 * **Waking workers.** {@link enqueueScoring} sends `NOTIFY corefboard_score` after the
 * insert; each worker LISTENs on its own connection ({@link listenForScoring}) and wakes its
 * pg-boss pollers at once, so a new job waits for no polling interval. Polling
 * (`WORKER_POLL_SECONDS`) remains for missed notifications and for retries, whose delay
 * pg-boss does not announce.
 *
 * **Fair per team.** Jobs are fetched by pg-boss' order, `priority desc, created_on`, and
 * {@link rebalanceScoreQueue} keeps every waiting job's priority at minus the number of its
 * team's live jobs ahead of it (the team's running jobs first, then its waiting ones by age):
 * a team's first waiting run has priority 0 when the team has nothing running, its next one
 * -1, and so on. So the next slot goes to the team with the fewest runs ahead of its oldest
 * waiting one, ties by age: a round robin over teams, and a team that submits five runs
 * cannot make another team's single run wait behind more than one of them. The priorities are
 * recomputed after every enqueue, by every reconciler pass, and by a worker after each job
 * ends; they only order waiting jobs, so no job is dropped, delayed for ever (a team's k-th
 * run waits at most behind every other team's first k), or fetched twice.
 *
 * **pg-boss 10 caveat (stately).** While a submission's job is `active`, a newer `created`
 * job for the same submission cannot be fetched: pg-boss' fetch fails on its unique index,
 * and so returns nothing for the whole queue until the active job ends. Hence:
 * - {@link enqueueScoring} skips submissions whose job is running (a running job claims the
 *   row itself; if its claim was taken away, the reconciler enqueues the row once the job
 *   has ended);
 * - the reconciler enqueues only submissions without a live job, and cancels running jobs
 *   whose worker is gone ({@link activeJobs}, {@link cancelJobs}) as soon as the row's
 *   heartbeat is stale, instead of waiting for pg-boss' own expiry.
 */
import pg from "pg";
import PgBoss from "pg-boss";
import { scoringConfig } from "./scoring-config";

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

/** Creates the scoring queue and the significance queue if they do not exist yet (safe to call concurrently). */
export async function ensureScoreQueue(boss: PgBoss): Promise<void> {
  for (const options of [SCORE_QUEUE_OPTIONS, SIGNIFICANCE_QUEUE_OPTIONS]) {
    if (await boss.getQueue(options.name)) continue;
    try {
      await boss.createQueue(options.name, options);
    } catch (error) {
      if (!(await boss.getQueue(options.name))) throw error;
    }
  }
}

/** The queue of board significance computations (`lib/boards/board-significance.ts`). */
export const SIGNIFICANCE_QUEUE = "board-significance";

/**
 * A board significance job: which board to compute, as a viewer would ask for it. `viewerId`
 * is the organizer whose board it is (an organizers' board), or null for the board every other
 * reader sees.
 */
export interface SignificanceJobData {
  phaseId: string;
  viewerId: string | null;
  board: { metric: string; track: string | null; dataset: string | null; rankDataset: string | null; allRuns: boolean };
}

/**
 * Options of the significance queue: `short` (one waiting job per board, by singleton key, so
 * a burst of page views asks once), 2 retries, 10 minutes to finish.
 */
export const SIGNIFICANCE_QUEUE_OPTIONS = {
  name: SIGNIFICANCE_QUEUE,
  policy: "short" as const,
  retryLimit: 2,
  retryDelay: 10,
  expireInSeconds: 10 * 60,
};

/**
 * Asks the workers to compute boards' significance (at most one waiting job per `key`; a key
 * already waiting is skipped by pg-boss).
 *
 * @param jobs each board's singleton key (phase and board) and payload
 * @throws when the database is unreachable
 */
export async function enqueueSignificance(jobs: readonly { key: string; data: SignificanceJobData }[], options: { boss?: PgBoss } = {}): Promise<void> {
  if (jobs.length === 0) return;
  const boss = options.boss ?? (await getBoss());
  await boss.insert(jobs.map((j) => ({ name: SIGNIFICANCE_QUEUE, data: j.data, singletonKey: j.key })));
}

/** The Postgres channel on which {@link enqueueScoring} announces new jobs. */
export const SCORE_NOTIFY_CHANNEL = "corefboard_score";

/**
 * Puts one scoring job per submission on the queue, with the configured job expiry, then
 * wakes the workers (`NOTIFY`). A submission that already has a waiting job is skipped by
 * pg-boss (same singleton key); one whose job is running is skipped here (see the stately
 * caveat in the file comment). Callers should have set the submissions to QUEUED first; if
 * this call fails or never happens, the reconciler enqueues them later.
 *
 * @param submissionIds ids of submissions in status QUEUED
 * @param options `boss` to use instead of the process-wide instance
 * @throws when the database is unreachable
 */
export async function enqueueScoring(submissionIds: readonly string[], options: { boss?: PgBoss } = {}): Promise<void> {
  if (submissionIds.length === 0) return;
  const boss = options.boss ?? (await getBoss());
  const expireInSeconds = scoringConfig().jobExpireSeconds;
  let sent = 0;
  for (let i = 0; i < submissionIds.length; i += 500) {
    const chunk = submissionIds.slice(i, i + 500);
    const running = new Set((await activeJobs(boss, { submissionIds: chunk })).map((j) => j.submissionId));
    const ids = chunk.filter((id) => !running.has(id));
    if (ids.length === 0) continue;
    await boss.insert(
      ids.map((submissionId) => ({
        name: SCORE_QUEUE,
        data: { submissionId } satisfies ScoreJobData,
        singletonKey: submissionId,
        expireInSeconds,
      })),
    );
    sent += ids.length;
  }
  if (sent > 0) {
    // The jobs are stored: a failed rebalance only leaves the order to the next one (reconciler).
    await rebalanceScoreQueue(boss).catch((error: unknown) => console.error(`queue rebalance failed (the reconciler retries): ${error instanceof Error ? error.message : String(error)}`));
    await boss.getDb().executeSql(`SELECT pg_notify($1, '')`, [SCORE_NOTIFY_CHANNEL]);
  }
}

/**
 * Sets each waiting scoring job's priority to minus the number of its team's live jobs ahead of
 * it (running ones first, then waiting ones by creation): the fair-per-team order of the file
 * comment. Jobs a fetch holds at that moment are skipped (`SKIP LOCKED`, never a wait or a
 * deadlock with pg-boss or another process); the next call fixes them. Jobs whose submission
 * row is gone keep their priority.
 *
 * @param boss the pg-boss instance
 * @returns how many jobs got a new priority
 * @throws when the database is unreachable
 */
export async function rebalanceScoreQueue(boss: PgBoss): Promise<number> {
  const { rows } = await boss.getDb().executeSql(REBALANCE_SQL, [SCORE_QUEUE]);
  return rows.length;
}

/**
 * The statement of {@link rebalanceScoreQueue} (`$1`: the queue name); exported for the test
 * that checks its plan. The live jobs are joined to their submissions by the primary key
 * (`s.id = key::uuid`; comparing `s.id::text` instead would read every submission). A
 * singleton key that is not a uuid (none is, today: it is always the submission id) is
 * filtered out first, in a MATERIALIZED CTE so that the cast never sees it.
 */
export const REBALANCE_SQL = `WITH jobs AS MATERIALIZED (
       SELECT j.id, j.state, j.created_on, j.singleton_key AS key FROM ${BOSS_SCHEMA}.job j
        WHERE j.name = $1 AND j.state IN ('created', 'retry', 'active')
          AND j.singleton_key ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
     ), live AS (
       SELECT jobs.id, (row_number() OVER (PARTITION BY s.team_id ORDER BY (jobs.state = 'active') DESC, jobs.created_on, jobs.id) - 1)::int AS ahead
         FROM jobs JOIN submissions s ON s.id = jobs.key::uuid
     ), target AS (
       SELECT j.id, live.ahead FROM ${BOSS_SCHEMA}.job j JOIN live ON live.id = j.id
        WHERE j.name = $1 AND j.state IN ('created', 'retry') AND j.priority <> -live.ahead
        FOR UPDATE OF j SKIP LOCKED
     )
     UPDATE ${BOSS_SCHEMA}.job j SET priority = -target.ahead
       FROM target WHERE j.name = $1 AND j.id = target.id
     RETURNING j.id`;

/**
 * Enqueues scoring jobs after a commit. A failure is logged, not thrown: the rows are
 * QUEUED in the database, and the reconciler enqueues any QUEUED row without a job.
 *
 * @param ids submission ids
 * @param context what the ids are, for the log line
 */
export async function enqueueAfterCommit(ids: readonly string[], context: string): Promise<void> {
  try {
    await enqueueScoring(ids);
  } catch (error) {
    console.error(`enqueueScoring failed for ${ids.length} submission(s) (${context}); the reconciler will retry: ${error instanceof Error ? error.message : String(error)}`);
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
 * Which of `submissionIds` have a scoring job waiting to be fetched (state `created`; not one
 * waiting for a retry, whose backoff may be long).
 *
 * @returns the subset of ids with a `created` job
 */
export async function submissionsWithWaitingJobs(boss: PgBoss, submissionIds: readonly string[]): Promise<Set<string>> {
  if (submissionIds.length === 0) return new Set();
  const { rows } = await boss.getDb().executeSql(
    `SELECT DISTINCT singleton_key FROM ${BOSS_SCHEMA}.job
      WHERE name = $1 AND state = 'created' AND singleton_key = ANY($2::text[])`,
    [SCORE_QUEUE, submissionIds],
  );
  return new Set(rows.map((r: { singleton_key: string }) => r.singleton_key));
}

/** A running (`active`) scoring job. */
export interface ActiveJob {
  jobId: string;
  /** the singleton key */
  submissionId: string;
  startedOn: Date;
}

/**
 * Running (`active`) scoring jobs, optionally only those of some submissions or started
 * more than `startedBeforeMs` milliseconds ago.
 *
 * @param boss the pg-boss instance
 * @param filter `submissionIds` (singleton keys) and/or `startedBeforeMs`
 */
export async function activeJobs(boss: PgBoss, filter: { submissionIds?: readonly string[]; startedBeforeMs?: number } = {}): Promise<ActiveJob[]> {
  if (filter.submissionIds?.length === 0) return [];
  const { rows } = await boss.getDb().executeSql(
    `SELECT id, singleton_key, started_on FROM ${BOSS_SCHEMA}.job
      WHERE name = $1 AND state = 'active' AND singleton_key IS NOT NULL
        AND ($2::text[] IS NULL OR singleton_key = ANY($2::text[]))
        AND ($3::int IS NULL OR started_on < now() - $3::int * interval '1 millisecond')`,
    [SCORE_QUEUE, filter.submissionIds ?? null, filter.startedBeforeMs === undefined ? null : Math.round(filter.startedBeforeMs)],
  );
  return rows.map((r: { id: string; singleton_key: string; started_on: Date }) => ({ jobId: r.id, submissionId: r.singleton_key, startedOn: r.started_on }));
}

/**
 * Cancels scoring jobs (any state before completion; a cancelled job is never retried, and
 * a late `complete` from its worker is ignored).
 *
 * @param boss the pg-boss instance
 * @param jobIds pg-boss job ids
 */
export async function cancelJobs(boss: PgBoss, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length > 0) await boss.cancel(SCORE_QUEUE, [...jobIds]);
}

/** A LISTEN connection started by {@link listenForScoring}. */
export interface ScoreListener {
  /** Stops listening (no reconnect afterwards). */
  close(): Promise<void>;
}

/**
 * Listens for {@link SCORE_NOTIFY_CHANNEL} on a dedicated connection and calls `onWork` for
 * each notification. When the connection is lost (e.g. Postgres restarts) it reconnects
 * with backoff (0.5 s doubling to 15 s), and calls `onWork` once after each (re)connect,
 * since notifications sent meanwhile are lost.
 *
 * @param connectionString the Postgres URL
 * @param onWork wakes the caller's pollers (`boss.notifyWorker`)
 * @param log where connection problems are reported
 * @returns a handle to close the connection
 */
export function listenForScoring(connectionString: string, onWork: () => void, log: (line: string) => void = console.error): ScoreListener {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | undefined;

  const reconnectLater = (reason: string) => {
    if (closed || timer) return;
    log(`queue listener: ${reason}; reconnecting in ${retryMs} ms`);
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 15_000);
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString });
    client = c;
    let lost = false;
    const onLost = (reason: string) => {
      if (lost) return;
      lost = true;
      c.removeAllListeners("notification");
      void c.end().catch(() => undefined);
      reconnectLater(reason);
    };
    c.on("error", (error) => onLost(`connection error: ${error.message}`));
    c.on("end", () => onLost("connection closed"));
    c.on("notification", () => onWork());
    try {
      await c.connect();
      await c.query(`LISTEN ${SCORE_NOTIFY_CHANNEL}`);
    } catch (error) {
      onLost(`cannot listen: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    retryMs = 500;
    onWork();
  };

  void connect();
  return {
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      if (c) {
        c.removeAllListeners("end");
        c.removeAllListeners("notification");
        await c.end().catch(() => undefined);
      }
    },
  };
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
