/**
 * Corefboard's scoring library: readers for coreference formats, the metric registry, the
 * metrics, `evaluate` (the CoNLL reference scorer's way for CoNLL-2012 input, the CorefUD
 * scorer's way, in all its matching modes, for CorefUD CoNLL-U), the CRAC preset, the score
 * JSON format, and from `analysis/` the paired bootstrap over documents and mapped cluster F.
 * Framework-free: it imports nothing from lib/, app/, Next or Prisma.
 */
export * from "./types.js";
export { readConll2012 } from "./formats/conll2012.js";
export type { ReadLimits } from "./formats/limits.js";
export {
  evaluate,
  METRICS,
  COUNT_METRICS,
  OPTIONAL_METRICS,
  SELECTABLE_METRICS,
  MENTION_MATCHES,
  ZERO_MATCHES,
  type MetricName,
  type CountMetric,
  type OptionalMetric,
  type SelectableMetric,
  type MentionMatch,
  type ZeroMatch,
  type EvaluateOptions,
  type Report,
  type DocumentReport,
  type MetricScores,
  type BlancScore,
} from "./evaluate.js";
export {
  METRIC_REGISTRY,
  ALL_COUNT_METRICS,
  CONLL_METRICS,
  REPORTED_METRICS,
  metricSpec,
  isMetricId,
  type MetricSpec,
  type MetricKind,
  type MetricId,
  type ReportedMetric,
} from "./metrics/registry.js";
export {
  CONLL2012_PRESET,
  CRAC_PRESET,
  CRAC_VARIANTS,
  customProfile,
  EVALUATION_PROFILE_NAMES,
  EVALUATION_PROFILES,
  PRESETS,
  PRESET_NAMES,
  presetOptions,
  profileNeedsHeads,
  type CustomEvaluation,
  type EvaluationPreset,
  type EvaluationProfile,
  type EvaluationProfileName,
  type EvaluationVariant,
  type PresetName,
} from "./presets.js";
export { toScore, type Counts, type Score } from "./metrics/counts.js";
export { blancScore, type BlancCounts, type BlancRule } from "./metrics/blanc.js";
export {
  countsFromJson,
  countsToJson,
  metricsJsonFromCounts,
  metricsToJson,
  parseMetricsJson,
  parseReportJson,
  reportToJson,
  scoresFromJson,
  scoreToJson,
  ScoreJsonError,
  SCORE_JSON_METRICS,
  type BlancJson,
  type ConllJson,
  type CountScoreJson,
  type CountsJson,
  type DocumentJson,
  type MetricCountsLike,
  type MetricScoresLike,
  type MetricsJson,
  type ReportJson,
} from "./score-json.js";
export type { BcubWeighting } from "./metrics/bcub.js";
export {
  pairedBootstrap,
  bootstrapInterval,
  reportDocuments,
  BOOTSTRAP_SEED,
  DEFAULT_BOOTSTRAP_SAMPLES,
  MAX_BOOTSTRAP_SAMPLES,
  type DocumentCounts,
  type RunDocuments,
  type BootstrapOptions,
  type MetricComparison,
  type PairedBootstrapResult,
  type Interval,
} from "./analysis/bootstrap.js";
export {
  mappedClusterF,
  MAPPED_F_THRESHOLD,
  type MappedClusterF,
  type MappedClusterFOptions,
  type MappedEntity,
} from "./analysis/mapped-cluster-f.js";
