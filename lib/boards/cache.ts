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
 * number only grows, and pruning ({@link pruneBoardChanges}) only lowers the count.
 */
export async function boardVersion(db: Db, phaseId: string): Promise<string> {
  const [row] = await db.$queryRaw<{ v: bigint | null; n: number }[]>`SELECT max(seq) AS v, count(*)::int AS n FROM board_changes WHERE phase_id = ${phaseId}::uuid`;
  return `${row?.v ?? 0}:${row?.n ?? 0}`;
}

/**
 * Deletes every board change row but each phase's latest (they only make a phase's version
 * slower to read). Run by the worker's reconciler.
 *
 * @returns the number of rows deleted
 */
export async function pruneBoardChanges(db: Db): Promise<number> {
  return db.$executeRaw`
    DELETE FROM board_changes b
     USING (SELECT phase_id, max(seq) AS latest FROM board_changes GROUP BY phase_id) l
     WHERE b.phase_id = l.phase_id AND b.seq < l.latest`;
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
