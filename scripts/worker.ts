/**
 * The scoring worker process (`npm run worker`).
 *
 *   DATABASE_URL=postgresql://... tsx scripts/worker.ts
 *
 * Configuration: `lib/env.ts` (DATABASE_URL, WORKER_CONCURRENCY, SCORING_TIMEOUT_MS, ...)
 * and `lib/scoring-config.ts` (heartbeats, memory cap, stale thresholds, job expiry, reconcile interval, ...).
 * SIGINT/SIGTERM stop it gracefully: running jobs may finish (WORKER_SHUTDOWN_TIMEOUT_MS); a
 * second signal at least a second later exits at once. `npm run worker` execs node, so a
 * signal sent to the npm process reaches this one.
 * Exit codes: 0 stopped, 1 configuration error or failure to start.
 */
import { disconnectPrisma } from "../lib/db/client";
import { EnvError, loadEnv } from "../lib/env";
import { ScoringConfigError, scoringConfig } from "../lib/scoring-config";
import { startWorker } from "../lib/worker/worker";

async function main(): Promise<number> {
  let env;
  let config;
  try {
    env = loadEnv();
    config = scoringConfig();
  } catch (error) {
    if (error instanceof EnvError || error instanceof ScoringConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  if (!env.DATABASE_URL) {
    console.error(
      "worker: DATABASE_URL is not set. Point it at the Corefboard database (the serve script sets it for the embedded Postgres; `npm run db:start` prints the URL).",
    );
    return 1;
  }

  // pg-boss completes and fails jobs without awaiting; a lost database connection there
  // must not take the worker down.
  process.on("unhandledRejection", (reason) => {
    console.error(`worker: unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`);
  });

  let worker;
  try {
    worker = await startWorker({ connectionString: env.DATABASE_URL, concurrency: env.WORKER_CONCURRENCY, config });
  } catch (error) {
    console.error(`worker: could not start: ${error instanceof Error ? error.message : String(error)}`);
    await disconnectPrisma().catch(() => undefined);
    return 1;
  }

  await new Promise<void>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      console.log(`worker: ${signal} received, stopping (send it again to exit at once)`);
      // A Ctrl-C in a terminal reaches this process twice at once (directly, and through
      // `npm run worker`): only a signal a second later or more means "exit now".
      const first = Date.now();
      const force = (again: NodeJS.Signals) => {
        if (Date.now() - first < 1000) return;
        console.log(`worker: ${again} received again, exiting without waiting for running jobs`);
        process.exit(1);
      };
      process.on("SIGINT", force);
      process.on("SIGTERM", force);
      resolve();
    };
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
  });
  await worker.stop();
  await disconnectPrisma();
  console.log("worker: stopped");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`worker: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
