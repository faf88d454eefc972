/**
 * Worker benchmarks (`npm run bench:worker`), against a real worker process (`scripts/worker.ts`)
 * and a throwaway embedded Postgres. Two cases (`--case`):
 *
 * **small** (default): how many small runs per second one worker process with concurrency 1
 * scores.
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
 * with status 1 when the rate is under `--min` (default 2 runs/s, the issue's bound) or a
 * run did not end SCORED.
 *
 *   npm run bench:worker -- --runs 200 --min 2
 *
 * **datasets**: one archive-like run on a CRAC-style phase (issue 10): `--datasets` (16)
 * CorefUD datasets of about `--words` (1,000,000) words in total, the `crac` profile (the
 * primary setting and its 3 variants: every dataset is scored 4 times), one run with a file per
 * dataset. The datasets are GUM's CorefUD documents (`../shared/data/gum/corefud-conllu`, or
 * `--gum DIR`) copied under new document names until the words are reached and dealt out to
 * the datasets in turn; without GUM, synthetic documents built from the CorefUD test fixture.
 * The response is the gold with every entity whose id is a multiple of 5 merged into the
 * entity before it (so the scores are below 100%). After a small warm-up run on another phase,
 * it prints the worker's time for the job (its log line, claim to commit) and the wall time from
 * enqueue to SCORED, and the macro-averaged CoNLL F1. It asserts nothing about time; it exits
 * with 1 only when the run does not end SCORED.
 *
 *   npm run bench:worker -- --case datasets [--datasets 16 --words 1000000]
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createPrisma } from "../db/client";
import { startTemporaryPostgres } from "../db/embedded";
import { migrate } from "../db/migrate";
import { enqueueScoring, getBoss, stopBoss } from "../queue";
import type { PrismaClient } from "../db/client";
import { KEY_CONLLU_DOCS, RESPONSE, addGold, conllu, createPhase, createRun, createSubmission } from "./scoring-job.fixtures";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const USAGE = "usage: bench:worker [--case small] [--runs N] [--min RUNS_PER_SECOND] | bench:worker --case datasets [--datasets N] [--words N] [--gum DIR]";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      case: { type: "string", default: "small" },
      runs: { type: "string", default: "100" },
      min: { type: "string", default: "2" },
      datasets: { type: "string", default: "16" },
      words: { type: "string", default: "1000000" },
      gum: { type: "string", default: join(ROOT, "..", "shared", "data", "gum", "corefud-conllu") },
    },
  });
  const runs = Number(values.runs);
  const min = Number(values.min);
  const datasets = Number(values.datasets);
  const words = Number(values.words);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isFinite(min)) throw new Error(USAGE);
  if (!Number.isInteger(datasets) || datasets < 1 || datasets > 200 || !Number.isInteger(words) || words < 1) throw new Error(USAGE);
  if (values.case !== "small" && values.case !== "datasets") throw new Error(USAGE);

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
    const boss = await getBoss(pg.connectionString);
    const scored = (ids: string[]) => prisma.submission.count({ where: { id: { in: ids }, status: { in: ["SCORED", "FAILED"] } } });
    const waitAll = async (ids: string[], timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while ((await scored(ids)) < ids.length) {
        if (Date.now() > deadline || worker.exitCode !== null) throw new Error(`runs not scored in time; worker output:\n${output}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    const warmUp = await createSubmission(prisma, phase, RESPONSE);
    await enqueueScoring([warmUp], { boss });
    await waitAll([warmUp], 120_000);
    const jobMsOf = (submissionId: string) => {
      const line = output.split("\n").find((l) => l.includes(`submission=${submissionId} status=`));
      return line ? Number(/ ms=(\d+)/.exec(line)?.[1]) : null;
    };

    if (values.case === "datasets") {
      const built = buildDatasets(values.gum, datasets, words);
      console.log(`building: ${built.source}; ${datasets} datasets, ${built.words.toLocaleString("en")} words, ${built.documents} documents`);
      const id = await datasetsRun(prisma, built.datasets);
      const started = performance.now();
      await enqueueScoring([id], { boss });
      await waitAll([id], 1_800_000);
      const wall = (performance.now() - started) / 1000;
      const row = await prisma.submission.findUniqueOrThrow({ where: { id }, select: { status: true, errorMessage: true } });
      const conll = await prisma.score.findFirst({ where: { submissionId: id, variant: "", metric: "conll" }, select: { f1: true } });
      const settings = await prisma.score.groupBy({ by: ["variant"], where: { submissionId: id } });
      const ms = jobMsOf(id);
      console.log(`worker, one archive-like run: ${datasets} CorefUD datasets, ${built.words.toLocaleString("en")} words, crac profile (${settings.length} settings: primary + ${settings.length - 1} variants)`);
      console.log(`  worker time for the job (claim to commit, worker log): ${ms === null ? "?" : (ms / 1000).toFixed(2)} s`);
      console.log(`  wall time from enqueue to SCORED: ${wall.toFixed(2)} s`);
      console.log(`  status ${row.status}${row.errorMessage ? `: ${row.errorMessage}` : ""}; macro-averaged CoNLL F1 ${conll ? (100 * conll.f1).toFixed(2) : "?"}`);
      return row.status === "SCORED" ? 0 : 1;
    }

    const ids: string[] = [];
    for (let i = 0; i < runs; i++) ids.push(await createSubmission(prisma, phase, RESPONSE));
    const jobLinesBefore = output.split("\n").length;
    const started = performance.now();
    await enqueueScoring(ids, { boss });
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

/** One dataset of the datasets case: its name, gold key and response. */
interface BenchDataset {
  name: string;
  gold: string;
  response: string;
}

/**
 * The datasets case's data: GUM's CorefUD documents from `gumDir` (or synthetic ones) copied
 * under new names until `words` words, dealt out to `count` datasets in turn.
 */
function buildDatasets(gumDir: string, count: number, words: number): { datasets: BenchDataset[]; words: number; documents: number; source: string } {
  const fromGum = existsSync(gumDir);
  const originals = fromGum ? gumDocuments(gumDir) : syntheticDocuments();
  const perCopy = originals.reduce((n, d) => n + d.words, 0);
  const copies = Math.max(1, Math.round(words / perCopy));
  const golds: string[][] = Array.from({ length: count }, () => []);
  const responses: string[][] = Array.from({ length: count }, () => []);
  let i = 0;
  for (let copy = 0; copy < copies; copy++) {
    for (const doc of originals) {
      const text = renameDocument(doc.text, `c${copy}`);
      golds[i % count].push(text);
      responses[i % count].push(mergeEntities(text));
      i++;
    }
  }
  return {
    datasets: golds.map((g, k) => ({ name: `ds${String(k + 1).padStart(2, "0")}`, gold: g.join(""), response: responses[k].join("") })),
    words: perCopy * copies,
    documents: i,
    source: fromGum ? `GUM CorefUD documents from ${gumDir} (${originals.length} documents, ${copies} copies)` : `synthetic documents (${gumDir} not found; ${copies} copies)`,
  };
}

/** GUM's CorefUD files, one document each, with their word counts (integer token ids). */
function gumDocuments(dir: string): { text: string; words: number }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".conllu"))
    .sort()
    .map((f) => {
      const text = readFileSync(join(dir, f), "utf8");
      return { text: text.endsWith("\n") ? text : `${text}\n`, words: text.split("\n").filter((l) => /^\d+\t/.test(l)).length };
    });
}

/** Without GUM: documents of 100 repetitions of the CorefUD test fixture's sentences (entity ids per repetition). */
function syntheticDocuments(): { text: string; words: number }[] {
  const docs = KEY_CONLLU_DOCS.map(([name, sentences]) => {
    const repeated: [string, string[]][] = [];
    for (let k = 0; k < 100; k++) {
      for (const [sentId, rows] of sentences) repeated.push([`${sentId}-r${k}`, rows.map((row) => row.replace(/\b(e\d+)(?=[-)[])/g, `$1r${k}`))]);
    }
    return conllu([name, repeated]);
  });
  return docs.map((text) => ({ text, words: text.split("\n").filter((l) => /^\d+\t/.test(l)).length }));
}

/** A document under a new name: its `# newdoc id` and `# sent_id` lines get `-suffix`. */
function renameDocument(text: string, suffix: string): string {
  return text.replace(/^# (newdoc id|sent_id) = (.*)$/gm, (_, key: string, id: string) => `# ${key} = ${id}-${suffix}`);
}

/**
 * A system-like response: the gold with every entity whose numeric id is a multiple of 5
 * merged into the entity before it (its id becomes one less), on every `Entity=` value.
 */
function mergeEntities(text: string): string {
  return text.replace(/Entity=([^|\n]*)/g, (_, value: string) => {
    const merged = value.replace(/(^|\(|\))(\d+)(?=[-)[])/g, (_m, pre: string, id: string) => {
      const n = Number(id);
      return `${pre}${n % 5 === 0 && n > 0 ? n - 1 : n}`;
    });
    return `Entity=${merged}`;
  });
}

/** The datasets case's phase (crac, one dataset per entry, gold v1 each) and its run with a file per dataset; returns the run's id. */
async function datasetsRun(prisma: PrismaClient, datasets: BenchDataset[]): Promise<string> {
  const phase = await createPhase(prisma, {
    evaluationProfile: "crac",
    datasets: datasets.map((d) => ({ name: d.name, fileName: `${d.name}-corefud-test.conllu`, format: "conllu" as const })),
  });
  for (const [i, d] of datasets.entries()) await addGold(prisma, phase, 1, d.gold, `${d.name}-gold.conllu`, phase.datasets![i].id);
  return createRun(
    prisma,
    phase,
    datasets.map((d, i) => ({ datasetId: phase.datasets![i].id, text: d.response })),
    "run.zip",
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
