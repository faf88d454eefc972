/**
 * Exact counts and the scores derived from them.
 *
 * Every metric returns, per document, a recall numerator and denominator and a precision
 * numerator and denominator. Corpus scores sum the counts over documents and divide once
 * (micro-average), as the CoNLL reference scorer does. Numerators of MUC, BLANC and mention
 * identification are integers; those of B³, CEAF and LEA are sums of fractions.
 */

/** Recall and precision as numerator/denominator pairs. */
export interface Counts {
  recallNum: number;
  recallDen: number;
  precisionNum: number;
  precisionDen: number;
}

/** Counts with the fractions derived from them (all in [0, 1]). */
export interface Score extends Counts {
  recall: number;
  precision: number;
  f1: number;
}

/** New counts with every field 0 (a fresh object, to sum into with `addCounts`). */
export function zeroCounts(): Counts {
  return { recallNum: 0, recallDen: 0, precisionNum: 0, precisionDen: 0 };
}

/** Adds `b` into `a` (mutates and returns `a`). */
export function addCounts(a: Counts, b: Counts): Counts {
  a.recallNum += b.recallNum;
  a.recallDen += b.recallDen;
  a.precisionNum += b.precisionNum;
  a.precisionDen += b.precisionDen;
  return a;
}

/** `num / den`, or 0 when `den` is 0 (the reference scorer's `ShowRPF` rule). */
export function ratio(num: number, den: number): number {
  return den === 0 ? 0 : num / den;
}

/** The harmonic mean 2PR/(P+R) of two fractions, or 0 when both are 0. */
export function harmonicMean(p: number, r: number): number {
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

/**
 * Recall, precision and F1 (fractions in [0, 1]) from counts: recall = num/den (0 when
 * den = 0), likewise precision, F1 = 2PR/(P+R) (0 when P + R = 0).
 */
export function toScore(c: Counts): Score {
  const recall = ratio(c.recallNum, c.recallDen);
  const precision = ratio(c.precisionNum, c.precisionDen);
  // The four counts copied by name, not spread: `toScore` runs per metric and document, and a
  // spread is a generic object copy until the code is optimized.
  return {
    recallNum: c.recallNum,
    recallDen: c.recallDen,
    precisionNum: c.precisionNum,
    precisionDen: c.precisionDen,
    recall,
    precision,
    f1: harmonicMean(precision, recall),
  };
}
