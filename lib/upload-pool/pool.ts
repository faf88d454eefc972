/**
 * Checking uploads off the web server's event loop: a piscina pool of worker threads that
 * read a file with the scorer's readers (`thread.ts`) and answer with its counts.
 *
 * Contract, per file:
 * - **Never on the event loop.** Reading a 50 MB file takes seconds of synchronous CPU work;
 *   it runs in a thread, and the server keeps answering other requests meanwhile.
 * - **Time limit** (`timeoutMs`, UPLOAD_VALIDATION_TIMEOUT_MS): at the limit the thread is
 *   terminated (synchronous reading cannot be interrupted otherwise) and piscina starts a
 *   fresh one. The limit counts reading only: a thread that is still starting is waited
 *   for first (a warm-up task), without limit beyond {@link STARTUP_TIMEOUT_MS}.
 * - **Memory limit** (`maxMemoryMb`, UPLOAD_VALIDATION_MAX_MEMORY_MB): each thread's V8 heap
 *   (`resourceLimits.maxOldGenerationSizeMb`). A file that needs more kills its thread only
 *   (`ERR_WORKER_OUT_OF_MEMORY`); the server lives on and piscina replaces the thread.
 * - **Bounded waiting** (`threads` running; at most `maxQueue` files and `maxQueuedBytes` bytes
 *   waiting: UPLOAD_VALIDATION_THREADS, UPLOAD_VALIDATION_QUEUE, UPLOAD_VALIDATION_QUEUE_MB).
 *   The byte bound is what limits the wait (reading time grows with size), so a burst of
 *   small files is let in while a few huge ones fill the line. One more file gets
 *   a `busy` answer at once (ServiceBusyError, 503); the caller has stored nothing and counted nothing.
 * - **Small answers.** Only the counts and the documents' ids cross back ({@link UploadStats},
 *   `RunDocument`), never the corpus.
 * - **Gold document ids, cached.** The document check of a run (`lib/uploads/checks.ts`)
 *   needs the ids of the active gold key's documents. A thread reads them from the stored
 *   gzip ({@link UploadPool.goldDocumentIds}, under the same limits and waiting line as a
 *   file) and only the ids come back; they are kept in memory keyed by the gold key's sha256
 *   (a stored gold version never changes), for the {@link GOLD_IDS_CACHED} most recently used
 *   keys. Uploads that need the same key at once share one reading.
 * - **Answers, not domain errors.** {@link UploadPool.validate} answers with data
 *   ({@link UploadAnswer}); `validateUpload` in `lib/uploads/checks.ts` turns it into the
 *   ValidationError or ServiceBusyError. The pool is shared through `globalThis`, and the
 *   Next.js server can hold more than one copy of a module (one per bundle layer): an error
 *   class made by the copy that created the pool would fail the `instanceof` checks of
 *   another copy's callers, and a 422 would turn into a 500.
 *
 * The pool is created on the first upload and kept process-wide on `globalThis` (like the
 * pg-boss instance of `lib/queue.ts`), so that its threads stay warm; idle threads never keep
 * the process alive.
 *
 * Running inside Next.js: the web server is a webpack bundle, and a thread needs a real file
 * to start from. `entry.mjs` is that file, found on disk at run time by
 * {@link uploadPoolEntry}; it loads `thread.ts` with tsx (a runtime dependency), so the same
 * code runs under `next start`, `tsx` scripts and vitest.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { loadEnv, type Env } from "../env";
import type { CheckInput, CheckOutcome } from "./thread";
import { LRUCache } from "lru-cache";
import { warnIfThreadCapsOverridden } from "../thread-limits";

/** Settings of an {@link UploadPool}. */
export interface UploadPoolOptions {
  /** threads that read files at once (each one file at a time) */
  threads: number;
  /** files that may wait for a thread; one more is refused with ServiceBusyError */
  maxQueue: number;
  /** bytes that may wait for a thread in all (a file that would go over is refused likewise) */
  maxQueuedBytes: number;
  /** wall-clock limit for reading one file, in milliseconds */
  timeoutMs: number;
  /** heap limit of each thread (V8 old generation), in MB */
  maxMemoryMb: number;
}

/** How long a starting thread may take to load the readers before an upload fails (500). */
export const STARTUP_TIMEOUT_MS = 60_000;

/** The wait suggested to a refused upload (ServiceBusyError, `Retry-After`), in seconds. */
export const BUSY_RETRY_AFTER_SECONDS = 60;

/** How many gold keys' document id lists a pool keeps (the most recently used). */
export const GOLD_IDS_CACHED = 16;

/** The entry file's path inside the repository. */
const ENTRY_IN_REPOSITORY = join("lib", "upload-pool", "entry.mjs");

/**
 * The pool settings from the environment (see `lib/env.ts`).
 *
 * @param env validated configuration (default: `loadEnv()`)
 * @returns `threads` = UPLOAD_VALIDATION_THREADS, else one less than the cores (at least 1,
 *   so a 2-core machine keeps a core for the web server); `maxQueue`, `maxQueuedBytes`,
 *   `timeoutMs` and `maxMemoryMb` from UPLOAD_VALIDATION_QUEUE (256), UPLOAD_VALIDATION_QUEUE_MB
 *   (200, in MB), UPLOAD_VALIDATION_TIMEOUT_MS (30,000) and UPLOAD_VALIDATION_MAX_MEMORY_MB (1,024)
 * @throws EnvError when the environment is invalid
 */
export function uploadPoolOptions(env: Env = loadEnv()): UploadPoolOptions {
  return {
    threads: env.UPLOAD_VALIDATION_THREADS ?? Math.max(1, availableParallelism() - 1),
    maxQueue: env.UPLOAD_VALIDATION_QUEUE,
    maxQueuedBytes: env.UPLOAD_VALIDATION_QUEUE_MB * 1024 * 1024,
    timeoutMs: env.UPLOAD_VALIDATION_TIMEOUT_MS,
    maxMemoryMb: env.UPLOAD_VALIDATION_MAX_MEMORY_MB,
  };
}

/**
 * The absolute path of `entry.mjs`, the file the pool's threads start from: next to this
 * module when it runs from source (tsx, vitest), else `lib/upload-pool/entry.mjs` under the
 * working directory (a Next.js production build runs from a bundle, started in the
 * repository by `scripts/serve.ts` or `next start`).
 *
 * @throws Error naming both places when neither holds the file
 */
export function uploadPoolEntry(): string {
  const candidates: string[] = [];
  // Under webpack `import.meta.url` may name the bundle or the source file; either way only an
  // existing file counts. (No `new URL("./entry.mjs", import.meta.url)`: webpack would copy
  // the file into its output as an asset, away from thread.ts.)
  const here = typeof import.meta.url === "string" && import.meta.url.startsWith("file:") ? fileURLToPath(import.meta.url) : null;
  if (here) candidates.push(join(dirname(here), "entry.mjs"));
  candidates.push(join(process.cwd(), ENTRY_IN_REPOSITORY));
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`upload pool: entry.mjs not found (looked at ${candidates.join(" and ")}); start the server from the repository folder`);
  return found;
}

/**
 * What {@link UploadPool.validate} found: the thread's answer (counts, a format problem, no
 * document, a reader bug), or why the file was not read to the end: the waiting line was
 * full (`busy`), reading took longer than `timeoutMs` (`timeout`) or needed more than
 * `maxMemoryMb` (`memory`).
 */
export type UploadAnswer =
  | Exclude<CheckOutcome, { kind: "ready" } | { kind: "gold-ids" }>
  | { kind: "busy" }
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "memory"; maxMemoryMb: number };

/** A stored gold key as {@link UploadPool.goldDocumentIds} reads it (e.g. `findActiveGold` of `lib/tasks/gold.ts`). */
export interface StoredGoldFile {
  /** lower-case hex sha256 of the uncompressed file, as recorded */
  sha256: string;
  /** its file name (the extension picks the reader) */
  fileName: string;
  /** the file, gzip-compressed */
  gzip: Uint8Array;
}

/** Which gold key's document ids are wanted, and how to load it when they are not cached. */
export interface GoldSource {
  /** the recorded sha256 of the gold key (the cache key) */
  sha256: string;
  /** loads the stored key; called only when its ids are not cached; null when there is none any more */
  load: () => Promise<StoredGoldFile | null>;
}

/**
 * What {@link UploadPool.goldDocumentIds} found: the ids (of the gold key with `sha256`: the
 * one loaded, which is the asked one unless a new version replaced it meanwhile); `none` when
 * `load` found no gold key; `busy` when the waiting line was full; `unreadable` when the stored
 * key could not be read (`reason` names the place or kind only, never gold content: for logs).
 */
export type GoldIdsAnswer =
  | { kind: "gold-ids"; sha256: string; ids: readonly string[] }
  | { kind: "none" }
  | { kind: "busy" }
  | { kind: "unreadable"; reason: string };

/** True for the error piscina gives when a thread ran out of heap. */
function isOutOfMemory(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY";
}

/** Upload-checking threads with a time limit, a memory limit and a bounded waiting line. */
export class UploadPool {
  readonly options: Readonly<UploadPoolOptions>;
  private piscina: Piscina | null = null;
  /** Resolves once a thread has loaded the readers; reset when a thread was stopped. */
  private warm: Promise<void> | null = null;
  private running = 0;
  private readonly waiting: { admit: () => void; bytes: number }[] = [];
  private waitingBytes = 0;
  private destroyed = false;
  /** gold key sha256 → its document ids (see {@link GOLD_IDS_CACHED}) */
  private readonly goldIds = new LRUCache<string, readonly string[]>({ max: GOLD_IDS_CACHED });
  /** gold keys being read now, so that uploads needing the same key share one reading */
  private readonly goldReading = new Map<string, Promise<GoldIdsAnswer>>();

  /** @param options settings (see {@link uploadPoolOptions}); no thread starts before the first file */
  constructor(options: UploadPoolOptions) {
    for (const [key, value] of Object.entries(options)) {
      const min = key === "maxQueue" || key === "maxQueuedBytes" ? 0 : 1;
      if (!Number.isInteger(value) || value < min) throw new RangeError(`UploadPool: ${key} must be a whole number ≥ ${min}, got ${value}`);
    }
    this.options = { ...options };
  }

  /** Files being read now, files waiting for a thread and their bytes. */
  get load(): { running: number; waiting: number; waitingBytes: number } {
    return { running: this.running, waiting: this.waiting.length, waitingBytes: this.waitingBytes };
  }

  /**
   * Reads one file in a thread (`validateUpload` turns the answer into counts or an error).
   *
   * @param bytes the file (copied to the thread; the caller's array is left intact)
   * @param fileName its cleaned name: the extension picks the reader (`detectFormat`)
   * @param options `corefudCoreference`: also list the CorefUD coreference items of a
   *   `.conllu` file's MISC column (a blind input's check; one more pass over the file)
   * @returns the {@link UploadAnswer}: `stats` (documents, tokens, mentions, entities,
   *   singletons, reader warnings; `documents`, each document's id and first line; and
   *   `corefudCoreference`, empty unless asked),
   *   `format` (the FormatError's JSON), `empty`, `internal`
   *   (a reader broke its contract); `busy` at once when `threads` files are being read and
   *   `maxQueue` files or `maxQueuedBytes` bytes (this file included) would wait; `timeout`
   *   or `memory` when the thread was stopped at a limit
   * @throws Error when a thread cannot start or the pool was destroyed
   */
  async validate(bytes: Uint8Array, fileName: string, options: { corefudCoreference?: boolean } = {}): Promise<UploadAnswer> {
    const answer = await this.runInTurn({ kind: "upload", bytes, fileName, ...options }, bytes.byteLength);
    if (answer.kind === "ready" || answer.kind === "gold-ids") throw new Error(`upload pool: a ${answer.kind} answer for a file`);
    return answer;
  }

  /**
   * The document ids of a gold key, from the cache or read in a thread (then cached under the
   * loaded key's sha256). Only the ids leave the thread.
   *
   * @param gold the key's recorded sha256 and a loader for the stored key (called on a cache
   *   miss only; concurrent calls for one sha256 share one load and one reading)
   * @returns the {@link GoldIdsAnswer}: `gold-ids` with the ids in key order; `none`, `busy`,
   *   or `unreadable` (the key is damaged, does not parse, is empty, or took longer than
   *   `timeoutMs` or more than `maxMemoryMb` to read)
   * @throws Error when a thread cannot start, the pool was destroyed, or `load` throws
   */
  async goldDocumentIds(gold: GoldSource): Promise<GoldIdsAnswer> {
    if (this.destroyed) throw new Error("upload pool: used after destroy()");
    const cached = this.goldIds.get(gold.sha256);
    if (cached) return { kind: "gold-ids", sha256: gold.sha256, ids: cached };
    let reading = this.goldReading.get(gold.sha256);
    if (!reading) {
      reading = this.readGoldIds(gold).finally(() => this.goldReading.delete(gold.sha256));
      this.goldReading.set(gold.sha256, reading);
    }
    return reading;
  }

  /** Loads a gold key and reads its document ids in a thread; caches them. */
  private async readGoldIds(gold: GoldSource): Promise<GoldIdsAnswer> {
    const stored = await gold.load();
    if (!stored) return { kind: "none" };
    const cached = this.goldIds.get(stored.sha256);
    if (cached) return { kind: "gold-ids", sha256: stored.sha256, ids: cached };
    const input: CheckInput = { kind: "gold-ids", gzip: stored.gzip, sha256: stored.sha256, fileName: stored.fileName };
    const answer = await this.runInTurn(input, stored.gzip.byteLength);
    switch (answer.kind) {
      case "gold-ids":
        this.goldIds.set(stored.sha256, answer.ids);
        return { kind: "gold-ids", sha256: stored.sha256, ids: answer.ids };
      case "busy":
        return answer;
      case "internal":
        return { kind: "unreadable", reason: answer.message };
      case "timeout":
        return { kind: "unreadable", reason: `reading it took longer than ${answer.timeoutMs} ms` };
      case "memory":
        return { kind: "unreadable", reason: `reading it needs more than ${answer.maxMemoryMb} MB` };
      default:
        // `format` is answered as `internal` for a gold key; `empty` and anything else:
        return { kind: "unreadable", reason: `unexpected answer ${answer.kind}` };
    }
  }

  /** Runs one task in a thread once it is our turn (see {@link admit}); `busy` when the line is full. */
  private async runInTurn(input: CheckInput, bytes: number): Promise<CheckOutcome | UploadAnswer> {
    if (this.destroyed) throw new Error("upload pool: used after destroy()");
    const turn = this.admit(bytes);
    if (!turn) return { kind: "busy" };
    await turn;
    try {
      return await this.check(input);
    } finally {
      this.release();
    }
  }

  /** Stops every thread; files being read or waiting reject. Safe to call twice. */
  async destroy(): Promise<void> {
    this.destroyed = true;
    const piscina = this.piscina;
    this.piscina = null;
    if (piscina) await piscina.destroy();
  }

  /**
   * Takes a thread now, or a place in line (the promise resolves when a thread is ours); null
   * when the line is full. Decided at once, when `validate` is called.
   */
  private admit(bytes: number): Promise<void> | null {
    if (this.running < this.options.threads) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.options.maxQueue || this.waitingBytes + bytes > this.options.maxQueuedBytes) return null;
    // The thread is handed over by release(): `running` stays the same.
    this.waitingBytes += bytes;
    return new Promise<void>((resolve) => this.waiting.push({ admit: resolve, bytes }));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) {
      this.waitingBytes -= next.bytes;
      next.admit();
    } else this.running--;
  }

  /** The piscina pool, created on first use with all its threads. */
  private pool(): Piscina {
    if (this.destroyed) throw new Error("upload pool: used after destroy()");
    if (!this.piscina) {
      const { threads, maxMemoryMb } = this.options;
      const piscina = new Piscina({
        filename: uploadPoolEntry(),
        minThreads: threads,
        maxThreads: threads,
        idleTimeout: Number.MAX_SAFE_INTEGER,
        concurrentTasksPerWorker: 1,
        resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
      });
      warnIfThreadCapsOverridden("upload pool");
      // A thread that fails with no file in it (e.g. while starting) is reported here; an
      // unhandled 'error' event would take the web server down.
      piscina.on("error", (error: unknown) => console.error(`upload pool: ${error instanceof Error ? error.message : String(error)}`));
      this.piscina = piscina;
      this.warm = null;
    }
    return this.piscina;
  }

  /** Waits until a thread has loaded the readers (once, and again after a thread was stopped). */
  private warmUp(): Promise<void> {
    this.warm ??= (async () => {
      const piscina = this.pool();
      const outcome = (await piscina.run(null, { signal: AbortSignal.timeout(STARTUP_TIMEOUT_MS) })) as CheckOutcome;
      if (outcome.kind !== "ready") throw new Error(`upload pool: unexpected warm-up answer ${outcome.kind}`);
    })().catch(async (error: unknown) => {
      // A pool whose threads cannot start is dropped: the next upload builds a new one.
      this.warm = null;
      const broken = this.piscina;
      this.piscina = null;
      await broken?.destroy().catch(() => undefined);
      throw new Error(`upload pool: a thread could not start: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.warm;
  }

  /** Runs one file in a thread under the time limit; a thread stopped at a limit is a `timeout` or `memory` answer. */
  private async check(input: CheckInput): Promise<CheckOutcome | UploadAnswer> {
    await this.warmUp();
    const { timeoutMs, maxMemoryMb } = this.options;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      return (await this.pool().run(input, { signal: controller.signal })) as CheckOutcome;
    } catch (error) {
      // The thread is gone (stopped, out of memory, or died) and piscina starts another:
      // warm up again before the next file (a no-op round trip if a warm thread answers).
      this.warm = null;
      if (timedOut) return { kind: "timeout", timeoutMs };
      if (isOutOfMemory(error)) return { kind: "memory", maxMemoryMb };
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

const globalForPool = globalThis as unknown as { corefboardUploadPool?: UploadPool };

/**
 * The process-wide upload pool, created on first call with {@link uploadPoolOptions} (its
 * threads start with the first file).
 *
 * @throws EnvError when the environment is invalid
 */
export function sharedUploadPool(): UploadPool {
  globalForPool.corefboardUploadPool ??= new UploadPool(uploadPoolOptions());
  return globalForPool.corefboardUploadPool;
}
