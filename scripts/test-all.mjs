#!/usr/bin/env node
// `npm test`: every check and test of the repository, then one closing line
// "N passed, N failed" that CI reads.
//   1. TypeScript type check (tsc --noEmit)          counted as one test
//   2. Unit tests (vitest, next to the code)          each test counted
//   3. End-to-end tests (Playwright in Debian's Chromium, against the real app on a
//      throwaway embedded Postgres)                   each test counted
//      Skipped with a printed reason when no Chromium is installed and SKIP_E2E is not 0;
//      SKIP_E2E=1 skips them on purpose.
//   Stages 1-3 run side by side, each as soon as what it needs is done: the type check and
//   the app's production build (`serve.ts --build-only`, which builds only when .next is
//   stale; a failed build counts as one failure) from the start, the site's unit tests once
//   the type check is done (on one worker when the browser tests run beside them), the
//   browser tests once the build is done.
//   4. Resilience tests (e2e/resilience: attacks, then failures, against one real site with
//      its own server and Postgres; node's test runner)   each test counted
//      After the rest, with only the scoring library's unit tests beside them, at the idle
//      CPU priority (SCHED_IDLE): those take only the CPU the resilience suite leaves.
//      SKIP_RESILIENCE=1 skips them (the scoring tests then run in stage 2). A suite that
//      does not start or report counts as failed.
//   The module boundaries (dependency-cruiser, `npm run boundaries`), counted as one test, run
//   at the idle priority from the start of stages 1-3 (without the resilience tests: last).
// Before that line it prints each stage's wall time, the 15 slowest tests and test files, and
// every failed test with the start of its message (from the runners' own reports, read by
// scripts/test-reports.mjs).
// Exits non-zero when anything failed.
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromiumPath } from "../e2e/helpers/chromium.mjs";
import { readPlaywrightReport, readTap, readVitestReport } from "./test-reports.mjs";

let passed = 0;
let failed = 0;
let skipped = 0;

/** Each stage's title, start (performance.now()) and, once ended, wall time in seconds, in order. */
const stages = [];
/** Every test's and every test file's duration: { kind: "test" | "file", name, ms }. */
const durations = [];
/** Every failed test, { name, message }: listed again just before the closing line. */
const failures = [];

function step(title) {
  endStage();
  console.log(`\n=== ${title} ===`);
  stages.push({ title, start: performance.now(), seconds: null });
}

/** Ends the current stage, if one is running. */
function endStage() {
  const current = stages.at(-1);
  if (current && current.seconds === null) current.seconds = (performance.now() - current.start) / 1000;
}

/** Adds a report's durations and failures (scripts/test-reports.mjs) to the run's. */
function addReport({ durations: d, failures: f }) {
  durations.push(...d);
  failures.push(...f);
}

/** Prints the stage timings and the slowest tests and files. */
function printTimings() {
  endStage();
  console.log("\n=== timings ===");
  for (const s of stages) console.log(`${s.seconds.toFixed(1).padStart(8)} s  ${s.title}${s.detail ? ` (${s.detail})` : ""}`);
  console.log(`${stages.reduce((sum, s) => sum + s.seconds, 0).toFixed(1).padStart(8)} s  in all`);
  for (const kind of ["test", "file"]) {
    const top = durations.filter((d) => d.kind === kind).sort((a, b) => b.ms - a.ms).slice(0, 15);
    if (top.length === 0) continue;
    console.log(`\nthe ${top.length} slowest ${kind === "test" ? "tests" : "test files and specs"}:`);
    for (const d of top) console.log(`${(d.ms / 1000).toFixed(1).padStart(8)} s  ${d.name.length > 160 ? `${d.name.slice(0, 157)}...` : d.name}`);
  }
}

/**
 * Lists the failed tests with the start of their messages (at most 20), so that the log's last
 * lines, all CI shows, name what failed and why. A failure the reports do not name (a build, the
 * type check, the module boundaries) is reported above, where it happened.
 */
function printFailures() {
  if (failures.length === 0) return;
  console.log(`\n=== ${failures.length} failed test${failures.length === 1 ? "" : "s"} ===`);
  for (const f of failures.slice(0, 20)) console.log(`\n✗ ${f.name}\n${f.message.replace(/^/gm, "    ")}`);
  if (failures.length > 20) console.log(`\n… and ${failures.length - 20} more, above`);
}

/**
 * Runs a command with each line it prints (stdout and stderr) prefixed by `[label] `, so that
 * commands running side by side stay readable.
 * @returns its exit code (1 when it could not start or was killed by a signal) and wall time in seconds
 */
function runLabelled(label, command, args, options = {}) {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: options.timeoutMs !== undefined });
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on("line", (line) => console.log(`[${label}] ${line}`));
    // A hung command must not eat CI's time: its process group gets SIGTERM at the time limit.
    const timer =
      options.timeoutMs === undefined
        ? null
        : setTimeout(() => {
            console.log(`[${label}] still running after ${options.timeoutMs / 60_000} min: stopping it`);
            try {
              process.kill(-child.pid, "SIGTERM");
            } catch {
              // already gone
            }
          }, options.timeoutMs);
    child.once("error", (error) => console.log(`[${label}] could not start: ${error.message}`));
    child.once("close", (code) => {
      if (timer) clearTimeout(timer);
      resolve({ code: code ?? 1, seconds: (performance.now() - start) / 1000 });
    });
  });
}

/**
 * `argv` run at the idle CPU priority (Linux's SCHED_IDLE, through util-linux's `chrt`, which
 * every process it starts inherits): it gets only the CPU time nothing else wants. Without
 * `chrt` (not Linux), `argv` as it is.
 */
function atIdlePriority(argv) {
  const chrt = ["/usr/bin/chrt", "/bin/chrt"].find((path) => existsSync(path));
  return chrt ? [chrt, "--idle", "0", ...argv] : argv;
}

/**
 * Runs `npx --no-install <argv>`: with `label`, its output lines prefixed (it runs beside
 * another stage); without, on the terminal.
 * @returns its exit code
 */
async function runNpx(argv, label, options = {}) {
  const args = ["--no-install", ...argv];
  if (options.idle) {
    const [command, ...rest] = atIdlePriority(["npx", ...args]);
    return (await runLabelled(label, command, rest)).code;
  }
  return label ? (await runLabelled(label, "npx", args)).code : spawnSync("npx", args, { stdio: "inherit" }).status;
}

/**
 * Runs Vitest (`args` choose projects and workers) and adds its tests to the counts and its
 * durations to the timings; a run that fails without a failed test counts as one failure.
 */
async function runVitest(args, label, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), "corefboard-vitest-"));
  const report = join(dir, "report.json");
  const status = await runNpx(["vitest", "run", ...args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], label, options);
  // Read after the await: from here on nothing else (a stage beside this one) changes `failed`.
  const failedBefore = failed;
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    addReport(readVitestReport(json, process.cwd()));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    skipped += json.numPendingTests + json.numTodoTests;
    // A file that failed without a failed test counts as one failure: one that failed to load
    // (no results), or whose beforeAll/afterAll hook failed (its tests "skipped"; Vitest 4.1
    // then even exits 0).
    for (const suite of json.testResults) if (suite.status === "failed" && !suite.assertionResults.some((t) => t.status === "failed")) failed++;
  } catch (error) {
    console.log(`could not read the vitest report (${error.message}); counting these unit tests as failed`);
    failed++;
  }
  if (status !== 0 && failed === failedBefore) failed++;
  rmSync(dir, { recursive: true, force: true });
}

/** Runs Playwright and adds its tests to the counts and its durations to the timings (as {@link runVitest}). */
async function runPlaywright(label) {
  const e2eReport = "playwright-report/e2e.json";
  rmSync(e2eReport, { force: true });
  const status = await runNpx(["playwright", "test"], label);
  const failedBefore = failed;
  try {
    const e2eJson = JSON.parse(readFileSync(e2eReport, "utf8"));
    const stats = e2eJson.stats;
    addReport(readPlaywrightReport(e2eJson));
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    skipped += stats.skipped;
  } catch (error) {
    console.log(`could not read the Playwright report (${error.message}); counting the end-to-end tests as failed`);
    failed++;
  }
  if (status !== 0 && failed === failedBefore) failed++;
}

const chromium = chromiumPath();
const e2eWanted = process.env.SKIP_E2E !== "1" && existsSync(chromium);
const resilienceWanted = process.env.SKIP_RESILIENCE !== "1";

// Stages 1-3 run as jobs side by side, each started as soon as what it needs is done, so that
// the 2 cores stay busy: the type check and the build from the start; the site's unit tests
// once the type check is done (they fill the cores the build, mostly one thread, leaves idle,
// then those the browser tests leave idle: these wait on the browser, the server and the
// database in turn, two spec files at a time), on one Vitest worker beside the browser tests;
// the browser tests once the build is done.
//
// The resilience suite (stage 4) runs after them: it compares latencies with a baseline it
// measures itself, so nothing may take CPU from it. It leaves about a third of the 2 cores
// idle (it waits on its probes and its site), and the scoring library's unit tests take that:
// pure computation with no timing of their own, at the idle priority (SCHED_IDLE), which the
// kernel runs only when nothing else wants the CPU. Their test time limit is raised there (a
// limit against hangs, not a latency check): they may wait while the resilience suite uses
// both cores.
const scoringBesideResilience = resilienceWanted;
step(
  [
    scoringBesideResilience ? "the module boundaries (idle priority)" : null,
    "type check (tsc --noEmit)",
    e2eWanted || resilienceWanted ? "the app's build" : null,
    `${scoringBesideResilience ? "the site's unit tests" : "unit tests"} (vitest${e2eWanted ? ", on one worker beside the browser tests" : ""})`,
    e2eWanted ? "end-to-end tests (Playwright)" : null,
  ]
    .filter(Boolean)
    .join(", ") + ", side by side",
);
const sideBySideStart = performance.now();
/** The jobs of this stage: label, start and end in seconds from the stage's start. */
const jobs = [];
/** Runs `fn` as the job `label`, recording when it started and ended. */
async function job(label, fn) {
  const start = (performance.now() - sideBySideStart) / 1000;
  const result = await fn();
  jobs.push({ label, start, end: (performance.now() - sideBySideStart) / 1000 });
  return result;
}

// The module boundaries (dependency-cruiser: it reads the imports and runs none of the code)
// from the start, at the idle CPU priority: they take what the type check and the build, mostly
// one thread each, leave of the 2 cores in their first minute, and are not left for the last
// stage, where the scoring library's tests at that priority were what CI waited for.
const boundariesJob = scoringBesideResilience ? job("module boundaries (idle priority)", () => runBoundaries({ idle: true })) : null;
const tscJob = job("tsc", () => runLabelled("tsc", "npx", ["--no-install", "tsc", "--noEmit", "-p", "."])).then((tsc) => {
  if (tsc.code === 0) {
    passed++;
    console.log(`type check passed (${tsc.seconds.toFixed(1)} s)`);
  } else {
    failed++;
    console.log(`type check FAILED (${tsc.seconds.toFixed(1)} s)`);
  }
});
const buildJob =
  e2eWanted || resilienceWanted
    ? job("build", () => runLabelled("build", process.execPath, ["--import", "tsx", "scripts/serve.ts", "--build-only"])).then((build) => {
        if (build.code === 0) console.log(`app build done (${build.seconds.toFixed(1)} s)`);
        else {
          failed++;
          console.log(`app build FAILED (${build.seconds.toFixed(1)} s)`);
        }
      })
    : Promise.resolve();
// Without the browser tests, Vitest takes the cores the config gives it (maxWorkers).
const siteProjects = scoringBesideResilience ? ["--project", "site*"] : [];
const vitestJob = tscJob.then(() =>
  job(e2eWanted ? "vitest (1 worker)" : "vitest", () => runVitest([...siteProjects, ...(e2eWanted ? ["--maxWorkers=1"] : [])], "vitest")),
);
const e2eJob = buildJob.then(async () => {
  if (process.env.SKIP_E2E === "1") {
    console.log("skipping end-to-end tests: SKIP_E2E=1");
  } else if (!existsSync(chromium)) {
    console.log(`skipping end-to-end tests: no Chromium at ${chromium} (apt-get install -y chromium-headless-shell, or set CHROMIUM_PATH)`);
    if (process.env.CI) failed++;
  } else {
    await job("playwright", () => runPlaywright("e2e"));
  }
});
await Promise.all([tscJob, buildJob, vitestJob, e2eJob, boundariesJob]);
stages.at(-1).detail = jobs
  .sort((a, b) => a.start - b.start)
  .map((j) => `${j.label} ${j.start.toFixed(0)}-${j.end.toFixed(0)} s`)
  .join(", ");

/**
 * Checks the allowed arrows between modules (`npm run boundaries`: dependency-cruiser with
 * .dependency-cruiser.cjs, ARCHITECTURE.md), counted as one test. Static: it reads the imports
 * and runs none of the code, so it waits for the CPU the resilience suite leaves (`idle`).
 */
async function runBoundaries(options = {}) {
  const start = performance.now();
  const argv = ["npm", "run", "--silent", "boundaries"];
  const [command, ...rest] = options.idle ? atIdlePriority(argv) : argv;
  const { code } = await runLabelled("boundaries", command, rest);
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  if (code === 0) {
    passed++;
    console.log(`module boundaries hold (${seconds} s)`);
  } else {
    failed++;
    console.log(`module boundaries BROKEN: a forbidden import, see [boundaries] above (${seconds} s)`);
  }
}

/** Runs the resilience suite (its lines prefixed `[resilience]`) and adds its tests to the counts and timings. */
async function runResilience() {
  const tapDir = mkdtempSync(join(tmpdir(), "corefboard-resilience-report-"));
  const tap = join(tapDir, "resilience.tap");
  const resilience = await runLabelled(
    "resilience",
    process.execPath,
    ["e2e/resilience/run.mjs", "--test-reporter=spec", "--test-reporter-destination=stdout", "--test-reporter=tap", `--test-reporter-destination=${tap}`],
    // A hung suite must not eat CI's time: SIGTERM (passed on to the tests' after hooks) at 15 min.
    { timeoutMs: 15 * 60_000 },
  );
  // node's TAP summary: "# pass N", "# fail N", "# cancelled N", "# skipped N", "# todo N".
  const counts = {};
  try {
    const tapText = readFileSync(tap, "utf8");
    for (const match of tapText.matchAll(/^# (pass|fail|cancelled|skipped|todo) (\d+)$/gm)) counts[match[1]] = Number(match[2]);
    addReport(readTap(tapText));
  } catch (error) {
    console.log(`could not read the resilience report (${error.message})`);
  }
  if (counts.pass === undefined || counts.fail === undefined) {
    console.log("the resilience suite reported no results; counting it as failed");
    failed++;
  } else {
    passed += counts.pass;
    failed += counts.fail + (counts.cancelled ?? 0);
    skipped += (counts.skipped ?? 0) + (counts.todo ?? 0);
    if (resilience.code !== 0 && counts.fail + (counts.cancelled ?? 0) === 0) failed++;
  }
  rmSync(tapDir, { recursive: true, force: true });
}

if (process.env.SKIP_RESILIENCE === "1") {
  step("resilience tests (node --test e2e/resilience), and the module boundaries");
  console.log("skipping resilience tests: SKIP_RESILIENCE=1");
  await runBoundaries();
} else {
  step("resilience tests (node --test e2e/resilience), with the scoring library's unit tests beside them at the idle CPU priority");
  const stageStart = performance.now();
  const lanes = [];
  const lane = async (label, fn) => {
    await fn();
    lanes.push(`${label} 0-${((performance.now() - stageStart) / 1000).toFixed(0)} s`);
  };
  await Promise.all([
    lane("resilience", runResilience),
    lane("vitest scoring (idle priority, 2 workers)", () =>
      runVitest(["--project", "scoring", "--maxWorkers=2", "--testTimeout=300000", "--hookTimeout=300000"], "scoring", { idle: true }),
    ),
  ]);
  stages.at(-1).detail = lanes.join(", ");
}

printTimings();
printFailures();
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exitCode = failed > 0 ? 1 : 0;
