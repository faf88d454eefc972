/**
 * A deterministic "system output" for a CorefUD CoNLL-U key: the key's text with only the
 * coreference annotation of MISC changed, as a coreference system's output differs from the
 * gold one. Used by the benchmark (cases (e) and (f)) and usable for tests.
 *
 * What changes, per document, in this order (rates are the defaults of `PerturbOptions`):
 * 1. ~10 % of mentions are dropped;
 * 2. ~10 % of multi-word mentions lose or gain one word at their start or end, within their
 *    sentence (a lost word is never the mention's head when `# global.Entity` has a `head`
 *    field; the head index is rewritten so the head stays the same word);
 * 3. ~5 % of entities are merged into the entity seen just before them, and ~10 % of the
 *    entities with three or more mentions are split (their later half gets a new id);
 * 4. spurious mentions of one to three words are added (~5 % of the document's key mentions),
 *    each linked to an existing entity (60 %) or, two by two, to a new one;
 * 5. ~30 % of empty nodes get a one-node mention (a zero) linked to an existing entity.
 * Every other column and line is copied unchanged. `Bridge=` and `SplitAnte=` are removed from
 * MISC (they name entities that may no longer exist, and CRAC systems output identity
 * coreference only).
 *
 * The output is well-formed CorefUD: brackets balance within each sentence, closings come before
 * openings on a node and inner before outer, and two mentions of one entity never cross (one
 * that would is given a new entity id), so each closing bracket closes the mention it should.
 * New ids are integers above the document's largest integer id (or `p1`, `p2`, ... when ids are
 * not integers). Discontinuous mentions (`eid[i/n]`) are kept as they are, renamed with their
 * entity. A mention opened in one sentence and closed in another (which the CorefUD scorer's
 * reader does not support either) is an `Error`.
 *
 * Randomness: pure-rand's xoroshiro128+ seeded with `options.seed`; the same text and options
 * always give the same output.
 */
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

type Rng = ReturnType<typeof xoroshiro128plus>;

/** Rates of each change (fractions in [0, 1]) and the seed. */
export interface PerturbOptions {
  seed: number;
  /** Share of mentions dropped (default 0.1). */
  dropRate?: number;
  /** Share of multi-word mentions shrunk or extended by one word (default 0.1). */
  boundaryRate?: number;
  /** Share of entities merged into the previous one (default 0.05). */
  mergeRate?: number;
  /** Share of entities with at least 3 mentions that are split in two (default 0.1). */
  splitRate?: number;
  /** Spurious mentions added, as a share of the document's key mentions (default 0.05). */
  spuriousRate?: number;
  /** Share of empty nodes given a zero mention (default 0.3). */
  zeroRate?: number;
}

/** What `perturbCorefUD` changed, summed over documents. */
export interface PerturbStats {
  documents: number;
  keyMentions: number;
  dropped: number;
  shrunk: number;
  extended: number;
  mergedEntities: number;
  splitEntities: number;
  spurious: number;
  zeros: number;
  /** Mentions given a new id because they crossed another mention of their entity. */
  uncrossed: number;
  responseMentions: number;
}

/** One node line of a sentence (a word or an empty node; multiword-token ranges are not nodes). */
interface Node {
  line: number;
  empty: boolean;
}

/** One mention (or one part of a discontinuous mention) in its sentence. */
interface Mention {
  /** Entity id (without a `[i/n]` part marker). */
  eid: string;
  /** `[i/n]` of a discontinuous part, or "". Such parts are never moved or dropped. */
  part: string;
  /** The `-`-separated attribute values of the opening bracket (the eid's field included). */
  attrs: string[];
  sentence: number;
  /** First and last node (indices into the sentence's nodes). */
  start: number;
  end: number;
  /** The head node when `global.Entity` has a `head` field, else null (the head is the first node). */
  head: number | null;
}

/** The `# global.Entity` fields that matter here. */
interface EntityFields {
  eid: number;
  head: number;
}

const BRACKET = /\(([^()]*)(\)?)|([^()]*)\)/y;
const PART = /^(.*)(\[[1-9][0-9]*\/[1-9][0-9]*\])$/;

/**
 * Perturbs a CorefUD CoNLL-U text (see the module header).
 *
 * @param text a whole CoNLL-U file (any number of `# newdoc` documents)
 * @param options the seed and, optionally, the rates of each change
 * @returns the perturbed file (same lines, only MISC's coreference values changed) and counts of
 *   what changed
 * @throws Error for a token line without 10 columns, an unbalanced bracket, or a mention that
 *   crosses a sentence boundary (messages give the 1-based line)
 */
export function perturbCorefUD(text: string, options: PerturbOptions): { text: string; stats: PerturbStats } {
  const rng = xoroshiro128plus(options.seed);
  const rates = {
    drop: options.dropRate ?? 0.1,
    boundary: options.boundaryRate ?? 0.1,
    merge: options.mergeRate ?? 0.05,
    split: options.splitRate ?? 0.1,
    spurious: options.spuriousRate ?? 0.05,
    zero: options.zeroRate ?? 0.3,
  };
  const lines = text.split("\n");
  const stats: PerturbStats = {
    documents: 0,
    keyMentions: 0,
    dropped: 0,
    shrunk: 0,
    extended: 0,
    mergedEntities: 0,
    splitEntities: 0,
    spurious: 0,
    zeros: 0,
    uncrossed: 0,
    responseMentions: 0,
  };
  let fields: EntityFields = { eid: 0, head: -1 };
  let doc: DocumentState | null = null;
  let sentence: Node[] = [];

  const endSentence = () => {
    if (doc && sentence.length > 0) doc.sentences.push(sentence);
    sentence = [];
  };
  const endDocument = () => {
    endSentence();
    if (doc) {
      doc.finishReading();
      perturbDocument(doc, lines, rng, rates, stats);
    }
    doc = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") {
      endSentence();
      continue;
    }
    if (line.startsWith("#")) {
      if (/^#\s*newdoc\b/.test(line)) {
        endDocument();
        doc = new DocumentState(fields);
      }
      const declared = /^#\s*global\.Entity\s*=\s*(.*?)\s*$/.exec(line);
      if (declared) {
        const names = declared[1].split("-");
        const eid = names.findIndex((n) => n === "eid" || n === "GRP");
        fields = { eid: eid < 0 ? 0 : eid, head: names.indexOf("head") };
        if (doc) doc.fields = fields;
      }
      continue;
    }
    const columns = line.split("\t");
    if (columns.length !== 10) throw new Error(`line ${i + 1}: expected 10 tab-separated columns, found ${columns.length}`);
    if (/^[0-9]+-[0-9]+$/.test(columns[0])) continue;
    doc ??= new DocumentState(fields);
    sentence.push({ line: i, empty: columns[0].includes(".") });
    doc.readNode(columns[9], sentence.length - 1, i);
  }
  endDocument();
  return { text: lines.join("\n"), stats };
}

/** A document being read, then perturbed. */
class DocumentState {
  fields: EntityFields;
  readonly sentences: Node[][] = [];
  readonly mentions: Mention[] = [];
  private readonly open = new Map<string, { mention: Mention; line: number }[]>();

  constructor(fields: EntityFields) {
    this.fields = fields;
  }

  /** Reads the brackets of one node's MISC. */
  readNode(misc: string, index: number, lineIndex: number): void {
    const value = entityValue(misc);
    if (value === null) return;
    const sentence = this.sentences.length;
    BRACKET.lastIndex = 0;
    while (BRACKET.lastIndex < value.length) {
      const at = BRACKET.lastIndex;
      const m = BRACKET.exec(value);
      if (!m || m.index !== at) throw new Error(`line ${lineIndex + 1}: malformed Entity value ${JSON.stringify(value)}`);
      if (m[3] !== undefined) {
        const stack = this.open.get(m[3]);
        const opened = stack?.pop();
        if (!opened) throw new Error(`line ${lineIndex + 1}: ${m[3]}) closes no open mention`);
        if (opened.mention.sentence !== sentence) {
          throw new Error(`line ${lineIndex + 1}: mention ${m[3]} opened at line ${opened.line + 1} crosses a sentence boundary`);
        }
        opened.mention.end = index;
        this.resolveHead(opened.mention, lineIndex);
        continue;
      }
      const attrs = m[1].split("-");
      const raw = attrs[this.fields.eid] ?? "";
      const part = PART.exec(raw);
      const mention: Mention = {
        eid: part ? part[1] : raw,
        part: part ? part[2] : "",
        attrs,
        sentence,
        start: index,
        end: index,
        head: null,
      };
      this.mentions.push(mention);
      if (m[2] === ")") {
        this.resolveHead(mention, lineIndex);
      } else {
        const label = mention.eid + mention.part;
        const stack = this.open.get(label) ?? [];
        stack.push({ mention, line: lineIndex });
        this.open.set(label, stack);
      }
    }
  }

  /** Sets `head` from the `head` field (1-based among the mention's nodes), when there is one. */
  private resolveHead(mention: Mention, lineIndex: number): void {
    if (this.fields.head < 0 || mention.part !== "") return;
    const index = Number(mention.attrs[this.fields.head]);
    const size = mention.end - mention.start + 1;
    if (!Number.isInteger(index) || index < 1 || index > size) {
      throw new Error(`line ${lineIndex + 1}: head index ${mention.attrs[this.fields.head]} outside its mention of ${size} node(s)`);
    }
    mention.head = mention.start + index - 1;
  }

  finishReading(): void {
    for (const [label, stack] of this.open) {
      if (stack.length > 0) throw new Error(`line ${stack[0].line + 1}: mention ${label} is never closed`);
    }
  }
}

/** The value of `Entity=` in a MISC column, or null. */
function entityValue(misc: string): string | null {
  if (misc === "_") return null;
  for (const item of misc.split("|")) if (item.startsWith("Entity=")) return item.slice(7);
  return null;
}

function perturbDocument(
  doc: DocumentState,
  lines: string[],
  rng: Rng,
  rates: { drop: number; boundary: number; merge: number; split: number; spurious: number; zero: number },
  stats: PerturbStats,
): void {
  const chance = (p: number) => uniformInt(rng, 0, 999_999) < p * 1_000_000;
  const pick = <T>(items: readonly T[]): T => items[uniformInt(rng, 0, items.length - 1)];
  stats.documents++;
  stats.keyMentions += doc.mentions.length;
  const spanKey = (m: Mention) => `${m.sentence}:${m.start}:${m.end}`;
  const spans = new Set(doc.mentions.map(spanKey));

  // 1. Drop.
  let mentions = doc.mentions.filter((m) => {
    if (m.part !== "" || !chance(rates.drop)) return true;
    stats.dropped++;
    spans.delete(spanKey(m));
    return false;
  });

  // 2. Boundaries: one word more or less at one end, within the sentence.
  for (const m of mentions) {
    if (m.part !== "") continue;
    const nodes = doc.sentences[m.sentence];
    const words = countWords(nodes, m.start, m.end);
    if (words < 2 || !chance(rates.boundary)) continue;
    const extend = chance(0.5);
    const left = chance(0.5);
    for (const side of left ? ["left", "right"] : ["right", "left"]) {
      const [start, end] = extend ? extended(nodes, m, side) : shrunk(nodes, m, side);
      if (start < 0 || (m.head !== null && (m.head < start || m.head > end))) continue;
      const key = `${m.sentence}:${start}:${end}`;
      if (spans.has(key)) continue;
      spans.delete(spanKey(m));
      m.start = start;
      m.end = end;
      spans.add(key);
      if (extend) stats.extended++;
      else stats.shrunk++;
      break;
    }
  }

  // 3. Entities: merge into the previous entity, split the later half off.
  const ids = new IdSource(doc.mentions.map((m) => m.eid));
  const order = [...new Set(mentions.map((m) => m.eid))];
  const rename = new Map<string, string>();
  for (let i = 1; i < order.length; i++) {
    if (chance(rates.merge)) {
      rename.set(order[i], rename.get(order[i - 1]) ?? order[i - 1]);
      stats.mergedEntities++;
    }
  }
  const byEntity = new Map<string, Mention[]>();
  for (const m of mentions) {
    const list = byEntity.get(m.eid) ?? [];
    list.push(m);
    byEntity.set(m.eid, list);
  }
  for (const m of mentions) m.eid = rename.get(m.eid) ?? m.eid;
  for (const list of byEntity.values()) {
    if (list.length < 3 || list.some((m) => m.part !== "") || !chance(rates.split)) continue;
    const fresh = ids.next();
    const sorted = [...list].sort(byPosition);
    for (const m of sorted.slice(Math.ceil(sorted.length / 2))) m.eid = fresh;
    stats.splitEntities++;
  }

  // 4. Spurious mentions of 1-3 words.
  const existing = [...new Set(mentions.map((m) => m.eid))];
  const attrsOf = new Map<string, string[]>();
  for (const m of mentions) if (!attrsOf.has(m.eid)) attrsOf.set(m.eid, m.attrs);
  const template = mentions[0]?.attrs ?? doc.mentions[0]?.attrs ?? [];
  const newMention = (eid: string, sentence: number, start: number, end: number): Mention => {
    const attrs = [...(attrsOf.get(eid) ?? template)];
    while (attrs.length <= Math.max(doc.fields.eid, doc.fields.head)) attrs.push("");
    return { eid, part: "", attrs, sentence, start, end, head: doc.fields.head >= 0 ? start : null };
  };
  const spurious = Math.round(doc.mentions.length * rates.spurious);
  let pendingNew: string | null = null;
  for (let k = 0; k < spurious && doc.sentences.length > 0; k++) {
    const sentence = uniformInt(rng, 0, doc.sentences.length - 1);
    const nodes = doc.sentences[sentence];
    const wordIndices = nodes.flatMap((n, i) => (n.empty ? [] : [i]));
    if (wordIndices.length === 0) continue;
    const first = uniformInt(rng, 0, wordIndices.length - 1);
    const last = Math.min(wordIndices.length - 1, first + uniformInt(rng, 0, 2));
    const start = wordIndices[first];
    const end = wordIndices[last];
    const key = `${sentence}:${start}:${end}`;
    if (spans.has(key)) continue;
    let eid: string;
    if (pendingNew !== null) {
      eid = pendingNew;
      pendingNew = null;
    } else if (existing.length > 0 && chance(0.6)) {
      eid = pick(existing);
    } else {
      eid = ids.next();
      pendingNew = eid;
    }
    spans.add(key);
    mentions.push(newMention(eid, sentence, start, end));
    stats.spurious++;
  }

  // 5. Zeros on empty nodes.
  if (existing.length > 0) {
    doc.sentences.forEach((nodes, sentence) => {
      nodes.forEach((n, i) => {
        if (!n.empty || !chance(rates.zero)) return;
        const key = `${sentence}:${i}:${i}`;
        if (spans.has(key)) return;
        spans.add(key);
        mentions.push(newMention(pick(existing), sentence, i, i));
        stats.zeros++;
      });
    });
  }

  // Two mentions of one entity must nest or be disjoint: give a crossing one a new id.
  mentions = uncross(mentions, ids, stats);
  stats.responseMentions += mentions.length;
  writeDocument(doc, mentions, lines);
}

/** Words (not empty nodes) among nodes `start..end`. */
function countWords(nodes: Node[], start: number, end: number): number {
  let n = 0;
  for (let i = start; i <= end; i++) if (!nodes[i].empty) n++;
  return n;
}

/** The span one word longer on `side`, or `[-1, -1]` when the sentence ends there. */
function extended(nodes: Node[], m: Mention, side: string): [number, number] {
  if (side === "left") {
    for (let i = m.start - 1; i >= 0; i--) if (!nodes[i].empty) return [i, m.end];
  } else {
    for (let i = m.end + 1; i < nodes.length; i++) if (!nodes[i].empty) return [m.start, i];
  }
  return [-1, -1];
}

/** The span one word shorter on `side` (it starts and ends on a word), or `[-1, -1]`. */
function shrunk(nodes: Node[], m: Mention, side: string): [number, number] {
  if (side === "left") {
    for (let i = m.start + 1; i <= m.end; i++) if (!nodes[i].empty) return [i, m.end];
  } else {
    for (let i = m.end - 1; i >= m.start; i--) if (!nodes[i].empty) return [m.start, i];
  }
  return [-1, -1];
}

function byPosition(a: Mention, b: Mention): number {
  return a.sentence - b.sentence || a.start - b.start || b.end - a.end;
}

/** New entity ids: integers above the largest integer id, else `p1`, `p2`, ... not in use. */
class IdSource {
  private readonly used: Set<string>;
  private counter: number;
  private readonly numeric: boolean;

  constructor(ids: string[]) {
    this.used = new Set(ids);
    const numbers = ids.filter((id) => /^[0-9]+$/.test(id)).map(Number);
    this.numeric = numbers.length === ids.length;
    this.counter = numbers.length > 0 ? Math.max(...numbers) : 0;
  }

  next(): string {
    for (;;) {
      this.counter++;
      const id = this.numeric ? String(this.counter) : `p${this.counter}`;
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }
}

/** Mentions with crossing same-entity mentions moved to new entities (sentence by sentence). */
function uncross(mentions: Mention[], ids: IdSource, stats: PerturbStats): Mention[] {
  const groups = new Map<string, Mention[]>();
  for (const m of mentions) {
    const key = `${m.eid}${m.part}\u0000${m.sentence}`;
    const list = groups.get(key) ?? [];
    list.push(m);
    groups.set(key, list);
  }
  for (const list of groups.values()) {
    if (list.length < 2) continue;
    list.sort(byPosition);
    const stack: Mention[] = [];
    for (const m of list) {
      while (stack.length > 0 && stack[stack.length - 1].end < m.start) stack.pop();
      const top = stack[stack.length - 1];
      if (top && m.end > top.end && m.part === "") {
        m.eid = ids.next();
        stats.uncrossed++;
        continue;
      }
      stack.push(m);
    }
  }
  return mentions;
}

/** Rewrites the MISC column of every node line of the document from `mentions`. */
function writeDocument(doc: DocumentState, mentions: Mention[], lines: string[]): void {
  const at = new Map<number, { closes: Mention[]; opens: Mention[]; singles: Mention[] }>();
  const slot = (line: number) => {
    let s = at.get(line);
    if (!s) at.set(line, (s = { closes: [], opens: [], singles: [] }));
    return s;
  };
  for (const m of mentions) {
    const nodes = doc.sentences[m.sentence];
    if (m.head !== null && doc.fields.head >= 0) m.attrs[doc.fields.head] = String(m.head - m.start + 1);
    m.attrs[doc.fields.eid] = m.eid + m.part;
    if (m.start === m.end) slot(nodes[m.start].line).singles.push(m);
    else {
      slot(nodes[m.start].line).opens.push(m);
      slot(nodes[m.end].line).closes.push(m);
    }
  }
  for (const nodes of doc.sentences) {
    for (const node of nodes) {
      const s = at.get(node.line);
      let value = "";
      if (s) {
        // Inner mentions close first (later start), outer ones open first (later end).
        s.closes.sort((a, b) => b.start - a.start);
        s.opens.sort((a, b) => b.end - a.end);
        for (const m of s.closes) value += `${m.eid}${m.part})`;
        for (const m of s.opens) value += `(${m.attrs.join("-")}`;
        for (const m of s.singles) value += `(${m.attrs.join("-")})`;
      }
      const columns = lines[node.line].split("\t");
      columns[9] = withEntity(columns[9], value);
      lines[node.line] = columns.join("\t");
    }
  }
}

/**
 * MISC with `Entity=` set to `value` (where it was, else in alphabetical order; removed when
 * `value` is empty) and `Bridge=` and `SplitAnte=` removed.
 */
function withEntity(misc: string, value: string): string {
  const items = misc === "_" ? [] : misc.split("|");
  const out: string[] = [];
  const had = items.some((item) => item.startsWith("Entity="));
  let placed = value === "";
  for (const item of items) {
    if (/^(Bridge|SplitAnte)=/.test(item)) continue;
    if (item.startsWith("Entity=")) {
      if (!placed) out.push(`Entity=${value}`);
      placed = true;
      continue;
    }
    if (!placed && !had && item.toLowerCase() > "entity=") {
      out.push(`Entity=${value}`);
      placed = true;
    }
    out.push(item);
  }
  if (!placed) out.push(`Entity=${value}`);
  return out.length > 0 ? out.join("|") : "_";
}
