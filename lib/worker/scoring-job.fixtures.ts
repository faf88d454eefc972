/**
 * Test fixtures for the scoring pipeline: rows inserted directly with Prisma (a user, a
 * team, a task, a phase, an active gold key) and submissions, with small CoNLL-2012 files;
 * and the traces a killed worker leaves (a claimed row, an active pg-boss job).
 * Test-only: used by the worker tests (lib/worker/) and the service tests that score runs.
 */
import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import type { PrismaClient } from "../db/client";
import { BOSS_SCHEMA, SCORE_QUEUE, enqueueScoring } from "../queue";
import { packFile } from "../storage";
import { claimSubmission, type Claim } from "../submission-states";

/** A CoNLL-2012 file from documents given as `[name, rows]`, rows being `WORD CELL` or "" (sentence break). */
export function conll(...docs: [name: string, rows: string[]][]): string {
  return docs.map(([name, rows]) => [`#begin document (${name}); part 0`, ...rows, "#end document"].join("\n")).join("\n") + "\n";
}

/** Gold key: two documents, singletons included. */
export const KEY = conll(
  ["alpha", ["John\t(1)", "saw\t-", "Mary\t(2)", ".\t-", "", "He\t(1)", "greeted\t-", "her\t(2)", "and\t-", "Bill\t(3)", ".\t-"]],
  ["beta", ["The\t(4", "cat\t4)", "slept\t-", ".\t-", "", "It\t(4)", "dreamt\t-", "of\t-", "mice\t(5)", ".\t-"]],
);

/** A response that gets some things right and some wrong (one merge, one missed mention). */
export const RESPONSE = conll(
  ["alpha", ["John\t(1)", "saw\t-", "Mary\t(1)", ".\t-", "", "He\t(1)", "greeted\t-", "her\t(2)", "and\t-", "Bill\t-", ".\t-"]],
  ["beta", ["The\t-", "cat\t(4)", "slept\t-", ".\t-", "", "It\t(4)", "dreamt\t-", "of\t-", "mice\t(5)", ".\t-"]],
);

/** A second gold version: different document set, so old per-document rows must go. */
export const KEY_V2 = conll(["alpha", ["John\t(1)", "saw\t-", "Mary\t(1)", ".\t-", "", "He\t(1)", "greeted\t-", "her\t(2)", "and\t-", "Bill\t(2)", ".\t-"]]);

/** A file that does not parse: the mention opened on line 3 is never closed. */
export const BROKEN = "#begin document (alpha); part 0\nJohn\t(1)\nsaw\t(2\n.\t-\n#end document\n";

/** Ids of the rows {@link createPhase} inserted. */
export interface PhaseFixture {
  userId: string;
  teamId: string;
  taskId: string;
  phaseId: string;
}

/**
 * Inserts a user, a team, a task and a phase, and (unless `gold` is null) an active gold
 * key version 1.
 */
export async function createPhase(
  db: PrismaClient,
  options: { gold?: string | null; keepSingletons?: boolean } = {},
): Promise<PhaseFixture> {
  const tag = randomUUID().slice(0, 8);
  const user = await db.user.create({ data: { email: `u-${tag}@example.org`, name: `User ${tag}` } });
  const team = await db.team.create({ data: { name: `Team ${tag}` } });
  const task = await db.task.create({
    data: { slug: `task-${tag}`, title: `Task ${tag}`, keepSingletons: options.keepSingletons ?? true },
  });
  const phase = await db.phase.create({
    data: { taskId: task.id, name: "test", opensAt: new Date(Date.now() - 86_400_000), closesAt: new Date(Date.now() + 86_400_000) },
  });
  const fixture = { userId: user.id, teamId: team.id, taskId: task.id, phaseId: phase.id };
  const gold = options.gold === undefined ? KEY : options.gold;
  if (gold !== null) await addGold(db, fixture, 1, gold);
  return fixture;
}

/** Adds gold key `version` to the phase and makes it the only active one. */
export async function addGold(db: PrismaClient, f: PhaseFixture, version: number, text: string): Promise<void> {
  const stored = packFile(Buffer.from(text));
  await db.$transaction([
    db.goldKey.updateMany({ where: { phaseId: f.phaseId }, data: { active: false } }),
    db.goldKey.create({
      data: {
        phaseId: f.phaseId,
        version,
        fileName: `key-v${version}.conll`,
        sha256: stored.sha256,
        gzip: stored.gzip,
        size: stored.size,
        documentCount: 0,
        uploadedById: f.userId,
        active: true,
      },
    }),
  ]);
}

/** Inserts a QUEUED submission holding `text`; returns its id. */
export async function createSubmission(db: PrismaClient, f: PhaseFixture, text: string, fileName = "system.conll"): Promise<string> {
  const stored = packFile(Buffer.from(text));
  const row = await db.submission.create({
    data: {
      phaseId: f.phaseId,
      teamId: f.teamId,
      submitterId: f.userId,
      systemName: "test system",
      fileName,
      sha256: stored.sha256,
      gzip: stored.gzip,
      size: stored.size,
    },
  });
  return row.id;
}

/**
 * A valid CoNLL-2012 response with `mentions` single-token mentions (documents of 5,000
 * tokens, sentences of 20, none of them in the key): megabytes of text whose parse needs
 * far more than 64 MB of heap and far more than 50 ms.
 */
export function bigResponse(mentions: number): string {
  const lines: string[] = [];
  for (let i = 0; i < mentions; i++) {
    if (i % 5000 === 0) {
      if (i > 0) lines.push("#end document");
      lines.push(`#begin document (big${i / 5000}); part 0`);
    }
    lines.push(`w${i}\t(${i % 5000})`);
    if (i % 20 === 19) lines.push("");
  }
  lines.push("#end document", "");
  return lines.join("\n");
}

/** What {@link simulateDeadWorker} left behind. */
export interface DeadWorkerRun {
  claim: Claim;
  /** the pg-boss job the dead worker was running (state `active`) */
  jobId: string;
}

/**
 * The traces of a worker killed while scoring a submission: the row claimed by
 * `workerId` (SCORING, attempt + 1) with a heartbeat `heartbeatAgeMs` old, and its pg-boss
 * job `active` since `jobAgeMs` ago. The submission must be QUEUED, with no job yet.
 */
export async function simulateDeadWorker(
  db: PrismaClient,
  boss: PgBoss,
  submissionId: string,
  options: { workerId?: string; heartbeatAgeMs?: number; jobAgeMs?: number } = {},
): Promise<DeadWorkerRun> {
  const { workerId = "dead-host:4242", heartbeatAgeMs = 3600_000, jobAgeMs = heartbeatAgeMs } = options;
  await enqueueScoring([submissionId], { boss });
  const { rows } = await boss.getDb().executeSql(
    `UPDATE ${BOSS_SCHEMA}.job SET state = 'active', started_on = now() - $3::int * interval '1 millisecond'
      WHERE name = $1 AND singleton_key = $2 AND state = 'created' RETURNING id`,
    [SCORE_QUEUE, submissionId, jobAgeMs],
  );
  if (rows.length !== 1) throw new Error(`simulateDeadWorker: expected one created job for ${submissionId}, found ${rows.length}`);
  const claimed = await claimSubmission(db, submissionId, workerId, { heartbeatStaleMs: 1, staleAfterMs: 1, maxAttempts: 1000 });
  if (!claimed.claimed) throw new Error(`simulateDeadWorker: could not claim ${submissionId}: ${claimed.reason}`);
  await db.$executeRaw`UPDATE submissions SET heartbeat_at = now() - ${heartbeatAgeMs}::int * interval '1 millisecond' WHERE id = ${submissionId}::uuid`;
  return { claim: claimed.claim, jobId: rows[0].id as string };
}

/** The state of a pg-boss job (`created`, `active`, `completed`, `cancelled`, ...). */
export async function jobState(boss: PgBoss, jobId: string): Promise<string | undefined> {
  const { rows } = await boss.getDb().executeSql(`SELECT state FROM ${BOSS_SCHEMA}.job WHERE id = $1`, [jobId]);
  return rows[0]?.state as string | undefined;
}

/** The jobs of a submission, oldest first: `[{ id, state }]`. */
export async function jobsOf(boss: PgBoss, submissionId: string): Promise<{ id: string; state: string }[]> {
  const { rows } = await boss.getDb().executeSql(
    `SELECT id, state FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND singleton_key = $2 ORDER BY created_on, id`,
    [SCORE_QUEUE, submissionId],
  );
  return rows as { id: string; state: string }[];
}
