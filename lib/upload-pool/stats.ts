/**
 * The counts an upload check returns: what a pool thread sends back instead of the corpus
 * (a corpus of a 50 MB file is hundreds of MB of objects; the counts are six numbers).
 */
import type { Corpus } from "../../scoring/types";

/** Counts describing a parsed coreference file (all whole numbers). */
export interface UploadStats {
  documents: number;
  tokens: number;
  mentions: number;
  entities: number;
  /** entities with exactly one mention */
  singletons: number;
  /** recoverable oddities the reader reported (e.g. repeated spans) */
  warnings: number;
}

/**
 * Counts documents, tokens, mentions, entities, singletons and reader warnings of a corpus.
 *
 * @param corpus a parsed file (for a gold key these are gold statistics: organizer-only)
 * @returns whole-number counts
 */
export function corpusStats(corpus: Corpus): UploadStats {
  const stats: UploadStats = { documents: corpus.documents.length, tokens: 0, mentions: 0, entities: 0, singletons: 0, warnings: corpus.warnings.length };
  for (const doc of corpus.documents) {
    stats.tokens += doc.tokens.length;
    stats.entities += doc.entities.length;
    for (const entity of doc.entities) {
      stats.mentions += entity.length;
      if (entity.length === 1) stats.singletons += 1;
    }
  }
  return stats;
}
