/**
 * Three baseline systems for the demo task. Each reads the key's mentions (gold mentions,
 * as in the classic "gold mention" setting) and their token texts, and groups them:
 * - `singletons`: every mention is its own entity;
 * - `exact-match`: mentions with the same text (case-insensitive) are one entity;
 * - `string-and-pronoun-match`: exact match for names and nouns, and every third-person
 *   pronoun joins the entity of the closest preceding non-pronoun mention (a crude
 *   "most recent antecedent" rule), first-person pronouns form one speaker entity.
 * They are deliberately simple: their purpose is real, different numbers on the demo
 * leaderboard, produced through the real submission pipeline.
 */
import type { Corpus, Document, Entity, Mention } from "../../scoring/index";

/** A baseline: a name, a description, and the function that builds its entities. */
export interface Baseline {
  id: "singletons" | "exact-match" | "string-and-pronoun-match";
  systemName: string;
  description: string;
  resolve(document: Document): Entity[];
}

/** First-person pronouns (lower case), shared with the GUM demo baselines. */
export const FIRST_PERSON: ReadonlySet<string> = new Set(["i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"]);
/** Third-person pronouns (lower case), shared with the GUM demo baselines. */
export const THIRD_PERSON: ReadonlySet<string> = new Set([
  "he", "him", "his", "himself", "she", "her", "hers", "herself",
  "it", "its", "itself", "they", "them", "their", "theirs", "themselves",
]);

/** The key's mentions in text order (start, then end). */
function mentionsOf(document: Document): Mention[] {
  const seen = new Set<string>();
  const out: Mention[] = [];
  for (const entity of document.entities) {
    for (const m of entity) {
      const key = `${m[0]},${m[1]}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(m);
      }
    }
  }
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function textOf(document: Document, m: Mention): string {
  return document.tokens.slice(m[0], m[1] + 1).join(" ").toLowerCase();
}

/**
 * Groups mentions by a key, in order of first appearance; mentions whose key is null become
 * singletons. Shared with the GUM demo baselines (CorefUD mentions).
 */
export function groupBy<M>(mentions: readonly M[], keyOf: (m: M, i: number) => string | null): M[][] {
  const groups = new Map<string, M[]>();
  const out: M[][] = [];
  mentions.forEach((m, i) => {
    const key = keyOf(m, i);
    if (key === null) {
      out.push([m]);
      return;
    }
    let group = groups.get(key);
    if (!group) {
      group = [];
      groups.set(key, group);
      out.push(group);
    }
    group.push(m);
  });
  return out;
}

export const BASELINES: readonly Baseline[] = [
  {
    id: "singletons",
    systemName: "Baseline: all singletons",
    description: "Every gold mention is its own entity. Scores 0 on MUC and shows what B³, CEAF and LEA give for no linking at all.",
    resolve: (document) => mentionsOf(document).map((m) => [m]),
  },
  {
    id: "exact-match",
    systemName: "Baseline: exact string match",
    description: "Gold mentions with the same text (case-insensitive) form one entity.",
    resolve: (document) => groupBy(mentionsOf(document), (m) => textOf(document, m)),
  },
  {
    id: "string-and-pronoun-match",
    systemName: "Baseline: string match + nearest antecedent for pronouns",
    description:
      "Exact string match for non-pronouns; each third-person pronoun joins the closest preceding non-pronoun mention's entity; first-person pronouns form one speaker entity.",
    resolve: (document) => {
      const mentions = mentionsOf(document);
      let lastNonPronoun: string | null = null;
      return groupBy(mentions, (m) => {
        const text = textOf(document, m);
        if (FIRST_PERSON.has(text)) return "\u0000speaker";
        if (THIRD_PERSON.has(text)) return lastNonPronoun;
        lastNonPronoun = text;
        return text;
      });
    },
  },
];

/**
 * Runs a baseline over every document of a key corpus.
 * @returns documents with the same ids, tokens and sentences, and the baseline's entities
 */
export function runBaseline(baseline: Baseline, key: Corpus): Document[] {
  return key.documents.map((d) => ({ ...d, entities: baseline.resolve(d) }));
}
