/**
 * Database types shared by the services. `lib/db/client.ts` exports only the client type,
 * so the generated model and transaction types are imported (types only) from here.
 */
import { getPrisma, type PrismaClient } from "./client";
import { Prisma } from "../generated/prisma/client";

export type {
  GoldKey,
  Phase,
  Score,
  DocumentScore,
  Submission,
  Task,
  Team,
  User,
  LeaderboardVisibility,
  ParticipantAnalysis,
  SelectionRule,
  SubmissionStatus,
  SubmissionVisibility,
  TaskStatus,
  UserRole,
} from "../generated/prisma/client";

export type { Prisma };

/** A client inside an interactive transaction (`prisma.$transaction(async (tx) => ...)`). */
export type Tx = Prisma.TransactionClient;

/** Either the shared client or a transaction client: what read helpers accept. */
export type Db = PrismaClient | Tx;

/** The shared client (`getPrisma()`), named for use as a default argument. */
export function defaultDb(): PrismaClient {
  return getPrisma();
}

/** True when `error` is Prisma's unique-constraint violation (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/**
 * Takes a transaction-scoped advisory lock on a string key (released at commit or
 * rollback). Different keys may hash alike; that only serializes them, it never lets two
 * holders of one key run together.
 *
 * @param tx an interactive transaction
 * @param key e.g. `quota:${teamId}:${phaseId}`
 */
export async function lockKey(tx: Tx, key: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}::text, 0))`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID string (ids are UUIDs; anything else cannot exist, and Postgres would reject it). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** Stores SQL NULL in a nullable Json column (Prisma distinguishes it from JSON `null`). */
export const DB_NULL = Prisma.DbNull;
