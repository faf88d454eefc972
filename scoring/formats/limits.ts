/**
 * Limits on the work a format reader does, shared by every reader. Going over one is a
 * `FormatError` at the place where the limit was crossed.
 */

/** Limits that bound the work a reader does; going over one is a `FormatError`. */
export interface ReadLimits {
  /** Most documents in one file. */
  maxDocuments?: number;
  /** Most tokens in one document. */
  maxTokensPerDocument?: number;
  /** Most mentions in one document (checked as mentions open, so `(1(1(1...` is stopped early). */
  maxMentionsPerDocument?: number;
}

/**
 * Limits `readCorpus` applies when a caller gives none: generous for any real corpus, but low
 * enough that a hostile file gets a FormatError long before a JavaScript engine limit is reached.
 */
export const DEFAULT_LIMITS: Required<ReadLimits> = {
  maxDocuments: 100_000,
  maxTokensPerDocument: 5_000_000,
  maxMentionsPerDocument: 2_000_000,
};

/**
 * The limits a reader called directly works with.
 *
 * @param limits the limits a caller gave (any of them may be missing or `undefined`)
 * @returns every limit, `Infinity` (no limit) for each one not given; unlike `readCorpus`,
 *   the readers do not fall back to `DEFAULT_LIMITS`
 */
export function resolveLimits(limits: ReadLimits): Required<ReadLimits> {
  return {
    maxDocuments: limits.maxDocuments ?? Infinity,
    maxTokensPerDocument: limits.maxTokensPerDocument ?? Infinity,
    maxMentionsPerDocument: limits.maxMentionsPerDocument ?? Infinity,
  };
}
