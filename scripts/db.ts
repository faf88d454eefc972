/**
 * Database commands.
 *
 *   tsx scripts/db.ts migrate   apply pending migrations (npm run db:migrate)
 *   tsx scripts/db.ts start     run the embedded Postgres in the foreground, migrated, until Ctrl-C
 *   tsx scripts/db.ts url       print the connection string (starting nothing if DATABASE_URL is set)
 *
 * With DATABASE_URL set, commands use that database. Otherwise they use the embedded
 * Postgres (EMBEDDED_PG_PORT, EMBEDDED_PG_DATA_DIR), starting it when it is not running yet
 * and stopping it again afterwards if they started it (except `start`).
 * Exit codes: 0 ok, 1 failure (message on stderr), 2 usage or configuration error.
 */
import { EnvError, loadEnv } from "../lib/env";
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";

const USAGE = "usage: tsx scripts/db.ts migrate|start|url";

async function main(command: string | undefined): Promise<number> {
  if (command !== "migrate" && command !== "start" && command !== "url") {
    console.error(USAGE);
    return 2;
  }
  const env = loadEnv();
  let embedded: EmbeddedPostgresHandle | undefined;
  const url =
    env.DATABASE_URL ??
    (embedded = await startEmbeddedPostgres({ port: env.EMBEDDED_PG_PORT, dataDir: env.EMBEDDED_PG_DATA_DIR })).connectionString;
  try {
    if (command === "url") {
      console.log(url);
      return 0;
    }
    const applied = await migrate(url, { log: (m) => console.error(m) });
    console.error(applied.length ? `applied ${applied.length} migration(s): ${applied.join(", ")}` : "database is up to date");
    if (command === "start") {
      if (!embedded) {
        console.error("DATABASE_URL is set: nothing to start");
        return 0;
      }
      console.log(embedded.connectionString);
      console.error(embedded.owned ? "embedded Postgres running; Ctrl-C stops it" : "embedded Postgres was already running");
      if (embedded.owned) await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
    }
    return 0;
  } finally {
    await embedded?.stop();
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof EnvError ? error.message : error instanceof Error ? error.message : String(error));
    process.exit(error instanceof EnvError ? 2 : 1);
  },
);
