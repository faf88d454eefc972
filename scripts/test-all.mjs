#!/usr/bin/env node
// `npm test`: every check and test of the repository, then one closing line
// "N passed, N failed" that CI reads.
//   1. TypeScript type check (tsc --noEmit)          counted as one test
//   2. Unit tests (vitest, next to the code)          each test counted
// Exits non-zero when anything failed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;

function step(title) {
  console.log(`\n=== ${title} ===`);
}

step("type check (tsc --noEmit)");
const tsc = spawnSync("npx", ["--no-install", "tsc", "--noEmit", "-p", "."], { stdio: "inherit" });
if (tsc.status === 0) {
  passed++;
  console.log("type check passed");
} else {
  failed++;
  console.log("type check FAILED");
}

step("unit tests (vitest)");
const dir = mkdtempSync(join(tmpdir(), "corefboard-vitest-"));
const report = join(dir, "report.json");
const vitest = spawnSync("npx", ["--no-install", "vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
  stdio: "inherit",
});
try {
  const json = JSON.parse(readFileSync(report, "utf8"));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  skipped += json.numPendingTests + json.numTodoTests;
  // A suite that failed to load has no test results: count it as a failure.
  for (const suite of json.testResults) if (suite.status === "failed" && suite.assertionResults.length === 0) failed++;
} catch (error) {
  console.log(`could not read the vitest report (${error.message}); counting the unit tests as failed`);
  failed++;
}
if (vitest.status !== 0 && failed === 0) failed++;
rmSync(dir, { recursive: true, force: true });

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exitCode = failed > 0 ? 1 : 0;
