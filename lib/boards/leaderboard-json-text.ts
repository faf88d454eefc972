/**
 * A board's JSON answer as text, serialized once per board version (issue 26 §3): the rows a view
 * gets are shared while the board version holds (`cachedRows` in `leaderboard.ts`, kept by
 * `cache.ts`), so the text made from them is kept beside them, in a WeakMap that lets it go when
 * they go, as UTF-8 bytes. Only the generation time (`generatedAt`) is written per answer.
 */
import { createHash } from "node:crypto";
import { leaderboardJson } from "./leaderboard";
import type { Leaderboard, LeaderboardRow } from "./types";

/** The answer's UTF-8 bytes around the generation time, and the digest of the answer without it. */
interface SerializedBoard {
  before: Buffer;
  after: Buffer;
  digest: string;
}

/** What stands where `generatedAt` goes until the answer is sent: no board's JSON has it anywhere else. */
const GENERATED_AT_MARK = "\u0000generatedAt\u0000";

/** How many boards around one rows array are kept (their settings-derived facts differ): a bound, not a cache policy. */
const MAX_PER_ROWS = 8;

const serialized = new WeakMap<readonly LeaderboardRow[], Map<string, SerializedBoard>>();

/**
 * The board's JSON (`leaderboardJson`, no significance) as UTF-8 bytes, with the sha256 digest of
 * the text without its `generatedAt` value (what the ETag is made of: it changes only when what
 * the answer shows changes). A second board around the same rows array, with the same facts but
 * the generation time, reuses the first one's bytes: only its time is encoded.
 *
 * @param board from `getLeaderboard`
 * @returns `bytes` (what `JSON.stringify(leaderboardJson(board))` gives, as UTF-8) and `digest`
 *   (lower-case hex)
 */
export function leaderboardJsonText(board: Leaderboard): { bytes: Uint8Array; digest: string } {
  const { rows, generatedAt, ...facts } = board;
  const key = JSON.stringify(facts);
  let around = serialized.get(rows);
  let entry = around?.get(key);
  if (!entry) {
    const text = JSON.stringify({ ...leaderboardJson(board), generatedAt: GENERATED_AT_MARK });
    const mark = JSON.stringify(GENERATED_AT_MARK);
    const at = text.indexOf(mark);
    const [before, after] = [text.slice(0, at), text.slice(at + mark.length)];
    entry = { before: Buffer.from(before, "utf8"), after: Buffer.from(after, "utf8"), digest: createHash("sha256").update(`${before}""${after}`, "utf8").digest("hex") };
    if (!around) serialized.set(rows, (around = new Map()));
    if (around.size >= MAX_PER_ROWS) around.delete(around.keys().next().value as string);
    around.set(key, entry);
  }
  return { bytes: Buffer.concat([entry.before, Buffer.from(JSON.stringify(generatedAt), "utf8"), entry.after]), digest: entry.digest };
}
