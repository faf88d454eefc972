/**
 * Readers that give a file's documents one at a time (`CorefUDDocumentStream`,
 * `Conll2012DocumentStream`), so that a caller can score each document as soon as it is read
 * and then let it go (`scoring/evaluate-inputs.ts`). The whole-file readers are built on them.
 */
import type { Corpus, Document, Warning } from "../types.js";

/**
 * A file's documents, one per `next()` call. Calling `next()` until it gives null and then
 * `finish()` gives exactly the whole-file reader's documents, in order, its warnings and its
 * errors, except in timing: a document is given as soon as its last line is read, so an error
 * further on in the file comes from a later call, and the errors only the whole file shows
 * (no document, say) from `finish()`.
 */
export interface DocumentStream {
  /** The warnings so far, in the order the whole-file reader gives them. */
  readonly warnings: Warning[];
  /**
   * The next document, or null when the file has no more.
   * @throws FormatError as the whole-file reader does, for the lines read so far
   */
  next(): Document | null;
  /**
   * Ends the reading, once `next()` has given null: the checks that need the whole file.
   * @throws FormatError as the whole-file reader does for them
   */
  finish(): void;
}

/**
 * Every document of `stream`, then its end checks: what the whole-file reader returns.
 *
 * @param stream a stream from which no document has been taken yet
 * @param file the file's name (the corpus's `file`)
 * @returns the documents in file order and the warnings
 * @throws FormatError as the stream does
 */
export function readWhole(stream: DocumentStream, file: string): Corpus {
  const documents: Document[] = [];
  for (let d = stream.next(); d !== null; d = stream.next()) documents.push(d);
  stream.finish();
  return { file, documents, warnings: stream.warnings };
}
