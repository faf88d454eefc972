/**
 * Reader for CorefUD CoNLL-U (CorefUD 1.x, the Universal Anaphora CoNLL-U format).
 *
 * Layout (CoNLL-U, https://universaldependencies.org/format.html, plus the CorefUD 1.x
 * coreference conventions, https://ufal.mff.cuni.cz/corefud and the reference reader
 * udapi `udapi/core/coref.py` `load_coref_from_misc`, which the CorefUD scorer v1.2 uses):
 * - a document starts at `# newdoc id = NAME`. A bare `# newdoc` (no id) starts one too: it is
 *   called `unnamed document N` after its position N in the file, as udapi numbers it (one
 *   `unnamed-document` warning per file names those lines). A file with a single document may
 *   leave the line out (the document is then named after the file, with a warning);
 * - sentences are separated by blank lines; other `#` lines are comments, of which
 *   `# sent_id = ID` names the sentence it is in;
 * - a token line has exactly 10 tab-separated columns. Its ID is a word (`7`), a
 *   multiword-token range (`15-16`) or an empty node (`26.1`, `0.1` before the first word).
 *   Words and empty nodes are the sentence's nodes; IDs run in order (words 1, 2, ...; an
 *   empty node `N.M` after word N and after `N.1` ... `N.(M-1)` when present);
 * - coreference is the `Entity=` attribute of MISC (column 10, `|`-separated `Key=Value`
 *   pairs) of words and empty nodes: brackets written back to back, `(eid-etype-...` opens
 *   a mention of entity `eid`, `eid)` closes the most recent open mention of `eid`,
 *   `(eid-...)` is a one-node mention. The position of `eid` among the `-`-separated
 *   attributes is the position of `eid` (or `GRP`) in the latest `# global.Entity = ...`
 *   declaration (CorefUD writes one after each `# newdoc`), first when there is none; the
 *   `head` attribute is at the position of `head` there (none when it is not declared);
 * - a discontinuous mention writes its parts as `(eid[1/2]-...` ... `eid[1/2])` ...
 *   `(eid[2/2]-...` ... `eid[2/2])`.
 *
 * Two views of each document:
 * - `Document.corefud`, the view of the CorefUD scorer (udapi): a mention is the set of nodes
 *   (words and empty nodes) from its opening to its closing bracket, the union of its parts
 *   when discontinuous, with a head (see `headOf`); a mention whose head is an empty node is
 *   a zero, with the head's DEPS (column 9). Node numbers are `NodeCode`s (scoring/types.ts).
 * - `Document.entities` / `tokens` / `sentenceStarts`, a span view over words only: a mention
 *   is the span from its first word to its last word (empty nodes left out; a mention of
 *   empty nodes only is left out, and so is an entity left without mentions), a discontinuous
 *   mention one span from its first part to its last (warning `discontinuous-mention-joined`).
 *
 * Choices made here (udapi would crash, or the format is silent):
 * - entities are numbered by first sight of their eid, one-node items of a node before the
 *   opening items of that node (the convention of the CoNLL-2012 reader);
 * - mentions that cross a sentence boundary are read (udapi refuses them): they hold every
 *   node from the opening to the closing bracket;
 * - a head value that is not a non-negative integer, or that is beyond the mention's nodes,
 *   is a FormatError (udapi: the same, with `strict`); `0` means no head (the first node);
 * - an empty node's DEPS is checked when its sentence ends: `_` (no dependencies) is allowed
 *   here (the scorer decides where an empty DEPS is an error); a malformed item, a parent word
 *   beyond the sentence or an unknown parent empty node is a FormatError (udapi crashes there
 *   only when it reads that DEPS);
 * - node IDs must run in order (a FormatError otherwise; udapi sorts empty nodes by ID), so a
 *   mention never closes before it opens; an empty node `15.10` is part 10 (udapi reads the ID
 *   as the float 15.1, the same node as `15.1`);
 * - a discontinuous part `[i/n]` joins the mention of its entity begun most recently that
 *   waits for exactly that part, and a part that fits none is a FormatError (udapi takes the
 *   oldest unfinished one whatever its `i/n`, and crashes when that is not the most recent);
 * - multiword-token lines are not nodes; brackets on them are ignored with a warning;
 * - `Bridge=` and `SplitAnte=` are not identity coreference and are ignored;
 * - the node sets of all mentions of a document hold at most `MENTION_NODE_BUDGET_FLOOR` +
 *   `MENTION_NODES_PER_NODE` × (the document's nodes so far) nodes in all (a FormatError at
 *   the closing bracket past it): nested mentions can make this quadratic in the input.
 *
 * Quirks of udapi reproduced (each has a test in conllu-corefud.test.ts):
 * - the head attribute of a one-node mention is ignored: the head is that node;
 * - `# sent_id` takes the first run of non-space characters after `# sent_id`, an optional
 *   `=` and spaces (udapi's `^# sent_id\s*=?\s*(\S+)`);
 * - the last part of a discontinuous mention written as a one-node bracket `(e[2/2]-x-0)`
 *   with head `0` takes the mention's LAST node as head (udapi indexes its node list with
 *   `0 - 1`); without a head value udapi crashes there, and the head is the first node here.
 */
import {
  FormatError,
  MAX_EMPTY_NODE_PART,
  quote,
  spanKey,
  type CorefUDDocument,
  type CorefUDMention,
  type CorefUDSentence,
  type Corpus,
  type EntityFirstSeen,
  type Dep,
  type Document,
  type NodeCode,
  type Warning,
} from "../types.js";
import { readWhole, type DocumentStream } from "./document-stream.js";
import { EntityNumbering } from "./entities.js";
import { resolveLimits, type ReadLimits } from "./limits.js";
import { InputLines, type Input } from "./text.js";
import { RepeatedSpanLog } from "./repeats.js";
import { firstMentionNodes } from "../corefud/order.js";

const NEWDOC = /^#\s*newdoc\b(.*)$/;
// The values of `# newdoc id = NAME` and `# global.Entity = VALUE` are cut out whole and
// trimmed in code (`trimmedValue`): the former `\s*(.*?)\s*$` tried the trailing `\s*$` at
// every character, which is quadratic on a line of many spaces (a 40,000-space line took 2 s).
const NEWDOC_ID = /^\s+id\s*=(.*)$/s;
const GLOBAL_ENTITY = /^#\s*global\.Entity\s*=(.*)$/s;
/** A line terminator other than `\n` (those end lines): not allowed inside a NAME or VALUE. */
const INNER_BREAK = /[\r\u2028\u2029]/;
const RANGE_ID = /^[1-9][0-9]*-[1-9][0-9]*$/;
const EMPTY_ID = /^[0-9]+\.[1-9][0-9]*$/;
/** One bracket: `(content` or `(content)` (groups 1, 2), or `content)` (group 3). */
const BRACKET = /\(([^()]*)(\)?)|([^()]*)\)/y;
/** An entity id, optionally with the part marker of a discontinuous mention. */
const EID = /^([^\s()[\]-]+)(?:\[([1-9][0-9]*)\/([1-9][0-9]*)\])?$/;
/** A head value, or a word ID as a DEPS parent (0 is the root): what udapi's `int()` takes, less signs and spaces. */
const NATURAL = /^[0-9]+$/;
const SPACE = /\s/;

/** The factor of `NodeCode`: a node's code is `(slot + ord) * NODE_CODE_FACTOR + sub`. */
const NODE_CODE_FACTOR = 1024;
/**
 * The node sets of a document's mentions hold at most this many nodes plus
 * `MENTION_NODES_PER_NODE` per node read so far (GUM: at most 1.6 per node in a document; see the module header).
 */
export const MENTION_NODE_BUDGET_FLOOR = 1_000_000;
/** See `MENTION_NODE_BUDGET_FLOOR`. */
export const MENTION_NODES_PER_NODE = 64;

/**
 * Reads a CorefUD CoNLL-U file into a `Corpus`.
 *
 * @param input the file's text or raw bytes
 * @param file the file name, used in error messages and warnings (and, for a sole document
 *   without any `# newdoc` line, as the document name: its base name without extension)
 * @param limits optional bounds on documents, tokens (words and empty nodes count) and
 *   mentions (each one not given is unbounded; `readCorpus` fills in `DEFAULT_LIMITS`)
 * @returns the documents in file order, `id` and `name` the newdoc id, `part` null, with
 *   - `corefud`: the sentences (sent_id, word forms and lines, slot) and the entities as
 *     node-set mentions with heads, zeros and their DEPS (see the module header and
 *     `CorefUDDocument`);
 *   - the span view: `tokens` the FORM of each word, `sentenceStarts`, and `entities`
 *     (mentions are inclusive `[start, end]` document-level word indices, first to last word);
 *   - warnings for oddities that can still be scored: an unnamed single document, documents
 *     begun by a bare `# newdoc` (named by position), a span
 *     annotated twice in the span view (`repeated-span-same-entity`,
 *     `repeated-span-other-entity`), discontinuous mentions joined in the span view,
 *     brackets on multiword-token lines.
 * @throws FormatError (and nothing else) with file, line and column for: a binary or empty
 *   file; a token line without exactly 10 columns; an ID that is not a word, range or empty
 *   node, or out of order; an empty-node part above `MAX_EMPTY_NODE_PART`; a sentence
 *   without words; a malformed bracket or head value; a close with no open mention; a
 *   discontinuous part with no earlier part; a mention (or discontinuous part) left open at
 *   the end of its document; a head beyond its mention's nodes; a malformed DEPS item of an
 *   empty node, or a DEPS parent not in its sentence; a repeated newdoc id (also the position
 *   name of a bare `# newdoc`); a document without a `# newdoc` line in a file of several
 *   documents; a `# newdoc` line that is neither `# newdoc` nor `# newdoc id = NAME`; a
 *   `# global.Entity` without `eid`; a file without words; a limit exceeded (also the
 *   mention-node budget of the module header).
 */
export function readCorefUD(input: Input, file: string, limits: ReadLimits = {}): Corpus {
  return readWhole(new CorefUDDocumentStream(input, file, limits), file);
}

/**
 * `readCorefUD` one document at a time (see `DocumentStream`; `readCorefUD` is built on it): a
 * document is given when the `# newdoc` line of the next one, or the end of the file, is read.
 */
export class CorefUDDocumentStream implements DocumentStream {
  /**
   * The warnings so far: a document's as it is given, and `finish()` puts the
   * `unnamed-document` warning first, as `readCorefUD` does.
   */
  readonly warnings: Warning[] = [];
  private readonly lines: InputLines;
  private readonly bounds: Required<ReadLimits>;
  private readonly seenIds = new Map<string, number>();
  private started = 0;
  /** The document being read. */
  private doc: DocumentBuilder | null = null;
  /** A document read to its end and not given yet (at most one: a new one ends it). */
  private ready: DocumentBuilder | null = null;
  private fields: EntityFields = { eid: 0, grp: false, head: -1 };
  /** Documents given so far. */
  private given = 0;
  /** Where each file-wide eid first appeared (see `CorefUDDocument.carried`). */
  private readonly firstSeen = new Map<string, EntityFirstSeen>();
  /** A `# sent_id` read before the first token line of its sentence. */
  private sentId: string | null = null;
  private words = 0;
  private lastLine = 0;
  private lastLineText = "";
  /** The first document without a `# newdoc` line (only a file's sole document may lack one). */
  private unnamed: DocumentBuilder | null = null;
  /** The documents begun by `# newdoc` without an id (named by position): line and name. */
  private readonly bare: { line: number; name: string }[] = [];

  /**
   * @param input the file's text or raw bytes
   * @param file the file name, for messages and warnings (and the name of a document without id)
   * @param limits as `readCorefUD`'s
   * @throws FormatError when the input is not UTF-8 text (`decodeInput`)
   */
  constructor(
    input: Input,
    private readonly file: string,
    limits: ReadLimits = {},
  ) {
    this.bounds = resolveLimits(limits);
    this.lines = new InputLines(input, file);
  }

  /**
   * The next document of the file, or null when every document has been given.
   *
   * @returns the document, named as `readCorefUD` names it (after the file when it has no
   *   `# newdoc` line; by position after a bare `# newdoc`), with `corefud.carried` set for
   *   entities whose eid an earlier document of the file used
   * @throws FormatError as `readCorefUD` does, for the lines read so far
   */
  next(): Document | null {
    if (this.ready === null && !this.lines.done) {
      this.lines.run((line, lineNumber) => {
        this.line(line, lineNumber);
        return this.ready === null;
      });
    }
    // The end of the file ends the last document (also when the line that began it was the last one).
    if (this.ready === null && this.lines.done && this.doc !== null) {
      this.doc.finish();
      this.ready = this.doc;
      this.doc = null;
    }
    const b = this.ready;
    if (b === null) return null;
    this.ready = null;
    if (b.name === null) this.unnamed ??= b;
    const document = b.document(b.name ?? baseName(this.file));
    this.carry(document.corefud!);
    this.given++;
    return document;
  }

  /**
   * Records where the document's file-wide eids first appear, and marks its entities whose
   * eid an earlier document used (`CorefUDDocument.carried`).
   */
  private carry(doc: CorefUDDocument): void {
    if (!doc.fileWideEids) return;
    doc.eids.forEach((eid, e) => {
      const seen = this.firstSeen.get(eid);
      if (seen !== undefined) {
        (doc.carried ??= doc.eids.map(() => null))[e] = seen;
        return;
      }
      const mentions = doc.entities[e];
      if (mentions.length === 0) return;
      this.firstSeen.set(eid, { document: this.given, nodes: firstMentionNodes(mentions.map((m) => m.nodes)) });
    });
  }

  /**
   * Ends the reading, once `next()` has given null: checks what only the whole file shows.
   *
   * @throws FormatError for a file without words, or a document without a `# newdoc` line in
   *   a file of several documents; adds the `unnamed-document` warnings (first) for documents
   *   begun by a bare `# newdoc` and for a file's sole document without any `# newdoc` line
   */
  finish(): void {
    if (this.words === 0) {
      throw new FormatError({
        file: this.file,
        line: this.lastLine,
        column: 1,
        expected: "at least one word line (10 tab-separated columns with an integer ID)",
        found: "no word in the whole file",
        lineText: this.lastLineText,
      });
    }
    const { bare } = this;
    if (bare.length > 0) {
      const shown = bare.slice(0, 10).map((b) => `line ${b.line}: ${quote(b.name)}`).join(", ") + (bare.length > 10 ? `, and ${bare.length - 10} more` : "");
      this.warnings.unshift({
        code: "unnamed-document",
        message:
          `${bare.length} document(s) begin with '# newdoc' without an id (${shown}); each is called after its ` +
          `position in the file, as the CorefUD scorer (udapi) numbers such documents, so key and response must list their documents in the same order`,
        file: this.file,
        line: bare[0].line,
        ...(bare.length === 1 ? { document: bare[0].name } : {}),
      });
    }
    const unnamed = this.unnamed;
    if (unnamed === null) return;
    if (this.started > 1) {
      throw new FormatError({
        file: this.file,
        line: unnamed.line,
        column: 1,
        expected: `a '# newdoc' line to begin each document of a file with ${this.started} documents`,
        found: "a word line before any '# newdoc'",
        lineText: unnamed.lineText,
      });
    }
    const name = baseName(this.file);
    this.warnings.unshift({
      code: "unnamed-document",
      message: `the file's only document has no '# newdoc id = NAME' line; it is called "${name}" after the file`,
      file: this.file,
      line: unnamed.line,
      document: name,
    });
  }

  /**
   * Begins a document at `line`: a `# newdoc id = NAME` line (`begun` NAME), a `# newdoc` line
   * without an id (`begun` "bare": the document is called `unnamed document N` after its
   * position N in the file, as udapi numbers it), or a word line before any (`begun` null).
   */
  private startDocument(begun: { id: string } | "bare" | null, lineNumber: number, line: string): DocumentBuilder {
    const { file } = this;
    const bare = begun === "bare";
    let name = begun === null || bare ? null : begun.id;
    if (bare) {
      name = `unnamed document ${this.started + 1}`;
      this.bare.push({ line: lineNumber, name });
    }
    if (this.doc) {
      this.doc.finish();
      this.ready = this.doc;
    }
    const { maxDocuments } = this.bounds;
    if (this.started >= maxDocuments) {
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
      const firstAt = this.seenIds.get(name);
      if (firstAt !== undefined) {
        throw new FormatError({
          file,
          line: lineNumber,
          column: 1,
          expected: "a newdoc id not used earlier in the file",
          found: bare
            ? `'# newdoc' without an id, which makes this document ${quote(name)} (its position in the file), the id of the document at line ${firstAt}`
            : `${quote(name)} again (first at line ${firstAt})`,
          lineText: line,
        });
      }
      this.seenIds.set(name, lineNumber);
    }
    this.started++;
    const started = new DocumentBuilder(file, name, lineNumber, line, this.bounds, this.warnings);
    this.doc = started;
    return started;
  }

  /** Reads one line. */
  private line(line: string, lineNumber: number): void {
    this.lastLine = lineNumber;
    this.lastLineText = line;
    const first = line.charCodeAt(0);
    // A token line starts with a digit: no need to trim it.
    if (!(first >= 48 && first <= 57) && line.trim() === "") {
      this.doc?.sentenceBreak();
      // A block of comments only is no sentence: its sent_id is dropped (as udapi does).
      this.sentId = null;
      return;
    }
    if (first === 35 /* # */) {
      const id = sentIdValue(line);
      if (id !== null) {
        if (this.doc?.inSentence) this.doc.setSentId(id);
        else this.sentId = id;
        return;
      }
      // Most comments are neither (`# text = ...`, `# meta::...`): only lines whose first
      // word after '#' starts with 'n' or 'g' can be `# newdoc` or `# global.Entity`.
      const word = firstAfterSpaces(line);
      if (word !== 110 /* n */ && word !== 103 /* g */) return;
      const newdoc = NEWDOC.exec(line);
      if (newdoc) {
        const id = trimmedValue(NEWDOC_ID, newdoc[1]);
        if (id === null && newdoc[1].trim() !== "") {
          throw new FormatError({
            file: this.file,
            line: lineNumber,
            column: line.length - newdoc[1].trimStart().length + 1,
            expected: "'# newdoc' or '# newdoc id = NAME'",
            found: quote(newdoc[1].trim()),
            lineText: line,
          });
        }
        this.startDocument(id !== null && id !== "" ? { id } : "bare", lineNumber, line);
        return;
      }
      const declared = trimmedValue(GLOBAL_ENTITY, line);
      if (declared !== null) this.fields = entityFields(declared, this.file, lineNumber, line);
      return;
    }
    const doc = this.doc ?? this.startDocument(null, lineNumber, line);
    if (doc.tokenLine(line, lineNumber, this.fields, this.sentId)) this.words++;
    this.sentId = null;
  }
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

/**
 * The word ID that is the first `end` characters of `line`, when they are one (`[1-9][0-9]*`,
 * read without slicing them out; a long one is inexact but far above any sentence's words),
 * else 0.
 */
function wordIdValue(line: string, end: number): number {
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
function firstAfterSpaces(line: string): number {
  let i = 1;
  while (i < line.length && SPACE.test(line[i])) i++;
  return line.charCodeAt(i);
}

/**
 * The sent_id of a `# sent_id` comment line as udapi reads it (`^# sent_id\s*=?\s*(\S+)`,
 * written out in code because that pattern backtracks quadratically on a line of spaces), or
 * null when the line is not one.
 */
function sentIdValue(line: string): string | null {
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

/** Where the bracket attributes of a `global.Entity` declaration are. */
interface EntityFields {
  /** Position of `eid` (or `GRP`) among the `-`-separated attributes. */
  eid: number;
  /** True when that attribute is `GRP` (document-level ids, which udapi prefixes per document). */
  grp: boolean;
  /** Position of `head`, or -1 when the declaration has none. */
  head: number;
}

/** The positions of `eid` (or `GRP`) and `head` among the `-`-separated fields of a `global.Entity` value. */
function entityFields(value: string, file: string, lineNumber: number, line: string): EntityFields {
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
  // udapi assigns the attributes in turn, so a repeated `head` takes the last one.
  return { eid: at, grp: fields[at] === "GRP", head: fields.lastIndexOf("head") };
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
  parts: number;
  /** The part expected next (1-based). */
  next: number;
  /** Whether one of its parts is open right now. */
  partOpen: boolean;
  /** The nodes of its parts closed so far, ascending and distinct. */
  nodes: NodeCode[];
}

interface OpenMention extends Place {
  /** Index (in the document's node list) of the node of the opening bracket. */
  index: number;
  /** The bracket's head value, -1 when it has none. */
  head: number;
  part: { index: number; of: Discontinuous } | null;
}

interface Item {
  kind: "single" | "open" | "close";
  eid: string;
  part: { index: number; parts: number } | null;
  /** The head value of an opening or one-node bracket, -1 when it has none. */
  head: number;
  column: number;
}

/** An empty node of the document: where it is and its DEPS (parsed when its sentence ends). */
interface EmptyNode {
  id: string;
  code: NodeCode;
  line: number;
  /** 1-based column of the DEPS column. */
  column: number;
  lineText: string;
  /** DEPS as written until its sentence ends, then parsed (null for `_`). */
  raw: string;
  deps: Dep[] | null;
}

/** How the head of a finished mention is found (see `DocumentBuilder.headOf`). */
type HeadRule = "one-node" | "brackets" | "one-node-last-part";

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

/** Accumulates one document's nodes and mentions while its lines are read. */
class DocumentBuilder {
  private readonly tokens: string[] = [];
  private readonly sentenceStarts: number[] = [];
  private readonly entities = new EntityNumbering();
  /** The node-set entities, parallel to `entities.entities` (same indices). */
  private readonly corefudEntities: CorefUDMention[][] = [];
  /** The eid of each entity of `corefudEntities` (same indices). */
  private readonly eids: string[] = [];
  /** True once a bracket was read under a `GRP` declaration (ids per document, not per file). */
  private grp = false;
  private readonly sentences: CorefUDSentence[] = [];
  /** The `NodeCode` of every node (words and empty nodes) of the document, in order (ascending). */
  private readonly codes: NodeCode[] = [];
  /** The document's empty nodes by code. */
  private readonly emptyNodes = new Map<NodeCode, EmptyNode>();
  /** The zeros read so far: their `headDeps` are filled in when the document ends. */
  private readonly zeros: CorefUDMention[] = [];
  private readonly open = new Map<string, OpenMention[]>();
  /** Entity id -> its unfinished discontinuous mentions, oldest first (insertion order). */
  private readonly pending = new Map<string, Set<Discontinuous>>();
  /** `eid i/n` -> the discontinuous mentions of `eid` whose next part is `[i/n]` and that have no part open. */
  private readonly waiting = new Map<string, WaitingParts>();
  private discontinuousSeq = 0;
  /** `spanKey(start, end)` -> the entity (or entities) holding that span so far (span view); a Set only for a span of two or more. */
  private readonly spans = new Map<number, number | Set<number>>();
  private readonly repeats = new RepeatedSpanLog();
  private mentionCount = 0;
  /** Nodes held by the node sets of mentions and discontinuous parts so far (see the budget). */
  private mentionNodes = 0;
  /**
   * Mentions begun and not finished: open (not discontinuous) mentions, and discontinuous
   * mentions from their first part to their last. They count against the mention limit with
   * `mentionCount` (each becomes a mention or an error), which bounds the memory a line like
   * `(e-x(e-x(e-x...` takes.
   */
  private inFlight = 0;
  /** The sentence being read, or null between sentences. */
  private sentence: CorefUDSentence | null = null;
  /** The first token line of `sentence`, for messages. */
  private sentenceLineText = "";
  /** The part M of the last empty node `N.M` after the sentence's last word (0 if none). */
  private lastPart = 0;
  /** The empty nodes of `sentence` (their DEPS are checked when it ends). */
  private sentenceEmptyNodes: EmptyNode[] = [];
  /** `slot` of the next sentence (`NodeCode`). */
  private nextSlot = 0;
  private readonly counts = { joined: 0, multiword: 0 };
  /** Scratch space of `tokenLine`: the positions of a line's 9 tabs. */
  private readonly tabs = new Int32Array(9);

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

  /** Whether a sentence is being read (a token line came since the last blank line). */
  get inSentence(): boolean {
    return this.sentence !== null;
  }

  /** Sets the sent_id of the sentence being read (a `# sent_id` line inside it). */
  setSentId(id: string): void {
    if (this.sentence) this.sentence.sentId = id;
  }

  sentenceBreak(): void {
    this.endSentence();
  }

  /**
   * Reads one token line; returns whether it was a word.
   * @param sentId the `# sent_id` read before this line, for a line that begins a sentence
   */
  tokenLine(line: string, lineNumber: number, fields: EntityFields, sentId: string | null): boolean {
    // The 9 tabs, found without splitting the line (10 strings a line made reading GUM 30 % slower).
    const tabs = this.tabs;
    let at = -1;
    for (let c = 0; c < 9; c++) {
      at = line.indexOf("\t", at + 1);
      if (at < 0) break;
      tabs[c] = at;
    }
    if (at < 0 || line.indexOf("\t", at + 1) >= 0) {
      const columns = line.split("\t");
      const column = columns.length > 10 ? columns.slice(0, 10).join("\t").length + 2 : line.length + 1;
      throw this.error(lineNumber, column, line, "10 tab-separated columns (CoNLL-U)", `${columns.length} column(s)`);
    }
    const id = line.slice(0, tabs[0]);
    const miscOffset = tabs[8] + 1;
    const wordId = wordIdValue(line, tabs[0]);
    const isWord = wordId > 0;
    const isEmpty = !isWord && EMPTY_ID.test(id);
    if (!isWord && !isEmpty && !RANGE_ID.test(id)) {
      throw this.error(
        lineNumber,
        1,
        line,
        "a word ID (1, 2, ...), a multiword-token range (3-4) or an empty-node ID (5.1)",
        quote(id),
      );
    }
    let sentence = this.sentence;
    if (sentence === null) {
      sentence = { sentId, forms: [], wordLines: [], line: lineNumber, slot: this.nextSlot };
      this.sentence = sentence;
      this.sentences.push(sentence);
      this.sentenceLineText = line;
      this.lastPart = 0;
    }
    if (!isWord && !isEmpty) {
      // A multiword-token range: not a node.
      if (entityValues(line, miscOffset).some((v) => v.value !== "")) this.counts.multiword++;
      return false;
    }
    const words = sentence.forms.length;
    let ord: number;
    let sub: number;
    if (isWord) {
      ord = wordId;
      sub = 0;
    } else {
      const dot = id.indexOf(".");
      ord = Number(id.slice(0, dot));
      sub = Number(id.slice(dot + 1));
      if (sub > MAX_EMPTY_NODE_PART) {
        throw this.error(
          lineNumber,
          dot + 2,
          line,
          `an empty-node part of at most ${MAX_EMPTY_NODE_PART} (N.1 to N.${MAX_EMPTY_NODE_PART})`,
          quote(id),
        );
      }
    }
    if (isWord ? ord !== words + 1 : ord !== words || sub <= this.lastPart) {
      throw this.error(
        lineNumber,
        1,
        line,
        `the next ID of the sentence: word ${words + 1} or an empty node ${words}.${this.lastPart + 1} or later`,
        quote(id),
      );
    }
    const index = this.codes.length;
    if (index >= this.bounds.maxTokensPerDocument) {
      throw this.error(
        lineNumber,
        1,
        line,
        `at most ${this.bounds.maxTokensPerDocument} tokens (words and empty nodes) in one document`,
        `${isWord ? "word" : "empty node"} ${quote(id)}, node ${index + 1} of document ${quote(this.name ?? "(unnamed)")}`,
      );
    }
    const code = (sentence.slot + ord) * NODE_CODE_FACTOR + sub;
    this.codes.push(code);
    if (isWord) {
      if (words === 0) this.sentenceStarts.push(this.tokens.length);
      const form = line.slice(tabs[0] + 1, tabs[1]);
      this.tokens.push(form);
      sentence.forms.push(form);
      sentence.wordLines.push(lineNumber);
      this.lastPart = 0;
    } else {
      this.lastPart = sub;
      const raw = line.slice(tabs[7] + 1, tabs[8]);
      const empty: EmptyNode = { id, code, line: lineNumber, column: tabs[7] + 2, lineText: line, raw, deps: null };
      this.sentenceEmptyNodes.push(empty);
      this.emptyNodes.set(code, empty);
    }
    const values = entityValues(line, miscOffset);
    if (values.length > 1) {
      throw this.error(lineNumber, values[1].offset - 6, line, "one Entity= attribute in MISC", "a second Entity=");
    }
    if (values.length === 1 && values[0].value !== "") {
      this.parseEntity(values[0].value, values[0].offset, fields, index, line, lineNumber);
    }
    return isWord;
  }

  /**
   * Ends the sentence being read, if any: checks that it has a word and the DEPS of its
   * empty nodes (their parents may come later in the sentence).
   */
  private endSentence(): void {
    const sentence = this.sentence;
    if (sentence === null) return;
    const words = sentence.forms.length;
    if (words === 0) {
      throw this.error(
        sentence.line,
        1,
        this.sentenceLineText,
        "at least one word line in every sentence",
        "a sentence of empty nodes or multiword-token lines only",
      );
    }
    if (this.sentenceEmptyNodes.length > 0) {
      const emptyCodes = new Map(this.sentenceEmptyNodes.map((e) => [e.id, e.code]));
      for (const empty of this.sentenceEmptyNodes) empty.deps = this.parseDeps(empty, sentence, emptyCodes);
      this.sentenceEmptyNodes = [];
    }
    this.nextSlot = sentence.slot + words + 1;
    this.sentence = null;
  }

  /**
   * Parses the DEPS of an empty node as udapi does (`|`-separated `PARENT:DEPREL`, split at
   * the first `:`; PARENT a word ID, 0 for the root, or an empty node of the same sentence).
   * @returns the dependencies, null for `_`
   * @throws FormatError at the offending item
   */
  private parseDeps(empty: EmptyNode, sentence: CorefUDSentence, emptyCodes: Map<string, NodeCode>): Dep[] | null {
    const raw = empty.raw;
    if (raw === "_") return null;
    const deps: Dep[] = [];
    const words = sentence.forms.length;
    let at = 0;
    for (const item of raw.split("|")) {
      const column = empty.column + at;
      at += item.length + 1;
      const colon = item.indexOf(":");
      const parent = colon < 0 ? item : item.slice(0, colon);
      let code: NodeCode | undefined;
      if (colon >= 0 && NATURAL.test(parent)) {
        const ord = Number(parent);
        if (ord <= words) code = (sentence.slot + ord) * NODE_CODE_FACTOR;
      } else if (colon >= 0) {
        code = emptyCodes.get(parent);
      }
      if (code === undefined) {
        throw this.error(
          empty.line,
          column,
          empty.lineText,
          `a DEPS item PARENT:DEPREL of empty node ${empty.id}, PARENT a word of its sentence (0 to ${words}, 0 the root) or one of its empty nodes`,
          colon < 0 ? `${quote(item)} without ':'` : quote(item),
        );
      }
      deps.push({ parent: code, deprel: item.slice(colon + 1) });
    }
    return deps;
  }

  /** The index in `entities` (and `corefudEntities`) of entity `eid`, numbered at first sight. */
  private entityIndex(eid: string): number {
    const e = this.entities.index(eid);
    if (e === this.corefudEntities.length) {
      this.corefudEntities.push([]);
      this.eids.push(eid);
    }
    return e;
  }

  /** Parses one `Entity=` value of node `node` (index in `codes`); `offset` is its 0-based column in `line`. */
  private parseEntity(value: string, offset: number, fields: EntityFields, node: number, line: string, lineNumber: number): void {
    if (fields.grp) this.grp = true;
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
      const raw = opening ? (attribute(m[1], fields.eid) ?? "") : m[3];
      const eid = EID.exec(raw);
      if (!eid || (eid[2] !== undefined && Number(eid[2]) > Number(eid[3]))) {
        throw this.error(
          lineNumber,
          column,
          line,
          opening
            ? `an entity id as attribute ${fields.eid + 1} of '(${m[1]}' (letters, digits, optionally '[i/n]' with i <= n)`
            : "an entity id before ')' (letters, digits, optionally '[i/n]' with i <= n)",
          quote(m[0]),
        );
      }
      let head = -1;
      const written = opening && fields.head >= 0 ? attribute(m[1], fields.head) : undefined;
      if (written !== undefined) {
        if (!NATURAL.test(written)) {
          throw this.error(
            lineNumber,
            column,
            line,
            `a head (attribute ${fields.head + 1} of '(${m[1]}') that is a whole number: 1 for the mention's first node, 0 for none`,
            quote(written),
          );
        }
        head = Number(written);
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
      items.push({ kind: !opening ? "close" : m[2] === ")" ? "single" : "open", eid: eid[1], part, head, column });
    }
    // Entity numbering: one-node items first, then opening items.
    for (const it of items) if (it.kind === "single") this.entityIndex(it.eid);
    for (const it of items) if (it.kind === "open") this.entityIndex(it.eid);
    // Pairing in written order.
    for (const it of items) {
      const place = { line: lineNumber, column: it.column, lineText: line };
      if (it.kind === "single" && it.part === null) {
        this.checkMentionLimit(place);
        this.takeNodes(1, place);
        this.finishMention(it.eid, [this.codes[node]], -1, "one-node", place, place);
      } else if (it.kind === "close") {
        this.close(it, node, place);
      } else {
        this.openItem(it, node, place);
        if (it.kind === "single") this.close(it, node, place);
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

  /** Counts `n` more nodes in mention node sets; throws past the budget of the module header. */
  private takeNodes(n: number, place: Place): void {
    this.mentionNodes += n;
    const budget = MENTION_NODE_BUDGET_FLOOR + MENTION_NODES_PER_NODE * this.codes.length;
    if (this.mentionNodes > budget) {
      throw this.error(
        place.line,
        place.column,
        place.lineText,
        `at most ${budget} nodes in all mentions of the document so far (${MENTION_NODE_BUDGET_FLOOR} + ${MENTION_NODES_PER_NODE} per node read)`,
        `${this.mentionNodes} with the mention closed here`,
      );
    }
  }

  private openItem(it: Item, node: number, place: Place): void {
    let part: OpenMention["part"] = null;
    if (it.part) {
      const { index, parts } = it.part;
      let of: Discontinuous | undefined;
      if (index === 1) {
        this.checkMentionLimit(place);
        this.inFlight++;
        of = { seq: this.discontinuousSeq++, parts, next: 1, partOpen: false, nodes: [], line: place.line, column: place.column, lineText: place.lineText };
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
    stack.push({ index: node, head: it.head, part, line: place.line, column: place.column, lineText: place.lineText });
  }

  private close(it: Item, node: number, place: Place): void {
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
    // Node IDs run in order, so the mention holds the nodes from its opening to here.
    if (!started.part) {
      this.takeNodes(node - started.index + 1, place);
      this.inFlight--;
      this.finishMention(it.eid, this.codes.slice(started.index, node + 1), started.head, "brackets", started, started);
      return;
    }
    const whole = started.part.of;
    // A part begins at or after the node where the previous part ended: skip that node if shared.
    let from = started.index;
    if (whole.nodes.length > 0 && whole.nodes[whole.nodes.length - 1] === this.codes[from]) from++;
    this.takeNodes(node + 1 - from, place);
    for (let i = from; i <= node; i++) whole.nodes.push(this.codes[i]);
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
    // The head value of the last part's opening bracket counts over all parts.
    this.finishMention(it.eid, whole.nodes, started.head, it.kind === "single" ? "one-node-last-part" : "brackets", whole, started);
  }

  /**
   * The head of a finished mention, as udapi sets it.
   * @param nodes the mention's nodes, ascending
   * @param value the head value of the bracket that sets it, -1 when it has none
   * @param rule `one-node` for a one-node mention, `one-node-last-part` for a discontinuous
   *   mention whose last part is a one-node bracket, else `brackets`
   * @param at the bracket with the head value, for the error
   * @throws FormatError when `value` is beyond the mention's nodes
   */
  private headOf(nodes: NodeCode[], value: number, rule: HeadRule, at: Place): NodeCode {
    // quirk: udapi ignores the head field of a one-word mention
    if (rule === "one-node" || value < 0) return nodes[0];
    // quirk: udapi sets the head of a one-node last part as `nodes[value - 1]` even for 0,
    // which Python reads as the last node; elsewhere 0 is "no head". (Without a head value
    // udapi crashes on `None - 1` there: our documented result is the first node, above.)
    if (value === 0) return rule === "one-node-last-part" ? nodes[nodes.length - 1] : nodes[0];
    if (value > nodes.length) {
      throw this.error(
        at.line,
        at.column,
        at.lineText,
        `a head inside its mention (1..${nodes.length})`,
        `head ${value} of a mention of ${nodes.length} node(s)`,
      );
    }
    return nodes[value - 1];
  }

  /** Index of the sentence holding node `code` (binary search over the sentences' slots). */
  private sentenceOf(code: NodeCode): number {
    const position = Math.floor(code / NODE_CODE_FACTOR);
    const sentences = this.sentences;
    let lo = 0;
    let hi = sentences.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (sentences[mid].slot <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Document-level token index of the word with code `code`. */
  private tokenOf(code: NodeCode): number {
    // slot(s) = (words before sentence s) + s, and the word's position is slot + ord.
    return Math.floor(code / NODE_CODE_FACTOR) - this.sentenceOf(code) - 1;
  }

  /**
   * Records a finished mention in both views. Callers check the mention limit first
   * (`checkMentionLimit` for a one-node mention; for a closing one, its opening counted it
   * in `inFlight`) and count its nodes (`takeNodes`).
   * @param start the mention's (first) opening bracket
   */
  private finishMention(eid: string, nodes: NodeCode[], headValue: number, rule: HeadRule, start: Place, headAt: Place): void {
    const head = this.headOf(nodes, headValue, rule, headAt);
    const zero = head % NODE_CODE_FACTOR !== 0;
    const empty = zero ? this.emptyNodes.get(head) : undefined;
    const mention: CorefUDMention = {
      nodes,
      head,
      zero,
      sentence: this.sentenceOf(head),
      headDeps: null,
      headDepsAt: empty ? { line: empty.line, column: empty.column, lineText: empty.lineText } : null,
      line: start.line,
      column: start.column,
    };
    if (zero) this.zeros.push(mention);
    this.mentionCount++;
    const e = this.entityIndex(eid);
    this.corefudEntities[e].push(mention);
    // The span view: first to last word.
    let first = 0;
    while (first < nodes.length && nodes[first] % NODE_CODE_FACTOR !== 0) first++;
    if (first === nodes.length) return;
    let last = nodes.length - 1;
    while (nodes[last] % NODE_CODE_FACTOR !== 0) last--;
    const from = this.tokenOf(nodes[first]);
    const to = first === last ? from : this.tokenOf(nodes[last]);
    this.entities.add(eid, from, to);
    const key = spanKey(from, to);
    const owners = this.spans.get(key);
    if (owners === undefined) {
      this.spans.set(key, e);
    } else if (typeof owners === "number") {
      this.repeats.record(owners === e ? "same" : "other", from, to, start.line);
      if (owners !== e) this.spans.set(key, new Set([owners, e]));
    } else {
      this.repeats.record(owners.has(e) ? "same" : "other", from, to, start.line);
      owners.add(e);
    }
  }

  /** Ends the last sentence and checks that nothing is left open at the end of the document (called once per document). */
  finish(): void {
    this.endSentence();
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
    // Every sentence has ended, so every empty node's DEPS is parsed.
    for (const mention of this.zeros) mention.headDeps = this.emptyNodes.get(mention.head)!.deps;
  }

  /** The finished document, called `name`, after pushing its warnings. */
  document(name: string): Document {
    const { joined, multiword } = this.counts;
    const warn = (code: string, count: number, message: string, line: number): void => {
      if (count === 0) return;
      this.warnings.push({ code, message: `document ${quote(name)}: ${message}`, file: this.file, line, document: name });
    };
    this.warnings.push(...this.repeats.warnings(this.file, name, "corefud"));
    warn(
      "discontinuous-mention-joined",
      joined,
      `${joined} discontinuous mention(s) shown in the span view as one span from the first word of the first part to the last word of the last part (CorefUD scoring keeps the parts)`,
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
      // An entity whose mentions are all made of empty nodes has no span.
      entities: this.entities.entities.filter((entity) => entity.length > 0),
      line: this.line,
      corefud: { sentences: this.sentences, entities: this.corefudEntities, eids: this.eids, fileWideEids: !this.grp },
    };
  }

  private error(line: number, column: number, lineText: string, expected: string, found: string): FormatError {
    return new FormatError({ file: this.file, line, column, expected, found, lineText });
  }
}

/** Attribute `k` (0-based) of the `-`-separated attributes of a bracket, or undefined when it has fewer (`split("-")[k]` without the array). */
function attribute(content: string, k: number): string | undefined {
  let from = 0;
  for (let i = 0; i < k; i++) {
    const dash = content.indexOf("-", from);
    if (dash < 0) return undefined;
    from = dash + 1;
  }
  const end = content.indexOf("-", from);
  return end < 0 ? content.slice(from) : content.slice(from, end);
}

const NO_VALUES: { value: string; offset: number }[] = [];

/**
 * The `Entity=` values of the MISC cell of `line` (from 0-based column `miscOffset` to the end
 * of the line): the `|`-separated items that start with `Entity=`, each value with its
 * 0-based column in the line.
 */
function entityValues(line: string, miscOffset: number): { value: string; offset: number }[] {
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

/** The key of `DocumentBuilder.waiting` for part `[index/parts]` of entity `eid` (ids hold no spaces). */
function waitingKey(eid: string, index: number, parts: number): string {
  return `${eid} ${index}/${parts}`;
}

function before(a: Place, b: Place): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}

/** Text every line that can start a CorefUD document holds (`# newdoc ...`), for searching. */
export const COREFUD_DOCUMENT_MARKER = "newdoc";

/**
 * Whether `readCorefUD` starts a named document at the line that begins at `lineStart`, and
 * where a reader of part of the file (`scoring/parallel.ts`) may then begin.
 *
 * Reading `text.slice(offset)` after `line - 2` blank lines and the `declaration` line (or
 * `line - 1` blank lines when it is null), where `line` is the 1-based line at `offset`, gives
 * that part's documents, lines and warnings as reading the whole file does: between documents
 * the reader keeps only the declaration in force, a pending `# sent_id` (reset by the blank
 * line before the block), the ids seen (repeats) and the document count (the limit), and
 * `parallel.ts` checks the last two itself.
 *
 * @param text the decoded file (`decodeInput`)
 * @param lineStart the offset of a line's first character in `text`
 * @returns null unless the line is `# newdoc id = NAME` (as the reader takes it, NAME not
 *   empty) in a comment block after a blank line, with no token line before it in the block;
 *   else `offset`, the block's first character, `id` the NAME, and `declaration` the whole
 *   text of the latest `# global.Entity` line before the block, or null when there is none.
 *   Never throws (a malformed file is left to the reader).
 */
export function corefudDocumentStart(text: string, lineStart: number): { offset: number; id: string; declaration: string | null } | null {
  const line = lineText(text, lineStart);
  if (line.charCodeAt(0) !== 35 /* # */ || sentIdValue(line) !== null || firstAfterSpaces(line) !== 110 /* n */) return null;
  const newdoc = NEWDOC.exec(line);
  const id = newdoc ? trimmedValue(NEWDOC_ID, newdoc[1]) : null;
  if (id === null || id === "") return null;
  // Back to the blank line before the block: only comment lines may come between.
  let start = lineStart;
  for (;;) {
    if (start === 0) return null; // the file's first block: nothing to cut off before it
    const previous = start >= 2 ? text.lastIndexOf("\n", start - 2) + 1 : 0;
    const above = lineText(text, previous);
    const first = above.charCodeAt(0);
    if (!(first >= 48 && first <= 57) && above.trim() === "") break;
    if (first !== 35) return null; // a token line in the same block
    start = previous;
  }
  let declaration: string | null = null;
  for (let at = text.lastIndexOf("global.Entity", start - 1); at >= 0; at = text.lastIndexOf("global.Entity", at - 1)) {
    const candidate = lineText(text, text.lastIndexOf("\n", at) + 1);
    if (candidate.charCodeAt(0) === 35 && sentIdValue(candidate) === null && firstAfterSpaces(candidate) === 103 /* g */ && trimmedValue(GLOBAL_ENTITY, candidate) !== null) {
      declaration = candidate;
      break;
    }
    if (at === 0) break;
  }
  return { offset: start, id, declaration };
}

/** The line that begins at `start` in `text`, without its line break (`\n` or `\r\n`), as `forEachLine` gives it. */
function lineText(text: string, start: number): string {
  let end = text.indexOf("\n", start);
  if (end < 0) end = text.length;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return text.slice(start, end);
}
