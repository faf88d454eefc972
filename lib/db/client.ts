/**
 * The process-wide Prisma client (Rust-free `prisma-client` generator + node-postgres
 * adapter). Import `getPrisma()` from server code only.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client";

export type { PrismaClient };

const globalForPrisma = globalThis as unknown as { corefboardPrisma?: { url: string; client: PrismaClient } };

/**
 * Creates a new client for `connectionString`. Callers own it and must `$disconnect()` it.
 *
 * @param connectionString a `postgresql://` URL
 */
export function createPrisma(connectionString: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString }) });
}

/**
 * The shared client. Created on first use and kept on `globalThis`, so Next.js hot reloads
 * in development do not open a new pool each time.
 *
 * @param connectionString defaults to `process.env.DATABASE_URL`; in the embedded default the
 *   startup script sets it after starting Postgres
 * @returns the client
 * @throws Error when no connection string is given or set, or when a different one is asked
 *   for than the one the shared client was created with
 */
export function getPrisma(connectionString: string | undefined = process.env.DATABASE_URL): PrismaClient {
  if (!connectionString) {
    throw new Error("getPrisma: DATABASE_URL is not set (start the embedded Postgres first, or set DATABASE_URL)");
  }
  const cached = globalForPrisma.corefboardPrisma;
  if (cached) {
    if (cached.url !== connectionString) {
      throw new Error("getPrisma: the shared client already uses another database; use createPrisma() for a second one");
    }
    return cached.client;
  }
  const client = createPrisma(connectionString);
  globalForPrisma.corefboardPrisma = { url: connectionString, client };
  return client;
}

/** Disconnects and forgets the shared client (for shutdown and tests). */
export async function disconnectPrisma(): Promise<void> {
  const cached = globalForPrisma.corefboardPrisma;
  globalForPrisma.corefboardPrisma = undefined;
  await cached?.client.$disconnect();
}
