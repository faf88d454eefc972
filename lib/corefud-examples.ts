/**
 * Worked examples in the CorefUD format for the metric pages of the CorefUD scorer's own
 * metrics (MOR and the zero anaphor score, `lib/metrics-explained.ts`), whose paper
 * (Žabokrtský et al. 2022, CRAC 2022 findings) prints no worked example.
 *
 * An example is written as CoNLL-U sentences (word and empty-node IDs, forms, and the DEPS of
 * empty nodes) and entities whose mentions are sets of nodes (`"2:0.1"` = sentence 2, node
 * 0.1) with a head. {@link corefudCorpus} turns one side into the `Corpus` the CorefUD CoNLL-U
 * reader gives (`Document.corefud`, node codes as `scoring/types.ts` defines them), so that
 * `evaluate` scores it on the CorefUD path, as it scores an uploaded CorefUD file.
 */
import type { Corpus, CorefUDMention, CorefUDSentence, Dep, Entity, Mention, NodeCode } from "../scoring/types";

/** One node of an example sentence: a word (`"3"`) or an empty node (`"3.1"`, `"0.1"`). */
export interface ExampleNode {
  id: string;
  form: string;
  /** An empty node's DEPS, e.g. `"2:nsubj"` (parent ID : relation; `|` between items). */
  deps?: string;
}

/** A mention: its nodes (`"sentence:ID"`, 1-based sentence) and its head (one of them). */
export interface ExampleNodeMention {
  nodes: string[];
  head: string;
}

/** A response of a CorefUD example. */
export interface CorefUDExampleResponse {
  label: string;
  /** The entities in words, e.g. "{Mary ∅ ∅} {John}". */
  spec: string;
  entities: ExampleNodeMention[][];
}

/** A worked example in the CorefUD format. */
export interface CorefUDExample {
  /** Where it comes from, for the page. */
  source: string;
  description: string;
  sentences: ExampleNode[][];
  keySpec: string;
  key: ExampleNodeMention[][];
  responses: CorefUDExampleResponse[];
}

/** The form shown for an empty node (a dropped pronoun the annotation restores). */
export const EMPTY_FORM = "∅";

/** A mention of the nodes `ids` of sentence `s` with head `head` (an ID among them). */
const m = (s: number, ids: string[], head: string): ExampleNodeMention => ({ nodes: ids.map((id) => `${s}:${id}`), head: `${s}:${head}` });

/**
 * MOR: one sentence whose key mentions the response finds only in part. Exact matching finds
 * one of four key mentions ("his"); MOR credits the words the mentions share.
 */
export const MOR_EXAMPLE: CorefUDExample = {
  source: "An example made for this page (the CRAC 2022 findings print none).",
  description:
    "One sentence with four key mentions in three entities. The response finds “his” exactly, but cuts the other mentions short: “old man” for “The old man”, “dog” for “his dog”, “river bank” for “the river bank”.",
  sentences: [
    ["The", "old", "man", "saw", "his", "dog", "near", "the", "river", "bank", "."].map((form, i) => ({ id: String(i + 1), form })),
  ],
  keySpec: "{The old man, his} {his dog} {the river bank}",
  key: [[m(1, ["1", "2", "3"], "3"), m(1, ["5"], "5")], [m(1, ["5", "6"], "6")], [m(1, ["8", "9", "10"], "10")]],
  responses: [
    {
      label: "Response",
      spec: "{old man, his} {dog} {river bank}",
      entities: [[m(1, ["2", "3"], "3"), m(1, ["5"], "5")], [m(1, ["6"], "6")], [m(1, ["9", "10"], "10")]],
    },
  ],
};

/**
 * The zero score: dropped subjects restored as empty nodes (∅). Of the three key zero
 * anaphors the response links one right, one to the wrong entity, and misses one.
 */
export const ZERO_EXAMPLE: CorefUDExample = {
  source: "An example made for this page (the CRAC 2022 findings print none).",
  description:
    "Four sentences with three dropped subjects, restored as empty nodes: “Mary arrived. ∅ was tired. John called and ∅ left. ∅ came back.” In the key the first ∅ is Mary, the other two are John. The response links the first ∅ to Mary, the second to Mary as well, and has no mention on the third.",
  sentences: [
    [
      { id: "1", form: "Mary" },
      { id: "2", form: "arrived" },
      { id: "3", form: "." },
    ],
    [
      { id: "0.1", form: EMPTY_FORM, deps: "2:nsubj" },
      { id: "1", form: "was" },
      { id: "2", form: "tired" },
      { id: "3", form: "." },
    ],
    [
      { id: "1", form: "John" },
      { id: "2", form: "called" },
      { id: "3", form: "and" },
      { id: "3.1", form: EMPTY_FORM, deps: "4:nsubj" },
      { id: "4", form: "left" },
      { id: "5", form: "." },
    ],
    [
      { id: "0.1", form: EMPTY_FORM, deps: "1:nsubj" },
      { id: "1", form: "came" },
      { id: "2", form: "back" },
      { id: "3", form: "." },
    ],
  ],
  keySpec: "{Mary, ∅ (sentence 2)} {John, ∅ (sentence 3), ∅ (sentence 4)}",
  key: [
    [m(1, ["1"], "1"), m(2, ["0.1"], "0.1")],
    [m(3, ["1"], "1"), m(3, ["3.1"], "3.1"), m(4, ["0.1"], "0.1")],
  ],
  responses: [
    {
      label: "Response",
      spec: "{Mary, ∅ (sentence 2), ∅ (sentence 3)} {John}",
      entities: [[m(1, ["1"], "1"), m(2, ["0.1"], "0.1"), m(3, ["3.1"], "3.1")], [m(3, ["1"], "1")]],
    },
  ],
};

/** A node ID as (ord, sub): `"3.1"` → [3, 1], `"4"` → [4, 0]. */
function parseId(id: string): [number, number] {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(id);
  if (!match) throw new RangeError(`not a CoNLL-U node ID: ${JSON.stringify(id)}`);
  return [Number(match[1]), match[2] === undefined ? 0 : Number(match[2])];
}

/** Where an example's nodes are: their codes, sentences and lines. */
interface Layout {
  sentences: CorefUDSentence[];
  /** `"s:id"` → node code, sentence index (0-based), line, the line's text and its DEPS column. */
  nodes: Map<string, { code: NodeCode; sentence: number; line: number; lineText: string; depsColumn: number; deps: string | undefined }>;
  /** Word forms of the document, and the document index of each word `"s:id"`. */
  tokens: string[];
  sentenceStarts: number[];
  wordIndex: Map<string, number>;
}

/**
 * Lays an example's sentences out as a CoNLL-U file would hold them (a `# sent_id` line, one
 * line per node, a blank line), with the node codes of `scoring/types.ts`:
 * `(slot(s) + ord) * 1024 + sub`, `slot(s)` = Σ over earlier sentences of (words + 1).
 */
function layout(example: CorefUDExample): Layout {
  const sentences: CorefUDSentence[] = [];
  const nodes: Layout["nodes"] = new Map();
  const tokens: string[] = [];
  const sentenceStarts: number[] = [];
  const wordIndex = new Map<string, number>();
  let slot = 0;
  let line = 1;
  example.sentences.forEach((sentence, s) => {
    line++; // # sent_id
    const forms: string[] = [];
    const wordLines: number[] = [];
    const first = line;
    sentenceStarts.push(tokens.length);
    for (const node of sentence) {
      const [ord, sub] = parseId(node.id);
      const lineText = [node.id, node.form, "_", "_", "_", "_", sub ? "_" : "0", sub ? "_" : "dep", node.deps ?? "_", "_"].join("\t");
      const depsColumn = lineText.split("\t").slice(0, 8).join("\t").length + 2;
      nodes.set(`${s + 1}:${node.id}`, { code: (slot + ord) * 1024 + sub, sentence: s, line, lineText, depsColumn, deps: node.deps });
      if (sub === 0) {
        forms.push(node.form);
        wordLines.push(line);
        wordIndex.set(`${s + 1}:${node.id}`, tokens.length);
        tokens.push(node.form);
      }
      line++;
    }
    line++; // blank line
    sentences.push({ sentId: String(s + 1), forms, wordLines, line: first, slot });
    slot += forms.length + 1;
  });
  return { sentences, nodes, tokens, sentenceStarts, wordIndex };
}

/** An empty node's DEPS as `Dep`s (parents as node codes of its sentence). */
function depsOf(deps: string | undefined, sentence: CorefUDSentence): Dep[] | null {
  if (!deps || deps === "_") return null;
  return deps.split("|").map((item) => {
    const [parent, deprel] = item.split(/:(.*)/s);
    const [ord, sub] = parseId(parent);
    return { parent: (sentence.slot + ord) * 1024 + sub, deprel };
  });
}

/**
 * One side of an example as the CorefUD CoNLL-U reader would read it.
 *
 * @param example the example
 * @param entities the key's or a response's entities
 * @param file the file name for messages
 * @returns a one-document corpus whose document has `corefud` (so `evaluate` scores it as the
 *   CorefUD scorer does) and, as `entities`, the span view (first to last word; mentions of
 *   empty nodes only are left out)
 * @throws RangeError when a mention names a node the sentences lack, or a head outside it
 */
export function corefudCorpus(example: CorefUDExample, entities: readonly ExampleNodeMention[][], file: string): Corpus {
  const lay = layout(example);
  const node = (ref: string) => {
    const n = lay.nodes.get(ref);
    if (!n) throw new RangeError(`example mention node ${ref} is not in the sentences`);
    return n;
  };
  const corefudEntities: CorefUDMention[][] = entities.map((entity) =>
    entity.map((mention) => {
      if (!mention.nodes.includes(mention.head)) throw new RangeError(`example mention head ${mention.head} is not one of its nodes`);
      const head = node(mention.head);
      const zero = head.code % 1024 !== 0;
      const first = node(mention.nodes[0]);
      return {
        nodes: [...new Set(mention.nodes.map((ref) => node(ref).code))].sort((a, b) => a - b),
        head: head.code,
        zero,
        sentence: head.sentence,
        headDeps: zero ? depsOf(head.deps, lay.sentences[head.sentence]) : null,
        headDepsAt: zero ? { line: head.line, column: head.depsColumn, lineText: head.lineText } : null,
        line: first.line,
        column: first.lineText.lastIndexOf("\t") + 2,
      };
    }),
  );
  const spanEntities: Entity[] = entities
    .map((entity) =>
      entity.flatMap((mention): Mention[] => {
        const words = mention.nodes.map((ref) => lay.wordIndex.get(ref)).filter((i): i is number => i !== undefined);
        return words.length ? [[Math.min(...words), Math.max(...words)]] : [];
      }),
    )
    .filter((e) => e.length > 0);
  return {
    file,
    warnings: [],
    documents: [
      {
        id: "example",
        name: "example",
        part: null,
        tokens: lay.tokens,
        sentenceStarts: lay.sentenceStarts,
        entities: spanEntities,
        line: 1,
        corefud: { sentences: lay.sentences, entities: corefudEntities },
      },
    ],
  };
}

/**
 * A mention as people read it: its forms in node order, e.g. "The old man" or "∅".
 *
 * @param example the example whose sentences hold the mention's nodes
 */
export function mentionText(example: CorefUDExample, mention: ExampleNodeMention): string {
  const forms = new Map<string, string>(example.sentences.flatMap((sentence, s) => sentence.map((n): [string, string] => [`${s + 1}:${n.id}`, n.form])));
  return mention.nodes.map((ref) => forms.get(ref) ?? ref).join(" ");
}

/** The sentences as text lines, e.g. "2  ∅ was tired ." (sentence number, then the forms). */
export function sentenceLines(example: CorefUDExample): string[] {
  return example.sentences.map((sentence, s) => `${s + 1}  ${sentence.map((n) => n.form).join(" ")}`);
}
