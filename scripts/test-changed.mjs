#!/usr/bin/env node
// `npm run test:changed`: the inner loop. Type-checks the project incrementally (tsc keeps its
// state in node_modules/.cache/corefboard/tsbuildinfo, so a run after a one-file change
// re-checks what that file affects, in seconds), then runs the unit tests that import a changed
// file, directly or through other modules (`vitest related`). Changed files: what
// `git status` lists against HEAD (staged, unstaged, untracked), or the files given as
// arguments. A changed e2e spec is listed with the command that runs it (Playwright needs the
// built site). Prints each step's wall time; exits non-zero when a step fails.
//
//   npm run test:changed                      # what git sees changed
//   npm run test:changed -- lib/runs/submissions.ts # these files
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

/** Changed files: the arguments, else git's view of the work tree against HEAD. */
function changedFiles() {
  if (process.argv.length > 2) return process.argv.slice(2);
  const status = spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { encoding: "utf8" });
  if (status.status !== 0) throw new Error(`git status failed: ${status.stderr}`);
  return status.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(3).split(" -> ").pop())
    .filter((file) => existsSync(file));
}

let failed = false;
/** Runs one step and prints its wall time. */
function step(title, command, args) {
  console.log(`\n=== ${title} ===`);
  const start = performance.now();
  const run = spawnSync(command, args, { stdio: "inherit" });
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  console.log(`--- ${title}: ${run.status === 0 ? "passed" : "FAILED"} in ${seconds} s`);
  if (run.status !== 0) failed = true;
}

const files = changedFiles().filter((f) => SOURCE.test(f));
if (files.length === 0) {
  console.log("no changed source files (give files as arguments, or change some)");
  process.exit(0);
}
console.log(`changed: ${files.join(", ")}`);

step("type check (tsc --incremental)", "npx", ["--no-install", "tsc", "--noEmit", "--incremental", "--tsBuildInfoFile", "node_modules/.cache/corefboard/tsbuildinfo", "-p", "."]);
const units = files.filter((f) => !f.startsWith("e2e/"));
if (units.length > 0) step("unit tests that import the changed files (vitest related)", "npx", ["--no-install", "vitest", "related", "--run", "--passWithNoTests", ...units]);
const specs = files.filter((f) => f.startsWith("e2e/") && f.endsWith(".spec.ts"));
if (specs.length > 0) console.log(`\nchanged browser specs (not run here): npx playwright test ${specs.join(" ")}`);
process.exit(failed ? 1 : 0);
