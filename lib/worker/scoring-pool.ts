/**
 * The scoring threads: a piscina pool of warm worker threads that run
 * `scoring-thread.ts` (loaded through `scoring-thread.mjs`), one task at a time each.
 *
 * - **Warm.** `threads` threads start with the pool and stay: the scorer is compiled once
 *   per thread, not once per job (spawning a thread and loading TypeScript cost about as
 *   much as scoring a small run).
 * - **Memory cap.** Every thread runs with `resourceLimits.maxOldGenerationSizeMb` =
 *   `maxMemoryMb`. A task that needs more kills its thread only (Node reports
 *   `ERR_WORKER_OUT_OF_MEMORY`); the run rejects with {@link ScoringOutOfMemoryError}, the
 *   worker process lives on, and piscina starts a fresh thread in its place.
 * - **Time limit and shutdown.** Each run has a wall-clock limit; at the limit, or when the
 *   caller's signal aborts, piscina terminates the thread that runs it (synchronous scoring
 *   cannot be interrupted otherwise) and starts a fresh one. The run rejects with
 *   {@link ScoringTimeoutError}, or with the signal's reason.
 */
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import type { ThreadInput, ThreadResult } from "./scoring-thread";
import { warnIfThreadCapsOverridden } from "../thread-limits";

/** The run went over its wall-clock limit; its thread was terminated. */
export class ScoringTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`scoring took longer than ${timeoutMs} ms`);
    this.name = "ScoringTimeoutError";
  }
}

/** The run needed more heap than the pool's cap; its thread died and was replaced. */
export class ScoringOutOfMemoryError extends Error {
  constructor(readonly maxMemoryMb: number) {
    super(`scoring needed more than ${maxMemoryMb} MB of heap`);
    this.name = "ScoringOutOfMemoryError";
  }
}

/** Options of {@link createScoringPool}. */
export interface ScoringPoolOptions {
  /** threads kept warm; runs beyond that wait in the pool's queue */
  threads: number;
  /** heap cap of each thread (V8 old generation), in MB */
  maxMemoryMb: number;
}

/** A pool of scoring threads. */
export interface ScoringPool {
  readonly threads: number;
  readonly maxMemoryMb: number;
  /**
   * Scores one submission in a thread.
   *
   * @param input files and settings (copied to the thread)
   * @param options `timeoutMs` wall-clock limit (from when the run is handed to the pool);
   *   `signal` aborts the run (the worker shutting down, or its claim lost)
   * @returns the thread's result
   * @throws ScoringTimeoutError, ScoringOutOfMemoryError, the signal's reason when it
   *   aborts, or an Error when the thread died otherwise or the pool is closed
   */
  run(input: ThreadInput, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ThreadResult>;
  /** Terminates every thread (runs in progress reject). Safe to call twice. */
  destroy(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL("./scoring-thread.mjs", import.meta.url));

/**
 * Starts a pool (its threads start loading the scorer at once).
 *
 * @param options thread count and heap cap
 * @returns the pool; call `destroy()` when done (idle threads do not keep the process alive)
 */
export function createScoringPool(options: ScoringPoolOptions): ScoringPool {
  const { threads, maxMemoryMb } = options;
  const piscina = new Piscina({
    filename: ENTRY,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    concurrentTasksPerWorker: 1,
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
  });
  warnIfThreadCapsOverridden("scoring pool");
  // A thread that fails with no task running (e.g. while starting) is reported here; an
  // unhandled 'error' event would take the process down.
  piscina.on("error", (error: unknown) => console.error(`scoring pool: ${error instanceof Error ? error.message : String(error)}`));
  let destroyed: Promise<void> | undefined;

  const run = async (input: ThreadInput, { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal }): Promise<ThreadResult> => {
    signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new ScoringTimeoutError(timeoutMs));
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return (await piscina.run(input, { signal: controller.signal })) as ThreadResult;
    } catch (error) {
      if (timedOut) throw new ScoringTimeoutError(timeoutMs);
      if (signal?.aborted) throw signal.reason;
      if ((error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY") throw new ScoringOutOfMemoryError(maxMemoryMb);
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  };

  return {
    threads,
    maxMemoryMb,
    run,
    destroy: () => (destroyed ??= piscina.destroy()),
  };
}

const globalForPool = globalThis as unknown as { corefboardScoringPools?: Map<number, ScoringPool> };

/**
 * A process-wide pool for callers that score without a worker (tests, scripts): one per
 * memory cap, with up to 2 threads (fewer on a 1-core machine). Its threads are unref'd and
 * never keep the process alive.
 *
 * @param maxMemoryMb the heap cap of its threads
 */
export function sharedScoringPool(maxMemoryMb: number): ScoringPool {
  const pools = (globalForPool.corefboardScoringPools ??= new Map());
  let pool = pools.get(maxMemoryMb);
  if (!pool) {
    pool = createScoringPool({ threads: Math.min(2, availableParallelism()), maxMemoryMb });
    pools.set(maxMemoryMb, pool);
  }
  return pool;
}
