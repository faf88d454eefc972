/**
 * Core data types of the Corefboard scorer.
 *
 * Conventions used everywhere in `scoring/`:
 * - token indices are 0-based and count every token of a document (not per sentence);
 * - a mention is an inclusive span `[start, end]` of token indices;
 * - an entity (also called a cluster or chain) is a list of mentions in the order they
 *   were read; a singleton is an entity with one mention;
 * - the key is the gold annotation, the response is a system's output.
 */

/** An inclusive span `[start, end]` of document-level token indices (0-based). */
export type Mention = readonly [start: number, end: number];

/** An entity (cluster, chain): its mentions in reading order. */
export type Entity = Mention[];

/**
 * A span `[start, end]` as one number, `start * 2^26 + end`, for maps and sets keyed by span.
 * Distinct spans get distinct keys while `end` is below 2^26 (67,108,864) and the key stays an
 * exact double while `start` is below 2^27: far above any document the readers accept with
 * their default limits (`DEFAULT_LIMITS.maxTokensPerDocument`).
 */
export function spanKey(start: number, end: number): number {
  return start * 67108864 + end;
}

/** One document of a corpus. */
export interface Document {
  /**
   * The identity used to match key and response documents: the name inside the
   * parentheses of `#begin document (NAME); part NNN`, plus `/part N` when a part number
   * is given (the number without zero padding, so `part 0` and `part 000` match).
   */
  id: string;
  /** The document name as written in the file (may be a generated name, see warnings). */
  name: string;
  /** The part number when the header gives one, else `null`. */
  part: number | null;
  /** Token texts where the format has them (an empty string where it does not). */
  tokens: string[];
  /** Token indices at which sentences start (always starts with 0 when there are tokens). */
  sentenceStarts: number[];
  /** Entities in the order the reference scorer numbers them (first sight of a chain id). */
  entities: Entity[];
  /** 1-based line of the `#begin document` header, for messages. */
  line: number;
  /**
   * CorefUD CoNLL-U input only: the document as the CorefUD scorer sees it (mentions as node
   * sets with heads, empty nodes included). `entities` above is then a span view of the same
   * mentions (first to last word, empty nodes left out; a mention of empty nodes only, and an
   * entity left without mentions, are not in it) for analyses that work on spans.
   */
  corefud?: CorefUDDocument;
}

/**
 * A node of a CorefUD document (a word, an empty node, or a sentence's root) as one number:
 * `(slot(sentence) + ord) * 1024 + sub`, where `ord` is the CoNLL-U word ID (0 for the root),
 * `sub` the empty-node part (`15.2` -> ord 15, sub 2; 0 for words) and
 * `slot(s) = Σ_{t < s} (words of sentence t + 1)`. Codes sort in document order (sentence,
 * then ID compared as a number: 15 < 15.1 < 15.2 < 16) and the same ID in the same sentence
 * gets the same code in key and response, whatever empty nodes either adds.
 */
export type NodeCode = number;

/** The largest empty-node part a `NodeCode` holds (`N.1023`). */
export const MAX_EMPTY_NODE_PART = 1023;

/** One sentence of a CorefUD document, for aligning key and response. */
export interface CorefUDSentence {
  /** `# sent_id` of the sentence, or null. */
  sentId: string | null;
  /** FORM of each word (not empty nodes), in order. */
  forms: string[];
  /** 1-based line of each word. */
  wordLines: number[];
  /** 1-based line of the sentence's first token line. */
  line: number;
  /** `slot(sentence)` of `NodeCode`: the code of word `n` is `(slot + n) * 1024`. */
  slot: number;
}

/** An enhanced dependency (DEPS item) of an empty node: parent node and relation. */
export interface Dep {
  parent: NodeCode;
  deprel: string;
}

/** A CorefUD mention: a set of nodes, possibly discontinuous, possibly with empty nodes. */
export interface CorefUDMention {
  /** The mention's nodes, ascending and distinct. */
  nodes: NodeCode[];
  /** The head node (one of `nodes`): per the `head` field of `# global.Entity`, else the first node. */
  head: NodeCode;
  /** True when the head is an empty node (the mention is a zero). */
  zero: boolean;
  /** 0-based index of the head's sentence in the document. */
  sentence: number;
  /** The head's DEPS when the head is an empty node; null for words and for an empty DEPS (`_`). */
  headDeps: Dep[] | null;
  /** For a zero: where its head's DEPS column is (1-based line and column, and the line's text). */
  headDepsAt: { line: number; column: number; lineText: string } | null;
  /** Where the mention's (first) opening bracket is, for messages. */
  line: number;
  column: number;
}

/** A CorefUD document: its sentences and its entities. */
export interface CorefUDDocument {
  sentences: CorefUDSentence[];
  /**
   * Entities in order of the first sight of their eid; each entity's mentions in the order they
   * were completed (closed). Repeated mentions are kept: the scorer orders and de-duplicates
   * them as the CorefUD scorer does.
   */
  entities: CorefUDMention[][];
  /**
   * Each entity's eid as written (parallel to `entities`): without a discontinuous part's
   * `[i/n]`; under `GRP`, the GRP value. The scorer breaks ties in udapi's entity order by it.
   */
  eids: string[];
  /**
   * True when the eids name entities across the whole file, as udapi reads them: an eid used
   * in two documents is one entity split across them. False under `GRP`, where udapi prefixes
   * each document's eids with a document number of its own.
   */
  fileWideEids: boolean;
  /**
   * Absent unless an entity's eid was used in an earlier document of the file (with
   * `fileWideEids`): then, parallel to `entities`, where that entity first appeared (null
   * for the others). udapi orders the entities of a file by their first mention in the whole
   * file, so such an entity comes before every entity first seen in this document.
   */
  carried?: (EntityFirstSeen | null)[];
}

/**
 * Where an entity first appeared in its file: the 0-based index of the document, and the node
 * list of its first mention there in udapi's mention order (`corefud/order.ts`).
 */
export interface EntityFirstSeen {
  document: number;
  nodes: readonly NodeCode[];
}

/** Something odd but scorable found while reading or scoring. */
export interface Warning {
  /** A stable machine-readable code, e.g. `repeated-span`, `missing-document`. */
  code: string;
  /** A sentence a person can act on. */
  message: string;
  file?: string;
  line?: number;
  document?: string;
}

/** A parsed file: its documents in file order, and what looked odd. */
export interface Corpus {
  /** The file name the corpus was read from (for messages). */
  file: string;
  documents: Document[];
  warnings: Warning[];
}

/**
 * The only error a format reader throws. It names the file, the 1-based line and column,
 * what was expected and what was found, and carries an excerpt of the offending line with
 * a caret under the column.
 */
export class FormatError extends Error {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly expected: string;
  readonly found: string;
  /** The offending line (cut to at most 120 characters around the column) and a caret line. */
  readonly excerpt: string;

  constructor(args: {
    file: string;
    line: number;
    column: number;
    expected: string;
    found: string;
    lineText?: string;
  }) {
    const excerpt = args.lineText === undefined ? "" : makeExcerpt(args.lineText, args.column);
    super(
      `${args.file}:${args.line}:${args.column}: expected ${args.expected}, found ${args.found}` +
        (excerpt ? `\n${excerpt}` : ""),
    );
    this.name = "FormatError";
    this.file = args.file;
    this.line = args.line;
    this.column = args.column;
    this.expected = args.expected;
    this.found = args.found;
    this.excerpt = excerpt;
  }

  /** A plain object for JSON answers (HTTP 422 bodies, `--format json`). */
  toJSON(): { file: string; line: number; column: number; expected: string; found: string; message: string } {
    return {
      file: this.file,
      line: this.line,
      column: this.column,
      expected: this.expected,
      found: this.found,
      message: this.message.split("\n")[0],
    };
  }
}

const EXCERPT_WIDTH = 120;

/** Cuts `lineText` to a window around `column` (1-based) and adds a caret line under it. */
function makeExcerpt(lineText: string, column: number): string {
  const visible = lineText.replace(/[\t]/g, " ").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "\uFFFD");
  let start = 0;
  if (visible.length > EXCERPT_WIDTH) {
    start = Math.max(0, Math.min(column - 1 - EXCERPT_WIDTH / 2, visible.length - EXCERPT_WIDTH));
  }
  const cut = visible.slice(start, start + EXCERPT_WIDTH);
  const prefix = start > 0 ? "…" : "";
  const suffix = start + EXCERPT_WIDTH < visible.length ? "…" : "";
  const caretPos = prefix.length + Math.max(0, column - 1 - start);
  return `  ${prefix}${cut}${suffix}\n  ${" ".repeat(caretPos)}^`;
}

/**
 * Quotes a piece of offending text for a message.
 *
 * @param text any text
 * @returns a JSON string literal of `text`, cut to its first 40 UTF-16 code units plus `…`
 *   when longer (so control characters and quotes are escaped)
 */
export function quote(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(shown);
}
