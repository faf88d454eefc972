/**
 * The gold-leak check's data, shared by its API half (app/api/v1/gold-access.test.ts, route
 * handlers called in Vitest) and its page half (e2e/api-gold.spec.ts, pages from the real
 * server): a gold key whose tokens, chain ids and file name are distinctive canaries, runs for
 * it, and broken uploads. Plain values, no Playwright or Vitest import, so that both runners
 * load it.
 */
import { conll } from "./fixtures";

/** Token text that only the gold key contains. */
export const TOKEN_CANARY = "GOLDCANARY7731";
/** Chain ids that only the gold key uses. */
export const CHAIN_CANARIES = ["913377", "913378", "913379"];
/** In the gold key's file name: gold metadata is for organizers only. */
export const META_CANARY = "GOLDMETA5519";
/** The gold key's file name. */
export const GOLD_FILE_NAME = `gold-${META_CANARY}.conll`;

/** Gold: canary tokens at the start of mentions and as plain tokens, long and nested chains. */
export const GOLD = conll(
  [
    "alpha",
    [
      `${TOKEN_CANARY}\t(913377`,
      `Smith\t913377)`,
      `${TOKEN_CANARY}\t(913378)`,
      "saw\t-",
      "him\t(913377)",
      ".\t-",
      "",
      `The\t(913379|(913378`,
      `${TOKEN_CANARY}\t913378)`,
      "left\t913379)",
      ".\t-",
    ],
  ],
  ["beta", ["It\t(913379)", `${TOKEN_CANARY}\t-`, "rained\t-", ".\t-", "", "Then\t-", "it\t(913379)", "stopped\t-", ".\t-"]],
);

/** A participant's output for the same documents (same token counts, its own tokens and ids). */
export const RESPONSE = conll(
  ["alpha", ["x\t(1", "x\t1)", "x\t(2)", "x\t-", "x\t(1)", "x\t-", "", "x\t(3", "x\t-", "x\t3)", "x\t-"]],
  ["beta", ["x\t(4)", "x\t-", "x\t-", "x\t-", "", "x\t-", "x\t(4)", "x\t-", "x\t-"]],
);

/** Covers a key document, misses one, and adds one the key lacks (warnings). */
export const PARTIAL_RESPONSE = conll(["alpha", ["x\t(1)", "x\t-", "x\t(1)", "x\t-", "x\t-", "x\t-", "", "x\t-", "x\t-", "x\t-", "x\t-"]], ["gamma", ["x\t(1)", "x\t(1)"]]);

/**
 * Broken where the gold key has canaries: a mention opened on line 2 (gold: a canary token
 * opening chain 913377) is never closed, and line 4 (gold: a canary with chain 913378) has a
 * malformed cell. Code that compared with the gold key would echo it here.
 */
export const BROKEN_AT_CANARY = "#begin document (alpha); part 0\nx\t(1\nx\t-\nx\t(2))\nx\t-\n#end document\n";
/** A document begun inside another. */
export const BROKEN_BEGIN = "#begin document (beta); part 0\nIt\t(1)\n#begin document (alpha); part 0\n";

/** The key's document ids as the routes take them (one URL path segment). */
export const KEY_DOCUMENTS = ["alpha/part 0", "beta/part 0"].map(encodeURIComponent);

/** What no answer to anyone but an organizer may hold: the canaries and the gold key's sha256. */
export function goldCanaries(goldSha256: string): string[] {
  return [TOKEN_CANARY, ...CHAIN_CANARIES, META_CANARY, goldSha256];
}
