/**
 * A throwaway, migrated PostgreSQL for tests: one per test file (vitest runs files in
 * separate processes). Sets `process.env.DATABASE_URL` so that `getPrisma()` and every
 * service use it.
 *
 *   const testDb = useTestDatabase();        // at the top of a test file
 *   it("...", async () => { const db = testDb.prisma; ... });
 */
import { afterAll, beforeAll } from "vitest";
import { createPrisma, disconnectPrisma, getPrisma, type PrismaClient } from "./client";
import { startTemporaryPostgres, type EmbeddedPostgresHandle } from "./embedded";
import { migrate } from "./migrate";
import { closeRateLimitStore } from "../rate-limit";

/** Handle filled in by `beforeAll`. */
export interface TestDatabase {
  connectionString: string;
  /** the shared client (`getPrisma()`), connected to the test database */
  prisma: PrismaClient;
  /** a second, independent client (e.g. for a simulated second process) */
  newClient(): PrismaClient;
}

/**
 * Registers `beforeAll`/`afterAll` hooks that start a temporary embedded Postgres, apply
 * the migrations and point `DATABASE_URL` at it; the returned object is filled in before
 * the first test runs.
 */
export function useTestDatabase(): TestDatabase {
  let server: EmbeddedPostgresHandle | undefined;
  const extra: PrismaClient[] = [];
  const handle = {} as TestDatabase;
  beforeAll(async () => {
    server = await startTemporaryPostgres();
    await migrate(server.connectionString);
    process.env.DATABASE_URL = server.connectionString;
    handle.connectionString = server.connectionString;
    handle.prisma = getPrisma(server.connectionString);
    handle.newClient = () => {
      const c = createPrisma(server!.connectionString);
      extra.push(c);
      return c;
    };
  }, 120_000);
  afterAll(async () => {
    for (const c of extra) await c.$disconnect();
    await disconnectPrisma();
    await closeRateLimitStore();
    await server?.stop();
  }, 60_000);
  return handle;
}
