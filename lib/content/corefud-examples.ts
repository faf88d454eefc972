/**
 * Worked examples in the CorefUD format for the metric pages of the CorefUD scorer's own
 * metrics (MOR and the zero anaphor score, `lib/content/metrics-explained.ts`), whose paper
 * (Žabokrtský et al. 2022, CRAC 2022 findings) prints no worked example.
 *
 * An example is written as CoNLL-U sentences (word and empty-node IDs, forms, and the DEPS of
 * empty nodes) and entities whose mentions are sets of nodes (`"2:0.1"` = sentence 2, node
 * 0.1) with a head. {@link corefudCorpus} writes one side as a CorefUD CoNLL-U file and reads it
 * with the CorefUD reader (written by `writeCorefUD`, which also writes the response runs of the
 * demo task), so that `evaluate` scores it on the CorefUD path exactly as it scores an uploaded
 * CorefUD file.
 */
import type { Corpus } from "../../scoring/types";
import { readCorefUD } from "../../scoring/formats/conllu";
import { corefudNodeLines, writeCorefUD } from "../../scoring/formats/write-conllu";

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

/**
 * One side of an example as a CorefUD CoNLL-U file (a `# sent_id` line, one line per node with
 * its DEPS, the entities written by `writeCorefUD`: `Entity=` brackets with the head of each
 * mention), so the reader builds the CorefUD view exactly as for an upload.
 *
 * @throws RangeError when a mention names a node the sentences lack or has a head outside it
 */
export function corefudConllu(example: CorefUDExample, entities: readonly ExampleNodeMention[][]): string {
  const lines = ["# newdoc id = example"];
  const refs: string[] = [];
  example.sentences.forEach((sentence, s) => {
    lines.push(`# sent_id = ${s + 1}`);
    for (const node of sentence) {
      const empty = node.id.includes(".");
      lines.push([node.id, node.form, "_", "_", "_", "_", empty ? "_" : "0", empty ? "_" : "dep", node.deps ?? "_", "_"].join("\t"));
      refs.push(`${s + 1}:${node.id}`);
    }
    lines.push("");
  });
  const bare = lines.join("\n") + "\n";
  // Every node is a word or an empty node (no multiword tokens): the node lines are `refs` in order.
  const nodes = corefudNodeLines(bare, "example.conllu")[0].nodes;
  const code = new Map(refs.map((ref, i) => [ref, nodes[i].code]));
  const at = (ref: string) => {
    const c = code.get(ref);
    if (c === undefined) throw new RangeError(`example mention node ${ref} is not in the sentences`);
    return c;
  };
  const written = entities.map((entity) => entity.map((m) => ({ nodes: m.nodes.map(at), head: at(m.head) })));
  return writeCorefUD(bare, new Map([["example", written]]), { file: "example.conllu" });
}

/**
 * One side of an example read as the CorefUD CoNLL-U reader reads an upload.
 *
 * @param example the example
 * @param entities the key's or a response's entities
 * @param file the file name for messages
 * @returns a one-document corpus with `corefud` (so `evaluate` scores it as the CorefUD scorer does)
 * @throws RangeError for a malformed example (see `corefudConllu`)
 */
export function corefudCorpus(example: CorefUDExample, entities: readonly ExampleNodeMention[][], file: string): Corpus {
  return readCorefUD(corefudConllu(example, entities), file);
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
