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
import { TooLargeError, ValidationError } from "../errors";
import { sharedUploadPool, type UploadPool } from "../upload-pool/pool";
import type { UploadStats } from "../upload-pool/stats";
import { DEFAULT_LIMITS, FormatError, readCorpus } from "../../scoring/formats/index";
import type { Corpus } from "../../scoring/index";

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
  return pool.validate(bytes, fileName);
}

/**
 * Reads an uploaded coreference file (format from the file extension, see `detectFormat`)
 * synchronously, on the caller's thread. Kept only until `createSubmission` uses
 * {@link validateUpload}: never call it in a request handler.
 *
 * @deprecated use {@link validateUpload}
 *
 * @param bytes the file
 * @param fileName its (cleaned) name
 * @returns the corpus
 * @throws ValidationError (422) with `formatErrors` = [the FormatError's JSON: file, line,
 *   column, expected, found] when the file cannot be read; with a field error on `file`
 *   when it holds no document
 */
export function parseUpload(bytes: Uint8Array, fileName: string): Corpus {
  let corpus: Corpus;
  try {
    corpus = readCorpus(bytes, fileName, { limits: DEFAULT_LIMITS });
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    const problem = error.toJSON();
    throw new ValidationError(`The file could not be read: ${problem.message}`, { formatErrors: [problem] });
  }
  if (corpus.documents.length === 0) {
    throw ValidationError.field("file", `${fileName} holds no document. Please check that it is a CoNLL-2012, CorefUD or JSON-lines file.`);
  }
  return corpus;
}
