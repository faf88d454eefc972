/**
 * serve's database steps (scripts/serve.ts, steps 2 to 4): start Postgres (embedded or
 * throwaway) unless DATABASE_URL is set, apply the migrations, load the demo data.
 */
import { existsSync, rmSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { credentialsFile, startEmbeddedPostgres, startTemporaryPostgres } from "../../lib/db/embedded";
import { migrate } from "../../lib/db/migrate";
import type { Env } from "../../lib/env";
import type { ChildEnv } from "./child";
import { tsxArgs } from "./environment";
import { log } from "./log";
import type { ServeOptions } from "./options";
import { ROOT } from "./root";
import type { Supervisor } from "./supervisor";

/**
 * Step 2: the database to use. With --fresh-data-dir a throwaway Postgres (temp folder,
 * free port); else DATABASE_URL when set; else the embedded Postgres (lib/db/embedded.ts),
 * started unless already running. A Postgres started here is handed to `supervisor`, which
 * stops it on shutdown.
 *
 * @returns the database's connection URL
 */
export async function startDatabase(options: ServeOptions, env: Env, supervisor: Supervisor): Promise<string> {
  if (options.freshDataDir) {
    const handle = await startTemporaryPostgres();
    supervisor.setDatabase(handle);
    log.info(`throwaway Postgres started on port ${handle.port} (${handle.dataDir})`);
    return handle.connectionString;
  }
  if (!env.DATABASE_URL) {
    const handle = await startEmbeddedPostgres({ port: env.EMBEDDED_PG_PORT, dataDir: env.EMBEDDED_PG_DATA_DIR });
    supervisor.setDatabase(handle);
    log.info(
      handle.owned
        ? `embedded Postgres started on port ${handle.port} (data in ${handle.dataDir}, port and password in ${credentialsFile(handle.dataDir)})`
        : `using the embedded Postgres already running on port ${handle.port}`,
    );
    return handle.connectionString;
  }
  log.info("using the database at DATABASE_URL");
  return env.DATABASE_URL;
}

/**
 * Step 3: applies pending migrations (logged); then, with E2E_STATE_FILE set (end-to-end
 * tests), writes `{"databaseUrl"}` there (mode 0600), deleted once `supervisor` has shut down.
 */
export async function applyMigrations(databaseUrl: string, supervisor: Supervisor): Promise<void> {
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
}

/**
 * Step 4: runs scripts/demo.ts with `childEnv` as a child of `supervisor`, or says that it
 * is missing.
 *
 * @returns false when a shutdown began while it ran (start-up stops there), else true
 * @throws Error `the demo loader failed (exit code N)`
 */
export async function loadDemo(supervisor: Supervisor, childEnv: ChildEnv): Promise<boolean> {
  if (!existsSync(path.join(ROOT, "scripts", "demo.ts"))) {
    log.info("demo loader not installed (scripts/demo.ts is missing); starting without demo data");
    return true;
  }
  log.info("loading demo data (scripts/demo.ts; --no-demo skips this)");
  const demo = supervisor.spawn("demo loader", process.execPath, tsxArgs("scripts/demo.ts"), childEnv);
  const code = await demo.exited;
  if (supervisor.isStopping) return false;
  if (code !== 0) throw new Error(`the demo loader failed (exit code ${code})`);
  return true;
}
