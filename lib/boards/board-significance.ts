/**
 * Stored leaderboard significance (issue 12 §1): a board's paired-bootstrap markers and 95 %
 * intervals (`boardSignificance` in `significance.ts`) are computed by the worker, off the
 * request path, and stored per board version (`board_significance`); a page view or an API
 * call only reads them ({@link readBoardSignificance}) and never runs the bootstrap.
 *
 * - A board is named by {@link boardKey}: its view (the organizers', a frozen board's readers',
 *   or everyone's), track, metric, dataset, ranking dataset and whether it lists every run.
 *   Every reader who is not an organizer sees the same board (their own rows' highlight aside),
 *   so one computation serves them all.
 * - Its version is `BoardPage.version`, a digest of the whole board's listed runs in order with
 *   their ranks and when each was scored (`board-ranking.ts`): a stored result is shown only
 *   for exactly the board it was computed on. Any change (a run scored, withdrawn, hidden,
 *   disqualified, marked final, re-scored) makes the stored one stale.
 * - When a view finds no result for the board's version it asks the workers for one (a
 *   `board-significance` job; one waiting job per board) and says the markers are being
 *   computed. When a run is scored, the worker asks for the default boards of its phase
 *   ({@link requestDefaultBoards}), so readers mostly find them ready.
 * - Intervals are always computed and stored with the markers; a view shows them when asked.
 * - Boards ranked by a variant have no significance (per-document counts are stored for the
 *   primary setting only), nor do boards hidden until the phase closes.
 */
import { enqueueSignificance, type SignificanceJobData } from "../queue";
import type { Prisma } from "../generated/prisma/client";
import { keepBoardPart, peekBoardPart } from "./cache";
import { defaultDb, type Db } from "../db";
import { getLeaderboard } from "./leaderboard";
import { boardSignificance } from "./significance";
import type { BoardSignificance, Leaderboard } from "./types";
import { listTracks } from "../tasks";

/** What a board's stored significance is for a view. */
export type StoredBoardSignificance =
  /** computed for exactly this board (same runs, same scores): the markers, and intervals when asked */
  | { status: "ready"; significance: BoardSignificance; computedAt: Date }
  /** not computed for this version of the board yet: a job is queued; show a note, not stale markers */
  | { status: "pending" }
  /** never shown for this board, with the reason as a sentence */
  | { status: "none"; reason: string };

/** Why a board ranked by a variant has no significance. */
export const VARIANT_REASON =
  "Significance and intervals are computed from per-document scores, which are stored for the primary setting only; rank by the primary setting to see them.";
/** Why a board hidden until the close has no significance. */
export const HIDDEN_REASON = "This board is hidden until the phase closes; how runs compare appears then.";

/**
 * The name of a board among a phase's stored significance results.
 *
 * @param board a board from `getLeaderboard`
 * @returns e.g. `view=public|track=|metric=conll|dataset=|rankDataset=|all=0`
 */
export function boardKey(board: Pick<Leaderboard, "policy" | "track" | "metric" | "dataset" | "rankDataset" | "allRuns">): string {
  const view = board.policy.final ? "final" : board.policy.organizerView ? "organizers" : board.policy.freezeApplied ? "frozen" : "public";
  return [
    `view=${view}`,
    `track=${board.track?.id ?? ""}`,
    `metric=${board.metric}`,
    `dataset=${board.dataset?.id ?? ""}`,
    `rankDataset=${board.rankDataset ?? ""}`,
    `all=${board.allRuns ? 1 : 0}`,
  ].join("|");
}

/** Boards a view asked for recently (key and version → when), so that a burst of views asks once per process. */
const asked = new Map<string, number>();
const ASK_AGAIN_MS = 15_000;

/**
 * The stored significance of `board`, as a page or the API shows it. Runs no bootstrap: when
 * nothing is stored for this version of the board, it asks the workers to compute it (at most
 * once per board and version every 15 s per process) and answers `pending`.
 *
 * @param board a board from `getLeaderboard` (any page of it; the viewer's access is checked there)
 * @param options `intervals`: also each row's 95 % interval (else `interval` is null in every row);
 *   `viewer`: the viewer whose board it is (needed to compute an organizers' board); `db`
 * @returns `ready` with the markers of the board's rows (every page's), `pending`, or `none`
 *   with the reason (a variant's board, a board hidden until the close, a board without runs)
 */
export async function readBoardSignificance(
  board: Leaderboard,
  options: { intervals?: boolean; viewerId?: string | null; db?: Db } = {},
): Promise<StoredBoardSignificance> {
  if (board.variant !== null) return { status: "none", reason: VARIANT_REASON };
  if (board.policy.ownTeamOnly) return { status: "none", reason: HIDDEN_REASON };
  if (board.policy.final) return { status: "none", reason: "Final boards are published without significance markers." };
  const db = options.db ?? defaultDb();
  const key = boardKey(board);
  // A result stored for this version of the board never changes: kept once read (`cache.ts`).
  const memoKey = JSON.stringify(["significance", board.phase.id, key, board.page.version]);
  const stored =
    peekBoardPart<{ version: string; data: unknown; computedAt: Date }>(memoKey) ??
    (await db.boardSignificance.findUnique({ where: { phaseId_boardKey: { phaseId: board.phase.id, boardKey: key } }, select: { version: true, data: true, computedAt: true } }));
  if (stored && stored.version === board.page.version) {
    keepBoardPart(memoKey, stored);
    const data = stored.data as unknown as BoardSignificance;
    if (options.intervals) return { status: "ready", significance: data, computedAt: stored.computedAt };
    // Without intervals: the markers of every row of the board, made once per board version
    // (not on every view: the board has a row per run).
    const plainKey = JSON.stringify(["significance-plain", board.phase.id, key, board.page.version]);
    let plain = peekBoardPart<BoardSignificance>(plainKey);
    if (plain === undefined) {
      plain = { ...data, rows: Object.fromEntries(Object.entries(data.rows).map(([id, r]) => [id, { ...r, interval: null }])) };
      keepBoardPart(plainKey, plain);
    }
    return { status: "ready", significance: plain, computedAt: stored.computedAt };
  }
  const memo = `${board.phase.id}|${key}|${board.page.version}`;
  const last = asked.get(memo);
  if (last === undefined || Date.now() - last > ASK_AGAIN_MS) {
    asked.set(memo, Date.now());
    if (asked.size > 10_000) asked.clear();
    await enqueueSignificance([{ key: `${board.phase.id}|${key}`, data: jobData(board, board.policy.organizerView ? (options.viewerId ?? null) : null) }]).catch((error: unknown) => {
      asked.delete(memo);
      console.error(`board significance: could not ask for ${memo}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
  return { status: "pending" };
}

/** The job that computes `board` again (as its viewer would ask for it). */
function jobData(board: Pick<Leaderboard, "phase" | "metric" | "track" | "dataset" | "rankDataset" | "allRuns">, viewerId: string | null): SignificanceJobData {
  return {
    phaseId: board.phase.id,
    viewerId,
    board: { metric: board.metric, track: board.track?.id ?? null, dataset: board.dataset?.id ?? null, rankDataset: board.rankDataset, allRuns: board.allRuns },
  };
}

/** What {@link computeBoardSignificance} did. */
export type ComputeOutcome = { status: "computed"; key: string; rows: number; ms: number } | { status: "fresh"; key: string } | { status: "skipped"; reason: string };

/**
 * Computes and stores one board's significance (the worker's job): the whole board as the job
 * names it, `boardSignificance` with intervals, stored under the board's key with its version.
 * A board whose stored result is already of its current version is left alone.
 *
 * @param job the board: phase, options, and the organizer whose board it is (null: every other reader's)
 * @returns what was done; a board that has no significance (variant, hidden until the close,
 *   a phase or viewer that is gone) is skipped
 */
export async function computeBoardSignificance(job: SignificanceJobData, db: Db = defaultDb()): Promise<ComputeOutcome> {
  const viewer = job.viewerId ? await db.user.findUnique({ where: { id: job.viewerId }, select: { id: true, role: true, deletedAt: true } }) : null;
  if (job.viewerId && (!viewer || viewer.deletedAt)) return { status: "skipped", reason: "the organizer who asked is gone" };
  let board: Leaderboard;
  try {
    board = await getLeaderboard(job.phaseId, viewer ? { userId: viewer.id, role: viewer.role } : null, { ...job.board, reader: viewer === null });
  } catch (error) {
    return { status: "skipped", reason: error instanceof Error ? error.message : String(error) };
  }
  if (board.variant !== null || board.policy.ownTeamOnly) return { status: "skipped", reason: "this board has no significance" };
  const key = boardKey(board);
  const where = { phaseId_boardKey: { phaseId: board.phase.id, boardKey: key } };
  const stored = await db.boardSignificance.findUnique({ where, select: { version: true } });
  if (stored?.version === board.page.version) return { status: "fresh", key };
  const t0 = performance.now();
  const significance = await boardSignificance(board, { intervals: true });
  const ms = Math.round(performance.now() - t0);
  const data = significance as unknown as Prisma.InputJsonValue;
  await db.boardSignificance.upsert({
    where,
    create: { phaseId: board.phase.id, boardKey: key, version: board.page.version, data, ms },
    update: { version: board.page.version, data, ms, computedAt: new Date() },
  });
  return { status: "computed", key, rows: board.rows.length, ms };
}

/**
 * Asks for the significance of a phase's default boards: everyone's board of each track (or
 * the phase's one board), ranked by the task's primary metric in the primary setting, one run
 * per team. Called by the worker when a run of the phase is scored.
 *
 * @throws when the database is unreachable
 */
export async function requestDefaultBoards(phaseId: string, db: Db = defaultDb()): Promise<void> {
  const phase = await db.phase.findUnique({ where: { id: phaseId }, select: { id: true, task: { select: { primaryMetric: true } } } });
  if (!phase) return;
  const tracks = await listTracks(phaseId, db);
  const jobs = (tracks.length > 0 ? tracks.map((t) => t.id) : [null]).map((track) => {
    const data: SignificanceJobData = { phaseId, viewerId: null, board: { metric: phase.task.primaryMetric, track, dataset: null, rankDataset: null, allRuns: false } };
    return { key: `${phaseId}|default|${track ?? ""}`, data };
  });
  await enqueueSignificance(jobs);
}
