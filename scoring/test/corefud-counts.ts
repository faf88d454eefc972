/**
 * Our metrics in the layout the CorefUD scorer's count fixtures use (`make_expected.py` in
 * fixtures/corefud-gum and fixtures/corefud-duplicates): per metric, `[recall_num, recall_den,
 * precision_num, precision_den]`, BLANC as its two parts `blancc` and `blancn`.
 */
import type { MetricScores } from "../evaluate.js";

/** Counts per metric name: `[recall_num, recall_den, precision_num, precision_den]`. */
export type ScorerCounts = Record<string, [number, number, number, number]>;

/** The metrics every count fixture holds (evaluate's names), for `EvaluateOptions.metrics`. */
export const FIXTURE_METRICS = ["muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "mor", "zero"] as const;

/**
 * `metrics` (from `evaluate` with `FIXTURE_METRICS`) as fixture counts.
 *
 * @throws TypeError when one of `FIXTURE_METRICS` is missing
 */
export function scorerCounts(m: MetricScores): ScorerCounts {
  const parts = { muc: m.muc!, bcub: m.bcub!, ceafe: m.ceafe!, ceafm: m.ceafm!, lea: m.lea!, mor: m.mor!, zero: m.zero!, blancc: m.blanc!.coref, blancn: m.blanc!.noncoref };
  const out: ScorerCounts = {};
  for (const [name, s] of Object.entries(parts)) out[name] = [s.recallNum, s.recallDen, s.precisionNum, s.precisionDen];
  return out;
}
