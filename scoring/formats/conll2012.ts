/**
 * Reader for the CoNLL-2012 coreference format (and the CoNLL-2011/SemEval-2010 and
 * LitBank/OntoGUM variants of it).
 *
 * Layout: a document starts at `#begin document (NAME); part NNN` and ends at
 * `#end document`. Every other non-blank line inside a document is one token; blank lines
 * separate sentences. Columns are separated by tabs, or by runs of spaces when a line has
 * no tab. The coreference column is the **last** column: `-`, `_` or empty for no mention,
 * otherwise chain items `(N` (a mention of entity N starts here), `N)` (one ends here) and
 * `(N)` (a one-token mention), joined by `|` or written back to back (`(1(3`, `3)(7)`).
 *
 * Reference-scorer behaviour kept (CoNLL scorer v8.01, `CorScorer.pm` `GetCoreference`):
 * - entities are numbered by first sight of their chain id, one-token items of a line
 *   before the opening items of that line (this order decides which copy of a repeated
 *   span the scorer keeps);
 * - an end item closes the most recent open mention with the same chain id;
 * - split-antecedent items `(N+M)` are discarded (with a warning here);
 * - header names are matched verbatim, except that `part 0` and `part 000` are the same.
 * Departures, all on input the reference scorer mishandles or silently drops:
 * - items on one line are paired in their written order, so `5)|(5` ends the open mention
 *   of entity 5 and starts a new one (the Perl scorer reads it as a one-token mention);
 * - text that is not a chain item is an error here (the Perl scorer ignores it);
 * - CRLF line ends are accepted everywhere (the Perl scorer miscounts tokens on `\r` lines).
 *
 * This file reads the lines into documents (`Conll2012DocumentStream`) and finds where a
 * document may begin (`conll2012DocumentStart`); `conll2012/document.ts` (`DocumentBuilder`)
 * reads a document's token lines, their chain items and its mentions.
 */
import { FormatError, quote, type Corpus, type Document, type Warning } from "../types.js";
import { DocumentBuilder, type Header } from "./conll2012/document.js";
import { readWhole, type DocumentStream } from "./document-stream.js";
import { resolveLimits, type ReadLimits } from "./limits.js";
import { decodeInput, LineSpans, lineAt, type Input } from "./text.js";

// The `s` flags let `.` match any character, so a header holding e.g. U+2028 is still a header.
const BEGIN = /^#\s*begin document\b[ \t]?(.*)$/s;
const END = /^#\s*end document\b/;
// Applied to the trimmed header rest. Written so that no two neighbouring parts can match the
// same characters (`\s*` then `;\s*` then `part\s+\d+`): matching stays linear in the line
// length. (`\)\s*;?\s*...\s*$` backtracked polynomially on `(a)` + many spaces + `x`.)
const HEADER_NAME = /^\((.*)\)\s*(?:;\s*)?(?:part\s+(\d+))?$/s;

/**
 * Reads a CoNLL-2012 file into a `Corpus`.
 *
 * @param input the file's text or raw bytes
 * @param file the file name, used in error messages and warnings
 * @param limits optional bounds on documents, tokens and mentions (each one not given is
 *   unbounded; `readCorpus` fills in `DEFAULT_LIMITS`)
 * @param options `words: false` keeps only the number of tokens: each document's `tokens` holds
 *   an empty string per token (scoring never reads the words of CoNLL-2012 input; the CLI
 *   reads faster this way). Default true.
 * @returns the documents in file order with their entities (mentions are inclusive
 *   `[start, end]` document-level token indices), and warnings for oddities that can still
 *   be scored: unnamed documents, a span annotated twice, discarded split antecedents.
 * @throws FormatError (and nothing else) for a binary, non-UTF-8, empty or blank file, a token line outside
 *   a document, a `#begin document` inside a document, a missing `#end document`, a chain
 *   item that is not `(N`, `N)`, `(N)` with a numeric N, an end without a start, a mention
 *   left open at `#end document`, a repeated document name, or a limit exceeded.
 */
export function readConll2012(input: Input, file: string, limits: ReadLimits = {}, options: { words?: boolean } = {}): Corpus {
  return readWhole(new Conll2012DocumentStream(input, file, limits, options), file);
}

/**
 * `readConll2012` one document at a time (see `DocumentStream`; `readConll2012` is built on
 * it): a document is given when its `#end document` line is read.
 */
export class Conll2012DocumentStream implements DocumentStream {
  /** The warnings so far, in file order. */
  readonly warnings: Warning[] = [];
  private readonly text: string;
  private readonly lines: LineSpans;
  private readonly bounds: Required<ReadLimits>;
  private readonly words: boolean;
  private readonly seenIds = new Map<string, number>();
  /** Documents read to their end so far. */
  private ended = 0;
  /** The document being read. */
  private doc: DocumentBuilder | null = null;
  /** A document read to its end and not given yet (at most one). */
  private ready: Document | null = null;
  private lastLine = 0;
  private lastStart = 0;
  private lastEnd = 0;

  /**
   * @param input the file's text or raw bytes
   * @param file the file name, for messages and warnings
   * @param limits as `readConll2012`'s
   * @param options as `readConll2012`'s
   * @throws FormatError when the input is not UTF-8 text (`decodeInput`)
   */
  constructor(
    input: Input,
    private readonly file: string,
    limits: ReadLimits = {},
    options: { words?: boolean } = {},
  ) {
    this.words = options.words ?? true;
    this.text = decodeInput(input, file);
    this.lines = new LineSpans(this.text);
    this.bounds = resolveLimits(limits);
  }

  /**
   * The next document of the file, or null when the file has no more.
   *
   * @throws FormatError as `readConll2012` does, for the lines read so far
   */
  next(): Document | null {
    if (this.ready === null && !this.lines.done) {
      this.lines.run((start, end, lineNumber) => {
        this.line(start, end, lineNumber);
        return this.ready === null;
      });
    }
    const d = this.ready;
    this.ready = null;
    return d;
  }

  /**
   * Ends the reading, once `next()` has given null: checks what only the whole file shows.
   *
   * @throws FormatError for a document without `#end document`, or a file without documents
   */
  finish(): void {
    const lastLineText = this.text.slice(this.lastStart, this.lastEnd);
    const { file, doc } = this;
    if (doc) {
      throw new FormatError({
        file,
        line: this.lastLine,
        column: lastLineText.length + 1,
        expected: `'#end document' for the document ${quote(doc.name)} begun at line ${doc.line}`,
        found: "the end of the file",
        lineText: lastLineText,
      });
    }
    if (this.ended === 0) {
      throw new FormatError({
        file,
        line: this.lastLine,
        column: 1,
        expected: "at least one '#begin document' line",
        found: "no document in the whole file",
        lineText: lastLineText,
      });
    }
  }

  /** Reads the line `text.slice(start, end)`. */
  private line(start: number, end: number, lineNumber: number): void {
    const { text, file, doc } = this;
    this.lastLine = lineNumber;
    this.lastStart = start;
    this.lastEnd = end;
    // Most lines are tokens without a mention: read in place, without cutting the line out.
    if (doc?.plainToken(text, start, end)) return;
    const line = text.slice(start, end);
    const first = firstNonSpace(line);
    if (first < 0) {
      if (doc) doc.sentenceBreak();
      return;
    }
    if (line.charCodeAt(first) === 35 /* # */) {
      const body = line.slice(first);
      const begin = BEGIN.exec(body);
      if (begin) {
        this.beginDocument(begin[1], line, lineNumber, first);
        return;
      }
      if (END.test(body)) {
        if (!doc) {
          throw new FormatError({
            file,
            line: lineNumber,
            column: first + 1,
            expected: "'#begin document' before '#end document'",
            found: "'#end document' outside any document",
            lineText: line,
          });
        }
        this.ready = doc.finish(lineNumber);
        this.ended++;
        this.doc = null;
        return;
      }
      // Any other line starting with '#' is a comment.
      return;
    }
    if (!doc) {
      throw new FormatError({
        file,
        line: lineNumber,
        column: first + 1,
        expected: "a '#begin document' line before the first token",
        found: `a token line ${quote(line.trim())}`,
        lineText: line,
      });
    }
    doc.token(line, lineNumber, first);
  }

  /**
   * Begins a document at its `#begin document` line (`line`, `first` the 0-based index of the
   * `#`); `rest` is the text after `#begin document`.
   * @throws FormatError inside a document, past the document limit, or for a name used before
   */
  private beginDocument(rest: string, line: string, lineNumber: number, first: number): void {
    const { text, file, doc } = this;
    if (doc) {
      throw new FormatError({
        file,
        line: lineNumber,
        column: first + 1,
        expected: `'#end document' for the document begun at line ${doc.line}`,
        found: "another '#begin document'",
        lineText: line,
      });
    }
    const { maxDocuments } = this.bounds;
    if (this.ended >= maxDocuments) {
      throw new FormatError({
        file,
        line: lineNumber,
        column: first + 1,
        expected: `at most ${maxDocuments} documents in one file`,
        found: "one more '#begin document'",
        lineText: line,
      });
    }
    const header = parseHeader(rest, this.ended + 1);
    if (header.generated) {
      this.warnings.push({
        code: "unnamed-document",
        message: `the document begun at line ${lineNumber} has no name; it is called "${header.name}" by its position in the file, so key and response must list their documents in the same order`,
        file,
        line: lineNumber,
        document: header.name,
      });
    }
    const firstAt = this.seenIds.get(header.id);
    if (firstAt !== undefined) {
      throw new FormatError({
        file,
        line: lineNumber,
        column: first + 1,
        expected: `a document name not used earlier in the file`,
        found: `${quote(header.id)} again (first begun at line ${firstAt})`,
        lineText: line,
      });
    }
    this.seenIds.set(header.id, lineNumber);
    this.doc = new DocumentBuilder(file, header, lineNumber, this.bounds, this.warnings, (n) => lineAt(text, n), this.words);
  }
}

/** Splits the text after `#begin document` into a name and a part number. */
function parseHeader(rest: string, ordinal: number): Header {
  const raw = rest.trim();
  const m = HEADER_NAME.exec(raw);
  let name = m ? m[1] : raw;
  const part = m && m[2] !== undefined ? Number.parseInt(m[2], 10) : null;
  let generated = false;
  if (name.trim() === "") {
    name = `unnamed document ${ordinal}`;
    generated = true;
  }
  return { id: part === null ? name : `${name}/part ${part}`, name, part, generated };
}

/**
 * Index of the first character of `line` that is not white space (as `String.prototype.trim`
 * sees it, so a line of only e.g. no-break spaces is blank), or -1 for a blank line.
 */
function firstNonSpace(line: string): number {
  const c = line.charCodeAt(0);
  if (c > 32 && c < 127) return 0; // printable ASCII: the common case, without a regex
  return line.search(/\S/);
}

/** Text every line that can start a CoNLL-2012 document holds (`#begin document ...`), for searching. */
export const CONLL2012_DOCUMENT_MARKER = "begin document";

/**
 * Whether `readConll2012` starts a named document at the line that begins at `lineStart`, for a
 * reader of part of the file (`scoring/parallel.ts`). Reading `text.slice(lineStart)` after as
 * many blank lines as come before it gives that part's documents, lines and warnings as reading
 * the whole file does: the reader keeps no state between documents but the ids seen (repeats)
 * and the document count (the limit; generated names), which `parallel.ts` checks itself.
 *
 * @param text the decoded file (`decodeInput`)
 * @param lineStart the offset of a line's first character in `text`
 * @returns null unless the line is `#begin document` with a name (an unnamed document's
 *   generated name depends on its place in the whole file); else `offset` (= `lineStart`), the
 *   document `id` and `declaration` null. Never throws.
 */
export function conll2012DocumentStart(text: string, lineStart: number): { offset: number; id: string; declaration: null } | null {
  let end = text.indexOf("\n", lineStart);
  if (end < 0) end = text.length;
  if (end > lineStart && text.charCodeAt(end - 1) === 13) end--;
  const line = text.slice(lineStart, end);
  const first = firstNonSpace(line);
  if (first < 0 || line.charCodeAt(first) !== 35) return null;
  const begin = BEGIN.exec(line.slice(first));
  if (!begin) return null;
  const header = parseHeader(begin[1], 0);
  return header.generated ? null : { offset: lineStart, id: header.id, declaration: null };
}
