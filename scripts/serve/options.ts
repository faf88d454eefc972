/** serve's command line and configuration (scripts/serve.ts lists the options). */
import { availableParallelism } from "node:os";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { EnvError, loadEnv, type Env } from "../../lib/env";
import { ScoringConfigError, scoringConfig } from "../../lib/scoring-config";

/** Parsed command-line options. */
export interface ServeOptions {
  demo: boolean;
  dev: boolean;
  build: boolean;
  /** build if needed (step 5) and exit, starting nothing else */
  buildOnly: boolean;
  workers: number;
  /** web server processes behind the one port (scripts/serve/web-cluster.ts when over 1) */
  webProcesses: number;
  port?: number;
  /** interface `next` listens on; default 127.0.0.1 */
  hostname: string;
  freshDataDir: boolean;
}

/** The interface the web server listens on unless `--hostname` says otherwise: loopback only. */
export const DEFAULT_HOSTNAME = "127.0.0.1";

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
    .option("--build", "rebuild even when the build folder ($NEXT_DIST_DIR, default .next) is up to date", false)
    .option("--build-only", "build when the build folder ($NEXT_DIST_DIR, default .next) is stale (or with --build), then exit", false)
    .option("--workers <n>", "scoring worker processes", whole(0, 32), 1)
    .option("--web-processes <n>", "web server processes behind the one port (default: the number of cores; --dev: 1)", whole(1, 256))
    .option("--port <port>", "HTTP port (default $PORT, else 3000)", whole(1, 65535))
    .option("--hostname <host>", "interface to listen on (0.0.0.0: every interface, e.g. behind a reverse proxy)", DEFAULT_HOSTNAME)
    .option("--fresh-data-dir", "use a throwaway embedded Postgres, deleted on exit", false)
    .allowExcessArguments(false);
  program.parse(argv, { from: "user" });
  const o = program.opts<Omit<ServeOptions, "webProcesses"> & { webProcesses?: number }>();
  const webProcesses = o.webProcesses ?? (o.dev ? 1 : availableParallelism());
  return { demo: o.demo, dev: o.dev, build: o.build, buildOnly: o.buildOnly, workers: o.workers, webProcesses, port: o.port, hostname: o.hostname, freshDataDir: o.freshDataDir };
}

/** What serve runs with, once the command line and the environment have been checked. */
export interface ServeSettings {
  options: ServeOptions;
  env: Env;
  /** how long a worker lets its running jobs finish when stopped (WORKER_SHUTDOWN_TIMEOUT_MS), in ms */
  workerStopMs: number;
}

/**
 * Step 1 of scripts/serve.ts: parses `argv` ({@link parseServeArgs}), sets PORT from `--port`,
 * and validates the environment with `loadEnv()` and `scoringConfig()`.
 *
 * @param argv the arguments after the script name
 * @returns the settings, or the exit code to stop with: 0 after `--help`; 2 on bad arguments
 *   (commander has printed why) or `--build-only` with `--dev`; 1 on a configuration error
 *   (every problem printed)
 */
export function loadServeSettings(argv: string[]): ServeSettings | number {
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
  if (options.dev && options.webProcesses > 1) {
    console.error("error: --dev runs one web process (next dev); --web-processes must be 1 with it");
    return 2;
  }
  if (options.port !== undefined) process.env.PORT = String(options.port);
  try {
    const env = loadEnv();
    // Checked here too, so that a bad scoring setting stops start-up with a message instead
    // of a worker that fails and is restarted forever.
    const workerStopMs = scoringConfig().shutdownTimeoutMs;
    return { options, env, workerStopMs };
  } catch (error) {
    if (error instanceof EnvError || error instanceof ScoringConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}
