/**
 * Document assembly of the CorefUD CoNLL-U reader (`../conllu.ts`): `DocumentBuilder` takes a
 * document's token lines one by one, numbers its nodes, pairs the brackets of their `Entity=`
 * values into mentions (discontinuous ones part by part), keeps the mention limit and the
 * mention-node budget, and gives the finished `Document` in both views (see the header of
 * `../conllu.ts`).
 */
import {
  FormatError,
  MAX_EMPTY_NODE_PART,
  quote,
  spanKey,
  type CorefUDMention,
  type CorefUDSentence,
  type Document,
  type NodeCode,
  type Warning,
} from "../../types.js";
import { EntityNumbering } from "../entities.js";
import type { ReadLimits } from "../limits.js";
import { RepeatedSpanLog } from "../repeats.js";
import { BracketReader, type EntityFields, type Item } from "./entity-grammar.js";
import { EMPTY_ID, entityValues, errorAt, findTabs, RANGE_ID, wordIdValue, type Place } from "./lines.js";
import { headOf, NODE_CODE_FACTOR, parseDeps, sentenceOf, tokenOf, type EmptyNode, type HeadRule } from "./nodes.js";

/**
 * The node sets of a document's mentions hold at most this many nodes plus
 * `MENTION_NODES_PER_NODE` per node read so far (GUM: at most 1.6 per node in a document; see
 * the header of `../conllu.ts`).
 */
export const MENTION_NODE_BUDGET_FLOOR = 1_000_000;
/** See `MENTION_NODE_BUDGET_FLOOR`. */
export const MENTION_NODES_PER_NODE = 64;

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
export class DocumentBuilder {
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
  /** Reads the brackets of the document's `Entity=` values (`parseEntity`). */
  private readonly brackets: BracketReader;

  constructor(
    private readonly file: string,
    /** The newdoc id, or null when the document has none. */
    readonly name: string | null,
    /** Line of the `# newdoc` line, or of the first word when there is none. */
    readonly line: number,
    readonly lineText: string,
    private readonly bounds: Required<ReadLimits>,
    private readonly warnings: Warning[],
  ) {
    this.brackets = new BracketReader(file);
  }

  /** Whether a sentence is being read (a token line came since the last blank line). */
  get inSentence(): boolean {
    return this.sentence !== null;
  }

  /** Sets the sent_id of the sentence being read (a `# sent_id` line inside it). */
  setSentId(id: string): void {
    if (this.sentence) this.sentence.sentId = id;
  }

  /**
   * A blank line: ends the sentence being read, if any.
   * @throws FormatError for a sentence without words or a malformed DEPS of one of its empty nodes
   */
  sentenceBreak(): void {
    this.endSentence();
  }

  /**
   * Reads one token line; returns whether it was a word.
   * @param sentId the `# sent_id` read before this line, for a line that begins a sentence
   */
  tokenLine(line: string, lineNumber: number, fields: EntityFields, sentId: string | null): boolean {
    const tabs = this.tabs;
    if (!findTabs(line, tabs)) {
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
    const index = this.addNode(line, lineNumber, id, wordId, sentence);
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
   * Adds the node of a word line (`wordId` its ID) or of an empty-node line (`wordId` 0, `id`
   * its `N.M` ID) to `sentence`, the sentence being read.
   * @returns the node's index in `codes`
   * @throws FormatError for an empty-node part above `MAX_EMPTY_NODE_PART`, an ID out of
   *   order, or one node over the token limit
   */
  private addNode(line: string, lineNumber: number, id: string, wordId: number, sentence: CorefUDSentence): number {
    const tabs = this.tabs;
    const isWord = wordId > 0;
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
    return index;
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
      for (const empty of this.sentenceEmptyNodes) empty.deps = parseDeps(empty, sentence, emptyCodes, this.file);
      this.sentenceEmptyNodes = [];
    }
    this.nextSlot = sentence.slot + words + 1;
    this.sentence = null;
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
    const overLimit = this.brackets.read(value, offset, fields, line, lineNumber, this.mentionCount + this.inFlight, this.bounds.maxMentionsPerDocument);
    const items = this.brackets.items;
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
   * Records a finished mention in both views. Callers check the mention limit first
   * (`checkMentionLimit` for a one-node mention; for a closing one, its opening counted it
   * in `inFlight`) and count its nodes (`takeNodes`).
   * @param start the mention's (first) opening bracket
   */
  private finishMention(eid: string, nodes: NodeCode[], headValue: number, rule: HeadRule, start: Place, headAt: Place): void {
    const head = headOf(nodes, headValue, rule, headAt, this.file);
    const zero = head % NODE_CODE_FACTOR !== 0;
    const empty = zero ? this.emptyNodes.get(head) : undefined;
    const mention: CorefUDMention = {
      nodes,
      head,
      zero,
      sentence: sentenceOf(this.sentences, head),
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
    const from = tokenOf(this.sentences, nodes[first]);
    const to = first === last ? from : tokenOf(this.sentences, nodes[last]);
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
    return errorAt(this.file, line, column, lineText, expected, found);
  }
}

/** The key of `DocumentBuilder.waiting` for part `[index/parts]` of entity `eid` (ids hold no spaces). */
function waitingKey(eid: string, index: number, parts: number): string {
  return `${eid} ${index}/${parts}`;
}

function before(a: Place, b: Place): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}
