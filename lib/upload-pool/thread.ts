/**
 * The task of an upload-checking thread (loaded by `entry.mjs`, run by the pool in
 * `pool.ts`). Two jobs, both with the scorer's readers and their default limits (`readCorpus`,
 * format from the file name), answering with small data only, never the corpus:
 * - an **upload**: read the file, refuse a document with more mentions than the density bound
 *   allows (`scoring/formats/density.ts`: 2 per token, gold keys and runs alike), answer its
 *   counts and its documents' ids (with the line of each `#begin document`), for the document
 *   check against the gold key, and, when asked (`corefudCoreference`, a blind input's upload),
 *   for a `.conllu` file which CorefUD coreference items its MISC column holds (`Entity`,
 *   `Bridge`, `SplitAnte`: a blind input must hold none);
 * - a **gold key's document ids**: unpack a stored gold key (checksum verified), read it and
 *   answer the ids of its documents only (`Document.id`, the identity the scorer matches key
 *   and response documents by: `scoring/evaluate.ts`). Nothing else of the gold leaves the thread.
 *
 * Pure and synchronous: the pool runs it in a worker thread so that the web server's event
 * loop never waits for it, and so that a file that takes too long or needs too much memory
 * can be stopped by ending the thread.
 */
import { corefudCoreferenceAttributes } from "../../scoring/formats/blind";
import { checkMentionDensity, DEFAULT_LIMITS, detectFormat, FormatError, readCorpus } from "../../scoring/formats/index";
import type { FormatProblem } from "../errors";
import { unpackFile } from "../storage";
import { corpusStats, type UploadStats } from "./stats";

/** One document of an uploaded file: its id (`Document.id`: name, plus `/part N` for CoNLL-2012 parts) and the 1-based line where it begins. */
export interface RunDocument {
  id: string;
  line: number;
}

/** What the pool sends to the thread (the bytes are copied, the caller keeps its own). */
export type CheckInput =
  /** an uploaded file to read */
  | {
      kind: "upload";
      bytes: Uint8Array;
      /** the cleaned file name: picks the reader and names the file in messages */
      fileName: string;
      /** also list the CorefUD coreference items of a `.conllu` file's MISC column (one more pass over the file) */
      corefudCoreference?: boolean;
    }
  /** a stored gold key whose document ids are wanted */
  | {
      kind: "gold-ids";
      /** the stored gzip bytes */
      gzip: Uint8Array;
      /** the recorded sha256 of the uncompressed file (checked) */
      sha256: string;
      /** the gold key's file name: picks the reader */
      fileName: string;
    };

/** What the thread answers. */
export type CheckOutcome =
  /** the answer to a warm-up (a `null` input): the thread has loaded the readers */
  | { kind: "ready" }
  /**
   * an upload's counts, its documents in file order, and the CorefUD coreference items of its
   * MISC column (`corefudCoreferenceAttributes`; empty unless asked, and for other formats)
   */
  | { kind: "stats"; stats: UploadStats; documents: RunDocument[]; corefudCoreference: string[] }
  /** a gold key's document ids, in key order */
  | { kind: "gold-ids"; ids: string[] }
  /** the reader's FormatError as `toJSON()` gives it (file, line, column, expected, found, message) */
  | { kind: "format"; problem: FormatProblem }
  /** the file was read but holds no document (e.g. an empty JSON-lines file) */
  | { kind: "empty" }
  /** a reader threw something other than a FormatError (a bug in the scorer), or a stored gold key did not unpack */
  | { kind: "internal"; message: string };

/**
 * Reads and checks one file.
 *
 * @param input an upload or a stored gold key, or null for a warm-up
 * @returns for an upload its counts and documents (`stats`); for a gold key its document ids
 *   (`gold-ids`); the FormatError's JSON (`format`), `empty` for a file without documents, or
 *   `internal` (with the error's text) when a reader broke its contract or a stored gold key
 *   is damaged; `ready` for a warm-up; never throws
 */
export default function checkUpload(input: CheckInput | null): CheckOutcome {
  if (input === null) return { kind: "ready" };
  if (input.kind === "gold-ids") return goldIds(input);
  try {
    const corpus = readCorpus(input.bytes, input.fileName, { limits: DEFAULT_LIMITS });
    if (corpus.documents.length === 0) return { kind: "empty" };
    checkMentionDensity(corpus);
    const corefudCoreference = input.corefudCoreference && detectFormat(input.fileName) === "conllu" ? corefudCoreferenceAttributes(input.bytes, input.fileName) : [];
    return { kind: "stats", stats: corpusStats(corpus), documents: corpus.documents.map((d) => ({ id: d.id, line: d.line })), corefudCoreference };
  } catch (error) {
    if (error instanceof FormatError) return { kind: "format", problem: error.toJSON() };
    return { kind: "internal", message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/**
 * The document ids of a stored gold key. A problem answers `internal` with its place only
 * (line and column of a FormatError, never the excerpt or what was found: that is gold content).
 */
function goldIds(input: Extract<CheckInput, { kind: "gold-ids" }>): CheckOutcome {
  let bytes: Uint8Array;
  try {
    bytes = unpackFile(input.gzip, input.sha256);
  } catch {
    return { kind: "internal", message: "the stored gold key is damaged (it does not unpack to its recorded sha256)" };
  }
  try {
    const corpus = readCorpus(bytes, input.fileName, { limits: DEFAULT_LIMITS });
    if (corpus.documents.length === 0) return { kind: "empty" };
    return { kind: "gold-ids", ids: corpus.documents.map((d) => d.id) };
  } catch (error) {
    if (error instanceof FormatError) return { kind: "internal", message: `the gold key does not parse at line ${error.line}, column ${error.column}` };
    return { kind: "internal", message: `a reader failed on the gold key (${error instanceof Error ? error.name : typeof error})` };
  }
}
