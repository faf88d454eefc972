/**
 * Line reading of the CorefUD CoNLL-U reader (`../conllu.ts`): what kind of line a line is
 * (the comment lines `# newdoc`, `# sent_id` and `# global.Entity`, token lines), the columns
 * of a token line, the word ID and the `Entity=` values of MISC, each found without splitting
 * the line (the reader is on the hot path: no pass or allocation per line it does not need).
 */
import { FormatError } from "../../types.js";

export const NEWDOC = /^#\s*newdoc\b(.*)$/;
// The values of `# newdoc id = NAME` and `# global.Entity = VALUE` are cut out whole and
// trimmed in code (`trimmedValue`): the former `\s*(.*?)\s*$` tried the trailing `\s*$` at
// every character, which is quadratic on a line of many spaces (a 40,000-space line took 2 s).
export const NEWDOC_ID = /^\s+id\s*=(.*)$/s;
export const GLOBAL_ENTITY = /^#\s*global\.Entity\s*=(.*)$/s;
/** A line terminator other than `\n` (those end lines): not allowed inside a NAME or VALUE. */
const INNER_BREAK = /[\r\u2028\u2029]/;
export const RANGE_ID = /^[1-9][0-9]*-[1-9][0-9]*$/;
export const EMPTY_ID = /^[0-9]+\.[1-9][0-9]*$/;
/** A head value, or a word ID as a DEPS parent (0 is the root): what udapi's `int()` takes, less signs and spaces. */
export const NATURAL = /^[0-9]+$/;
const SPACE = /\s/;

/** A place in the file: a 1-based line and column, and the line's text (for the error's excerpt). */
export interface Place {
  line: number;
  column: number;
  lineText: string;
}

/** The `FormatError` of `file` at `line`, `column` (1-based) of the line `lineText`. */
export function errorAt(file: string, line: number, column: number, lineText: string, expected: string, found: string): FormatError {
  return new FormatError({ file, line, column, expected, found, lineText });
}

/**
 * The trimmed group 1 of `pattern` on `text`, or null when it does not match or the value
 * holds a line break other than `\n` (as `\s*(.*?)\s*$` without the `s` flag behaved).
 */
export function trimmedValue(pattern: RegExp, text: string): string | null {
  const m = pattern.exec(text);
  if (!m) return null;
  const value = m[1].trim();
  return INNER_BREAK.test(value) ? null : value;
}

/**
 * The word ID that is the first `end` characters of `line`, when they are one (`[1-9][0-9]*`,
 * read without slicing them out; a long one is inexact but far above any sentence's words),
 * else 0.
 */
export function wordIdValue(line: string, end: number): number {
  if (end === 0 || line.charCodeAt(0) === 48) return 0;
  let value = 0;
  for (let i = 0; i < end; i++) {
    const c = line.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return 0;
    value = value * 10 + c;
  }
  return value;
}

/** The character code of a comment line's first non-space character after its leading '#' (NaN when none). */
export function firstAfterSpaces(line: string): number {
  let i = 1;
  while (i < line.length && SPACE.test(line[i])) i++;
  return line.charCodeAt(i);
}

/**
 * The sent_id of a `# sent_id` comment line as udapi reads it (`^# sent_id\s*=?\s*(\S+)`,
 * written out in code because that pattern backtracks quadratically on a line of spaces), or
 * null when the line is not one.
 */
export function sentIdValue(line: string): string | null {
  if (!line.startsWith("# sent_id")) return null;
  const n = line.length;
  let i = 9;
  while (i < n && SPACE.test(line[i])) i++;
  let from = i;
  if (line[i] === "=") {
    from = i + 1;
    while (from < n && SPACE.test(line[from])) from++;
    // Nothing after `=`: the pattern backtracks and takes the `=` itself as the id.
    if (from === n) from = i;
  }
  let to = from;
  while (to < n && !SPACE.test(line[to])) to++;
  return to > from ? line.slice(from, to) : null;
}

/**
 * Finds the 9 tabs of a token line, without splitting the line (10 strings a line made reading
 * GUM 30 % slower).
 * @param tabs scratch space for the 0-based positions of the 9 tabs, filled in order
 * @returns whether the line has exactly 10 tab-separated columns (`tabs` then holds all 9)
 */
export function findTabs(line: string, tabs: Int32Array): boolean {
  let at = -1;
  for (let c = 0; c < 9; c++) {
    at = line.indexOf("\t", at + 1);
    if (at < 0) break;
    tabs[c] = at;
  }
  return !(at < 0 || line.indexOf("\t", at + 1) >= 0);
}

const NO_VALUES: { value: string; offset: number }[] = [];

/**
 * The `Entity=` values of the MISC cell of `line` (from 0-based column `miscOffset` to the end
 * of the line): the `|`-separated items that start with `Entity=`, each value with its
 * 0-based column in the line.
 */
export function entityValues(line: string, miscOffset: number): { value: string; offset: number }[] {
  let at = line.indexOf("Entity=", miscOffset);
  if (at < 0) return NO_VALUES;
  const found: { value: string; offset: number }[] = [];
  while (at >= 0) {
    if (at === miscOffset || line.charCodeAt(at - 1) === 124 /* | */) {
      let end = line.indexOf("|", at);
      if (end < 0) end = line.length;
      found.push({ value: line.slice(at + 7, end), offset: at + 7 });
      at = end;
    }
    at = line.indexOf("Entity=", at + 1);
  }
  return found;
}

/** The line that begins at `start` in `text`, without its line break (`\n` or `\r\n`), as `forEachLine` gives it. */
export function lineText(text: string, start: number): string {
  let end = text.indexOf("\n", start);
  if (end < 0) end = text.length;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return text.slice(start, end);
}
