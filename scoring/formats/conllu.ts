/**
 * Reader for CorefUD CoNLL-U (CorefUD 1.x, the Universal Anaphora CoNLL-U format).
 *
 * Layout (CoNLL-U, https://universaldependencies.org/format.html, plus the CorefUD 1.x
 * coreference conventions, https://ufal.mff.cuni.cz/corefud and the reference reader
 * `udapi/core/coref.py` `load_coref_from_misc`):
 * - a document starts at `# newdoc id = NAME`; a file with a single document may leave the
 *   line out (the document is then named after the file, with a warning);
 * - sentences are separated by blank lines; other `#` lines are comments;
 * - a token line has exactly 10 tab-separated columns. Its ID is a word (`7`), a
 *   multiword-token range (`15-16`) or an empty node (`26.1`). Only words are tokens here:
 *   they are numbered over the whole document and their FORM (column 2) is the token text;
 * - coreference is the `Entity=` attribute of MISC (column 10, `|`-separated `Key=Value`
 *   pairs): brackets written back to back, `(eid-etype-...` opens a mention of entity
 *   `eid`, `eid)` closes the most recent open mention of `eid`, `(eid-...)` is a one-word
 *   mention. The position of `eid` among the `-`-separated attributes is the position of
 *   `eid` (or `GRP`) in the latest `# global.Entity = ...` declaration (CorefUD writes one
 *   after each `# newdoc`), first when there is none;
 * - a discontinuous mention writes its parts as `(eid[1/2]-...` ... `eid[1/2])` ...
 *   `(eid[2/2]-...` ... `eid[2/2])`.
 *
 * Choices made here:
 * - entities are numbered by first sight of their eid, one-word items of a word before the
 *   opening items of that word (the convention of the CoNLL-2012 reader);
 * - a discontinuous mention becomes one span from the start of its first part to the end
 *   of its last part (a warning per document says how many were joined);
 * - brackets on empty nodes and multiword-token lines are ignored with a warning;
 * - `Bridge=` and `SplitAnte=` are not identity coreference and are ignored.
 */
import { FormatError, quote, spanKey, type Corpus, type Document, type Warning } from "../types.js";
import { EntityNumbering } from "./entities.js";
import { resolveLimits, type ReadLimits } from "./limits.js";
import { decodeInput, forEachLine, type Input } from "./text.js";
import { RepeatedSpanLog } from "./repeats.js";

const NEWDOC = /^#\s*newdoc\b(.*)$/;
// The values of `# newdoc id = NAME` and `# global.Entity = VALUE` are cut out whole and
// trimmed in code (`trimmedValue`): the former `\s*(.*?)\s*$` tried the trailing `\s*$` at
// every character, which is quadratic on a line of many spaces (a 40,000-space line took 2 s).
const NEWDOC_ID = /^\s+id\s*=(.*)$/s;
const GLOBAL_ENTITY = /^#\s*global\.Entity\s*=(.*)$/s;
/** A line terminator other than `\n` (those end lines): not allowed inside a NAME or VALUE. */
const INNER_BREAK = /[\r\u2028\u2029]/;
const WORD_ID = /^[1-9][0-9]*$/;
const RANGE_ID = /^[1-9][0-9]*-[1-9][0-9]*$/;
const EMPTY_ID = /^[0-9]+\.[1-9][0-9]*$/;
/** One bracket: `(content` or `(content)` (groups 1, 2), or `content)` (group 3). */
const BRACKET = /\(([^()]*)(\)?)|([^()]*)\)/y;
/** An entity id, optionally with the part marker of a discontinuous mention. */
const EID = /^([^\s()[\]-]+)(?:\[([1-9][0-9]*)\/([1-9][0-9]*)\])?$/;

/**
 * Reads a CorefUD CoNLL-U file into a `Corpus`.
 *
 * @param input the file's text or raw bytes
 * @param file the file name, used in error messages and warnings (and, without a
 *   `# newdoc id` line, as the document name: its base name without extension)
 * @param limits optional bounds on documents, tokens and mentions (each one not given is
 *   unbounded; `readCorpus` fills in `DEFAULT_LIMITS`)
 * @returns the documents in file order, `id` and `name` the newdoc id, `part` null,
 *   `tokens` the FORM of each word, with their entities (mentions are inclusive
 *   `[start, end]` document-level word indices), and warnings for oddities that can still
 *   be scored: an unnamed single document, a span annotated twice (`repeated-span-same-entity`,
 *   `repeated-span-other-entity`), joined discontinuous mentions, brackets on empty nodes.
 * @throws FormatError (and nothing else) for a binary or empty file, a token line without
 *   exactly 10 columns, an ID that is not a word, range or empty node, a malformed bracket,
 *   a close with no open mention, a mention (or discontinuous part) left open at the end of
 *   its document, a repeated newdoc id, a document without an id (no `# newdoc id` line)
 *   in a file of several documents, a `# newdoc` line that is neither `# newdoc` nor
 *   `# newdoc id = NAME`, a `# global.Entity` without `eid`, a file without words, or a limit
 *   exceeded.
 */
export function readCorefUD(input: Input, file: string, limits: ReadLimits = {}): Corpus {
  const text = decodeInput(input, file);
  const bounds = resolveLimits(limits);
  const { maxDocuments } = bounds;
  const builders: DocumentBuilder[] = [];
  const warnings: Warning[] = [];
  const seenIds = new Map<string, number>();
  // Widened by `as`: TypeScript does not see the assignments in the callbacks below and
  // would otherwise narrow `doc` to `null` after them.
  let doc = null as DocumentBuilder | null;
  let eidField = 0;
  let words = 0;
  let lastLine = 0;
  let lastLineText = "";

  const startDocument = (name: string | null, lineNumber: number, line: string): DocumentBuilder => {
    if (doc) doc.finish();
    if (builders.length >= maxDocuments) {
      throw new FormatError({
        file,
        line: lineNumber,
        column: 1,
        expected: `at most ${maxDocuments} documents in one file`,
        found: name === null ? "a word line that starts one more document" : "one more '# newdoc'",
        lineText: line,
      });
    }
    if (name !== null) {
      const firstAt = seenIds.get(name);
      if (firstAt !== undefined) {
        throw new FormatError({
          file,
          line: lineNumber,
          column: 1,
          expected: "a newdoc id not used earlier in the file",
          found: `${quote(name)} again (first at line ${firstAt})`,
          lineText: line,
        });
      }
      seenIds.set(name, lineNumber);
    }
    const started = new DocumentBuilder(file, name, lineNumber, line, bounds, warnings);
    builders.push(started);
    return started;
  };

  forEachLine(text, (line, lineNumber) => {
    lastLine = lineNumber;
    lastLineText = line;
    if (line.trim() === "") {
      doc?.sentenceBreak();
      return;
    }
    if (line.startsWith("#")) {
      const newdoc = NEWDOC.exec(line);
      if (newdoc) {
        const id = trimmedValue(NEWDOC_ID, newdoc[1]);
        if (id === null && newdoc[1].trim() !== "") {
          throw new FormatError({
            file,
            line: lineNumber,
            column: line.length - newdoc[1].trimStart().length + 1,
            expected: "'# newdoc' or '# newdoc id = NAME'",
            found: quote(newdoc[1].trim()),
            lineText: line,
          });
        }
        doc = startDocument(id !== null && id !== "" ? id : null, lineNumber, line);
        return;
      }
      const declared = trimmedValue(GLOBAL_ENTITY, line);
      if (declared !== null) eidField = entityIdField(declared, file, lineNumber, line);
      return;
    }
    doc ??= startDocument(null, lineNumber, line);
    if (doc.tokenLine(line, lineNumber, eidField)) words++;
  });
  doc?.finish();

  if (words === 0) {
    throw new FormatError({
      file,
      line: lastLine,
      column: 1,
      expected: "at least one word line (10 tab-separated columns with an integer ID)",
      found: "no word in the whole file",
      lineText: lastLineText,
    });
  }
  const unnamed = builders.find((b) => b.name === null);
  if (unnamed && builders.length > 1) {
    throw new FormatError({
      file,
      line: unnamed.line,
      column: 1,
      expected: `'# newdoc id = NAME' to name every document of a file with ${builders.length} documents`,
      found: unnamed.lineText.startsWith("#") ? "'# newdoc' without an id" : "a word line before any '# newdoc id'",
      lineText: unnamed.lineText,
    });
  }
  const documents = builders.map((b) => {
    if (b.name !== null) return b.document(b.name);
    const name = baseName(file);
    warnings.unshift({
      code: "unnamed-document",
      message: `the file's only document has no '# newdoc id = NAME' line; it is called "${name}" after the file`,
      file,
      line: b.line,
      document: name,
    });
    return b.document(name);
  });
  return { file, documents, warnings };
}

/**
 * The trimmed group 1 of `pattern` on `text`, or null when it does not match or the value
 * holds a line break other than `\n` (as `\s*(.*?)\s*$` without the `s` flag behaved).
 */
function trimmedValue(pattern: RegExp, text: string): string | null {
  const m = pattern.exec(text);
  if (!m) return null;
  const value = m[1].trim();
  return INNER_BREAK.test(value) ? null : value;
}

/** Position of `eid` (or `GRP`) among the `-`-separated fields of a `global.Entity` value. */
function entityIdField(value: string, file: string, lineNumber: number, line: string): number {
  const fields = value.split("-");
  const at = fields.findIndex((f) => f === "eid" || f === "GRP");
  if (at < 0) {
    throw new FormatError({
      file,
      line: lineNumber,
      column: line.trimEnd().length - value.length + 1,
      expected: "a global.Entity declaration with an 'eid' (or 'GRP') attribute, e.g. 'eid-etype-head-other'",
      found: quote(value),
      lineText: line,
    });
  }
  return at;
}

/** The file's base name without its last extension (`dir/a.b.conllu` -> `a.b`). */
function baseName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? "";
  const name = base.replace(/\.[^.]*$/, "");
  return name === "" ? "unnamed document 1" : name;
}

interface Place {
  line: number;
  column: number;
  lineText: string;
}

/** A discontinuous mention whose parts are still being read. */
interface Discontinuous extends Place {
  /** Order in which the document's discontinuous mentions began (their first part). */
  seq: number;
  start: number;
  parts: number;
  /** The part expected next (1-based). */
  next: number;
  /** Whether one of its parts is open right now. */
  partOpen: boolean;
}

interface OpenMention extends Place {
  start: number;
  part: { index: number; of: Discontinuous } | null;
}

interface Item {
  kind: "single" | "open" | "close";
  eid: string;
  part: { index: number; parts: number } | null;
  column: number;
}

/**
 * The discontinuous mentions of one entity that wait for the same next part (`[i/n]`, none
 * of their parts open), as a binary max-heap on `seq`: `pop` gives the one begun most
 * recently, in O(log n). (A backward scan of every pending mention made a file of many
 * discontinuous mentions quadratic: 20,000 of them took 1.8 s.)
 */
class WaitingParts {
  private readonly heap: Discontinuous[] = [];

  push(d: Discontinuous): void {
    const h = this.heap;
    let i = h.push(d) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent].seq >= d.seq) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = d;
  }

  pop(): Discontinuous | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= h.length) break;
      if (child + 1 < h.length && h[child + 1].seq > h[child].seq) child++;
      if (h[child].seq <= last.seq) break;
      h[i] = h[child];
      i = child;
    }
    h[i] = last;
    return top;
  }
}

/** Accumulates one document's words and mentions while its lines are read. */
class DocumentBuilder {
  private readonly tokens: string[] = [];
  private readonly sentenceStarts: number[] = [];
  private readonly entities = new EntityNumbering();
  private readonly open = new Map<string, OpenMention[]>();
  /** Entity id -> its unfinished discontinuous mentions, oldest first (insertion order). */
  private readonly pending = new Map<string, Set<Discontinuous>>();
  /** `eid i/n` -> the discontinuous mentions of `eid` whose next part is `[i/n]` and that have no part open. */
  private readonly waiting = new Map<string, WaitingParts>();
  private discontinuousSeq = 0;
  /** `spanKey(start, end)` -> the entities holding that span so far. */
  private readonly spans = new Map<number, Set<number>>();
  private readonly repeats = new RepeatedSpanLog();
  private mentionCount = 0;
  /**
   * Mentions begun and not finished: open (not discontinuous) mentions, and discontinuous
   * mentions from their first part to their last. They count against the mention limit with
   * `mentionCount` (each becomes a mention or an error), which bounds the memory a line like
   * `(e-x(e-x(e-x...` takes.
   */
  private inFlight = 0;
  private sentenceOpen = false;
  private readonly counts = { joined: 0, emptyNode: 0, multiword: 0 };

  constructor(
    private readonly file: string,
    /** The newdoc id, or null when the document has none. */
    readonly name: string | null,
    /** Line of the `# newdoc` line, or of the first word when there is none. */
    readonly line: number,
    readonly lineText: string,
    private readonly bounds: Required<ReadLimits>,
    private readonly warnings: Warning[],
  ) {}

  sentenceBreak(): void {
    this.sentenceOpen = false;
  }

  /** Reads one token line; returns whether it was a word. */
  tokenLine(line: string, lineNumber: number, eidField: number): boolean {
    const columns = line.split("\t");
    if (columns.length !== 10) {
      const column = columns.length > 10 ? columns.slice(0, 10).join("\t").length + 2 : line.length + 1;
      throw this.error(lineNumber, column, line, "10 tab-separated columns (CoNLL-U)", `${columns.length} column(s)`);
    }
    const id = columns[0];
    const misc = columns[9];
    const miscOffset = line.length - misc.length;
    if (!WORD_ID.test(id)) {
      const empty = EMPTY_ID.test(id);
      if (!empty && !RANGE_ID.test(id)) {
        throw this.error(
          lineNumber,
          1,
          line,
          "a word ID (1, 2, ...), a multiword-token range (3-4) or an empty-node ID (5.1)",
          quote(id),
        );
      }
      if (entityValues(misc, miscOffset).some((v) => v.value !== "")) {
        if (empty) this.counts.emptyNode++;
        else this.counts.multiword++;
      }
      return false;
    }
    const index = this.tokens.length;
    if (index >= this.bounds.maxTokensPerDocument) {
      throw this.error(
        lineNumber,
        1,
        line,
        `at most ${this.bounds.maxTokensPerDocument} tokens in one document`,
        `word ${index + 1} of document ${quote(this.name ?? "(unnamed)")}`,
      );
    }
    if (!this.sentenceOpen) {
      this.sentenceStarts.push(index);
      this.sentenceOpen = true;
    }
    this.tokens.push(columns[1]);
    const values = entityValues(misc, miscOffset);
    if (values.length > 1) {
      throw this.error(lineNumber, values[1].offset - 6, line, "one Entity= attribute in MISC", "a second Entity=");
    }
    if (values.length === 1 && values[0].value !== "") {
      this.parseEntity(values[0].value, values[0].offset, eidField, index, line, lineNumber);
    }
    return true;
  }

  /** Parses one `Entity=` value; `offset` is its 0-based column in `line`. */
  private parseEntity(value: string, offset: number, eidField: number, token: number, line: string, lineNumber: number): void {
    const items: Item[] = [];
    // Items that begin a mention on this line, and the first one over the mention limit: the
    // items after it are still checked for syntax (those errors come first) but not kept.
    let begun = 0;
    let overLimit: { column: number; total: number } | null = null;
    let pos = 0;
    while (pos < value.length) {
      BRACKET.lastIndex = pos;
      const m = BRACKET.exec(value);
      const column = offset + pos + 1;
      if (!m) {
        throw this.error(
          lineNumber,
          column,
          line,
          "a bracket '(eid-...', '(eid-...)' or 'eid)' in Entity=",
          quote(value.slice(pos)),
        );
      }
      const opening = m[3] === undefined;
      const raw = opening ? (m[1].split("-")[eidField] ?? "") : m[3];
      const eid = EID.exec(raw);
      if (!eid || (eid[2] !== undefined && Number(eid[2]) > Number(eid[3]))) {
        throw this.error(
          lineNumber,
          column,
          line,
          opening
            ? `an entity id as attribute ${eidField + 1} of '(${m[1]}' (letters, digits, optionally '[i/n]' with i <= n)`
            : "an entity id before ')' (letters, digits, optionally '[i/n]' with i <= n)",
          quote(m[0]),
        );
      }
      // A mention in one part ('[1/1]') is an ordinary mention.
      const part = eid[2] === undefined || eid[3] === "1" ? null : { index: Number(eid[2]), parts: Number(eid[3]) };
      pos = BRACKET.lastIndex;
      if (overLimit) continue;
      if (opening && (part === null || part.index === 1)) {
        const total = this.mentionCount + this.inFlight + ++begun;
        if (total > this.bounds.maxMentionsPerDocument) {
          overLimit = { column, total };
          continue;
        }
      }
      items.push({ kind: !opening ? "close" : m[2] === ")" ? "single" : "open", eid: eid[1], part, column });
    }
    // Entity numbering: one-word items first, then opening items.
    for (const it of items) if (it.kind === "single") this.entities.index(it.eid);
    for (const it of items) if (it.kind === "open") this.entities.index(it.eid);
    // Pairing in written order.
    for (const it of items) {
      const place = { line: lineNumber, column: it.column, lineText: line };
      if (it.kind === "single" && it.part === null) {
        this.checkMentionLimit(place);
        this.addMention(it.eid, token, token, place);
      } else if (it.kind === "close") {
        this.close(it, token, place);
      } else {
        this.openItem(it, token, place);
        if (it.kind === "single") this.close(it, token, place);
      }
    }
    // Pairing the items before it did not fail, so the limit is the first error of the line.
    if (overLimit) throw this.limitError({ line: lineNumber, column: overLimit.column, lineText: line }, overLimit.total);
  }

  /** Throws when one more mention would go over the mention limit (mentions in flight count too). */
  private checkMentionLimit(place: Place): void {
    const total = this.mentionCount + this.inFlight + 1;
    if (total > this.bounds.maxMentionsPerDocument) throw this.limitError(place, total);
  }

  private limitError(place: Place, total: number): FormatError {
    return this.error(
      place.line,
      place.column,
      place.lineText,
      `at most ${this.bounds.maxMentionsPerDocument} mentions in one document`,
      `mention ${total} of document ${quote(this.name ?? "(unnamed)")}`,
    );
  }

  private openItem(it: Item, token: number, place: Place): void {
    let part: OpenMention["part"] = null;
    if (it.part) {
      const { index, parts } = it.part;
      let of: Discontinuous | undefined;
      if (index === 1) {
        this.checkMentionLimit(place);
        this.inFlight++;
        of = { seq: this.discontinuousSeq++, start: token, parts, next: 1, partOpen: false, ...place };
        let list = this.pending.get(it.eid);
        if (!list) this.pending.set(it.eid, (list = new Set()));
        list.add(of);
      } else {
        // The most recently begun mention of this entity that waits for exactly this part.
        of = this.waiting.get(waitingKey(it.eid, index, parts))?.pop();
        if (!of) {
          throw this.error(
            place.line,
            place.column,
            place.lineText,
            `part ${index}/${parts} of entity ${it.eid} only after its part ${index - 1}/${parts} is closed`,
            `'(${it.eid}[${index}/${parts}]' with no such earlier part`,
          );
        }
      }
      of.partOpen = true;
      of.next = index + 1;
      part = { index, of };
    } else {
      this.checkMentionLimit(place);
      this.inFlight++;
    }
    let stack = this.open.get(it.eid);
    if (!stack) this.open.set(it.eid, (stack = []));
    stack.push({ start: token, part, ...place });
  }

  private close(it: Item, token: number, place: Place): void {
    const started = this.open.get(it.eid)?.pop();
    const written = it.part ? `${it.eid}[${it.part.index}/${it.part.parts}])` : `${it.eid})`;
    if (!started) {
      throw this.error(
        place.line,
        place.column,
        place.lineText,
        `a mention of entity ${it.eid} opened before it is closed`,
        `'${written}' with no open mention of entity ${it.eid}`,
      );
    }
    if (it.part && (started.part?.index !== it.part.index || started.part.of.parts !== it.part.parts)) {
      const opened = started.part ? `${it.eid}[${started.part.index}/${started.part.of.parts}]` : it.eid;
      throw this.error(
        place.line,
        place.column,
        place.lineText,
        `'${opened})' to close the mention '(${opened}' opened at line ${started.line}, column ${started.column}`,
        `'${written}'`,
      );
    }
    if (!started.part) {
      this.inFlight--;
      this.addMention(it.eid, started.start, token, place);
      return;
    }
    const whole = started.part.of;
    whole.partOpen = false;
    if (started.part.index < whole.parts) {
      const key = waitingKey(it.eid, whole.next, whole.parts);
      let waiting = this.waiting.get(key);
      if (!waiting) this.waiting.set(key, (waiting = new WaitingParts()));
      waiting.push(whole);
      return;
    }
    this.pending.get(it.eid)!.delete(whole);
    this.counts.joined++;
    this.inFlight--;
    this.addMention(it.eid, whole.start, token, place);
  }

  /**
   * Records a finished mention. Callers check the limit first: `checkMentionLimit` for a
   * one-word mention; for a closing one, its opening counted it in `inFlight`.
   */
  private addMention(eid: string, start: number, end: number, place: Place): void {
    this.mentionCount++;
    const e = this.entities.add(eid, start, end);
    const key = spanKey(start, end);
    const owners = this.spans.get(key);
    if (owners === undefined) {
      this.spans.set(key, new Set([e]));
    } else {
      this.repeats.record(owners.has(e) ? "same" : "other", start, end, place.line);
      owners.add(e);
    }
  }

  /** Checks that nothing is left open at the end of the document (called once per document). */
  finish(): void {
    const where = `the end of document ${quote(this.name ?? "(unnamed)")}`;
    let unclosed: (OpenMention & { eid: string }) | null = null;
    for (const [eid, stack] of this.open) {
      for (const o of stack) if (!unclosed || before(o, unclosed)) unclosed = { ...o, eid };
    }
    if (unclosed) {
      const opened = unclosed.part ? `${unclosed.eid}[${unclosed.part.index}/${unclosed.part.of.parts}]` : unclosed.eid;
      throw this.error(
        unclosed.line,
        unclosed.column,
        unclosed.lineText,
        `'${opened})' to close this mention of entity ${unclosed.eid} before ${where}`,
        `'(${opened}' that is never closed`,
      );
    }
    for (const [eid, list] of this.pending) {
      const d = list.values().next().value;
      if (d) {
        throw this.error(
          d.line,
          d.column,
          d.lineText,
          `part ${d.next}/${d.parts} of this discontinuous mention of entity ${eid} before ${where}`,
          `a discontinuous mention with only ${d.next - 1} of its ${d.parts} parts`,
        );
      }
    }
  }

  /** The finished document, called `name`, after pushing its warnings. */
  document(name: string): Document {
    const { joined, emptyNode, multiword } = this.counts;
    const warn = (code: string, count: number, message: string, line: number): void => {
      if (count === 0) return;
      this.warnings.push({ code, message: `document ${quote(name)}: ${message}`, file: this.file, line, document: name });
    };
    this.warnings.push(...this.repeats.warnings(this.file, name));
    warn(
      "discontinuous-mention-joined",
      joined,
      `${joined} discontinuous mention(s) scored as one span from the start of the first part to the end of the last part`,
      this.line,
    );
    warn(
      "empty-node-mention-ignored",
      emptyNode,
      `Entity= brackets on ${emptyNode} empty node(s) ignored; empty nodes are not tokens here`,
      this.line,
    );
    warn(
      "multiword-token-mention-ignored",
      multiword,
      `Entity= brackets on ${multiword} multiword-token line(s) ignored; brackets belong on the word lines`,
      this.line,
    );
    return {
      id: name,
      name,
      part: null,
      tokens: this.tokens,
      sentenceStarts: this.sentenceStarts,
      entities: this.entities.entities,
      line: this.line,
    };
  }

  private error(line: number, column: number, lineText: string, expected: string, found: string): FormatError {
    return new FormatError({ file: this.file, line, column, expected, found, lineText });
  }
}

/** The `Entity=` values of a MISC cell, each with its 0-based column in the line. */
function entityValues(misc: string, miscOffset: number): { value: string; offset: number }[] {
  const found: { value: string; offset: number }[] = [];
  let at = 0;
  for (const item of misc.split("|")) {
    if (item.startsWith("Entity=")) found.push({ value: item.slice(7), offset: miscOffset + at + 7 });
    at += item.length + 1;
  }
  return found;
}

/** The key of `DocumentBuilder.waiting` for part `[index/parts]` of entity `eid` (ids hold no spaces). */
function waitingKey(eid: string, index: number, parts: number): string {
  return `${eid} ${index}/${parts}`;
}

function before(a: Place, b: Place): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}
