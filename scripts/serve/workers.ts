/** The scoring workers (scripts/serve.ts, step 6): `scripts/worker.ts` processes, supervised. */
import { existsSync } from "node:fs";
import path from "node:path";
import type { ChildEnv } from "./child";
import { tsxArgs } from "./environment";
import { log } from "./log";
import { ROOT } from "./root";
import type { Supervisor } from "./supervisor";

/**
 * Starts `count` workers (`worker 1` …) under `supervisor`, each restarted with backoff when
 * it dies and SIGKILLed `workerStopMs` + 10 s after SIGTERM at the latest; or says that
 * scripts/worker.ts is missing.
 *
 * @param workerStopMs how long a worker lets its running jobs finish when stopped
 *   (WORKER_SHUTDOWN_TIMEOUT_MS), in ms
 */
export function superviseWorkers(supervisor: Supervisor, count: number, childEnv: ChildEnv, workerStopMs: number): void {
  if (count <= 0) return;
  if (!existsSync(path.join(ROOT, "scripts", "worker.ts"))) {
    log.info("scoring worker not installed (scripts/worker.ts is missing); submissions will stay queued");
    return;
  }
  for (let i = 1; i <= count; i++) {
    // A worker lets its running jobs finish for WORKER_SHUTDOWN_TIMEOUT_MS, then stops.
    supervisor.supervise({ name: `worker ${i}`, command: process.execPath, args: tsxArgs("scripts/worker.ts"), env: childEnv, stopTimeoutMs: workerStopMs + 10_000 });
  }
}
