/**
 * Three baseline systems for the GUM demo task (CorefUD). Each takes the key's mentions (gold
 * mentions, with their node sets and heads as the key declares them, so that mention matching
 * is perfect) and groups them by a simple rule:
 * - `singletons`: every mention is its own entity (under the task's primary setting, which
 *   excludes singletons, nothing is left to score: it shows the floor, and the "with
 *   singletons" variant shows what the mentions alone give);
 * - `same-head`: mentions whose syntactic head word has the same form (case-insensitive) are
 *   one entity; the syntactic head is the first word of the mention whose parent in the key's
 *   UD tree (HEAD column) lies outside the mention;
 * - `head-and-pronoun`: `same-head` for mentions not headed by a pronoun; a mention headed by a
 *   third-person pronoun joins the entity of the closest preceding mention not headed by a
 *   pronoun, and mentions headed by a first-person pronoun form one speaker entity.
 * They are deliberately simple: real, different numbers on the demo leaderboard, produced
 * through the real submission pipeline. Responses are written with `writeCorefUD`.
 */
import { readCorefUD } from "../../scoring/formats/conllu";
import { corefudNodeLines, writeCorefUD } from "../../scoring/formats/write-conllu";
import type { CorefUDMention, NodeCode } from "../../scoring/types";
import { FIRST_PERSON, THIRD_PERSON, groupBy } from "./baselines";

/** What a baseline sees of a gold mention. */
export interface GumMention {
  mention: CorefUDMention;
  /** The lower-cased form of its syntactic head word (see the module header). */
  headForm: string;
}

/** A GUM baseline: a name, a description, and the rule that groups a document's mentions. */
export interface GumBaseline {
  id: "singletons" | "same-head" | "head-and-pronoun";
  systemName: string;
  description: string;
  /** Groups the document's gold mentions (in text order) into entities. */
  resolve(mentions: readonly GumMention[]): GumMention[][];
}

const isPronoun = (form: string) => FIRST_PERSON.has(form) || THIRD_PERSON.has(form);

/** The three GUM demo baselines, in the order the demo submits them. */
export const GUM_BASELINES: readonly GumBaseline[] = [
  {
    id: "singletons",
    systemName: "Baseline: all singletons",
    description:
      "Every gold mention is its own entity. With singletons excluded (the primary setting) nothing is left, so it scores 0; the “head match with singletons” variant shows what the mentions alone give.",
    resolve: (mentions) => mentions.map((m) => [m]),
  },
  {
    id: "same-head",
    systemName: "Baseline: same head word",
    description: "Gold mentions whose syntactic head word (from the UD tree) has the same form, case-insensitive, form one entity.",
    resolve: (mentions) => groupBy(mentions, (m) => m.headForm),
  },
  {
    id: "head-and-pronoun",
    systemName: "Baseline: same head word + nearest antecedent for pronouns",
    description:
      "Same head word for gold mentions not headed by a pronoun; a mention headed by a third-person pronoun joins the closest preceding non-pronoun mention's entity; first-person pronouns form one speaker entity.",
    resolve: (mentions) => {
      let last: string | null = null;
      return groupBy(mentions, (m) => {
        if (FIRST_PERSON.has(m.headForm)) return "\u0000speaker";
        if (THIRD_PERSON.has(m.headForm)) return last;
        if (!isPronoun(m.headForm)) last = m.headForm;
        return m.headForm;
      });
    },
  },
];

const NODE_CODE_FACTOR = 1024;

/**
 * The gold mentions of every document of a CorefUD key, in text order (first node, then last
 * node), each once, with the form of its syntactic head word.
 *
 * @param key the key file's text or bytes
 * @param file its name, for messages
 * @returns per document id, its mentions
 * @throws FormatError when the key does not read
 */
export function gumMentions(key: string | Uint8Array, file: string): Map<string, GumMention[]> {
  const corpus = readCorefUD(key, file);
  const lines = new Map(corefudNodeLines(key, file).map((d) => [d.id, d.nodes]));
  const out = new Map<string, GumMention[]>();
  for (const doc of corpus.documents) {
    // Each word's form and its parent's code (null for the root and for empty nodes).
    const words = new Map<NodeCode, { form: string; parent: NodeCode | null }>();
    for (const node of lines.get(doc.id) ?? []) {
      if (node.code % NODE_CODE_FACTOR !== 0) continue;
      const slot = node.code / NODE_CODE_FACTOR - Number(node.columns[0]);
      const parent = Number(node.columns[6]);
      words.set(node.code, { form: node.columns[1], parent: Number.isInteger(parent) && parent > 0 ? (slot + parent) * NODE_CODE_FACTOR : null });
    }
    const seen = new Set<string>();
    const mentions: GumMention[] = [];
    for (const entity of doc.corefud?.entities ?? []) {
      for (const mention of entity) {
        const id = mention.nodes.join(",");
        if (seen.has(id)) continue;
        seen.add(id);
        const inside = new Set(mention.nodes);
        const head = mention.nodes.find((n) => words.has(n) && !inside.has(words.get(n)!.parent ?? -1)) ?? mention.head;
        mentions.push({ mention, headForm: (words.get(head)?.form ?? "").toLowerCase() });
      }
    }
    mentions.sort((a, b) => a.mention.nodes[0] - b.mention.nodes[0] || a.mention.nodes[a.mention.nodes.length - 1] - b.mention.nodes[b.mention.nodes.length - 1]);
    out.set(doc.id, mentions);
  }
  return out;
}

/**
 * Runs a baseline over every document of a CorefUD key.
 *
 * @param baseline the rule
 * @param key the key file's text or bytes
 * @param mentions `gumMentions(key)`, when already computed
 * @returns the response: the key's lines with the baseline's entities (`writeCorefUD`)
 */
export function runGumBaseline(baseline: GumBaseline, key: string | Uint8Array, mentions = gumMentions(key, "key.conllu")): string {
  const entities = new Map([...mentions].map(([id, list]) => [id, baseline.resolve(list).map((e) => e.map((m) => m.mention))]));
  return writeCorefUD(key, entities);
}
