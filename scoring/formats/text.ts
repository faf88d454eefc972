/**
 * Turning raw file bytes into text lines, shared by the format readers.
 *
 * Readers accept a `string` or raw bytes. Bytes are checked for valid UTF-8 before decoding,
 * and the text for NUL characters, so that a binary or mis-encoded file gets a `FormatError`
 * pointing at the first bad byte instead of a confusing error further on.
 */
import { FormatError } from "../types.js";

/** What a reader accepts: already-decoded text or the raw bytes of a file. */
export type Input = string | Uint8Array;

/**
 * Decodes `input` as UTF-8 (one leading byte-order mark is dropped, from text or bytes).
 *
 * @param input text or raw bytes
 * @param file the file name used in error messages
 * @returns the text
 * @throws FormatError when the input is empty or only white space, contains a NUL byte (a
 *   binary file) or is not valid UTF-8; the error points at the line and column of the first
 *   bad byte (columns count UTF-16 code units of the text after the byte-order mark).
 */
export function decodeInput(input: Input, file: string): string {
  let text: string;
  if (typeof input === "string") {
    text = input;
  } else {
    // The native decoder checks validity fast; only invalid input pays for `firstInvalidUtf8`,
    // which finds the first bad byte for the message.
    let decoded: string | null = null;
    try {
      decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input);
    } catch {
      decoded = null;
    }
    if (decoded === null) {
      const bad = firstInvalidUtf8(input);
      const nul = input.indexOf(0);
      if (bad >= 0 && (nul < 0 || bad < nul)) throw invalidUtf8Error(file, input, bad);
    }
    // Everything before the first NUL is valid UTF-8 here, so the NUL check below finds
    // the same position in the decoded text. `ignoreBOM` keeps the mark so that exactly one
    // is dropped below, as for string input.
    text = decoded ?? new TextDecoder("utf-8", { ignoreBOM: true }).decode(input);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const nul = text.indexOf("\u0000");
  if (nul >= 0) {
    const { line, column, lineText } = locate(text, nul);
    throw new FormatError({
      file,
      line,
      column,
      expected: "a text file",
      found: "a NUL byte (this looks like a binary file)",
      lineText,
    });
  }
  // Not `text.trim() === ""`, which copies the whole text when it ends with a line break.
  // `\S` is the complement of what trim removes (WhiteSpace and LineTerminator).
  if (!/\S/.test(text)) {
    throw new FormatError({
      file,
      line: 1,
      column: 1,
      expected: "a file with coreference annotation",
      found: text.length === 0 ? "an empty file" : "a file holding only white space",
    });
  }
  return text;
}

/** The error for the byte at offset `bad`, the first one that breaks UTF-8. */
function invalidUtf8Error(file: string, bytes: Uint8Array, bad: number): FormatError {
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf && bad >= 3) start = 3;
  // The bytes before `bad` are valid, so their decoded length is the offset of the bad
  // byte in the text; the rest of its line is decoded leniently (U+FFFD) for the excerpt.
  const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
  const offset = lenient.decode(bytes.subarray(start, bad)).length;
  let lineEnd = bytes.indexOf(10, bad);
  if (lineEnd < 0) lineEnd = bytes.length;
  const { line, column, lineText } = locate(lenient.decode(bytes.subarray(start, lineEnd)), offset);
  return new FormatError({
    file,
    line,
    column,
    expected: "UTF-8 text",
    found: `the byte 0x${bytes[bad].toString(16).padStart(2, "0")}, which is not valid UTF-8 (is this a binary or Latin-1 file?)`,
    lineText,
  });
}

/**
 * Where character offset `at` (0-based, UTF-16 code units) of `text` is, for an error message.
 *
 * @returns the 1-based `line` and `column` and that line's text without its line break (cut
 *   4,096 characters after `at`, so `column` still indexes it)
 */
export function locate(text: string, at: number): { line: number; column: number; lineText: string } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  let lineEnd = text.indexOf("\n", lineStart);
  if (lineEnd < 0) lineEnd = text.length;
  if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
  // Keep the line from its start (so `column` indexes it) but drop a very long tail.
  return { line, column: at - lineStart + 1, lineText: text.slice(lineStart, Math.min(lineEnd, at + 4096)) };
}

/**
 * The text of line `lineNumber` (1-based) of `text`, without its line break (`\n` or
 * `\r\n`), or "" past the last line. Scans from the start: meant for error messages.
 */
export function lineAt(text: string, lineNumber: number): string {
  let start = 0;
  for (let n = 1; n < lineNumber; n++) {
    const i = text.indexOf("\n", start);
    if (i < 0) return "";
    start = i + 1;
  }
  let end = text.indexOf("\n", start);
  if (end < 0) end = text.length;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return text.slice(start, end);
}

/** Offset of the first byte that breaks UTF-8, or -1 when all of `bytes` is valid UTF-8. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    if (i + need >= n) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** Node's `Buffer`, when there is one (the readers also run where there is none: then bytes are decoded whole). */
const NodeBuffer = (globalThis as unknown as { Buffer?: { from(arrayBuffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: "latin1"): string } } }).Buffer;

/** Finds the bytes 0x80–0xFF in a Latin-1 view of a file: the lines to decode as UTF-8 one by one. */
const NON_ASCII = /[\x80-\xff]/g;

/** One strict decoder for the lines with non-ASCII bytes. */
const STRICT_LINE_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A file's bytes as lines without decoding the whole file (see `InputLines`): `latin` the
 * bytes as a Latin-1 string (one character per byte, so its offsets are byte offsets; V8 keeps
 * it one byte a character, half the size of the UTF-16 text), and the lines that hold a byte
 * 0x80–0xFF decoded from their own bytes (strict UTF-8): `starts` where each begins in `latin`,
 * ascending, and `texts` its text without the line break. A line break is ASCII and never part
 * of a multi-byte UTF-8 sequence, so the lines are those of the decoded text, and the other
 * lines are ASCII, the same in both.
 *
 * @returns null when the input needs the plain path (`decodeInput`, which throws the exact
 *   error or drops the mark): a byte-order mark, a NUL byte, no printable ASCII character
 *   (empty or white space only), a line that is not valid UTF-8, or no `Buffer` (outside Node)
 */
export function byteLines(bytes: Uint8Array): { latin: string; starts: number[]; texts: string[] } | null {
  if (NodeBuffer === undefined || (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) return null;
  const latin = NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  if (latin.indexOf("\u0000") >= 0 || !/[!-~]/.test(latin)) return null;
  // Decoded before any line is visited, as decodeInput validates the whole file first.
  const starts: number[] = [];
  const texts: string[] = [];
  NON_ASCII.lastIndex = 0;
  for (let m = NON_ASCII.exec(latin); m !== null; m = NON_ASCII.exec(latin)) {
    const start = latin.lastIndexOf("\n", m.index) + 1;
    let end = latin.indexOf("\n", m.index);
    if (end < 0) end = latin.length;
    const lineEnd = end > start && latin.charCodeAt(end - 1) === 13 ? end - 1 : end;
    try {
      texts.push(STRICT_LINE_UTF8.decode(bytes.subarray(start, lineEnd)));
    } catch {
      return null;
    }
    starts.push(start);
    NON_ASCII.lastIndex = end;
  }
  return { latin, starts, texts };
}

/**
 * The lines of an input, exactly as `forEachLine(decodeInput(input, file), ...)` gives them
 * (same lines, numbers, texts and errors), but faster on raw bytes: they are not decoded whole
 * (`byteLines`). On the 108 GUM CorefUD documents (10 MB, 8,064 non-ASCII bytes) this saves the
 * 25–30 ms of decoding each file and about 25 MB of memory. The lines are visited in runs that
 * can stop and resume: a reader can take one document of a file, then one of another file, and
 * so on (`CorefUDDocumentStream`).
 */
export class InputLines {
  /** The lines of the decoded text, or of the Latin-1 view of the bytes (`byteLines`). */
  private readonly spans: LineSpans;
  /** Where the lines holding non-ASCII bytes begin in the view (none for decoded text), and their decoded texts. */
  private readonly starts: readonly number[];
  private readonly texts: readonly string[];
  /** Index in `starts` of the next such line. */
  private nextDecoded = 0;

  /**
   * @param input text or raw bytes
   * @param file the file name used in error messages
   * @throws FormatError as `decodeInput` does (before any line is visited: the whole input is
   *   checked first)
   */
  constructor(input: Input, file: string) {
    const view = typeof input === "string" ? null : byteLines(input);
    if (view === null) {
      this.spans = new LineSpans(decodeInput(input, file));
      this.starts = [];
      this.texts = [];
    } else {
      this.spans = new LineSpans(view.latin);
      this.starts = view.starts;
      this.texts = view.texts;
    }
  }

  /** True once every line has been visited. */
  get done(): boolean {
    return this.spans.done;
  }

  /**
   * Visits the lines from the first one not visited yet, until `visit` returns `false` (that
   * line counts as visited) or the input ends.
   *
   * @param visit called with each line's text (without its `\n` or `\r\n`) and 1-based number
   * @returns `done`
   */
  run(visit: (line: string, lineNumber: number) => boolean | void): boolean {
    const { text } = this.spans;
    const starts = this.starts;
    return this.spans.run((start, end, lineNumber) => {
      if (this.nextDecoded < starts.length && starts[this.nextDecoded] === start) return visit(this.texts[this.nextDecoded++], lineNumber);
      return visit(text.slice(start, end), lineNumber);
    });
  }
}

/**
 * Calls `visit(lineText, lineNumber)` for every line of `text`, without the line break
 * (`\n` or `\r\n`). Line numbers are 1-based. Stops early when `visit` returns `false`.
 */
export function forEachLine(text: string, visit: (line: string, lineNumber: number) => boolean | void): void {
  forEachLineSpan(text, (start, end, lineNumber) => visit(text.slice(start, end), lineNumber));
}

/**
 * `forEachLine` without cutting the lines out: calls `visit(start, end, lineNumber)` with each
 * line's bounds in `text` (`text.slice(start, end)` is the line), for readers that look at most
 * lines in place.
 */
export function forEachLineSpan(text: string, visit: (start: number, end: number, lineNumber: number) => boolean | void): void {
  new LineSpans(text).run(visit);
}

/**
 * The lines of a text as `forEachLineSpan` gives them, visited in runs that can stop and
 * resume: a reader can take one document of a file, then one of another file, and so on
 * (`CorefUDDocumentStream`, `Conll2012DocumentStream`).
 */
export class LineSpans {
  /** Offset in `text` of the next line, and its number. */
  private position = 0;
  private lineNumber = 1;
  private finished = false;

  /** @param text the text whose lines are visited */
  constructor(readonly text: string) {}

  /** True once every line has been visited. */
  get done(): boolean {
    return this.finished;
  }

  /**
   * Visits the lines from the first one not visited yet, until `visit` returns `false` (that
   * line counts as visited) or the text ends.
   *
   * @param visit called with each line's bounds in `text` (without its `\n` or `\r\n`) and its
   *   1-based number
   * @returns `done`
   */
  run(visit: (start: number, end: number, lineNumber: number) => boolean | void): boolean {
    const text = this.text;
    const n = text.length;
    let start = this.position;
    let lineNumber = this.lineNumber;
    while (!this.finished) {
      let end = text.indexOf("\n", start);
      const last = end < 0;
      if (last) end = n;
      let lineEnd = end;
      if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
      // A final line break ends the last line; it does not begin an empty one.
      const stop = !(last && start === n) && visit(start, lineEnd, lineNumber) === false;
      if (last) {
        this.finished = true;
      } else {
        start = end + 1;
        lineNumber++;
      }
      if (stop) break;
    }
    this.position = start;
    this.lineNumber = lineNumber;
    return this.finished;
  }
}
