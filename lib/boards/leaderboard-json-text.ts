/**
 * A board's JSON answer as text, serialized once per board version (issue 26 §3): the rows a view
 * gets are shared while the board version holds (`cachedRows` in `leaderboard.ts`, kept by
 * `cache.ts`), so the text made from them is kept beside them, in a WeakMap that lets it go when
 * they go, with its gzip-compressed bytes (made on first use). Every answer of that version is
 * that text: its `generatedAt` is when it was made, the first answer of the version (as a shared
 * cache's copy would say).
 */
import { createHash } from "node:crypto";
import { constants, gzipSync } from "node:zlib";
import { leaderboardJson } from "./leaderboard";
import type { Leaderboard, LeaderboardRow } from "./types";

/** A board's answer: its text, the digest of the text without its `generatedAt`, and its gzip bytes once made. */
interface SerializedBoard {
  text: string;
  digest: string;
  gzip: Uint8Array | null;
}

/** What stands where `generatedAt` goes while the digest is made: no board's JSON has it anywhere else. */
const GENERATED_AT_MARK = "\u0000generatedAt\u0000";

/** How many boards around one rows array are kept (their settings-derived facts differ): a bound, not a cache policy. */
const MAX_PER_ROWS = 8;

const serialized = new WeakMap<readonly LeaderboardRow[], Map<string, SerializedBoard>>();

/**
 * The board's JSON (`leaderboardJson`, no significance) as text, made once per board version and
 * view (see the module comment), with the sha256 digest of the text without its `generatedAt`
 * value (what the ETag is made of: it changes only when what the answer shows changes, and is
 * the same in every web process) and its gzip-compressed bytes.
 *
 * @param board from `getLeaderboard`
 * @returns `text` (what `JSON.stringify(leaderboardJson(board))` gave for the first board of this
 *   version and view: the same text but `generatedAt`), `digest` (lower-case hex), and `gzip()`,
 *   the text gzip-compressed (best compression; made on its first call, then kept)
 */
export function leaderboardJsonText(board: Leaderboard): { text: string; digest: string; gzip: () => Uint8Array } {
  const { rows, generatedAt: _generatedAt, ...facts } = board;
  const key = JSON.stringify(facts);
  let around = serialized.get(rows);
  let entry = around?.get(key);
  if (!entry) {
    const marked = JSON.stringify({ ...leaderboardJson(board), generatedAt: GENERATED_AT_MARK });
    const mark = JSON.stringify(GENERATED_AT_MARK);
    const at = marked.indexOf(mark);
    const [before, after] = [marked.slice(0, at), marked.slice(at + mark.length)];
    entry = {
      text: `${before}${JSON.stringify(board.generatedAt)}${after}`,
      digest: createHash("sha256").update(`${before}""${after}`, "utf8").digest("hex"),
      gzip: null,
    };
    if (!around) serialized.set(rows, (around = new Map()));
    if (around.size >= MAX_PER_ROWS) around.delete(around.keys().next().value as string);
    around.set(key, entry);
  }
  const kept = entry;
  return { text: kept.text, digest: kept.digest, gzip: () => (kept.gzip ??= gzipSync(kept.text, { level: constants.Z_BEST_COMPRESSION })) };
}
