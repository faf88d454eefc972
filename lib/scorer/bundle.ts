/**
 * The scorer as one file for participants (issue 24 §3 B): the CLI bundle that
 * `scripts/build-cli.mjs` writes to `scoring/cli/dist/corefboard.mjs` (postinstall), the code
 * the site scores with, served as `corefboard-<version>.mjs` with its sha256. The bundle only
 * exports `main` (`scoring/cli/bin.mjs` runs it); the served file is the bundle followed by the
 * two lines that run it, so `node corefboard-<version>.mjs score KEY RUN` works on its own
 * (Node 20 or later, nothing to install).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { NotFoundError } from "../errors";
import { SCORER_VERSION } from "./version";
import { sha256Hex } from "../storage";

/** The served file name for a scorer version, e.g. `corefboard-0.1.0.mjs`. */
export function scorerBundleFileName(version: string = SCORER_VERSION): string {
  return `corefboard-${version}.mjs`;
}

/** What the bundle gets appended so that running the file runs the CLI (as bin.mjs does). */
export const RUNNER_SUFFIX = `
// corefboard ${SCORER_VERSION}: run the command line (as scoring/cli/bin.mjs does).
process.exitCode = await main(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) });
`;

/** The served scorer file. */
export interface ScorerBundle {
  fileName: string;
  bytes: Uint8Array;
  /** lower-case hex sha256 of `bytes` */
  sha256: string;
  version: string;
}

let cached: Promise<ScorerBundle> | null = null;

/** Where the built bundle is: `$COREFBOARD_CLI_DIST/corefboard.mjs` when set (as bin.mjs reads it), else `scoring/cli/dist/` under the working directory. */
function bundlePath(): string {
  const dist = process.env.COREFBOARD_CLI_DIST ? path.resolve(process.env.COREFBOARD_CLI_DIST) : path.join(process.cwd(), "scoring", "cli", "dist");
  return path.join(dist, "corefboard.mjs");
}

/**
 * The runnable scorer file and its sha256, read and hashed once per process (the bundle is
 * built at install time and does not change while the server runs).
 *
 * @returns `{fileName: corefboard-<version>.mjs, bytes, sha256, version}`
 * @throws NotFoundError (404) when the bundle was not built on this server (`npm run build:cli`);
 *   the failure is not cached, so a later build is picked up
 */
export function loadScorerBundle(): Promise<ScorerBundle> {
  cached ??= (async () => {
    let built: Buffer;
    try {
      built = await readFile(bundlePath());
    } catch {
      throw new NotFoundError("The scorer file is not built on this server (run `npm run build:cli`).");
    }
    const bytes = new Uint8Array(Buffer.concat([built, Buffer.from(RUNNER_SUFFIX, "utf8")]));
    return { fileName: scorerBundleFileName(), bytes, sha256: sha256Hex(bytes), version: SCORER_VERSION };
  })().catch((error: unknown) => {
    cached = null;
    throw error;
  });
  return cached;
}
