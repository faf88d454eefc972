/**
 * Writer for CorefUD CoNLL-U responses: a key file's words, sentences and comments with a new
 * assignment of mentions to entities in the `Entity=` attribute of MISC. The inverse of
 * `readCorefUD` on what the scorer uses: reading the output gives the key's sentences and,
 * per document, the given entities as node sets with the given heads (`Document.corefud`).
 *
 * What is written (CorefUD 1.x, as `readCorefUD` and udapi read it; see `conllu.ts`):
 * - every line of the key unchanged, except that `Entity=`, `Bridge=` and `SplitAnte=` are
 *   removed from MISC (the key's coreference, bridging and split antecedents), and the key's
 *   `# global.Entity` lines are replaced by one declaring the response's attribute order
 *   (`options.declaration`) right after each `# newdoc` line (at the top for a file without
 *   one), so a key that declares its attributes there keeps its line numbers;
 * - entity number `i` (0-based) of a document is written with eid `e<i+1>`;
 * - a mention is cut into parts: maximal runs of consecutive nodes (words and empty nodes) in
 *   document order. One part is `(eid-...` on its first node and `eid)` on its last, or
 *   `(eid-...)` on a one-node mention; several are `(eid[i/n]-...` ... `eid[i/n])` (or
 *   `(eid[i/n]-...)` for a one-node part);
 * - the head is written as a 1-based position among the mention's nodes (all parts), in the
 *   declared position of `head`: on the opening bracket of a one-part mention, and on the last
 *   part's opening bracket of a discontinuous one (the reader takes it from there); the other
 *   declared attributes are left empty;
 * - the brackets of one node: closing brackets first (the one opened last first), then opening
 *   brackets (the longest first), then one-node brackets, so that nested mentions of one
 *   entity close in the order the reader pairs them (the most recently opened first).
 */
import type { CorefUDMention, NodeCode } from "../types.js";
import { readCorefUD } from "./conllu.js";
import { NODE_CODE_FACTOR } from "./conllu/nodes.js";
import { decodeInput, forEachLine, type Input } from "./text.js";

/** A mention to write: its nodes (any order, distinct) and its head (one of them). */
export type WrittenMention = Pick<CorefUDMention, "nodes" | "head">;

/** The `# global.Entity` declaration of written files unless told otherwise (CorefUD 1.x's usual one). */
export const RESPONSE_ENTITY_DECLARATION = "eid-etype-head-other";

/** One node line (word or empty node) of a document. */
export interface NodeLine {
  code: NodeCode;
  /** 0-based index of the line in the file. */
  lineIndex: number;
  /** The line's 10 tab-separated columns. */
  columns: string[];
}

/** A document of a CorefUD file: its id (as `readCorefUD` names it) and its nodes in order. */
export interface NodeDocument {
  id: string;
  nodes: NodeLine[];
}

const NEWDOC = /^#\s*newdoc\b/;
const GLOBAL_ENTITY = /^#\s*global\.Entity\s*=/;
const EMPTY_ID = /^([0-9]+)\.([1-9][0-9]*)$/;
const WORD_ID = /^[1-9][0-9]*$/;
const COREF_MISC = /^(Entity|Bridge|SplitAnte)=/;

/**
 * The node lines of each document of a CorefUD CoNLL-U file, with the `NodeCode` the reader
 * gives each node (`scoring/types.ts`).
 *
 * @param input a valid CorefUD CoNLL-U file (checked with `readCorefUD`)
 * @param file its name, for messages (and the id of a document without `# newdoc id`)
 * @returns the documents in file order with their word and empty-node lines (multiword-token
 *   lines are not nodes); the file's lines are `decodeInput(input).split(/\r?\n/)` as
 *   `forEachLine` cuts them
 * @throws FormatError when the file does not read (see `readCorefUD`)
 */
export function corefudNodeLines(input: Input, file: string): NodeDocument[] {
  return scan(decodeInput(input, file), file).documents;
}

interface Scan {
  lines: string[];
  documents: NodeDocument[];
  /** The line index of each document's `# newdoc` line, -1 when it has none. */
  newdocLines: number[];
}

function scan(text: string, file: string): Scan {
  const read = readCorefUD(text, file);
  const lines: string[] = [];
  const documents: NodeDocument[] = [];
  const newdocLines: number[] = [];
  let doc: NodeDocument | null = null;
  let slot = 0;
  let nextSlot = 0;
  let words = 0;
  let inSentence = false;
  let sentence = 0;
  const start = (newdocLine: number) => {
    const source = read.documents[documents.length];
    doc = { id: source.id, nodes: [] };
    documents.push(doc);
    newdocLines.push(newdocLine);
    nextSlot = 0;
    sentence = 0;
    inSentence = false;
  };
  const endSentence = () => {
    if (!inSentence) return;
    // The reader's slots: a consistency check of this scan against it.
    const expected = read.documents[documents.length - 1].corefud!.sentences[sentence];
    if (expected?.slot !== slot) throw new Error(`corefudNodeLines: sentence ${sentence + 1} of ${doc!.id} is not where the reader has it`);
    nextSlot = slot + words + 1;
    sentence++;
    inSentence = false;
  };
  forEachLine(text, (line, lineNumber) => {
    const index = lineNumber - 1;
    lines.push(line);
    if (line.startsWith("#")) {
      if (NEWDOC.test(line)) {
        endSentence();
        start(index);
      }
      return;
    }
    if (line.trim() === "") {
      endSentence();
      return;
    }
    if (!doc) start(-1);
    if (!inSentence) {
      inSentence = true;
      slot = nextSlot;
      words = 0;
    }
    const columns = line.split("\t");
    const id = columns[0];
    if (WORD_ID.test(id)) {
      words++;
      doc!.nodes.push({ code: (slot + Number(id)) * NODE_CODE_FACTOR, lineIndex: index, columns });
    } else {
      const empty = EMPTY_ID.exec(id);
      if (empty) doc!.nodes.push({ code: (slot + Number(empty[1])) * NODE_CODE_FACTOR + Number(empty[2]), lineIndex: index, columns });
    }
  });
  endSentence();
  return { lines, documents, newdocLines };
}

/** One bracket to write on a node. */
interface Bracket {
  kind: "open" | "close" | "single";
  /** The eid with its part marker, e.g. `e3` or `e3[2/2]`. */
  eid: string;
  /** The head value, or null to write none. */
  head: number | null;
  /** Node indices of the part: sorts brackets and pairs them. */
  from: number;
  to: number;
  /** Identity of the part (`entity:mention:part`), for the pairing checks. */
  part: string;
  /** Identity of the mention (`entity:mention`), its part index (0-based) and number of parts. */
  mention: string;
  index: number;
  parts: number;
}

/**
 * Writes a key file with a new assignment of mentions to entities (see the module header).
 *
 * @param key the key file (a valid CorefUD CoNLL-U file): its lines are kept, except the
 *   coreference in MISC and the `# global.Entity` declarations
 * @param entities per document id (as `readCorefUD` names the key's documents), the entities
 *   to write, each a list of mentions; a key document without an entry is written without
 *   mentions
 * @param options.file the key's name, for messages (default `key.conllu`)
 * @param options.declaration the `# global.Entity` value to write (default
 *   `RESPONSE_ENTITY_DECLARATION`); it must have `eid` (or `GRP`) and `head`, which say where
 *   the entity id and the head go in a bracket
 * @returns the file text, ending with a newline
 * @throws FormatError when the key does not read; RangeError when a document id is not in the
 *   key, a mention has no nodes or a node the document lacks, its head is not one of its
 *   nodes, the declaration lacks `eid` or `head`, or two mentions of one entity cross
 *   (neither holds the other, each has a node the other lacks between its ends), which
 *   brackets cannot express
 */
export function writeCorefUD(
  key: Input,
  entities: ReadonlyMap<string, readonly (readonly WrittenMention[])[]>,
  options: { file?: string; declaration?: string } = {},
): string {
  const file = options.file ?? "key.conllu";
  const declaration = options.declaration ?? RESPONSE_ENTITY_DECLARATION;
  const attributes = bracketAttributes(declaration);
  const { lines, documents, newdocLines } = scan(decodeInput(key, file), file);
  const known = new Set(documents.map((d) => d.id));
  for (const id of entities.keys()) if (!known.has(id)) throw new RangeError(`writeCorefUD: document ${JSON.stringify(id)} is not in the key`);

  /** The new Entity= value of each node line, by line index. */
  const entityValue = new Map<number, string>();
  documents.forEach((doc) => {
    const list = entities.get(doc.id);
    if (!list) return;
    const brackets = documentBrackets(doc, list);
    brackets.forEach((onNode, i) => {
      if (onNode.length === 0) return;
      entityValue.set(doc.nodes[i].lineIndex, onNode.map((b) => (b.kind === "close" ? `${b.eid})` : `(${attributes(b.eid, b.head)}${b.kind === "single" ? ")" : ""}`)).join(""));
    });
  });
  return keyLinesWith(lines, newdocLines, declaration, entityValue);
}

/**
 * The attributes of an opening bracket under the `# global.Entity` value `declaration`: a
 * function of the eid (with its part marker) and the head value (null for none), giving the
 * `-`-joined attributes with the others empty.
 * @throws RangeError when the declaration lacks `eid` (or `GRP`) or `head`
 */
function bracketAttributes(declaration: string): (eid: string, head: number | null) => string {
  const fields = declaration.split("-");
  const eidAt = fields.findIndex((f) => f === "eid" || f === "GRP");
  const headAt = fields.lastIndexOf("head");
  if (eidAt < 0 || headAt < 0) throw new RangeError(`writeCorefUD: the declaration ${JSON.stringify(declaration)} needs an 'eid' (or 'GRP') and a 'head' attribute`);
  return (eid, head) => {
    const values = new Array<string>(head === null ? eidAt + 1 : Math.max(eidAt, headAt) + 1).fill("");
    values[eidAt] = eid;
    if (head !== null) values[headAt] = String(head);
    return values.join("-");
  };
}

/**
 * The brackets of each node of `doc` (same indices as `doc.nodes`) for the entities `list`, in
 * the order they are written (see the module header).
 * @throws RangeError when a mention has no nodes or a node the document lacks, its head is not
 *   one of its nodes, or two mentions of one entity cross
 */
function documentBrackets(doc: NodeDocument, list: readonly (readonly WrittenMention[])[]): Bracket[][] {
  const indexOf = new Map(doc.nodes.map((n, i) => [n.code, i]));
  const brackets: Bracket[][] = doc.nodes.map(() => []);
  list.forEach((entity, e) => {
    entity.forEach((mention, m) => {
      if (mention.nodes.length === 0) throw new RangeError(`writeCorefUD: mention ${m + 1} of entity ${e + 1} in ${doc.id} has no nodes`);
      const at = [...new Set(mention.nodes)].map((code) => {
        const i = indexOf.get(code);
        if (i === undefined) throw new RangeError(`writeCorefUD: mention ${m + 1} of entity ${e + 1} in ${doc.id} has node ${code}, which the document lacks`);
        return i;
      });
      at.sort((a, b) => a - b);
      const headIndex = indexOf.get(mention.head);
      const head = headIndex === undefined ? 0 : at.indexOf(headIndex) + 1;
      if (head === 0) throw new RangeError(`writeCorefUD: the head of mention ${m + 1} of entity ${e + 1} in ${doc.id} is not one of its nodes`);
      addMentionBrackets(brackets, `e${e + 1}`, `${e}:${m}`, at, head);
    });
  });
  sortAndCheckBrackets(doc, brackets);
  return brackets;
}

/**
 * Adds to `brackets` (per node index) those of one mention: eid `eid`, identity `mention`
 * (`entity:mention`), node indices `at` (ascending, distinct), 1-based head position `head`.
 * The mention is cut into parts, maximal runs of consecutive nodes; the head goes on the last part.
 */
function addMentionBrackets(brackets: Bracket[][], eid: string, mention: string, at: readonly number[], head: number): void {
  const parts: [number, number][] = [];
  for (const i of at) {
    const last = parts[parts.length - 1];
    if (last && last[1] === i - 1) last[1] = i;
    else parts.push([i, i]);
  }
  parts.forEach(([from, to], p) => {
    const marked = parts.length === 1 ? eid : `${eid}[${p + 1}/${parts.length}]`;
    const partHead = p === parts.length - 1 ? head : null;
    const common = { eid: marked, from, to, part: `${mention}:${p}`, mention, index: p, parts: parts.length };
    if (from === to) brackets[from].push({ kind: "single", head: partHead, ...common });
    else {
      brackets[from].push({ kind: "open", head: partHead, ...common });
      brackets[to].push({ kind: "close", head: null, ...common });
    }
  });
}

/**
 * Sorts the brackets of each node of `doc` into written order (closing brackets first, the
 * one opened last first; then opening brackets, the longest first; then one-node brackets)
 * and replays the reader's pairing on them: a closing bracket closes the most recently opened
 * mention of its entity, and part i/n of a discontinuous mention continues the mention of its
 * entity begun most recently that waits for exactly that part.
 * @throws RangeError when the reader would pair them otherwise: two mentions of one entity cross
 */
function sortAndCheckBrackets(doc: NodeDocument, brackets: Bracket[][]): void {
  const order = { close: 0, open: 1, single: 2 } as const;
  const stacks = new Map<string, string[]>();
  const waiting = new Map<string, { mention: string; seq: number }[]>();
  const begun = new Map<string, number>();
  const crossing = (entity: string, i: number) =>
    new RangeError(`writeCorefUD: two mentions of entity ${entity.slice(1)} in ${doc.id} cross at line ${doc.nodes[i].lineIndex + 1}; CorefUD brackets cannot express that`);
  brackets.forEach((list, i) => {
    if (list.length === 0) return;
    list.sort((a, b) => order[a.kind] - order[b.kind] || (a.kind === "close" ? b.from - a.from : b.to - a.to));
    for (const b of list) {
      const entity = b.eid.replace(/\[.*$/, "");
      if (b.kind !== "close") {
        if (b.index === 0) begun.set(b.mention, begun.size);
        else {
          const queue = waiting.get(`${entity} ${b.index}/${b.parts}`) ?? [];
          const latest = queue.reduce((best, w, k) => (best < 0 || w.seq > queue[best].seq ? k : best), -1);
          if (latest < 0 || queue[latest].mention !== b.mention) throw crossing(entity, i);
          queue.splice(latest, 1);
        }
      }
      if (b.kind === "open") {
        let stack = stacks.get(entity);
        if (!stack) stacks.set(entity, (stack = []));
        stack.push(b.part);
      } else if (b.kind === "close" && stacks.get(entity)!.pop() !== b.part) {
        throw crossing(entity, i);
      }
      if (b.kind !== "open" && b.index < b.parts - 1) {
        const next = `${entity} ${b.index + 1}/${b.parts}`;
        let queue = waiting.get(next);
        if (!queue) waiting.set(next, (queue = []));
        queue.push({ mention: b.mention, seq: begun.get(b.mention)! });
      }
    }
  });
}

/**
 * The key's lines, each node line's coreference in MISC replaced by its `Entity=` value in
 * `entityValue` (by line index; none when absent), and its `# global.Entity` lines by one
 * declaring `declaration` after each `# newdoc` line (`newdocLines`; at the top when the first
 * is -1).
 * @returns the file text, ending with a newline
 */
function keyLinesWith(lines: readonly string[], newdocLines: readonly number[], declaration: string, entityValue: ReadonlyMap<number, string>): string {
  const out: string[] = [];
  const declare = `# global.Entity = ${declaration}`;
  if (newdocLines[0] === -1) out.push(declare);
  const newdocs = new Set(newdocLines);
  lines.forEach((line, index) => {
    if (GLOBAL_ENTITY.test(line)) return;
    if (line.startsWith("#") || line.trim() === "") {
      out.push(line);
      if (newdocs.has(index)) out.push(declare);
      return;
    }
    const columns = line.split("\t");
    const misc = columns[9] === "_" ? [] : columns[9].split("|");
    const kept = misc.filter((item) => !COREF_MISC.test(item));
    const value = entityValue.get(index);
    if (value !== undefined) {
      const at = misc.findIndex((item) => item.startsWith("Entity="));
      // Where the key had its Entity= (counted among the items kept), else at the end.
      const position = at < 0 ? kept.length : misc.slice(0, at).filter((item) => !COREF_MISC.test(item)).length;
      kept.splice(position, 0, `Entity=${value}`);
    }
    columns[9] = kept.length === 0 ? "_" : kept.join("|");
    out.push(columns.join("\t"));
  });
  return `${out.join("\n")}\n`;
}
