/**
 * The mention-density bound: a document may hold at most {@link MAX_MENTIONS_PER_TOKEN}
 * mentions per token, plus {@link MENTION_DENSITY_FLOOR} (so that tiny documents, such as
 * test fixtures of a few words, are never refused).
 *
 * Why: scoring work grows with the number of mentions, not with the file's size, so a file of
 * one-word mentions stacked on few tokens (e.g. 600,000 mentions per document) stays under the
 * byte and per-document mention limits (`limits.ts`) yet holds a scoring slot for minutes.
 * Real annotation never comes close. Measured per document (mentions / tokens, empty nodes
 * counted as tokens) on the corpora in `shared/data`, with the scorer's own readers:
 *
 * | corpus | docs | overall | highest document | deepest nesting |
 * |---|---|---|---|---|
 * | LitBank (CoNLL) | 100 | 0.138 | 0.196 (351_of_human_bondage: 393 / 2,004) | 5 |
 * | OpenBoek (CoNLL-2012) | 9 | 0.228 | 0.241 (Hugo_DeEllendigen: 2,414 / 10,022) | 4 |
 * | GUM, OntoGUM CoNLL | 108 | 0.119 | 0.194 (GUM_news_imprisoned: 88 / 454) | 4 |
 * | GUM, CorefUD CoNLL-U (singletons kept) | 108 | 0.289 | 0.350 (GUM_bio_holt: 377 / 1,078) | 7 |
 *
 * The bound, 2 per token, is 5.7 times the densest real document (0.35), and leaves room for a
 * system that over-generates candidate mentions (every token a one-word mention is still only
 * 1 per token). Nesting depth is not bounded separately: it never exceeds 7 in real data, and
 * the density bound already caps the mentions that deep nesting could pile up.
 *
 * The bound applies to gold keys too: they reach the same scoring slot, and no real corpus is
 * within a factor of five of it, so an organizer who hits it has a broken key.
 */
import { FormatError, type Corpus } from "../types.js";

/** Most mentions per token a document may hold (beyond {@link MENTION_DENSITY_FLOOR}). */
export const MAX_MENTIONS_PER_TOKEN = 2;

/** Mentions every document may hold whatever its length. */
export const MENTION_DENSITY_FLOOR = 20;

/**
 * The most mentions a document of `tokens` tokens may hold.
 *
 * @param tokens the document's token count (words, plus empty nodes in CoNLL-U)
 * @returns `MAX_MENTIONS_PER_TOKEN * tokens + MENTION_DENSITY_FLOOR`
 */
export function maxMentionsFor(tokens: number): number {
  return MAX_MENTIONS_PER_TOKEN * tokens + MENTION_DENSITY_FLOOR;
}

/**
 * Checks every document of a parsed corpus against the mention-density bound.
 *
 * @param corpus a corpus as a reader returned it
 * @throws FormatError (a 422 at upload) at the first document over the bound: its file, the
 *   line of its header (column 1), the bound and the document's name with its mention and
 *   token counts
 */
export function checkMentionDensity(corpus: Corpus): void {
  for (const doc of corpus.documents) {
    let mentions = 0;
    for (const entity of doc.entities) mentions += entity.length;
    const tokens = doc.tokens.length;
    const bound = maxMentionsFor(tokens);
    if (mentions > bound) {
      throw new FormatError({
        file: corpus.file,
        line: doc.line,
        column: 1,
        expected: `at most ${MAX_MENTIONS_PER_TOKEN} mentions per token in a document (${bound} for its ${tokens} tokens; real corpora have at most 0.35 per token)`,
        found: `${mentions} mentions on ${tokens} tokens in document ${JSON.stringify(doc.name)}`,
      });
    }
  }
}
