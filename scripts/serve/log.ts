/**
 * serve's log (scripts/serve.ts): its own messages and its children's output, kept plain text
 * that `grep` reads as text (see the "log" paragraph of scripts/serve.ts).
 */
import { fstatSync, openSync, writeSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/**
 * serve's own messages, each prefixed `[serve] ` (errors `[serve] error: `) and cleaned by
 * {@link cleanLogText}: `info` to stdout, `error` to stderr, `debug` to stdout only when
 * LOG_LEVEL is `debug`.
 */
export const log = {
  debug: (message: string) => {
    if (process.env.LOG_LEVEL === "debug") console.log(cleanLogText(`[serve] ${message}`));
  },
  info: (message: string) => console.log(cleanLogText(`[serve] ${message}`)),
  error: (message: string) => console.error(cleanLogText(`[serve] error: ${message}`)),
};

/**
 * The longest line serve writes to its log, in characters. A longer one (a request's padding
 * echoed in an error, say) is cut there, with a note of how much was left out: the log stays
 * readable with `grep`, `less` and editors, and a child cannot make serve hold an endless line
 * in memory (see {@link LogLines}).
 */
export const LOG_LINE_MAX = 4096;

/** ANSI escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC ] … ESC \`) and two-character ones. */
const ANSI_ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

/** A run of one control character: C0 (tab excepted; line breaks never reach here), DEL, or C1. */
const CONTROL_RUN = /([\x00-\x08\x0a-\x1f\x7f-\x9f])\1*/g;

/**
 * One line as serve writes it to its log: plain text. ANSI escape sequences (colours, cursor
 * moves) are dropped; any other control character is written as `\xHH`, a run of the same one
 * as `\xHH×N` (a NUL-padded block becomes `\x00×65536`), since NUL and its kin make `grep`
 * take the whole log for a binary file; tabs stay. The result is cut at `max` characters, with
 * ` … [N more characters not logged]` when anything was left out.
 *
 * @param line one line, without its line break
 * @param max the longest line to keep ({@link LOG_LINE_MAX})
 * @param dropped characters already left out of this line before it got here (see {@link LogLines})
 */
export function cleanLogLine(line: string, max = LOG_LINE_MAX, dropped = 0): string {
  let text = line
    .replace(ANSI_ESCAPE, "")
    .replace(CONTROL_RUN, (run) => `\\x${run.charCodeAt(0).toString(16).padStart(2, "0")}${run.length > 1 ? `×${run.length}` : ""}`);
  if (text.length > max) {
    // Not between the two halves of a surrogate pair.
    const cut = max > 0 && /[\ud800-\udbff]/.test(text[max - 1]!) ? max - 1 : max;
    dropped += text.length - cut;
    text = text.slice(0, cut);
  }
  return dropped > 0 ? `${text} … [${dropped} more characters not logged]` : text;
}

/** Text of one or more lines (serve's own messages), each cleaned as {@link cleanLogLine} cleans it. */
export function cleanLogText(text: string, max = LOG_LINE_MAX): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => cleanLogLine(line, max))
    .join("\n");
}

/**
 * A child's output (stdout or stderr) turned into log lines: bytes are decoded as UTF-8 across
 * chunk boundaries (a byte sequence that is not UTF-8 becomes U+FFFD), split at `\n`, `\r\n`
 * or a lone `\r` (a progress line that rewrites itself gives one line per state), and each
 * line goes to `write` cleaned by {@link cleanLogLine}. At most `max` characters of a line
 * are held while its end has not come: the rest is only counted, for the note.
 */
export class LogLines {
  private readonly decoder = new StringDecoder("utf8");
  private line = "";
  private dropped = 0;
  /** The last chunk ended in `\r`: a `\n` starting the next one ends no further line. */
  private afterCr = false;

  /**
   * @param write gets each finished line, without a line break
   * @param max the longest line to keep ({@link LOG_LINE_MAX})
   */
  constructor(
    private readonly write: (line: string) => void,
    private readonly max = LOG_LINE_MAX,
  ) {}

  /** Takes the next chunk of output. */
  push(chunk: Buffer | string): void {
    let text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    if (text.length === 0) return;
    if (this.afterCr && text[0] === "\n") text = text.slice(1);
    this.afterCr = text.endsWith("\r");
    let start = 0;
    for (const brk of text.matchAll(/\r\n|\r|\n/g)) {
      this.take(text.slice(start, brk.index));
      this.finishLine();
      start = brk.index + brk[0].length;
    }
    this.take(text.slice(start));
  }

  /** The output has ended: writes an unfinished last line. */
  end(): void {
    this.take(this.decoder.end());
    if (this.line.length > 0 || this.dropped > 0) this.finishLine();
  }

  private take(piece: string): void {
    const room = Math.max(0, this.max - this.line.length);
    this.line += piece.length <= room ? piece : piece.slice(0, room);
    this.dropped += Math.max(0, piece.length - room);
  }

  private finishLine(): void {
    this.write(cleanLogLine(this.line, this.max, this.dropped));
    this.line = "";
    this.dropped = 0;
  }
}

/**
 * When descriptor `fd` (1 or 2 of this process) is a regular file, sends every later write of
 * `stream` (process.stdout or process.stderr: console.log and the children's lines alike)
 * through a new descriptor of that file opened for appending (`/proc/self/fd/<fd>`, Linux), so
 * each write lands at the file's end as it is then. Writing at the inherited descriptor's own
 * offset would, after the file was emptied, leave the gap before that offset as NUL bytes.
 * Writes are synchronous, as Node's writes to a file on stdout are.
 *
 * @returns whether it did (false for a terminal, a pipe, or where /proc is missing)
 */
export function appendToLogFile(stream: { write: NodeJS.WriteStream["write"] }, fd: number): boolean {
  let appendFd: number;
  try {
    if (!fstatSync(fd).isFile()) return false;
    appendFd = openSync(`/proc/self/fd/${fd}`, "a");
  } catch {
    return false;
  }
  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void): boolean => {
    const done = typeof encoding === "function" ? encoding : callback;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : chunk;
    let failure: Error | null = null;
    try {
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(appendFd, bytes, offset);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    if (done) process.nextTick(done, failure);
    return true;
  };
  stream.write = write as NodeJS.WriteStream["write"];
  return true;
}

/**
 * Copies a child's output stream to `out` as log lines ({@link LogLines}), pausing the child's
 * stream while `out` is full, so that a slow reader of the log slows the child down (as an
 * inherited descriptor did) instead of filling this process's memory.
 */
export function pipeLogLines(from: Readable, out: Writable): void {
  let waiting = false;
  const lines = new LogLines((line) => {
    if (!out.write(`${line}\n`) && !waiting) {
      waiting = true;
      from.pause();
      out.once("drain", () => {
        waiting = false;
        from.resume();
      });
    }
  });
  from.on("data", (chunk: Buffer) => lines.push(chunk));
  from.once("end", () => lines.end());
}

