/**
 * The four CRAC settings the benchmark times (cases (e) and (f)): CRAC 2024 published the
 * primary one (head match, singletons excluded, dependent zeros: `CRAC_PRESET`) and three
 * variants (partial match, exact match, head match with singletons), as the hosted `crac`
 * evaluation profile computes them (`EVALUATION_PROFILES.crac` in presets.ts): every selectable
 * metric, the CRAC metrics plus mention identification.
 */
import type { EvaluateOptions } from "../evaluate.js";
import { EVALUATION_PROFILES, presetOptions, type EvaluationPreset } from "../presets.js";

/** The preset of the hosted CRAC profile's variant `id`. */
function variant(id: string): EvaluationPreset {
  const found = EVALUATION_PROFILES.crac.variants.find((v) => v.id === id);
  if (!found) throw new Error(`no CRAC variant ${id}`);
  return found.preset;
}

/** A variant's name. */
export type CracVariant = "head" | "partial" | "exact" | "head+singletons";

/** The variants in the order CRAC 2024 lists them. */
export const CRAC_VARIANT_NAMES: readonly CracVariant[] = ["head", "partial", "exact", "head+singletons"];

/** The four settings CRAC 2024 published: the primary one and three variants. */
export const CRAC_VARIANTS: Readonly<Record<CracVariant, EvaluateOptions>> = {
  head: presetOptions(EVALUATION_PROFILES.crac.primary),
  partial: presetOptions(variant("partial")),
  exact: presetOptions(variant("exact")),
  "head+singletons": presetOptions(variant("singletons")),
};

/** The CorefUD scorer's command-line options for each variant (after `corefud-scorer.py KEY SYS`). */
export const COREFUD_SCORER_ARGS: Readonly<Record<CracVariant, readonly string[]>> = {
  head: [],
  partial: ["-a", "partial"],
  exact: ["-a", "exact"],
  "head+singletons": ["-s"],
};

