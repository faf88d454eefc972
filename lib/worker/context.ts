/**
 * What the parts of a scoring worker (`worker.ts`) share: its id, database and pg-boss
 * clients, settings, log, and the jobs it is running.
 */
import type PgBoss from "pg-boss";
import type { PrismaClient } from "../db/client";
import type { ScoringConfig } from "../scoring-config";
import type { Claim } from "../submission-states";

/** A job this process is running. */
export interface Running {
  jobId: string;
  submissionId: string;
  controller: AbortController;
  /** set once the row is claimed; heartbeats refresh it */
  claim?: Claim;
  done: Promise<unknown>;
}

/** One worker's shared state, set up by `startWorker`. */
export interface WorkerContext {
  /** `host:pid`, recorded on the rows it claims */
  workerId: string;
  prisma: PrismaClient;
  boss: PgBoss;
  config: ScoringConfig;
  log: (line: string) => void;
  /** The jobs being run, by pg-boss job id. */
  running: Map<string, Running>;
}

/** The submissions `ctx` is scoring right now. */
export function inFlight(ctx: WorkerContext): string[] {
  return [...ctx.running.values()].map((r) => r.submissionId);
}

/** An error's message for a log line (the value itself when it is not an Error). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
