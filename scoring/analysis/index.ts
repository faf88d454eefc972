/**
 * The analyses behind the numbers, for one run: Kummerfeld & Klein (2013) error categories
 * (`errors.ts`), Byron's (2001) pronoun standard disclosure (`disclosure.ts`, with the
 * lexicons of `pronouns.ts`), the paired bootstrap (`bootstrap.ts`) and mapped cluster F
 * (`mapped-cluster-f.ts`). Pure functions, framework-free like the rest of `scoring/`.
 */
import type { Corpus } from "../types.js";
import { analyzeErrors, type CorpusErrors } from "./errors.js";
import { pronounDisclosure, type PronounDisclosure } from "./disclosure.js";
import { ENGLISH_PRONOUNS, type PronounLexicon } from "./pronouns.js";

export * from "./errors.js";
export * from "./disclosure.js";
export * from "./pronouns.js";
export * from "./bootstrap.js";
export * from "./mapped-cluster-f.js";

/** What {@link analyzeRun} computes for one run. */
export interface RunAnalysisResult {
  /** error category counts, in total and per key document */
  errors: CorpusErrors;
  /** per pronoun type counts of the standard disclosure (exclusions are applied when shown) */
  disclosure: PronounDisclosure;
}

/**
 * Error analysis and pronoun disclosure of a response against a key.
 *
 * @param key the key corpus
 * @param response the response corpus
 * @param options `removeSingletons`: analyse errors on the entities the task scores (as
 *   `evaluate`'s option of that name: entities of one mention dropped on both sides; the
 *   disclosure always uses every key mention, since a pronoun that is a singleton is still
 *   referential); `lexicon`: the pronoun lexicon (default {@link ENGLISH_PRONOUNS})
 * @returns the error counts and the disclosure counts (integers); never throws for corpora
 *   the readers returned
 */
export function analyzeRun(
  key: Corpus,
  response: Corpus,
  options: { removeSingletons?: boolean; lexicon?: PronounLexicon } = {},
): RunAnalysisResult {
  const scored = options.removeSingletons ? [withoutSingletons(key), withoutSingletons(response)] : [key, response];
  return {
    errors: analyzeErrors(scored[0], scored[1]),
    disclosure: pronounDisclosure(key, response, options.lexicon ?? ENGLISH_PRONOUNS),
  };
}

/** A shallow copy of `corpus` whose documents keep only entities of two or more mentions. */
export function withoutSingletons(corpus: Corpus): Corpus {
  return { ...corpus, documents: corpus.documents.map((d) => ({ ...d, entities: d.entities.filter((e) => e.length > 1) })) };
}
