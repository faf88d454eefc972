/**
 * A migrated PostgreSQL database of its own for each test file. Sets
 * `process.env.DATABASE_URL` so that `getPrisma()` and every service use it.
 *
 *   const testDb = useTestDatabase();        // at the top of a test file
 *   it("...", async () => { const db = testDb.prisma; ... });
 *
 * Under the repository's vitest configuration the test run has one Postgres server
 * (`test-global-setup.ts`): each file's database is a copy of the migrated template there,
 * dropped when the file ends. Without it (a vitest run that skips the global set-up), the file
 * starts a throwaway cluster of its own and migrates it, as before.
 */
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { createPrisma, disconnectPrisma, getPrisma, type PrismaClient } from "./client";
import { startTemporaryPostgres } from "./embedded";
import { migrate, MIGRATIONS_DIR } from "./migrate";
import { closeRateLimitStore } from "../rate-limit";

/** Handle filled in by `beforeAll`. */
export interface TestDatabase {
  connectionString: string;
  /** the shared client (`getPrisma()`), connected to the test database */
  prisma: PrismaClient;
  /** a second, independent client (e.g. for a simulated second process) */
  newClient(): PrismaClient;
}

/** A database made for one test file, and how to get rid of it. */
interface FileDatabase {
  connectionString: string;
  drop(): Promise<void>;
}

/**
 * Copies the run's migrated template into a new database (`test-global-setup.ts`), or, when
 * the run has no shared server, starts and migrates a throwaway cluster.
 *
 * @param options `empty`: a database with no migration applied instead (created from
 *   Postgres's own template), for tests that migrate it themselves
 */
async function createFileDatabase(options: { empty?: boolean } = {}): Promise<FileDatabase> {
  const shared = inject("TEST_POSTGRES");
  if (!shared) {
    const server = await startTemporaryPostgres();
    if (!options.empty) await migrate(server.connectionString);
    return { connectionString: server.connectionString, drop: () => server.stop() };
  }
  const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: shared.adminUrl });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  };
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${options.empty ? "template0" : shared.template}`));
  const url = new URL(shared.adminUrl);
  url.pathname = `/${name}`;
  return {
    connectionString: url.toString(),
    // FORCE ends connections a test left open (e.g. a pool closed late).
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * Registers `beforeAll`/`afterAll` hooks that give the file a migrated database of its own
 * (see the module doc) and point `DATABASE_URL` at it; the returned object is filled in before
 * the first test runs.
 */
export function useTestDatabase(): TestDatabase {
  let database: FileDatabase | undefined;
  const extra: PrismaClient[] = [];
  const handle = {} as TestDatabase;
  beforeAll(async () => {
    database = await createFileDatabase();
    const { connectionString } = database;
    process.env.DATABASE_URL = connectionString;
    handle.connectionString = connectionString;
    handle.prisma = getPrisma(connectionString);
    handle.newClient = () => {
      const c = createPrisma(connectionString);
      extra.push(c);
      return c;
    };
  }, 120_000);
  afterAll(async () => {
    for (const c of extra) await c.$disconnect();
    await disconnectPrisma();
    await closeRateLimitStore();
    await database?.drop();
  }, 60_000);
  return handle;
}

/** Handle of {@link useDatabaseMigratedBefore}, filled in by `beforeAll`. */
export interface OldSchemaDatabase {
  connectionString: string;
  /** a connected client of the database */
  db: pg.Client;
}

/**
 * For a migration's own test: registers hooks that give the file a database of its own with
 * every migration *before* `migration` applied (the files of `prisma/migrations` whose names
 * sort before it), so that the test can write rows in the old shape and then apply the rest
 * with `migrate(connectionString)`. On the run's shared Postgres when there is one, else on a
 * throwaway cluster; dropped when the file ends.
 *
 * @param migration a migration's number or name prefix, e.g. "0013"
 */
export function useDatabaseMigratedBefore(migration: string): OldSchemaDatabase {
  let database: FileDatabase | undefined;
  let dir: string | undefined;
  const handle = {} as OldSchemaDatabase;
  beforeAll(async () => {
    database = await createFileDatabase({ empty: true });
    dir = mkdtempSync(path.join(tmpdir(), "corefboard-migrations-"));
    for (const name of readdirSync(MIGRATIONS_DIR).filter((n) => n.endsWith(".sql") && n < migration)) cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name));
    await migrate(database.connectionString, { dir });
    handle.connectionString = database.connectionString;
    handle.db = new pg.Client({ connectionString: database.connectionString });
    await handle.db.connect();
  }, 120_000);
  afterAll(async () => {
    await handle.db?.end();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);
  return handle;
}
