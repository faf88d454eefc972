/**
 * The production build (scripts/serve.ts, step 5): `next build --webpack` when the build
 * folder is missing or older than a source file, or when asked to.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ChildEnv } from "./child";
import { log } from "./log";
import { ROOT } from "./root";
import type { Supervisor } from "./supervisor";

/** Folders and files whose changes call for a new `next build`, relative to the root. */
const BUILD_INPUTS = ["app", "lib", "scoring", "public", "proxy.ts", "next.config.js", "postcss.config.mjs", "tsconfig.json", "package.json", "package-lock.json"];
const SKIPPED_DIRS = new Set(["node_modules", "test", "tests", "fixtures", "bench", "__tests__"]);

/**
 * The newest modification time among the build inputs (tests and fixtures excluded).
 *
 * @param root the repository root
 * @returns milliseconds since the epoch; 0 when nothing was found
 */
export function newestSourceMtime(root: string): number {
  let newest = 0;
  const visit = (file: string) => {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (SKIPPED_DIRS.has(path.basename(file))) return;
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (!/\.test\.tsx?$/.test(file)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const input of BUILD_INPUTS) visit(path.join(root, input));
  return newest;
}

/**
 * Whether `.next` must be rebuilt: no `BUILD_ID`, or a source changed after it was written.
 *
 * @param root the repository root
 */
export function needsBuild(root: string): boolean {
  const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  return newestSourceMtime(root) > statSync(buildId).mtimeMs;
}

/** The path of Next's command-line script (`next/dist/bin/next`), run with this node. */
export function resolveNextBin(): string {
  return createRequire(import.meta.url).resolve("next/dist/bin/next");
}

/**
 * Step 5 of scripts/serve.ts: `next build --webpack` (webpack rather than Turbopack: see
 * next.config.js) when the build folder is stale ({@link needsBuild}) or `force` (--build),
 * as a child of `supervisor` with `buildEnv` and NODE_ENV=production.
 *
 * @param nextBin Next's command-line script ({@link resolveNextBin})
 * @returns whether it built (true also when a shutdown began during the build)
 * @throws Error `next build failed (exit code N)` when the build failed
 */
export async function buildIfNeeded(supervisor: Supervisor, nextBin: string, force: boolean, buildEnv: ChildEnv): Promise<boolean> {
  if (!force && !needsBuild(ROOT)) return false;
  log.info(force ? "building (--build)" : "building: the build folder is missing or older than the sources");
  const build = supervisor.spawn("next build", process.execPath, [nextBin, "build", "--webpack"], { ...buildEnv, NODE_ENV: "production" });
  const code = await build.exited;
  if (supervisor.isStopping) return true;
  if (code !== 0) throw new Error(`next build failed (exit code ${code})`);
  return true;
}
