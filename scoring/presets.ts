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
 */
import type { EvaluateOptions, MentionMatch, SelectableMetric, ZeroMatch } from "./evaluate.js";

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
