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
 *   when discontinuous, with a head (see `headOf`, conllu/nodes.ts); a mention whose head is an empty node is
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
 *   the closing bracket past it; both in conllu/document.ts): nested mentions can make this
 *   quadratic in the input.
 *
 * Quirks of udapi reproduced (each has a test in conllu-corefud.test.ts):
 * - the head attribute of a one-node mention is ignored: the head is that node;
 * - `# sent_id` takes the first run of non-space characters after `# sent_id`, an optional
 *   `=` and spaces (udapi's `^# sent_id\s*=?\s*(\S+)`);
 * - the last part of a discontinuous mention written as a one-node bracket `(e[2/2]-x-0)`
 *   with head `0` takes the mention's LAST node as head (udapi indexes its node list with
 *   `0 - 1`); without a head value udapi crashes there, and the head is the first node here.
 *
 * This file reads the lines into documents (`CorefUDDocumentStream`) and finds where a
 * document may begin (`corefudDocumentStart`); its parts are in conllu/: `lines.ts` (what a
 * line is, its columns, word ID and `Entity=` values), `entity-grammar.ts` (the
 * `global.Entity` declaration and the brackets of an `Entity=` value), `nodes.ts` (node
 * codes, the DEPS of empty nodes, heads) and `document.ts` (`DocumentBuilder`: one document's
 * nodes, the pairing of brackets into mentions, the finished `Document`).
 */
import { FormatError, quote, type CorefUDDocument, type Corpus, type EntityFirstSeen, type Document, type Warning } from "../types.js";
import { readWhole, type DocumentStream } from "./document-stream.js";
import { resolveLimits, type ReadLimits } from "./limits.js";
import { InputLines, type Input } from "./text.js";
import { firstMentionNodes } from "../corefud/order.js";
import { DocumentBuilder } from "./conllu/document.js";
import { entityFields, type EntityFields } from "./conllu/entity-grammar.js";
import { firstAfterSpaces, GLOBAL_ENTITY, lineText, NEWDOC, NEWDOC_ID, sentIdValue, trimmedValue } from "./conllu/lines.js";

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

/** The file's base name without its last extension (`dir/a.b.conllu` -> `a.b`). */
function baseName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? "";
  const name = base.replace(/\.[^.]*$/, "");
  return name === "" ? "unnamed document 1" : name;
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
