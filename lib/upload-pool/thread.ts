/**
 * The task of an upload-checking thread (loaded by `entry.mjs`, run by the pool in
 * `pool.ts`): reads one uploaded file with the scorer's readers and their default limits
 * (`readCorpus`, format from the file name) and answers with counts only, never the corpus.
 *
 * Pure and synchronous: the pool runs it in a worker thread so that the web server's event
 * loop never waits for it, and so that a file that takes too long or needs too much memory
 * can be stopped by ending the thread.
 */
import { DEFAULT_LIMITS, FormatError, readCorpus } from "../../scoring/formats/index";
import type { FormatProblem } from "../errors";
import { corpusStats, type UploadStats } from "./stats";

/** What the pool sends to the thread (the bytes are copied, the caller keeps its own). */
export interface CheckInput {
  bytes: Uint8Array;
  /** the cleaned file name: picks the reader and names the file in messages */
  fileName: string;
}

/** What the thread answers. */
export type CheckOutcome =
  /** the answer to a warm-up (a `null` input): the thread has loaded the readers */
  | { kind: "ready" }
  | { kind: "stats"; stats: UploadStats }
  /** the reader's FormatError as `toJSON()` gives it (file, line, column, expected, found, message) */
  | { kind: "format"; problem: FormatProblem }
  /** the file was read but holds no document (e.g. an empty JSON-lines file) */
  | { kind: "empty" }
  /** a reader threw something other than a FormatError: a bug in the scorer */
  | { kind: "internal"; message: string };

/**
 * Reads and checks one file.
 *
 * @param input the file's bytes and name, or null for a warm-up
 * @returns its counts, the FormatError's JSON, `empty` for a file without documents, or
 *   `internal` (with the error's text) when a reader broke its contract; `ready` for a
 *   warm-up; never throws
 */
export default function checkUpload(input: CheckInput | null): CheckOutcome {
  if (input === null) return { kind: "ready" };
  try {
    const corpus = readCorpus(input.bytes, input.fileName, { limits: DEFAULT_LIMITS });
    if (corpus.documents.length === 0) return { kind: "empty" };
    return { kind: "stats", stats: corpusStats(corpus) };
  } catch (error) {
    if (error instanceof FormatError) return { kind: "format", problem: error.toJSON() };
    return { kind: "internal", message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}
