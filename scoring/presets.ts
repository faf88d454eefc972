/**
 * Named sets of `evaluate` options, shared by the CLI (`--preset`), the worker and the pages so
 * that one name always means the same settings.
 *
 * `crac` is the setting of the CRAC shared tasks on multilingual coreference resolution
 * (2022–2025): the CorefUD scorer v1.2 (ufal/corefud-scorer) run as `corefud-scorer.py KEY SYS`
 * with its defaults, which is how the shared task's primary score (the CoNLL F1) is computed:
 * - head match (`-a head`, its default), dependent zeros (`-z dependent`, its default);
 * - singletons excluded on key and response alike (no `-s`);
 * - the metrics its `-m all` (the default) prints: MUC, B³, CEAFe, CEAFm, BLANC, LEA, MOR and the
 *   zero score (`process_arguments` in its `ua-scorer.py` drops only `mention` for CorefUD input).
 *   Mention identification (`mentions`) is not among them.
 *
 * An **evaluation profile** is what a hosted task scores its runs with: a primary setting and
 * secondary variants computed beside it (`EVALUATION_PROFILES`, `customProfile`).
 */
import type { EvaluateOptions, MentionMatch, SelectableMetric, ZeroMatch } from "./evaluate.js";
import { METRICS, SELECTABLE_METRICS } from "./metrics/registry.js";

/** A named setting: every option `evaluate` needs to reproduce one official scorer's numbers. */
export interface EvaluationPreset {
  readonly match: MentionMatch;
  readonly zeroMatch: ZeroMatch;
  readonly removeSingletons: boolean;
  readonly removeZeros: boolean;
  /** The metrics the preset computes, in report order. */
  readonly metrics: readonly SelectableMetric[];
}

/** The CRAC shared task's setting (see the module header). */
export const CRAC_PRESET: EvaluationPreset = Object.freeze({
  match: "head",
  zeroMatch: "dependent",
  removeSingletons: true,
  removeZeros: false,
  metrics: Object.freeze(["muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mor", "zero"] as const),
});

/** The presets by name (the CLI's `--preset` choices). */
export const PRESETS = Object.freeze({ crac: CRAC_PRESET } as const);

/** A preset name: a key of `PRESETS`. */
export type PresetName = keyof typeof PRESETS;

/** The preset names, for option choices and messages. */
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

/**
 * The `evaluate` options of a preset with explicit settings on top.
 *
 * @param preset a preset, e.g. `CRAC_PRESET`
 * @param overrides options given explicitly; each one that is not `undefined` wins over the
 *   preset's value (e.g. `{ match: "exact" }` gives the CRAC setting with exact match)
 * @returns a new options object: the preset's match, zero match, singleton and zero removal and
 *   metrics, with the overrides applied, plus any other options of `overrides` as given
 */
export function presetOptions(preset: EvaluationPreset, overrides: EvaluateOptions = {}): EvaluateOptions {
  const out: EvaluateOptions = {
    match: preset.match,
    zeroMatch: preset.zeroMatch,
    removeSingletons: preset.removeSingletons,
    removeZeros: preset.removeZeros,
    metrics: [...preset.metrics],
  };
  for (const [key, value] of Object.entries(overrides) as [keyof EvaluateOptions, unknown][]) {
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * The CoNLL reference scorer's setting (v8.01, as the CoNLL-2011/2012 shared tasks used it): exact
 * spans, singletons kept, every non-optional metric (`METRICS`).
 */
export const CONLL2012_PRESET: EvaluationPreset = Object.freeze({
  match: "exact",
  zeroMatch: "dependent",
  removeSingletons: false,
  removeZeros: false,
  metrics: METRICS,
});

/** A secondary variant of a profile: computed and stored for every run beside the primary setting. */
export interface EvaluationVariant {
  /** URL- and column-safe id, e.g. `partial` (stored as `scores.variant`). */
  readonly id: string;
  /** For people, e.g. "Partial match". */
  readonly label: string;
  readonly preset: EvaluationPreset;
}

/**
 * The CRAC setting as a hosted task computes it: `CRAC_PRESET` plus mention identification, so
 * that every selectable metric (`SELECTABLE_METRICS`) is stored; the CorefUD scorer's metrics are
 * unchanged by it.
 */
const CRAC_HOSTED: EvaluationPreset = Object.freeze({ ...CRAC_PRESET, metrics: SELECTABLE_METRICS });

/**
 * CRAC 2024's three published variants beside the primary score (head match without singletons):
 * partial match, exact match, and head match with singletons (CRAC 2024 findings, Table "CoNLL
 * F1 under other evaluation settings"; the CorefUD scorer's `-a partial`, `-a exact`, `-s`).
 */
export const CRAC_VARIANTS: readonly EvaluationVariant[] = Object.freeze([
  { id: "partial", label: "Partial match", preset: Object.freeze({ ...CRAC_HOSTED, match: "partial" as const }) },
  { id: "exact", label: "Exact match", preset: Object.freeze({ ...CRAC_HOSTED, match: "exact" as const }) },
  { id: "singletons", label: "Head match with singletons", preset: Object.freeze({ ...CRAC_HOSTED, removeSingletons: false }) },
]);

/** The names of the evaluation profiles a task can choose. */
export type EvaluationProfileName = "conll2012" | "crac" | "custom";

/** Every profile name, the default first. */
export const EVALUATION_PROFILE_NAMES: readonly EvaluationProfileName[] = ["conll2012", "crac", "custom"];

/** How a task scores its runs: one primary setting and its secondary variants. */
export interface EvaluationProfile {
  readonly name: EvaluationProfileName;
  /** For people, e.g. "CRAC (CorefUD scorer: head match, singletons excluded)". */
  readonly label: string;
  readonly primary: EvaluationPreset;
  readonly variants: readonly EvaluationVariant[];
}

/** The fixed profiles. `custom` is made by `customProfile`. */
export const EVALUATION_PROFILES: Readonly<Record<Exclude<EvaluationProfileName, "custom">, EvaluationProfile>> = Object.freeze({
  conll2012: Object.freeze({
    name: "conll2012" as const,
    label: "CoNLL-2012 (reference scorer: exact spans, singletons kept)",
    primary: CONLL2012_PRESET,
    variants: Object.freeze([]) as readonly EvaluationVariant[],
  }),
  crac: Object.freeze({
    name: "crac" as const,
    label: "CRAC (CorefUD scorer: head match, singletons excluded, dependent zeros)",
    primary: CRAC_HOSTED,
    variants: CRAC_VARIANTS,
  }),
});

/** The settings an organizer picks for the `custom` profile. */
export interface CustomEvaluation {
  match: MentionMatch;
  zeroMatch: ZeroMatch;
  removeSingletons: boolean;
}

/**
 * The `custom` profile: the organizer's match, zero matching and singleton setting, every
 * non-optional metric plus MOR and the zero score, no secondary variants.
 */
export function customProfile(settings: CustomEvaluation): EvaluationProfile {
  const parts = [`${settings.match} match`, `singletons ${settings.removeSingletons ? "excluded" : "kept"}`, `${settings.zeroMatch} zeros`];
  return Object.freeze({
    name: "custom" as const,
    label: `Custom (${parts.join(", ")})`,
    primary: Object.freeze({
      match: settings.match,
      zeroMatch: settings.zeroMatch,
      removeSingletons: settings.removeSingletons,
      removeZeros: false,
      metrics: Object.freeze([...METRICS, "mor", "zero"] as SelectableMetric[]),
    }),
    variants: Object.freeze([]) as readonly EvaluationVariant[],
  });
}

/**
 * Whether a profile needs CorefUD CoNLL-U input: partial and head match need mention heads, which
 * only CorefUD input has (`evaluate` throws a RangeError otherwise).
 */
export function profileNeedsHeads(profile: EvaluationProfile): boolean {
  return [profile.primary, ...profile.variants.map((v) => v.preset)].some((p) => p.match !== "exact");
}
