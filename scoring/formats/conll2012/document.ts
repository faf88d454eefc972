/**
 * Document assembly of the CoNLL-2012 reader (`../conll2012.ts`): `DocumentBuilder` takes a
 * document's token lines one by one, finds the word and the coreference cell, reads the cell's
 * chain items (`(N`, `N)`, `(N)`, split antecedents `(N+M)`) and pairs them into mentions,
 * keeps the token and mention limits, and gives the finished `Document`.
 */
import { FormatError, quote, type Document, type Warning } from "../../types.js";
import { EntityNumbering } from "../entities.js";
import type { ReadLimits } from "../limits.js";
import { RepeatedSpanLog } from "../repeats.js";

/** A document's `#begin document` header, parsed. */
export interface Header {
  id: string;
  name: string;
  part: number | null;
  generated: boolean;
}

/** Kinds of chain item in a coreference cell. */
const SINGLE = 0; // `(N)`
const OPEN = 1; // `(N`
const CLOSE = 2; // `N)`

/** Index of the first character at or after `pos` in `text` that is not an ASCII digit. */
function skipDigits(text: string, pos: number): number {
  while (pos < text.length) {
    const c = text.charCodeAt(pos);
    if (c < 48 || c > 57) break;
    pos++;
  }
  return pos;
}

/**
 * A growable stack of 32-bit integers in one typed array. A line like `(1(1(1...` holds
 * millions of chain items; plain arrays or an object per item made such a line take seconds
 * (mostly garbage collection). Token indices, line numbers and columns all fit: a string,
 * and so a file or line, has fewer than 2^31 characters.
 */
class IntStack {
  data = new Int32Array(16);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

/**
 * Integers per entry of the open-mention pool: start token, line number, column, and the
 * index of the previous open mention of the same chain (or, on the free list, of the next
 * free entry), -1 for none.
 */
const OPEN_STRIDE = 4;
const OPEN_PREV = 3;

/** Accumulates one document's tokens and mentions while its lines are read. */
export class DocumentBuilder {
  readonly name: string;
  private readonly tokens: string[] = [];
  private readonly sentenceStarts: number[] = [];
  private readonly entities = new EntityNumbering();
  /**
   * Every open mention of the document, `OPEN_STRIDE` integers each, in one typed array: the
   * open mentions of a chain are linked from its most recent one (`openTop`) back to its
   * oldest. Entries of closed mentions go to a free list and are reused, so the pool holds at
   * most as many entries as mentions were open at once. (A typed array per chain took
   * 200 MB more memory on a file with 600,000 chain ids open at once.)
   */
  private readonly openPool = new IntStack();
  /** Chain id -> index in `openPool` of its most recent open mention, -1 when none is open. */
  private readonly openTop = new Map<string, number>();
  /** Index in `openPool` of the first free entry, -1 when none is free. */
  private freeEntry = -1;
  /** The chain items of the line being read, as kind / id start / id end / column (reused). */
  private readonly items = new IntStack();
  /** Mentions opened and not closed yet (they count against the mention limit). */
  private openCount = 0;
  /** The mention number of the first item over the mention limit in the last cell scanned (`scanItems`). */
  private overLimitTotal = 0;
  /**
   * The mentions ending at token `spansToken`: start -> entity index, or the set of them when
   * the span is in several entities. A mention is recorded while its last token is read, so
   * a repeated span always repeats on one token line and this small map finds every repeat.
   */
  private readonly spansHere = new Map<number, number | Set<number>>();
  private spansToken = -1;
  private mentionCount = 0;
  private sentenceOpen = false;
  private readonly repeats = new RepeatedSpanLog();
  private splitAntecedents = 0;

  constructor(
    private readonly file: string,
    private readonly header: Header,
    /** Line of the `#begin document` header. */
    readonly line: number,
    private readonly bounds: Required<ReadLimits>,
    private readonly warnings: Warning[],
    /** The text of a line of the file by number, for the excerpt of an unclosed mention. */
    private readonly lineAt: (lineNumber: number) => string,
    /** Keep each token's word (else an empty string per token). */
    private readonly words: boolean,
  ) {
    this.name = header.name;
  }

  /** A blank line: the next token begins a sentence. */
  sentenceBreak(): void {
    this.sentenceOpen = false;
  }

  /**
   * Reads the line `text.slice(start, end)` when it is a plain token line: it starts with a
   * printable ASCII character other than `#`, its columns are tab-separated, and its last column
   * is `-` or `_` (no mention). Such a line is read exactly as `token` reads it, without cutting
   * it out of the text (most lines of a file are like this).
   *
   * @returns true when the line was read; false, having read nothing, for any other line (and
   *   for a token over the limit, whose error `token` gives)
   */
  plainToken(text: string, start: number, end: number): boolean {
    if (end - start < 3) return false;
    const c = text.charCodeAt(start);
    if (c <= 32 || c >= 127 || c === 35 /* # */) return false;
    const cell = text.charCodeAt(end - 1);
    const lastTab = end - 2;
    if ((cell !== 45 /* - */ && cell !== 95) /* _ */ || text.charCodeAt(lastTab) !== 9) return false;
    const index = this.tokens.length;
    if (index >= this.bounds.maxTokensPerDocument) return false;
    if (!this.sentenceOpen) {
      this.sentenceStarts.push(index);
      this.sentenceOpen = true;
    }
    if (!this.words) {
      this.tokens.push("");
      return true;
    }
    // The word, as `token` finds it: column 4 when there are 5 columns or more, else the one
    // before the last. Tabs after `lastTab` are on later lines.
    let third = -1;
    let fourth = text.indexOf("\t", start);
    for (let k = 1; k < 4 && fourth >= 0; k++) {
      third = fourth;
      fourth = text.indexOf("\t", fourth + 1);
      if (fourth > lastTab) fourth = -1;
    }
    let word: string;
    if (fourth >= 0) {
      word = text.slice(third + 1, fourth);
    } else {
      const before = lastTab > start ? text.lastIndexOf("\t", lastTab - 1) : -1;
      word = text.slice(before >= start ? before + 1 : start, lastTab);
    }
    this.tokens.push(word.trim());
    return true;
  }

  /** Reads one token line; `first` is the 0-based index of its first non-space character. */
  token(line: string, lineNumber: number, first: number): void {
    const index = this.tokens.length;
    if (index >= this.bounds.maxTokensPerDocument) {
      throw new FormatError({
        file: this.file,
        line: lineNumber,
        column: first + 1,
        expected: `at most ${this.bounds.maxTokensPerDocument} tokens in one document`,
        found: `token ${index + 1} of document ${quote(this.name)}`,
        lineText: line,
      });
    }
    if (!this.sentenceOpen) {
      this.sentenceStarts.push(index);
      this.sentenceOpen = true;
    }
    // Columns: tab-separated when the line has a tab, else separated by runs of spaces. The
    // word is column 4 when there are 5 or more columns, else the one before the last; the
    // coreference cell is the last column. Only those two are cut out of the line.
    let word: string;
    let raw: string;
    let lastStart: number;
    const lastTab = line.lastIndexOf("\t");
    if (lastTab >= 0) {
      lastStart = lastTab + 1;
      raw = line.slice(lastStart);
      // The fourth tab, if any (then there are 5 columns or more), and the third before it.
      let third = -1;
      let fourth = line.indexOf("\t");
      for (let k = 1; k < 4 && fourth >= 0; k++) {
        third = fourth;
        fourth = line.indexOf("\t", fourth + 1);
      }
      if (fourth >= 0) {
        word = line.slice(third + 1, fourth);
      } else {
        const before = lastTab > 0 ? line.lastIndexOf("\t", lastTab - 1) : -1; // -1: 2 columns
        word = line.slice(before + 1, lastTab);
      }
    } else {
      const trimmedEnd = line.trimEnd(); // not /\s+$/, which is quadratic on long space runs
      const columns = trimmedEnd.trim().split(/ +/);
      const n = columns.length;
      word = n >= 5 ? columns[3] : n >= 2 ? columns[n - 2] : "";
      raw = columns[n - 1];
      lastStart = trimmedEnd.length - raw.length;
    }
    this.tokens.push(this.words ? word.trim() : "");
    const coref = raw.trim();
    if (coref === "" || coref === "-" || coref === "_") return;
    const lead = raw.length - raw.trimStart().length;
    this.parseCoref(coref, lastStart + lead, index, line, lineNumber);
  }

  /**
   * Parses one coreference cell; `offset` is its 0-based column in `line`. Items are
   * `(N+M)` (split antecedent, discarded), `(N)`, `(N`, `N)` and the separator `|`, read
   * left to right with the longest item first (`(12)` is one item, `(1(3` two, `3)1)` two).
   * A syntax error anywhere in the cell is reported (at the start of the bad item, quoting it
   * up to the next `|`) before any pairing error.
   */
  private parseCoref(cell: string, offset: number, token: number, line: string, lineNumber: number): void {
    const overLimitColumn = this.scanItems(cell, offset, line, lineNumber);
    const d = this.items.data;
    const n = this.items.length;
    // 2. Entity numbering as the reference scorer does it: one-token items first, then opens.
    for (let i = 0; i < n; i += 4) if (d[i] === SINGLE) this.entities.index(cell.slice(d[i + 1], d[i + 2]));
    for (let i = 0; i < n; i += 4) if (d[i] === OPEN) this.entities.index(cell.slice(d[i + 1], d[i + 2]));
    // 3. Pairing in written order.
    for (let i = 0; i < n; i += 4) {
      const id = cell.slice(d[i + 1], d[i + 2]);
      const column = d[i + 3];
      if (d[i] === SINGLE) {
        this.checkMentionLimit(lineNumber, line, column);
        this.addMention(id, token, token, lineNumber);
      } else if (d[i] === OPEN) {
        this.checkMentionLimit(lineNumber, line, column);
        this.openMention(id, token, lineNumber, column);
      } else {
        this.closeMention(id, token, line, lineNumber, column);
      }
    }
    if (overLimitColumn >= 0) {
      // Pairing the items before it did not fail, so the limit is the first error of the line.
      throw this.limitError(lineNumber, line, overLimitColumn, this.overLimitTotal);
    }
  }

  /**
   * Step 1 of `parseCoref`: scans the items of `cell` into `items` (4 integers each: kind, id
   * start, id end, column) or throws. Items that begin a mention are counted; from the first
   * one over the mention limit on, items are still checked for syntax (those errors come
   * first) but no longer kept.
   * @returns the 1-based column of the first item over the mention limit (its mention number
   *   in `overLimitTotal`), -1 when none is
   * @throws FormatError at the first item that is not a chain item
   */
  private scanItems(cell: string, offset: number, line: string, lineNumber: number): number {
    const items = this.items;
    items.length = 0;
    let begun = 0;
    let overLimitColumn = -1;
    let pos = 0;
    while (pos < cell.length) {
      const c = cell.charCodeAt(pos);
      if (c === 124 /* | */) {
        pos++;
        continue;
      }
      if (c === 40 /* ( */) {
        const idEnd = skipDigits(cell, pos + 1);
        if (idEnd > pos + 1) {
          const next = cell.charCodeAt(idEnd);
          if (next === 43 /* + */) {
            const secondEnd = skipDigits(cell, idEnd + 1);
            if (secondEnd > idEnd + 1 && cell.charCodeAt(secondEnd) === 41 /* ) */) {
              this.splitAntecedents++;
              pos = secondEnd + 1;
              continue;
            }
          }
          // `(N` must be followed by the end of the cell, `|` or the next `(`; anything else
          // (`(1a)`, `(1+2`) is a bad item, reported from its `(`.
          const kind = next === 41 /* ) */ ? SINGLE : idEnd === cell.length || next === 124 || next === 40 ? OPEN : -1;
          if (kind >= 0 && overLimitColumn < 0 && this.mentionCount + this.openCount + ++begun > this.bounds.maxMentionsPerDocument) {
            overLimitColumn = offset + pos + 1;
            this.overLimitTotal = this.mentionCount + this.openCount + begun;
          }
          if (kind >= 0 && overLimitColumn >= 0) {
            pos = kind === SINGLE ? idEnd + 1 : idEnd;
            continue;
          }
          if (kind >= 0) {
            items.push(kind);
            items.push(pos + 1);
            items.push(idEnd);
            items.push(offset + pos + 1);
            pos = kind === SINGLE ? idEnd + 1 : idEnd;
            continue;
          }
        }
      } else if (c >= 48 && c <= 57) {
        const idEnd = skipDigits(cell, pos);
        if (cell.charCodeAt(idEnd) === 41 /* ) */) {
          if (overLimitColumn >= 0) {
            pos = idEnd + 1;
            continue;
          }
          items.push(CLOSE);
          items.push(pos);
          items.push(idEnd);
          items.push(offset + pos + 1);
          pos = idEnd + 1;
          continue;
        }
      }
      const rest = cell.slice(pos, pos + 200);
      throw new FormatError({
        file: this.file,
        line: lineNumber,
        column: offset + pos + 1,
        expected: "a chain item '(N', 'N)' or '(N)' with a numeric chain id N, items joined by '|', or '-' for no mention",
        found: quote(rest.split("|")[0] || rest),
        lineText: line,
      });
    }
    return overLimitColumn;
  }

  /** Opens a mention of chain `id` at the token being read (`token`), from the item at `lineNumber`, `column`. */
  private openMention(id: string, token: number, lineNumber: number, column: number): void {
    const pool = this.openPool;
    let entry = this.freeEntry;
    if (entry >= 0) {
      this.freeEntry = pool.data[entry + OPEN_PREV];
    } else {
      entry = pool.length;
      for (let k = 0; k < OPEN_STRIDE; k++) pool.push(0);
    }
    const p = pool.data;
    p[entry] = token;
    p[entry + 1] = lineNumber;
    p[entry + 2] = column;
    p[entry + OPEN_PREV] = this.openTop.get(id) ?? -1;
    this.openTop.set(id, entry);
    this.openCount++;
  }

  /**
   * Closes the most recent open mention of chain `id` at the token being read (`token`).
   * @throws FormatError at `column` when no mention of `id` is open
   */
  private closeMention(id: string, token: number, line: string, lineNumber: number, column: number): void {
    const entry = this.openTop.get(id) ?? -1;
    if (entry < 0) {
      throw new FormatError({
        file: this.file,
        line: lineNumber,
        column,
        expected: `a mention of entity ${id} opened with '(${id}' before it is closed`,
        found: `'${id})' with no open mention of entity ${id}`,
        lineText: line,
      });
    }
    const p = this.openPool.data;
    const start = p[entry];
    this.openTop.set(id, p[entry + OPEN_PREV]);
    p[entry + OPEN_PREV] = this.freeEntry;
    this.freeEntry = entry;
    this.openCount--;
    this.addMention(id, start, token, lineNumber);
  }

  /**
   * Throws when one more mention would go over the mention limit. Mentions still open count
   * too: each becomes a mention or an error, and counting them bounds the memory a line like
   * `(1(1(1...` takes.
   */
  private checkMentionLimit(lineNumber: number, line: string, column: number): void {
    const total = this.mentionCount + this.openCount + 1;
    if (total > this.bounds.maxMentionsPerDocument) throw this.limitError(lineNumber, line, column, total);
  }

  private limitError(lineNumber: number, line: string, column: number, total: number): FormatError {
    return new FormatError({
      file: this.file,
      line: lineNumber,
      column,
      expected: `at most ${this.bounds.maxMentionsPerDocument} mentions in one document`,
      found: `mention ${total} of document ${quote(this.name)}`,
      lineText: line,
    });
  }

  /**
   * Records a mention of chain `id` ending at the token being read, noting a span seen
   * before in this or another entity.
   */
  private addMention(id: string, start: number, end: number, lineNumber: number): void {
    // The limit was checked when the mention opened (or, for `(N)`, just before this call).
    this.mentionCount++;
    const e = this.entities.add(id, start, end);
    if (end !== this.spansToken) {
      this.spansHere.clear();
      this.spansToken = end;
    }
    const seen = this.spansHere.get(start);
    if (seen === undefined) {
      this.spansHere.set(start, e);
    } else if (seen === e || (typeof seen !== "number" && seen.has(e))) {
      this.repeats.record("same", start, end, lineNumber);
    } else {
      this.repeats.record("other", start, end, lineNumber);
      if (typeof seen === "number") this.spansHere.set(start, new Set([seen, e]));
      else seen.add(e);
    }
  }

  /**
   * Ends the document at its `#end document` line (`endLine`), pushing its warnings.
   * @returns the finished document
   * @throws FormatError at the first mention still open (the earliest in the file)
   */
  finish(endLine: number): Document {
    // Report the first unclosed mention in the file, whatever its entity. A chain's oldest
    // open mention is the last of its links (an end closes the most recent open).
    let first: [id: string, line: number, column: number] | null = null;
    const p = this.openPool.data;
    for (const [id, top] of this.openTop) {
      if (top < 0) continue;
      let oldest = top;
      while (p[oldest + OPEN_PREV] >= 0) oldest = p[oldest + OPEN_PREV];
      const line = p[oldest + 1];
      const column = p[oldest + 2];
      if (first === null || line < first[1] || (line === first[1] && column < first[2])) first = [id, line, column];
    }
    if (first) {
      const [id, line, column] = first;
      throw new FormatError({
        file: this.file,
        line,
        column,
        expected: `'${id})' to close this mention of entity ${id} before '#end document' at line ${endLine}`,
        found: `'(${id}' that is never closed`,
        lineText: this.lineAt(line),
      });
    }
    const document = this.header.id;
    this.warnings.push(...this.repeats.warnings(this.file, document, "reference"));
    if (this.splitAntecedents > 0) {
      this.warnings.push({
        code: "split-antecedent-discarded",
        message: `document ${quote(document)}: ${this.splitAntecedents} split-antecedent item(s) '(N+M)' discarded, as the reference scorer does`,
        file: this.file,
        line: this.line,
        document,
      });
    }
    return {
      id: this.header.id,
      name: this.header.name,
      part: this.header.part,
      tokens: this.tokens,
      sentenceStarts: this.sentenceStarts,
      entities: this.entities.entities,
      line: this.line,
    };
  }
}
