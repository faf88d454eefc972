/**
 * Every change of a submission's status after it is created, in one place. The row is the
 * truth; pg-boss only delivers jobs (`lib/queue.ts`).
 *
 * ```
 *            claim                 finish
 *   QUEUED ─────────► SCORING ─────────────► SCORED | FAILED
 *     ▲                 │ release (this claim, infrastructure error or shutdown)
 *     ├─────────────────┘ requeueStale (the claim's worker went silent)
 *     └──── requeueSubmissions (any status: new gold key, new analysis settings)
 *   SCORING ──failStaleExhausted──► FAILED (platform): claimed SCORING_MAX_ATTEMPTS times
 * ```
 *
 * **Claims.** {@link claimSubmission} moves a row QUEUED → SCORING in one UPDATE, or takes
 * over a SCORING row whose worker went silent, and records `worker_id` (host:pid),
 * `started_at`, `heartbeat_at` and `attempts + 1`. The {@link Claim} (attempts, started_at
 * and worker id) guards every later write of that job: {@link releaseClaim},
 * {@link finishClaim} and {@link heartbeatClaims} change the row only while it is still
 * SCORING under the same claim. `attempts` alone is not enough, because re-queueing resets
 * it to 0 and a later claim can reach the same number; `started_at` alone nearly is (it has
 * millisecond precision). So a job delivered twice, a worker that wakes up after its claim
 * was taken away, or a claim overtaken by a re-queue writes nothing: a submission is scored
 * exactly once per claim that finishes, and every finish replaces the previous scores.
 *
 * **One run per team.** {@link claimSubmission} does not claim a row while another run of
 * its team is SCORING under a live claim: it answers `busyWith` and leaves the row QUEUED,
 * `attempts` unchanged (the worker completes that job as deferred, `lib/worker/worker.ts`).
 * So a team never holds two scoring slots, whatever it submits (issue 23 F10).
 *
 * **Staleness.** A live worker refreshes `heartbeat_at` of its claims every
 * `WORKER_HEARTBEAT_MS`. A SCORING row is stale, its worker presumed dead, when its
 * heartbeat is older than `SCORING_HEARTBEAT_STALE_MS`, or when it was claimed longer ago
 * than `SCORING_STALE_MS` whatever its heartbeat (a live worker gives up at
 * `SCORING_TIMEOUT_MS`, which is shorter; this catches a worker that is alive but stuck).
 * Rows claimed before heartbeats existed count from `started_at`.
 *
 * **Error stages** ({@link ErrorStage}): `validation` (the file does not parse), `scoring`
 * (over the time or memory limit), `platform` (our fault: no gold key, damaged storage, a
 * scorer bug, a worker that keeps dying). Platform failures never count against a team's
 * quota (`lib/runs/quota.ts`).
 */
import type { PrismaClient } from "./db/client";
import { Prisma } from "./generated/prisma/client";
import { DB_NULL, lockKey, type Db, type Tx } from "./db";

/** Where a FAILED submission failed (`submissions.error_stage`). */
export const ErrorStage = {
  /** the submitted file does not parse */
  validation: "validation",
  /** scoring went over the time or memory limit */
  scoring: "scoring",
  /** a platform problem (never counts against the quota) */
  platform: "platform",
} as const;

/** One of {@link ErrorStage}'s values. */
export type ErrorStage = (typeof ErrorStage)[keyof typeof ErrorStage];

/** One claim of a submission row by a worker: the guard of every later write of the job. */
export interface Claim {
  submissionId: string;
  phaseId: string;
  /** the submission's team (one run per team is scored at a time) */
  teamId: string;
  /** the claiming worker, `host:pid` */
  workerId: string;
  /** the row's `attempts` after the claim (1 for the first claim since the last re-queue) */
  attempts: number;
  /** `started_at` as Postgres prints it (round-trips exactly through `::timestamptz`) */
  startedAt: string;
}

/** When a SCORING row counts as abandoned (see the module comment). Milliseconds. */
export interface Staleness {
  /** heartbeat older than this (`SCORING_HEARTBEAT_STALE_MS`) */
  heartbeatStaleMs: number;
  /** claimed longer ago than this, whatever the heartbeat (`SCORING_STALE_MS`) */
  staleAfterMs: number;
}

/** What {@link claimSubmission} found. */
export type ClaimResult =
  | { claimed: true; claim: Claim }
  /** `busyWith`: set when the row is claimable but its team's run `busyWith` is being scored (one run per team at a time) */
  | { claimed: false; reason: string; busyWith?: string };

/**
 * How a claim ends: SCORED with the versions that produced the scores, or FAILED.
 *
 * SCORED: `goldVersion` is the gold key version of a one-dataset phase, null for a phase with
 * several datasets (their versions are in `submissions.evaluation.datasets`). `datasetIds`
 * scopes the finish to the datasets scored again now (see {@link ResultScope}); absent, every
 * dataset's results are replaced.
 */
export type Finish =
  | { status: "SCORED"; goldVersion: number | null; scorerVersion: string; datasetIds?: readonly string[] }
  | { status: "FAILED"; stage: ErrorStage; message: string; location: Record<string, unknown> | null };

/**
 * Which of a run's results a delete covers. `{ datasetIds }`: the per-dataset results
 * (DatasetScore, DocumentScore, RunAnalysis rows) of those datasets only, their files'
 * `gold_key_id`, and all the run's phase-level Score rows (the macro-average depends on every
 * dataset). Absent: everything of the run.
 */
export interface ResultScope {
  datasetIds: readonly string[];
}

/** SQL condition: this SCORING row is stale. */
function staleCondition(stale: Staleness): Prisma.Sql {
  return Prisma.sql`status = 'SCORING'
    AND (COALESCE(heartbeat_at, started_at) IS NULL
         OR COALESCE(heartbeat_at, started_at) < now() - ${Math.round(stale.heartbeatStaleMs)}::int * interval '1 millisecond'
         OR started_at < now() - ${Math.round(stale.staleAfterMs)}::int * interval '1 millisecond')`;
}

/** SQL condition: the row is SCORING under exactly this claim. */
function heldBy(claim: Claim): Prisma.Sql {
  return Prisma.sql`id = ${claim.submissionId}::uuid AND status = 'SCORING' AND attempts = ${claim.attempts}
    AND started_at = ${claim.startedAt}::timestamptz AND worker_id = ${claim.workerId}`;
}

/** Interactive-transaction limits of a claim (it waits for the team's lock: other claims of the team, milliseconds each). */
const CLAIM_TX = { maxWait: 10_000, timeout: 15_000 };

/**
 * QUEUED → SCORING for `workerId`, or a take-over of a stale SCORING row that has been
 * claimed fewer than `maxAttempts` times (the reconciler fails the others). One UPDATE, so
 * of two workers claiming the same row at once exactly one wins.
 *
 * **One run per team.** A row is not claimed while another run of its team is SCORING under
 * a live claim (not stale by `options`): the result is then `{ claimed: false, busyWith }`
 * and the row stays QUEUED with its `attempts` unchanged, so that one team never holds two
 * scoring slots (issue 23 F10). A stale claim does not count (its worker is presumed dead).
 * The check is race-free across pollers and processes: every claim takes a transaction
 * advisory lock on the team (`score-team:<team id>`) before its UPDATE, and the UPDATE,
 * a statement of its own under READ COMMITTED, sees every claim committed by the lock's
 * previous holders.
 *
 * @param db client (a transaction is opened here) or a transaction (the team's lock is then
 *   held until the caller commits)
 * @param submissionId the submission
 * @param workerId the claiming worker (`host:pid`)
 * @param options staleness thresholds and the attempt limit (`SCORING_MAX_ATTEMPTS`)
 * @returns the claim, or why nothing was claimed ("no such submission", "being scored by
 *   another worker", "status is SCORED", ...); `busyWith` (the id of the team's run being
 *   scored) when the only reason is the team's other run: the caller should try again once
 *   that run has finished
 * @throws database errors
 */
export async function claimSubmission(
  db: Db,
  submissionId: string,
  workerId: string,
  options: Staleness & { maxAttempts: number },
): Promise<ClaimResult> {
  if ("$transaction" in db) return db.$transaction((tx) => claimInTransaction(tx, submissionId, workerId, options), CLAIM_TX);
  return claimInTransaction(db, submissionId, workerId, options);
}

/** {@link claimSubmission} inside a transaction. */
async function claimInTransaction(tx: Tx, submissionId: string, workerId: string, options: Staleness & { maxAttempts: number }): Promise<ClaimResult> {
  const [team] = await tx.$queryRaw<{ team_id: string }[]>`SELECT team_id::text FROM submissions WHERE id = ${submissionId}::uuid`;
  if (!team) return { claimed: false, reason: "no such submission" };
  await lockKey(tx, `score-team:${team.team_id}`);
  const rows = await tx.$queryRaw<{ attempts: number; started_at: string; phase_id: string }[]>`
    UPDATE submissions
       SET status = 'SCORING', started_at = now(), heartbeat_at = now(), worker_id = ${workerId}, attempts = attempts + 1
     WHERE id = ${submissionId}::uuid AND team_id = ${team.team_id}::uuid
       AND (status = 'QUEUED' OR (${staleCondition(options)} AND attempts < ${options.maxAttempts}))
       AND NOT EXISTS (SELECT 1 FROM submissions o
                        WHERE o.team_id = ${team.team_id}::uuid AND o.id <> ${submissionId}::uuid
                          AND o.status = 'SCORING' AND NOT (${staleCondition(options)}))
     RETURNING attempts, started_at::text, phase_id::text`;
  if (rows.length === 1) {
    const r = rows[0];
    return { claimed: true, claim: { submissionId, phaseId: r.phase_id, teamId: team.team_id, workerId, attempts: r.attempts, startedAt: r.started_at } };
  }
  const [row] = await tx.$queryRaw<{ status: string; claimable: boolean; busy_with: string | null }[]>`
    SELECT status::text,
           (status = 'QUEUED' OR (${staleCondition(options)} AND attempts < ${options.maxAttempts})) AS claimable,
           (SELECT o.id::text FROM submissions o
             WHERE o.team_id = ${team.team_id}::uuid AND o.id <> ${submissionId}::uuid
               AND o.status = 'SCORING' AND NOT (${staleCondition(options)})
             ORDER BY o.started_at LIMIT 1) AS busy_with
      FROM submissions WHERE id = ${submissionId}::uuid`;
  if (!row) return { claimed: false, reason: "no such submission" };
  if (row.claimable && row.busy_with) return { claimed: false, reason: `its team is scoring another run (submission ${row.busy_with})`, busyWith: row.busy_with };
  if (row.status === "SCORING") return { claimed: false, reason: "being scored by another worker" };
  return { claimed: false, reason: `status is ${row.status}` };
}

/**
 * SCORING → QUEUED, only while `claim` holds the row (the job gives the submission back:
 * an infrastructure error to be retried, or the worker shutting down). `attempts` stays, so
 * a submission that keeps failing this way reaches the attempt limit.
 *
 * @returns true when the row was released; false when the claim was already gone
 */
export async function releaseClaim(db: Db, claim: Claim): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE submissions SET status = 'QUEUED', worker_id = NULL, heartbeat_at = NULL WHERE ${heldBy(claim)}`;
  return n === 1;
}

/** Interactive-transaction limits of a finish (large corpora have many document rows). */
const FINISH_TX = { maxWait: 10_000, timeout: 120_000 };

/** Thrown inside the finish transaction when the claim is gone; rolls it back. */
class LostClaimError extends Error {}

/**
 * Ends a claim in one transaction: the row goes SCORING → SCORED or FAILED only while
 * `claim` holds it, the run's old results are deleted (and its `evaluation` and `warnings`
 * cleared), then `write` adds the new ones (for SCORED). Nothing is written when the claim is
 * gone. `worker_id` and `heartbeat_at` stay as a record of who finished the run and when.
 *
 * Which old results go: FAILED, or SCORED without `datasetIds`: all of them (Score,
 * DatasetScore, DocumentScore and RunAnalysis rows of every dataset; the files' `gold_key_id`
 * back to null). SCORED with `datasetIds` (the datasets scored again now; the others keep
 * their results because their gold key did not change): the per-dataset rows of those
 * datasets only, and every phase-level Score row (`write` recomputes them from all datasets).
 *
 * @param prisma the client (the transaction is opened here)
 * @param claim the job's claim
 * @param finish SCORED (gold and scorer versions, optionally the datasets re-scored) or
 *   FAILED (stage, message, location)
 * @param write adds the new rows inside the transaction (default: nothing)
 * @returns true when written; false when the claim was gone
 * @throws database errors (the transaction is rolled back)
 */
export async function finishClaim(
  prisma: PrismaClient,
  claim: Claim,
  finish: Finish,
  write: (tx: Tx) => Promise<void> = async () => {},
): Promise<boolean> {
  const set =
    finish.status === "SCORED"
      ? Prisma.sql`status = 'SCORED', scored_at = now(), gold_version = ${finish.goldVersion}, scorer_version = ${finish.scorerVersion},
                   error_stage = NULL, error_message = NULL, error_location = NULL`
      : Prisma.sql`status = 'FAILED', scored_at = NULL, gold_version = NULL, scorer_version = NULL, error_stage = ${finish.stage},
                   error_message = ${finish.message}, error_location = ${finish.location === null ? null : JSON.stringify(finish.location)}::jsonb`;
  try {
    await prisma.$transaction(async (tx) => {
      if ((await tx.$executeRaw`UPDATE submissions SET ${set} WHERE ${heldBy(claim)}`) !== 1) throw new LostClaimError();
      await deleteResults(tx, [claim.submissionId], finish.status === "SCORED" && finish.datasetIds ? { datasetIds: finish.datasetIds } : undefined);
      await write(tx);
    }, FINISH_TX);
    return true;
  } catch (error) {
    if (error instanceof LostClaimError) return false;
    throw error;
  }
}

/**
 * Refreshes `heartbeat_at` of a worker's claims (one UPDATE), and says which it still holds.
 *
 * @param db client
 * @param claims the claims of the jobs the worker is running
 * @returns the claims still held; a missing one was taken away (re-queued as stale or by a
 *   new gold key) and its job should stop
 */
export async function heartbeatClaims(db: Db, claims: readonly Claim[]): Promise<Claim[]> {
  if (claims.length === 0) return [];
  const rows = await db.$queryRaw<{ id: string; attempts: number; started_at: string; worker_id: string }[]>`
    UPDATE submissions s SET heartbeat_at = now()
      FROM unnest(${claims.map((c) => c.submissionId)}::uuid[], ${claims.map((c) => c.attempts)}::int[],
                  ${claims.map((c) => c.startedAt)}::timestamptz[], ${claims.map((c) => c.workerId)}::text[])
           AS c(id, attempts, started_at, worker_id)
     WHERE s.id = c.id AND s.status = 'SCORING' AND s.attempts = c.attempts AND s.started_at = c.started_at AND s.worker_id = c.worker_id
     RETURNING s.id::text, s.attempts, s.started_at::text, s.worker_id`;
  const held = new Set(rows.map((r) => `${r.id} ${r.attempts} ${r.worker_id}`));
  return claims.filter((c) => held.has(`${c.submissionId} ${c.attempts} ${c.workerId}`));
}

/**
 * Puts every matching submission back to QUEUED with a fresh attempt count and no error or
 * claim, inside the caller's transaction (a change that needs re-scoring: a new gold key
 * version, a task's analysis settings). A job running on one of them loses its claim and
 * writes nothing. Old scores stay until the new scores replace them (`gold_version` and
 * `evaluation.datasets` say which gold keys produced them). The caller enqueues the returned
 * ids after commit (`enqueueAfterCommit` in `lib/queue.ts`); the reconciler covers a failed
 * enqueue.
 *
 * Which datasets the worker scores again: it keeps a dataset's results while the file's
 * `gold_key_id` is the dataset's active gold key (`lib/worker/scoring-job.ts`). So this
 * clears `gold_key_id` of the runs' files, of every dataset by default (a change of the
 * task's settings concerns them all), or of `options.datasetIds` only: a new gold key of
 * one dataset passes that dataset, and the others keep their results.
 *
 * @param tx the transaction making the change that needs re-scoring
 * @param where which submissions (e.g. `{ phaseId }`)
 * @param options `datasetIds`: only these datasets need scoring again (default: all)
 * @returns the re-queued ids, oldest submission first
 */
export async function requeueSubmissions(tx: Tx, where: Prisma.SubmissionWhereInput, options: { datasetIds?: readonly string[] } = {}): Promise<string[]> {
  const ids = (await tx.submission.findMany({ where, select: { id: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((s) => s.id);
  if (ids.length > 0) {
    await tx.submission.updateMany({
      where: { id: { in: ids } },
      data: {
        status: "QUEUED",
        attempts: 0,
        errorStage: null,
        errorMessage: null,
        errorLocation: DB_NULL,
        startedAt: null,
        workerId: null,
        heartbeatAt: null,
      },
    });
    const datasets = options.datasetIds ? { datasetId: { in: [...options.datasetIds] } } : {};
    await tx.submissionFile.updateMany({ where: { submissionId: { in: ids }, ...datasets }, data: { goldKeyId: null } });
  }
  return ids;
}

/** Message template (Postgres `format`, `%s` = attempts) of a submission failed by the attempt limit. */
const TOO_MANY_ATTEMPTS =
  "Scoring was interrupted %s times (the scoring worker stopped while working on this file), so it was given up. This is a platform problem and does not count against your submission limit; please tell the organizers.";

/** The error message of a submission failed by the attempt limit after `attempts` claims. */
export function tooManyAttemptsMessage(attempts: number): string {
  return TOO_MANY_ATTEMPTS.replace("%s", String(attempts));
}

/**
 * Reconciler step: stale SCORING rows already claimed `maxAttempts` times (a submission
 * that keeps killing its worker) → FAILED, stage `platform`, with
 * {@link tooManyAttemptsMessage}; their old results are deleted in the same transaction.
 *
 * @param prisma the client
 * @param options staleness, the attempt limit, and `skipIds` (submissions the calling
 *   process is scoring: never touched)
 * @returns the ids failed
 */
export async function failStaleExhausted(
  prisma: PrismaClient,
  options: Staleness & { maxAttempts: number; skipIds?: readonly string[] },
): Promise<string[]> {
  return prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE submissions
         SET status = 'FAILED', error_stage = ${ErrorStage.platform}, error_message = format(${TOO_MANY_ATTEMPTS}, attempts),
             error_location = NULL, scored_at = NULL, gold_version = NULL, scorer_version = NULL
       WHERE ${staleCondition(options)}
         AND attempts >= ${options.maxAttempts}
         AND NOT (id::text = ANY(${[...(options.skipIds ?? [])]}::text[]))
       RETURNING id::text`;
    const ids = rows.map((r) => r.id);
    await deleteResults(tx, ids);
    return ids;
  });
}

/**
 * Reconciler step: stale SCORING rows → QUEUED (their claim is void; `attempts` stays).
 *
 * @param db client
 * @param options staleness and `skipIds` (submissions the calling process is scoring)
 * @returns the ids re-queued (the caller enqueues them)
 */
export async function requeueStale(db: Db, options: Staleness & { skipIds?: readonly string[] }): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE submissions SET status = 'QUEUED', worker_id = NULL, heartbeat_at = NULL
     WHERE ${staleCondition(options)}
       AND NOT (id::text = ANY(${[...(options.skipIds ?? [])]}::text[]))
     RETURNING id::text`;
  return rows.map((r) => r.id);
}

/**
 * Reconciler step: the QUEUED submissions that can be claimed now, oldest first: those whose
 * team has no run SCORING under a live claim (not stale by `stale`). The others would only be
 * refused by {@link claimSubmission} (one run per team); the worker that finishes the team's
 * run enqueues the team's next one, and once the team has no live claim they are listed here.
 *
 * @param db client or transaction
 * @param stale staleness thresholds (a stale claim does not hold its team back)
 * @param options `teamId`: only that team's runs; `limit`: at most that many
 * @returns submission ids, by `created_at` then id
 */
export async function claimableQueuedIds(db: Db, stale: Staleness, options: { teamId?: string; limit?: number } = {}): Promise<string[]> {
  const team = options.teamId === undefined ? Prisma.empty : Prisma.sql`AND s.team_id = ${options.teamId}::uuid`;
  const limit = options.limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${options.limit}`;
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT s.id::text FROM submissions s
     WHERE s.status = 'QUEUED' ${team}
       AND NOT EXISTS (SELECT 1 FROM submissions o WHERE o.team_id = s.team_id AND o.status = 'SCORING' AND NOT (${staleCondition(stale)}))
     ORDER BY s.created_at, s.id ${limit}`;
  return rows.map((r) => r.id);
}

/**
 * Which of `submissionIds` are SCORING under a live claim (heartbeat fresher than
 * `heartbeatStaleMs`). The reconciler cancels the running pg-boss jobs of the others.
 *
 * @returns the subset of ids held by a live worker
 */
export async function liveClaimIds(db: Db, submissionIds: readonly string[], stale: Staleness): Promise<Set<string>> {
  if (submissionIds.length === 0) return new Set();
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM submissions
     WHERE id = ANY(${submissionIds}::uuid[]) AND status = 'SCORING' AND NOT (${staleCondition(stale)})`;
  return new Set(rows.map((r) => r.id));
}

/**
 * Deletes the results of runs and clears what they were scored with (`evaluation`) and the
 * scorer's `warnings`. Without `scope`: everything (phase-level Score rows, and the
 * DatasetScore, DocumentScore and RunAnalysis rows of every dataset), and every file's
 * `gold_key_id` goes back to null. With `scope` ({@link ResultScope}): the per-dataset rows and
 * `gold_key_id` of `scope.datasetIds` only, and all phase-level Score rows.
 */
async function deleteResults(tx: Tx, submissionIds: string[], scope?: ResultScope): Promise<void> {
  if (submissionIds.length === 0) return;
  const runs = { submissionId: { in: submissionIds } };
  const datasets = scope ? { ...runs, datasetId: { in: [...scope.datasetIds] } } : runs;
  await tx.submission.updateMany({ where: { id: { in: submissionIds } }, data: { evaluation: Prisma.DbNull, warnings: [] } });
  await tx.score.deleteMany({ where: runs });
  await tx.datasetScore.deleteMany({ where: datasets });
  await tx.documentScore.deleteMany({ where: datasets });
  await tx.runAnalysis.deleteMany({ where: datasets });
  await tx.submissionFile.updateMany({ where: datasets, data: { goldKeyId: null } });
}
