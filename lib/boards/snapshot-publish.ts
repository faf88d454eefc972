/**
 * Publishing a phase's final results as a snapshot (issue 11 §2; the contract is in
 * `snapshots.ts`): what stands in the way ({@link snapshotReadiness}), the final boards, their
 * CSV and JSON exports with their checksums, the changes against the previous snapshot
 * (`snapshot-changes.ts`), and the one transaction that stores them with the audit event
 * ({@link publishSnapshot}).
 */
import { z } from "zod";
import { SCORER_VERSION } from "../scorer/version";
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from "../errors";
import { taskStanding, type SignedInViewer, type TaskStanding, type Viewer } from "../permissions";
import { formatUtc } from "../validations/time";
import { parseInput } from "../validations/parse";
import { recordAudit } from "../audit";
import { defaultDb, isUniqueViolation, lockKey, type Db, type Prisma } from "../db";
import { loadPhase, type PhaseWithTask, listTracks } from "../tasks";
import { getLeaderboard, leaderboardJson } from "./leaderboard";
import { leaderboardCsv } from "./leaderboard-csv";
import { partitionDisqualified } from "./export";
import { snapshotChanges, type SnapshotChange } from "./snapshot-changes";
import { sha256Hex, SNAPSHOT_JSON_FORMAT, type SnapshotGold } from "./snapshot-format";
import { phaseResultsHref, summaries, summaryOf, SUMMARY_SELECT, type SnapshotSummary } from "./snapshots";
import type { BoardEvaluation, Leaderboard } from "./types";

/** Longest note, in characters (after trimming). */
export const SNAPSHOT_NOTE_MAX = 10_000;

/** The organizer's input: the note (markdown), optional. */
export const snapshotInputSchema = z.object({
  note: z
    .string({ error: "The note must be text." })
    .trim()
    .max(SNAPSHOT_NOTE_MAX, { error: `The note can be at most ${SNAPSHOT_NOTE_MAX.toLocaleString("en")} characters long.` })
    .default(""),
});

/** What {@link snapshotReadiness} answers the console. */
export interface SnapshotReadiness {
  /** true when {@link publishSnapshot} would publish now */
  ready: boolean;
  /** every reason it would refuse, as sentences (empty when ready) */
  problems: string[];
  /** the phase's snapshots so far, newest first */
  snapshots: SnapshotSummary[];
  /** the page listing the phase's snapshots */
  resultsHref: string;
}

/** "3 runs" / "1 run". */
function runs(n: number): string {
  return `${n} run${n === 1 ? "" : "s"}`;
}

/**
 * The organizer check of publishing and readiness: anyone who does not organize a draft task,
 * anonymous callers included, 404 as for an unknown phase (the draft does not exist for them);
 * otherwise anonymous 401, another non-organizer 403.
 */
function assertOrganizer(viewer: Viewer, standing: TaskStanding): SignedInViewer {
  if (standing.hiddenDraft) throw new NotFoundError("No such phase.");
  if (!viewer) throw new UnauthorizedError("Please sign in as an organizer of this task.");
  if (!standing.isOrganizer) throw new ForbiddenError("Only the organizers of this task can publish its final results.");
  return viewer;
}

/** The active gold keys of a phase, in dataset order. */
async function activeGold(phaseId: string, db: Db): Promise<SnapshotGold[]> {
  const rows = await db.goldKey.findMany({
    where: { phaseId, active: true },
    orderBy: [{ dataset: { position: "asc" } }, { dataset: { name: "asc" } }],
    select: { version: true, sha256: true, fileName: true, dataset: { select: { name: true } } },
  });
  return rows.map((g) => ({ dataset: g.dataset.name, version: g.version, sha256: g.sha256, fileName: g.fileName }));
}

/**
 * Why the phase's final results cannot be published at `now` (empty: they can).
 *
 * @param phase the phase with its task
 * @param db client or transaction
 */
async function readinessProblems(phase: PhaseWithTask, db: Db, now: Date): Promise<string[]> {
  const problems: string[] = [];
  if (phase.task.status === "DRAFT") problems.push("The task is still a draft: publish the task before its final results.");
  if (now.getTime() < phase.closesAt.getTime()) {
    problems.push(
      `The ${phase.name} phase is still open (it closes on ${formatUtc(phase.closesAt)}): close it first, so that no run can arrive after the final results.`,
    );
  }
  const queued = await db.submission.count({ where: { phaseId: phase.id, status: "QUEUED", withdrawnAt: null } });
  const scoring = await db.submission.count({ where: { phaseId: phase.id, status: "SCORING", withdrawnAt: null } });
  if (queued + scoring > 0) {
    problems.push(
      `${runs(queued + scoring)} of the phase ${queued + scoring === 1 ? "is" : "are"} still being scored (${queued} queued, ${scoring} scoring): wait until ${queued + scoring === 1 ? "it is" : "they are"} done.`,
    );
  }
  const gold = await db.goldKey.count({ where: { phaseId: phase.id, active: true } });
  if (gold === 0) problems.push("No dataset of the phase has an active gold key: upload the gold first.");
  // Runs that would be on the board, scored by another scorer version than the one the snapshot names.
  const stale = await db.submission.findMany({
    where: {
      phaseId: phase.id,
      status: "SCORED",
      visibility: "PUBLIC",
      withdrawnAt: null,
      hiddenAt: null,
      AND: [{ scorerVersion: { not: null } }, { scorerVersion: { not: SCORER_VERSION } }],
    },
    select: { scorerVersion: true },
  });
  if (stale.length > 0) {
    const versions = [...new Set(stale.map((s) => s.scorerVersion))].sort().join(", ");
    problems.push(
      `${runs(stale.length)} ${stale.length === 1 ? "was" : "were"} scored by another scorer version (${versions}) than the current one (${SCORER_VERSION}): re-score the phase first, so that every result comes from the same scorer.`,
    );
  }
  return problems;
}

/**
 * What stands between a phase and the publication of its final results, for the console.
 *
 * @param actor the caller; must organize the phase's task (or be a site admin)
 * @param phaseId the phase (a malformed id is a 404 like an unknown one)
 * @param now the time the phase's closing is judged at (default: now)
 * @returns `{ready, problems, snapshots}`: `problems` lists every reason `publishSnapshot` would
 *   refuse (task a draft, phase still open, runs queued or scoring with their count, no active
 *   gold key, runs scored by another scorer version), `snapshots` the phase's snapshots so far,
 *   newest first
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase, or
 *   a draft task's phase for a non-organizer; ForbiddenError (403) for a non-organizer
 */
export async function snapshotReadiness(actor: Viewer, phaseId: string, now: Date = new Date()): Promise<SnapshotReadiness> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  assertOrganizer(actor, await taskStanding(actor, phase.taskId, db));
  const problems = await readinessProblems(phase, db, now);
  return { ready: problems.length === 0, problems, snapshots: await summaries(phase, db), resultsHref: phaseResultsHref(phase.task.slug, phase.id) };
}

/**
 * The phase's final boards as the organizer sees them with `final: true`: one per track in the
 * phase's order, or the one board of a phase without tracks; `now` becomes their `generatedAt`.
 */
async function finalBoards(phaseId: string, organizer: SignedInViewer, db: Db, now: Date): Promise<Leaderboard[]> {
  const tracks = await listTracks(phaseId, db);
  if (tracks.length === 0) return [await getLeaderboard(phaseId, organizer, { final: true, now })];
  const boards: Leaderboard[] = [];
  for (const track of tracks) boards.push(await getLeaderboard(phaseId, organizer, { final: true, track: track.id, now }));
  return boards;
}

/**
 * The CSV of a snapshot's boards: `leaderboardCsv` of the one board, or, with tracks, of every
 * board's rows under one header with `track` naming the board each row is on (see the module
 * comment). Each board's disqualified runs are its last rows.
 *
 * @param boards the boards, in the phase's track order (at least one)
 * @returns the CSV text
 * @throws Error when `boards` is empty
 */
export function snapshotCsv(boards: readonly Leaderboard[]): string {
  const [first] = boards;
  if (!first) throw new Error("snapshotCsv: no board");
  const ordered = (b: Leaderboard) => {
    const { listed, disqualified } = partitionDisqualified(b.rows);
    return [...listed, ...disqualified];
  };
  if (boards.length === 1 && first.track === null) return leaderboardCsv({ ...first, rows: ordered(first) });
  const rows = boards.flatMap((b) => ordered(b).map((row) => ({ ...row, track: b.track ? { id: b.track.id, name: b.track.name } : row.track })));
  return leaderboardCsv({ ...first, rows });
}

/**
 * The JSON export's text (see the module comment for the document): serialized once, with a
 * 2-space indent and a final newline.
 */
function snapshotJson(doc: {
  phase: PhaseWithTask;
  number: number;
  createdAt: Date;
  note: string;
  gold: readonly SnapshotGold[];
  scorerVersion: string;
  evaluation: BoardEvaluation;
  changes: readonly SnapshotChange[];
  boards: readonly unknown[];
}): string {
  const document = {
    format: SNAPSHOT_JSON_FORMAT,
    task: { slug: doc.phase.task.slug, title: doc.phase.task.title },
    phase: { id: doc.phase.id, name: doc.phase.name, closesAt: doc.phase.closesAt },
    snapshot: { number: doc.number, createdAt: doc.createdAt, note: doc.note },
    gold: doc.gold.map((g) => ({ dataset: g.dataset, version: g.version })),
    scorerVersion: doc.scorerVersion,
    evaluation: doc.evaluation,
    selectionRule: doc.phase.selectionRule,
    changes: doc.changes,
    boards: doc.boards,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The gold keys as compared: the same datasets with the same versions and files. */
function sameGold(a: readonly SnapshotGold[], b: readonly SnapshotGold[]): boolean {
  return a.length === b.length && a.every((g, i) => g.dataset === b[i].dataset && g.version === b[i].version && g.sha256 === b[i].sha256);
}

/**
 * Publishes the phase's final results as a new snapshot (see the module comment).
 *
 * @param actor the caller; must organize the phase's task (or be a site admin)
 * @param phaseId the phase (a malformed id is a 404 like an unknown one)
 * @param input `note`: the organizer's note (markdown, trimmed, at most {@link SNAPSHOT_NOTE_MAX}
 *   characters; absent: none)
 * @param now the publication time (default: now), also the time the phase's closing is judged at
 * @returns the new snapshot's summary (its `number` makes the permalink)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase, or a
 *   draft task's phase for a non-organizer; ForbiddenError (403) for a non-organizer;
 *   ValidationError (422, field `note`) for a note that is not text or too long; ConflictError
 *   (409) when the phase is not ready (`details.problems` lists every reason: draft task, phase
 *   still open, runs queued or scoring, no active gold key, runs scored by another scorer
 *   version), when a gold key changed while the results were being prepared, or when another
 *   organizer published at the same moment
 */
export async function publishSnapshot(actor: Viewer, phaseId: string, input: { note?: unknown } = {}, now: Date = new Date()): Promise<SnapshotSummary> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = assertOrganizer(actor, await taskStanding(actor, phase.taskId, db));
  const { note } = parseInput(snapshotInputSchema, { note: input.note ?? undefined }, "note");
  const refuse = (problems: string[]) =>
    new ConflictError(`The final results of the ${phase.name} phase cannot be published yet. ${problems.join(" ")}`, { problems });
  const problems = await readinessProblems(phase, db, now);
  if (problems.length > 0) throw refuse(problems);

  const gold = await activeGold(phase.id, db);
  const boards = await finalBoards(phase.id, user, db, now);
  const storedBoards = JSON.parse(JSON.stringify(boards.map((b) => leaderboardJson(b)))) as Prisma.InputJsonValue[];
  const csv = snapshotCsv(boards);
  const csvSha256 = sha256Hex(csv);
  try {
    return await db.$transaction(async (tx) => {
      // One publisher per phase at a time: the number is the previous one + 1.
      await lockKey(tx, `snapshot:${phase.id}`);
      const current = await loadPhase(phase.id, tx);
      const late = await readinessProblems(current, tx, now);
      if (late.length > 0) throw refuse(late);
      if (!sameGold(gold, await activeGold(phase.id, tx))) {
        throw new ConflictError("A gold key of the phase changed while the final results were being prepared; publish again once its runs are scored.");
      }
      const previous = await tx.resultSnapshot.findFirst({
        where: { phaseId: phase.id },
        orderBy: { number: "desc" },
        select: { number: true, gold: true, scorerVersion: true, board: true },
      });
      const number = (previous?.number ?? 0) + 1;
      const changes = snapshotChanges(
        previous
          ? { number: previous.number, gold: previous.gold as unknown as SnapshotGold[], scorerVersion: previous.scorerVersion, boards: (previous.board ?? []) as unknown[] }
          : null,
        { number, gold, scorerVersion: SCORER_VERSION, boards: storedBoards },
      );
      const json = snapshotJson({ phase, number, createdAt: now, note, gold, scorerVersion: SCORER_VERSION, evaluation: boards[0].evaluation, changes, boards: storedBoards });
      const jsonSha256 = sha256Hex(json);
      const row = await tx.resultSnapshot.create({
        data: {
          phaseId: phase.id,
          number,
          createdById: user.userId,
          createdAt: now,
          note,
          changes: changes as unknown as Prisma.InputJsonValue,
          gold: gold as unknown as Prisma.InputJsonValue,
          scorerVersion: SCORER_VERSION,
          board: storedBoards,
          csv,
          csvSha256,
          json,
          jsonSha256,
        },
        select: SUMMARY_SELECT,
      });
      await recordAudit(tx, {
        actorId: user.userId,
        action: "snapshot.publish",
        targetType: "phase",
        targetId: phase.id,
        data: { taskId: phase.taskId, number, csvSha256, jsonSha256 },
      });
      return summaryOf(phase.task.slug, phase.id, row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError("Another organizer published final results of this phase at the same moment; reload the page to see them, then publish again if needed.");
    }
    throw error;
  }
}
