/**
 * A task's evaluation profile (issue 10 §3): which `evaluate` settings score its runs, the
 * secondary variants stored beside the primary scores, and the record of both kept on every
 * scored run (`submissions.evaluation`, with `scorer_version`).
 *
 * The profiles themselves are scoring facts and live in `scoring/presets.ts`; this module maps
 * a task row onto one and turns a profile into `evaluate` options for a given gold format.
 */
import {
  customProfile,
  EVALUATION_PROFILE_NAMES,
  EVALUATION_PROFILES,
  MENTION_MATCHES,
  presetOptions,
  profileNeedsHeads,
  ZERO_MATCHES,
  type EvaluateOptions,
  type EvaluationPreset,
  type EvaluationProfile,
  type EvaluationProfileName,
  type MentionMatch,
  type ZeroMatch,
} from "../../scoring";

export { EVALUATION_PROFILE_NAMES, profileNeedsHeads, type EvaluationProfile, type EvaluationProfileName };

/** The task columns a profile is read from. */
export interface TaskEvaluationFields {
  evaluationProfile: string;
  mentionMatching: string;
  keepSingletons: boolean;
  zeroMatching: string;
}

/**
 * The evaluation profile of a task.
 *
 * @param task the task's `evaluationProfile`, and for `custom` its `mentionMatching`,
 *   `keepSingletons` and `zeroMatching`
 * @returns the profile; an unknown stored name (impossible: a CHECK constraint) is read as
 *   `conll2012`, an unknown custom match or zero matching as `exact` / `dependent`
 */
export function taskEvaluationProfile(task: TaskEvaluationFields): EvaluationProfile {
  if (task.evaluationProfile === "crac") return EVALUATION_PROFILES.crac;
  if (task.evaluationProfile !== "custom") return EVALUATION_PROFILES.conll2012;
  const match = (MENTION_MATCHES as readonly string[]).includes(task.mentionMatching) ? (task.mentionMatching as MentionMatch) : "exact";
  const zeroMatch = (ZERO_MATCHES as readonly string[]).includes(task.zeroMatching) ? (task.zeroMatching as ZeroMatch) : "dependent";
  return customProfile({ match, zeroMatch, removeSingletons: !task.keepSingletons });
}

/**
 * The `evaluate` options of one setting of a profile.
 *
 * @param preset the profile's `primary` or a variant's `preset`
 * @param corefud whether the gold key is CorefUD CoNLL-U (the zero score is dropped for other
 *   input, which has no empty nodes: it would always be 0 of 0)
 * @param extra further options, e.g. `{ mappedClusterF: true }` (primary setting only)
 */
export function evaluateOptionsFor(preset: EvaluationPreset, corefud: boolean, extra: EvaluateOptions = {}): EvaluateOptions {
  const options = presetOptions(preset, extra);
  if (!corefud) options.metrics = (options.metrics ?? []).filter((m) => m !== "zero");
  return options;
}

/** One setting as recorded on a run. */
export interface RecordedSetting {
  match: MentionMatch;
  zeroMatch: ZeroMatch;
  removeSingletons: boolean;
  removeZeros: boolean;
}

/** What `submissions.evaluation` holds: the profile and every setting a run's scores come from. */
export interface RunEvaluation {
  profile: EvaluationProfileName;
  label: string;
  primary: RecordedSetting;
  /** Secondary variants, in the profile's order; their scores are stored under `scores.variant = id`. */
  variants: (RecordedSetting & { id: string; label: string })[];
  /**
   * Every dataset of the run's phase, in the phase's order (absent on runs scored before
   * datasets existed). The phase-level scores average the datasets with a gold key.
   */
  datasets?: RunDatasetRecord[];
}

/** One dataset of a scored run (`RunEvaluation.datasets`). */
export interface RunDatasetRecord {
  id: string;
  name: string;
  /** the dataset's gold key version the run was scored against; null when it has none yet (left out of the average) */
  goldVersion: number | null;
  /** true when the run has no file for the dataset: it counts 0 in the macro-average */
  missing: boolean;
}

const recorded = (p: EvaluationPreset): RecordedSetting => ({
  match: p.match,
  zeroMatch: p.zeroMatch,
  removeSingletons: p.removeSingletons,
  removeZeros: p.removeZeros,
});

/** The record of `profile` kept on a run scored with it (`submissions.evaluation`). */
export function runEvaluation(profile: EvaluationProfile): RunEvaluation {
  return {
    profile: profile.name,
    label: profile.label,
    primary: recorded(profile.primary),
    variants: profile.variants.map((v) => ({ id: v.id, label: v.label, ...recorded(v.preset) })),
  };
}

/**
 * Whether a gold key file can be scored under `profile`: partial and head match need CorefUD
 * CoNLL-U (`.conllu`) gold.
 *
 * @returns null when it can, else the reason, for the organizer
 */
export function goldFitsProfile(goldFileName: string, profile: EvaluationProfile): string | null {
  if (!profileNeedsHeads(profile) || goldFileName.toLowerCase().endsWith(".conllu")) return null;
  return `The ${profile.label} evaluation profile matches mentions by their heads, which only CorefUD CoNLL-U (.conllu) files have; ${goldFileName} is not one. Upload the gold key as .conllu, or choose the CoNLL-2012 profile.`;
}
