/**
 * Checks shared by every upload (submissions and gold keys): the size limit, the file name,
 * and reading the file with the scorer's readers and input limits (documents, tokens and
 * mentions per document) in a worker-thread pool (`lib/upload-pool/`), never on the web
 * server's event loop, with a time limit, a memory limit and a bounded waiting line.
 *
 * Callers check everything cheap first (permissions, phase window, quota, size), then call
 * {@link validateUpload}, then store: a refused file stores nothing and counts nothing.
 */
import { loadEnv } from "../env";
import { ServiceBusyError, TooLargeError, ValidationError } from "../errors";
import { BUSY_RETRY_AFTER_SECONDS, sharedUploadPool, type UploadAnswer, type UploadPool } from "../upload-pool/pool";
import type { UploadStats } from "../upload-pool/stats";

export type { UploadStats } from "../upload-pool/stats";

const MB = 1024 * 1024;

/**
 * The largest accepted upload in bytes (UPLOAD_MAX_BYTES, uncompressed; read from the
 * environment on each call).
 *
 * @throws EnvError when the environment is invalid
 */
export function uploadLimitBytes(): number {
  return loadEnv().UPLOAD_MAX_BYTES;
}

/** Bytes as megabytes for messages: "50 MB", "0.5 MB", "12.3 MB". */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : Number(mb.toFixed(mb < 1 ? 3 : 1))} MB`;
}

/**
 * Throws when an upload is over the limit.
 *
 * @param size the upload's size in bytes (uncompressed)
 * @param maxBytes the limit in bytes (default: {@link uploadLimitBytes})
 * @throws TooLargeError (413) whose message states both sizes in MB
 */
export function assertUploadSize(size: number, maxBytes: number = uploadLimitBytes()): void {
  if (size <= maxBytes) return;
  throw new TooLargeError(`The file is ${formatMegabytes(size)}; the largest accepted file is ${formatMegabytes(maxBytes)}.`, { maxBytes, size });
}

/**
 * The name to store for an uploaded file: its last path component, without control
 * characters, at most 200 characters.
 *
 * @throws ValidationError (422, field `file`) when nothing is left
 */
export function cleanFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(/[\p{Cc}\p{Cf}]/gu, "").trim().slice(-200);
  if (!cleaned) throw ValidationError.field("file", "The file needs a name, e.g. system.conll.");
  return cleaned;
}

/**
 * Reads and checks an uploaded coreference file in a pool thread (format from the file
 * extension, see `detectFormat`) and returns its counts, never the corpus.
 *
 * @param bytes the file (copied to the thread; `bytes` stays usable)
 * @param fileName its cleaned name ({@link cleanFileName})
 * @param pool the pool to use (default: the process-wide pool, started on the first upload)
 * @returns `{documents, tokens, mentions, entities, singletons, warnings}` (whole numbers)
 * @throws ValidationError (422) with `formatErrors` = [the FormatError's JSON: file, line,
 *   column, expected, found, message] when the file cannot be read; with a field error on
 *   `file` when it holds no document, takes longer than UPLOAD_VALIDATION_TIMEOUT_MS to read
 *   ("The file took longer than 30 s to read…") or needs more than
 *   UPLOAD_VALIDATION_MAX_MEMORY_MB ("Reading the file needs more than 1024 MB…");
 *   ServiceBusyError (503, `retryAfterSeconds`) when the pool's threads and waiting line are
 *   full; EnvError for an invalid environment; Error (500) when a thread cannot start
 */
export async function validateUpload(bytes: Uint8Array, fileName: string, pool: UploadPool = sharedUploadPool()): Promise<UploadStats> {
  return statsOrError(await pool.validate(bytes, fileName), fileName);
}

/** The counts of the pool's answer, or the error it stands for (made here, in the caller's copy of the error classes: see `lib/upload-pool/pool.ts`). */
function statsOrError(answer: UploadAnswer, fileName: string): UploadStats {
  const tooBig = "Please check that it is a coreference file of the expected format, not much larger than the data set.";
  switch (answer.kind) {
    case "stats":
      return answer.stats;
    case "format":
      throw new ValidationError(`The file could not be read: ${answer.problem.message}`, { formatErrors: [answer.problem] });
    case "empty":
      throw ValidationError.field("file", `${fileName} holds no document. Please check that it is a CoNLL-2012, CorefUD or JSON-lines file.`);
    case "busy":
      throw new ServiceBusyError("Too many uploads are being checked right now; please try again in a minute.", { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
    case "timeout":
      throw ValidationError.field("file", `The file took longer than ${seconds(answer.timeoutMs)} to read, so reading it was stopped. ${tooBig}`);
    case "memory":
      throw ValidationError.field("file", `Reading the file needs more than ${answer.maxMemoryMb} MB of memory, so reading it was stopped. ${tooBig}`);
    case "internal":
      throw new Error(`upload check of ${fileName}: a reader failed: ${answer.message}`);
  }
}

/** Seconds for messages: "30 s", "0.5 s", "1.25 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 3 : 2))} s`;
}
