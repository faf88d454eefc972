#!/usr/bin/env node
// The resilience suite (`npm run test:resilience`): every e2e/resilience/*.test.ts (today
// one, site.test.ts: the whole suite on one site), one file at a time (a file starts its own
// site, and the tests measure latency: two files side by side on 2 cores would measure each
// other), with node's test runner through tsx.
// Extra arguments go to node before the files, e.g. reporters:
//   node e2e/resilience/run.mjs --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=tap --test-reporter-destination=resilience.tap
// Exits with the test runner's code. The runner gets a process group of its own, and
// SIGINT/SIGTERM sent here go to that whole group: the test files (whose harness then stops
// its sites: ./harness.ts) and the servers they started, which stop their children in order.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const files = readdirSync(here)
  .filter((f) => f.endsWith(".test.ts"))
  .sort()
  .map((f) => path.relative(root, path.join(here, f)));

const child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", ...process.argv.slice(2), ...files], {
  cwd: root,
  stdio: "inherit",
  detached: true,
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone
    }
  });
}
child.on("exit", (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
