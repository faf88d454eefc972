/**
 * Boards this process computed, kept by board version (issue 12 §1): a phase's board version is
 * its latest `board_changes.seq` (migration 0010: triggers add a row whenever a run, a team's
 * name, a track, a dataset or a gold key of the phase changes; migration 0016: or the phase
 * itself, or its task), so an entry made for version `v` is exactly what computing the board
 * again would give while the version is `v`. A view reads one number (an index-only lookup)
 * instead of ranking 10,000 runs again.
 *
 * What is kept is what does not depend on the viewer beyond the key it is stored under: a
 * board's ranked page and its runs' stored rows (`leaderboard.ts`), the phase with its task
 * (its settings), and the phase's tracks, datasets and scored datasets. Who the viewer is (an
 * organizer, a team member) is read on every signed-in view. Entries of older versions are
 * never read again and age out (least recently used first).
 */
import { LRUCache } from "lru-cache";
import type { Db } from "../db";

/**
 * The board version of a phase: its latest board change and the number of its change rows,
 * e.g. `"1042:3"` (`"0:0"` for a phase without any). The count matters: sequence numbers are
 * taken in one order and committed in another, so a change committed after a later-numbered one
 * leaves the largest number as it was but adds a row. The pair never repeats: the largest
 * number only grows, and while it stays the count only grows; pruning
 * ({@link pruneBoardChanges}), which lowers the count, replaces a phase's rows by one with a new
 * largest number.
 */
export async function boardVersion(db: Db, phaseId: string): Promise<string> {
  const [row] = await db.$queryRaw<{ v: bigint | null; n: number }[]>`SELECT max(seq) AS v, count(*)::int AS n FROM board_changes WHERE phase_id = ${phaseId}::uuid`;
  return `${row?.v ?? 0}:${row?.n ?? 0}`;
}

/** Board change rows a phase keeps before {@link pruneBoardChanges} replaces them. */
export const BOARD_CHANGES_KEPT = 64;

/**
 * Replaces the board change rows of each phase that has more than `keep` by a single new row,
 * in one statement (the rows only make a phase's version slower to read: with at most about
 * `keep` rows, reading it stays one short index-only scan). Run by the worker's reconciler
 * (every 5 s).
 *
 * A new row, rather than keeping the latest, keeps versions from repeating. Keeping the latest,
 * a change numbered below it but committed after the pruning would restore a count seen before
 * with other contents: with rows {1040, 1042} ("1042:2", seen by a reader) while the change
 * numbered 1041 is still uncommitted, pruning would leave {1042} ("1042:1"), and 1041's commit
 * would make "1042:2" again, naming the board without 1041's change. Replaced, the rows are
 * {1043} ("1043:1") and the commit makes "1043:2", never seen. Its cost: the phase's boards are
 * computed once more, once per `keep` changes of the phase.
 *
 * @param keep rows a phase may have before they are replaced (default {@link BOARD_CHANGES_KEPT}; at least 1)
 * @returns the number of rows removed (those deleted less those added)
 */
export async function pruneBoardChanges(db: Db, keep: number = BOARD_CHANGES_KEPT): Promise<number> {
  const [row] = await db.$queryRaw<{ removed: number }[]>`
    WITH crowded AS (SELECT phase_id FROM board_changes GROUP BY phase_id HAVING count(*) > ${Math.max(1, Math.floor(keep))}),
         deleted AS (DELETE FROM board_changes b USING crowded c WHERE b.phase_id = c.phase_id RETURNING b.phase_id),
         added AS (INSERT INTO board_changes (phase_id) SELECT DISTINCT phase_id FROM deleted RETURNING phase_id)
    SELECT ((SELECT count(*) FROM deleted) - (SELECT count(*) FROM added))::int AS removed`;
  return row?.removed ?? 0;
}

/** Entries kept per process: boards' pages and phases' facts (each up to some hundred kB). */
const MAX_ENTRIES = 500;

const cache = new LRUCache<string, { value: unknown }>({ max: MAX_ENTRIES });

/**
 * The value kept under `key` (which must name the board version it was computed for), or the
 * value `compute` gives, then kept.
 *
 * @param key e.g. JSON of the phase, its board version and the board's options
 * @param compute computes the value (called only on a miss; a failure is not kept)
 */
export async function cachedBoardPart<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit) return hit.value as T;
  const value = await compute();
  cache.set(key, { value });
  return value;
}

/** The value kept under `key`, or undefined (see {@link cachedBoardPart}). */
export function peekBoardPart<T>(key: string): T | undefined {
  return cache.get(key)?.value as T | undefined;
}

/** Keeps `value` under `key` (which must name the board version it holds for; see {@link cachedBoardPart}). */
export function keepBoardPart(key: string, value: unknown): void {
  cache.set(key, { value });
}
