/**
 * `next build --webpack` when the build folder is missing or older than the sources (the same
 * rule and command as `scripts/serve.ts`, whose `needsBuild` this uses); nothing otherwise.
 * `npm test` runs it beside the type check, so that the browser tests' server finds the site
 * built. Exits with next build's exit code (0 when nothing had to be built).
 *
 *   node --import tsx scripts/build-if-stale.ts
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { needsBuild } from "./serve";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (!needsBuild(root)) {
  console.log("build-if-stale: the build folder is up to date");
  process.exit(0);
}
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const build = spawnSync(process.execPath, [nextBin, "build", "--webpack"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
});
process.exit(build.status ?? 1);
