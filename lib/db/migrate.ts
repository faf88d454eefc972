/**
 * Applies the SQL migrations in `prisma/migrations/` with node-pg-migrate.
 *
 * - Files are named `NNNN_description.sql`, each with `-- Up Migration` and
 *   `-- Down Migration` sections, and run in name order.
 * - Applied files are recorded in the table `schema_migrations` (public schema).
 * - All pending files run in one transaction under node-pg-migrate's advisory lock, in
 *   `wait` mode: when several processes (web, workers) start at once, one migrates and the
 *   others wait, then find nothing left to do.
 * - A file that was applied must never be edited; add a new one instead (node-pg-migrate
 *   refuses to run when applied files are missing or out of order).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runner } from "node-pg-migrate";

/** Folder holding the `.sql` migrations. */
export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../prisma/migrations");
/** Table where node-pg-migrate records applied migrations. */
export const MIGRATIONS_TABLE = "schema_migrations";

/** Options for {@link migrate}. */
export interface MigrateOptions {
  /** Receives progress lines. Default: discarded. */
  log?: (message: string) => void;
  /** Migrations folder. Default {@link MIGRATIONS_DIR}. */
  dir?: string;
}

/**
 * Brings the database up to date. Idempotent, and safe to call from several processes at once.
 *
 * @param connectionString a `postgresql://` URL
 * @returns the names of the migrations applied by this call (empty when already up to date)
 * @throws the database error of a failing migration (all pending migrations are rolled back),
 *   or node-pg-migrate's error when applied migrations are missing from the folder
 */
export async function migrate(connectionString: string, options: MigrateOptions = {}): Promise<string[]> {
  const log = options.log ?? (() => {});
  const applied = await runner({
    databaseUrl: connectionString,
    dir: options.dir ?? MIGRATIONS_DIR,
    migrationsTable: MIGRATIONS_TABLE,
    direction: "up",
    checkOrder: true,
    singleTransaction: true,
    advisoryLockMode: "wait",
    logger: { debug: log, info: log, warn: log, error: log },
  });
  return applied.map((m) => m.name);
}
