/**
 * The four CRAC settings the benchmark times (cases (e) and (f)): CRAC 2024 published the
 * primary one (head match, singletons excluded, dependent zeros: `CRAC_PRESET`) and three
 * variants (partial match, exact match, head match with singletons). Each computes every
 * selectable metric: the CRAC metrics plus mention identification.
 */
import type { EvaluateOptions } from "../evaluate.js";
import { SELECTABLE_METRICS } from "../metrics/registry.js";
import { CRAC_PRESET, presetOptions } from "../presets.js";

/** A variant's name. */
export type CracVariant = "head" | "partial" | "exact" | "head+singletons";

/** The variants in the order CRAC 2024 lists them. */
export const CRAC_VARIANT_NAMES: readonly CracVariant[] = ["head", "partial", "exact", "head+singletons"];

/** The four settings CRAC 2024 published: the primary one and three variants. */
export const CRAC_VARIANTS: Readonly<Record<CracVariant, EvaluateOptions>> = {
  head: presetOptions(CRAC_PRESET, { metrics: SELECTABLE_METRICS }),
  partial: presetOptions(CRAC_PRESET, { match: "partial", metrics: SELECTABLE_METRICS }),
  exact: presetOptions(CRAC_PRESET, { match: "exact", metrics: SELECTABLE_METRICS }),
  "head+singletons": presetOptions(CRAC_PRESET, { removeSingletons: false, metrics: SELECTABLE_METRICS }),
};

/** The CorefUD scorer's command-line options for each variant (after `corefud-scorer.py KEY SYS`). */
export const COREFUD_SCORER_ARGS: Readonly<Record<CracVariant, readonly string[]>> = {
  head: [],
  partial: ["-a", "partial"],
  exact: ["-a", "exact"],
  "head+singletons": ["-s"],
};

