/**
 * Where the real coreference corpora for tests live.
 *
 * Tests that read real data (LitBank, OpenBoek, OntoGUM) call `dataDir()` and skip, with a
 * printed reason, when it returns `null`.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: this file is `<root>/scoring/test/data-dir.ts`. */
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The folder holding the real corpora, laid out as `litbank/conll/*.conll`,
 * `litbank-demo/conll/*.conll`, `openboek/coref/*.conll` and `gum/ontogum-conll/*.conll`,
 * each with a README.md giving its counts.
 *
 * @returns the absolute path from the `COREFBOARD_DATA_DIR` environment variable when it is
 *   set and not empty (trusted as given: a wrong path makes real-data tests fail instead of
 *   skipping silently), else `<repo root>/../shared/data` when that folder exists, else `null`.
 */
export function dataDir(): string | null {
  const fromEnv = process.env.COREFBOARD_DATA_DIR;
  if (fromEnv !== undefined && fromEnv.trim() !== "") return resolve(fromEnv);
  const shared = resolve(REPO_ROOT, "..", "shared", "data");
  return existsSync(shared) ? shared : null;
}
