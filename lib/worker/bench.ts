/**
 * Worker throughput benchmark (`npm run bench:worker`): how many small runs per second one
 * worker process with concurrency 1 scores.
 *
 * 1. Starts a throwaway embedded Postgres, applies the migrations, and creates one phase
 *    with a small gold key (`scoring-job.fixtures.ts`).
 * 2. Starts `scripts/worker.ts` (WORKER_CONCURRENCY=1, default settings otherwise) and
 *    scores one warm-up run, so that start-up and the scoring thread's first compile are
 *    not counted.
 * 3. Inserts `--runs` (default 100) QUEUED submissions of the same small response,
 *    enqueues them in one call, and times until the last one is SCORED.
 *
 * Prints runs/s and the worker's per-job milliseconds (median, 95th percentile), and exits
 * with status 1 when the rate is under `--min` (default 2 runs/s, the bound) or a
 * run did not end SCORED.
 *
 *   npm run bench:worker -- --runs 200 --min 2
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createPrisma } from "../db/client";
import { startTemporaryPostgres } from "../db/embedded";
import { migrate } from "../db/migrate";
import { enqueueScoring, getBoss, stopBoss } from "../queue";
import { RESPONSE, createPhase, createSubmission } from "./scoring-job.fixtures";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "100" }, min: { type: "string", default: "2" } } });
  const runs = Number(values.runs);
  const min = Number(values.min);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isFinite(min)) throw new Error("usage: bench:worker [--runs N] [--min RUNS_PER_SECOND]");

  const pg = await startTemporaryPostgres();
  const prisma = createPrisma(pg.connectionString);
  let output = "";
  const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: pg.connectionString, WORKER_CONCURRENCY: "1", NODE_ENV: "development" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  worker.stdout.on("data", (chunk) => (output += chunk));
  worker.stderr.on("data", (chunk) => (output += chunk));
  try {
    await migrate(pg.connectionString);
    process.env.DATABASE_URL = pg.connectionString;
    const phase = await createPhase(prisma);
    const scored = (ids: string[]) => prisma.submission.count({ where: { id: { in: ids }, status: { in: ["SCORED", "FAILED"] } } });
    const waitAll = async (ids: string[], timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while ((await scored(ids)) < ids.length) {
        if (Date.now() > deadline || worker.exitCode !== null) throw new Error(`runs not scored in time; worker output:\n${output}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    const warmUp = await createSubmission(prisma, phase, RESPONSE);
    await enqueueScoring([warmUp], { boss: await getBoss(pg.connectionString) });
    await waitAll([warmUp], 120_000);

    const ids: string[] = [];
    for (let i = 0; i < runs; i++) ids.push(await createSubmission(prisma, phase, RESPONSE));
    const jobLinesBefore = output.split("\n").length;
    const started = performance.now();
    await enqueueScoring(ids);
    await waitAll(ids, 600_000);
    const seconds = (performance.now() - started) / 1000;

    const notScored = await prisma.submission.count({ where: { id: { in: ids }, status: { not: "SCORED" } } });
    const jobMs = output
      .split("\n")
      .slice(jobLinesBefore - 1)
      .map((line) => /status=SCORED .* ms=(\d+)/.exec(line)?.[1])
      .filter((ms): ms is string => ms !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    const pct = (p: number) => jobMs[Math.min(jobMs.length - 1, Math.floor((p / 100) * jobMs.length))];
    const rate = runs / seconds;
    console.log(`worker throughput: ${runs} small runs, 1 worker, concurrency 1`);
    console.log(`  ${seconds.toFixed(2)} s from enqueue to the last SCORED: ${rate.toFixed(1)} runs/s (bound: >= ${min})`);
    console.log(`  per job (worker log): median ${pct(50)} ms, p95 ${pct(95)} ms, max ${jobMs[jobMs.length - 1]} ms`);
    if (notScored > 0) console.log(`  ${notScored} run(s) did not end SCORED`);
    return rate >= min && notScored === 0 ? 0 : 1;
  } finally {
    worker.kill("SIGTERM");
    await new Promise((r) => (worker.exitCode === null ? worker.once("exit", r) : r(undefined)));
    await stopBoss(1000);
    await prisma.$disconnect();
    await pg.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
