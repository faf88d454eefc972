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
 * The steps live in scripts/serve/: options.ts (command line, environment check), database.ts
 * (steps 2 to 4), environment.ts (the children's environment), build.ts (step 5), web.ts and
 * workers.ts (step 6), supervisor.ts with child.ts and backoff.ts (steps 7 and 8), log.ts
 * (the log), urls.ts (the server's addresses); this file puts them in order.
 *
 * Runs as root too: the embedded Postgres then runs as the system user `postgres`.
 * Exit codes: 0 after a requested shutdown; 1 on a configuration or start-up error (migrations,
 * demo, build, or a web server that exits before it first answers); 2 on bad arguments.
 */
import { pathToFileURL } from "node:url";
import { buildIfNeeded, resolveNextBin } from "./serve/build";
import { applyMigrations, loadDemo, startDatabase } from "./serve/database";
import { childEnvironment } from "./serve/environment";
import { appendToLogFile, log } from "./serve/log";
import { loadServeSettings, type ServeSettings } from "./serve/options";
import { Supervisor } from "./serve/supervisor";
import { superviseWebServer } from "./serve/web";
import { superviseWorkers } from "./serve/workers";

/**
 * Runs everything and resolves with the process's exit code once it has shut down.
 *
 * @param argv the arguments after the script name
 */
export async function serve(argv: string[]): Promise<number> {
  const settings = loadServeSettings(argv);
  if (typeof settings === "number") return settings;

  const supervisor = new Supervisor();
  supervisor.handleSignals();
  const nextBin = resolveNextBin();
  if (settings.options.buildOnly) return buildOnly(supervisor, nextBin, settings.options.build);
  start(settings, supervisor, nextBin).catch((error: unknown) => {
    if (supervisor.isStopping) return;
    log.error(error instanceof Error ? error.message : String(error));
    void supervisor.shutdown(1);
  });
  return supervisor.done;
}

/**
 * `--build-only`: step 5 alone, then exit.
 *
 * @param force --build: rebuild even when the build folder is up to date
 * @returns the exit code: 0 when built or up to date, 1 when the build failed or a signal stopped it
 */
async function buildOnly(supervisor: Supervisor, nextBin: string, force: boolean): Promise<number> {
  try {
    if (!(await buildIfNeeded(supervisor, nextBin, force, { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }))) log.info("the build folder is up to date");
    return supervisor.isStopping ? 1 : 0;
  } catch (error) {
    log.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

/**
 * Steps 2 to 6 of the list above, in order, each child under `supervisor`; returns early
 * when a shutdown begins meanwhile, and once the web server has first answered. Supervision
 * (step 7) and shutdown (step 8) are the supervisor's from then on.
 *
 * @throws Error on a start-up failure (migrations, demo, build, production configuration, a
 *   web server that exits before it answers)
 */
async function start({ options, env, workerStopMs }: ServeSettings, supervisor: Supervisor, nextBin: string): Promise<void> {
  const databaseUrl = await startDatabase(options, env, supervisor);
  if (supervisor.isStopping) return;
  await applyMigrations(databaseUrl, supervisor);
  const { childEnv, publicUrl } = await childEnvironment(options, env, databaseUrl);
  if (options.demo && !(await loadDemo(supervisor, childEnv))) return;
  if (!options.dev) {
    await buildIfNeeded(supervisor, nextBin, options.build, childEnv);
    if (supervisor.isStopping) return;
  }

  // Web server and workers, both supervised: restarted with backoff when they die.
  const web = superviseWebServer(supervisor, nextBin, options, env.PORT, childEnv);
  superviseWorkers(supervisor, options.workers, childEnv, workerStopMs);
  if (!(await web.firstAnswer())) return;
  log.info(`Corefboard is running at ${publicUrl}  (listening on ${options.hostname}:${env.PORT}; Ctrl-C or SIGTERM stops it)`);
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
