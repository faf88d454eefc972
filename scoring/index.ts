/**
 * Corefboard's scoring library: readers for coreference formats, the metrics, and
 * `evaluate`. Framework-free: it imports nothing from lib/, app/, Next or Prisma.
 */
export * from "./types.js";
export { readConll2012 } from "./formats/conll2012.js";
export type { ReadLimits } from "./formats/limits.js";
export { evaluate, METRICS, COUNT_METRICS, type MetricName, type CountMetric, type EvaluateOptions, type Report, type DocumentReport, type MetricScores, type BlancScore } from "./evaluate.js";
export { toScore, type Counts, type Score } from "./metrics/counts.js";
export { blancScore, type BlancCounts } from "./metrics/blanc.js";
export type { BcubWeighting } from "./metrics/bcub.js";
