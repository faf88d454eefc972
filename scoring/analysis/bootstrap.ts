/**
 * Paired bootstrap resampling over documents, for significance tests and confidence
 * intervals of corpus scores (Koehn 2004, "Statistical Significance Tests for Machine
 * Translation Evaluation"; Berg-Kirkpatrick, Burkett & Klein 2012, "An Empirical
 * Investigation of Statistical Significance in NLP").
 *
 * The statistic of a metric is its corpus F1 (a fraction in [0, 1]) computed exactly as
 * `evaluate` computes corpus scores: the document counts are summed over the (re)sampled
 * documents and divided once (micro-average), by `toScore`'s rules for count metrics and
 * `blancScore`'s for BLANC; `conll` is the mean of the MUC, B³ and CEAFe F1 of the same
 * sample. A sample draws n document indices uniformly with replacement (n = the number of
 * documents); a document drawn k times counts k times. Paired: both runs use the same draws.
 *
 * Draws come from pure-rand's xoroshiro128+ seeded with `seed` and `uniformInt`, so a seed,
 * a sample count and a set of document ids always give the same result. A draw picks a
 * position in the ids sorted by code units, so which documents are drawn does not depend on
 * how the maps were built, and `bootstrapInterval` with the same seed draws the same
 * documents as `pairedBootstrap`. Sums run in run A's map order (the run's, for
 * `bootstrapInterval`), so with maps from `reportDocuments` the observed values equal
 * `evaluate`'s corpus F1 to the last bit.
 *
 * Stratified (`stratifiedPairedBootstrap`, `stratifiedBootstrapInterval`): for a macro-average
 * over datasets (CoNLL-2012, CRAC), each sample resamples every dataset's documents within that
 * dataset (n_k draws from its n_k documents, datasets in the given order, one generator), takes
 * each dataset's micro-averaged F1 and averages them; a dataset a run left out adds 0. With one
 * dataset this draws and computes exactly as the unstratified functions.
 *
 * Cost: the counts are first laid out as one Float64Array per run (fields × documents;
 * 4 fields per count metric, 8 for BLANC), then each sample takes n draws and one weighted
 * sum per field and document, O(samples × fields × n), plus sorting each metric's sample
 * values, O(metrics × samples log samples). 1,000 samples over 100 documents and 9 metrics
 * (36 fields per run) are about 7 million multiply-adds and 100,000 draws: milliseconds
 * (about 20 ms of CPU measured on a loaded 2-core machine). Memory: fields × documents
 * doubles per run plus metrics × samples doubles.
 */
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import type { Report } from "../evaluate.js";
import { blancScore, type BlancCounts, type BlancRule } from "../metrics/blanc.js";
import { CONLL_METRICS, METRICS, OPTIONAL_METRICS } from "../metrics/registry.js";
import { harmonicMean, ratio, type Counts } from "../metrics/counts.js";

/**
 * One document's exact counts, as `evaluate`'s `DocumentReport.counts`: each count metric
 * (mentions, muc, bcub, ceafm, ceafe, lea, and optional ones such as mcf) as `Counts`, and
 * BLANC under `blanc` as `BlancCounts`. `conll` is derived, never a key here. A metric whose
 * value is `undefined` is absent.
 */
export interface DocumentCounts {
  readonly [metric: string]: Counts | BlancCounts | undefined;
  readonly blanc?: BlancCounts;
}

/** A run's documents: document id → that document's counts. */
export type RunDocuments = ReadonlyMap<string, DocumentCounts>;

/** The default number of bootstrap samples. */
export const DEFAULT_BOOTSTRAP_SAMPLES = 1000;
/** The default seed of the bootstrap's generator (a fixed constant, for reproducible results). */
export const BOOTSTRAP_SEED = 2004;
/** The largest number of samples accepted. */
export const MAX_BOOTSTRAP_SAMPLES = 1_000_000;

/** How to resample. */
export interface BootstrapOptions {
  /** Number of bootstrap samples, an integer in [1, 1,000,000] (default 1000). */
  samples?: number;
  /** Generator seed, an integer in [0, 2^32 − 1] (default `BOOTSTRAP_SEED`). */
  seed?: number;
  /**
   * How BLANC's parts are averaged (`blancScore`): `reference` (default, CoNLL-2012 input) or
   * `corefud` (CorefUD input, as `evaluate` reports it in `Report.scoring.blancRule`).
   */
  blancRule?: BlancRule;
}

/** One metric of a paired comparison; all values are F1 fractions or their differences. */
export interface MetricComparison {
  /** `mentions`, `muc`, `bcub`, `ceafm`, `ceafe`, `lea`, `blanc`, `conll`, or another key. */
  metric: string;
  /** Run A's corpus F1 on all documents, in [0, 1]. */
  a: number;
  /** Run B's corpus F1 on all documents, in [0, 1]. */
  b: number;
  /** a − b, in [−1, 1]. */
  delta: number;
  /**
   * Two-sided p-value of "no difference" by the shift method:
   * (1 + #{i : |δ_i − delta| ≥ |delta|}) / (samples + 1), δ_i being sample i's difference
   * (the ≥ allows 1e-12 of float noise). In (0, 1]; exactly 1 when the runs agree on every
   * document's statistic, 1 / (samples + 1) at the smallest.
   */
  pValue: number;
  /** [2.5th, 97.5th] nearest-rank percentiles of the δ_i (see `pairedBootstrap`). */
  ci95: [number, number];
}

/** The result of `pairedBootstrap`. */
export interface PairedBootstrapResult {
  /** Number of paired documents. */
  documents: number;
  samples: number;
  seed: number;
  /** One entry per metric present in every document of both runs, in the order
   * mentions, muc, bcub, ceafm, ceafe, lea, blanc, conll, then others alphabetically. */
  metrics: MetricComparison[];
}

/** A bootstrap percentile interval of one metric's corpus F1. */
export interface Interval {
  metric: string;
  /** The corpus F1 on all documents, in [0, 1]. */
  value: number;
  /** 2.5th nearest-rank percentile of the sample F1 values. */
  lo: number;
  /** 97.5th nearest-rank percentile of the sample F1 values. */
  hi: number;
}

/**
 * A run's documents from an `evaluate` report: each key document's id and counts.
 *
 * @param report the result of `evaluate`
 * @returns a map from document id to `DocumentReport.counts`, in report order
 */
export function reportDocuments(report: Report): RunDocuments {
  return new Map(report.perDocument.map((d) => [d.id, d.counts]));
}

/**
 * Paired bootstrap comparison of two runs on the same documents.
 *
 * For each metric present in every document of both runs (plus `conll` when muc, bcub and
 * ceafe are), gives both runs' corpus F1, their difference delta = a − b, a two-sided
 * p-value by the shift method and a 95% interval of the difference. The interval uses the
 * nearest-rank rule: with the samples' differences sorted ascending as x_1 ≤ … ≤ x_B, the
 * P-th percentile is x_k with k = ⌈P·B/100⌉ (at least 1), so for B = 1000 the interval is
 * [x_25, x_975].
 *
 * @param a run A: document id → counts (e.g. `reportDocuments(evaluate(key, responseA))`)
 * @param b run B, with the same document ids
 * @param options `samples` (default 1000) and `seed` (default `BOOTSTRAP_SEED`)
 * @returns the comparison, reproducible for a given seed
 * @throws RangeError when the runs' document ids differ (naming the first few), when there
 *   are no documents, or when `samples` or `seed` is out of range; TypeError when a
 *   metric's counts are not finite numbers or a document holds a `conll` key
 */
export function pairedBootstrap(a: RunDocuments, b: RunDocuments, options: BootstrapOptions = {}): PairedBootstrapResult {
  const { samples, seed } = checkOptions(options);
  const ids = pairedIds(a, b);
  const order = drawOrder(ids);
  const layout = buildLayout(ids, [a, b]);
  const ma = fill(layout, ids, a);
  const mb = fill(layout, ids, b);
  const n = ids.length;
  const m = layout.outputs.length;

  const sums = new Float64Array(layout.fields);
  const statA = new Float64Array(m);
  const statB = new Float64Array(m);
  const ones = new Float64Array(n).fill(1);
  statistics(layout, weightedSums(ma, n, ones, sums), statA, options.blancRule);
  statistics(layout, weightedSums(mb, n, ones, sums), statB, options.blancRule);
  const observedA = Array.from(statA);
  const observedB = Array.from(statB);

  const deltas = new Float64Array(m * samples);
  resample(order, samples, seed, (w, s) => {
    statistics(layout, weightedSums(ma, n, w, sums), statA, options.blancRule);
    statistics(layout, weightedSums(mb, n, w, sums), statB, options.blancRule);
    for (let k = 0; k < m; k++) deltas[k * samples + s] = statA[k] - statB[k];
  });

  return { documents: n, samples, seed, metrics: compareMetrics(layout.outputs, observedA, observedB, deltas, samples) };
}

/**
 * Each metric's comparison from the observed statistics and the resampled deltas: the observed
 * difference, the two-sided p-value by the shift method and the 95 % percentile interval of the
 * sample deltas (see {@link MetricComparison}).
 *
 * @param outputs the metrics, in the order of the statistics
 * @param observedA, observedB the runs' statistics on the real documents (fractions)
 * @param deltas metric k's B sample deltas at `[k·B, (k+1)·B)` (sorted in place)
 * @param samples B
 */
function compareMetrics(outputs: readonly MetricComparison["metric"][], observedA: readonly number[], observedB: readonly number[], deltas: Float64Array, samples: number): MetricComparison[] {
  return outputs.map((metric, k): MetricComparison => {
    const delta = observedA[k] - observedB[k];
    const values = deltas.subarray(k * samples, (k + 1) * samples);
    let extreme = 0;
    const bound = Math.abs(delta) - TOLERANCE;
    for (const d of values) if (Math.abs(d - delta) >= bound) extreme++;
    values.sort();
    return { metric, a: observedA[k], b: observedB[k], delta, pValue: (1 + extreme) / (samples + 1), ci95: [percentile(values, 25), percentile(values, 975)] };
  });
}

/**
 * A 95% bootstrap percentile interval of one metric's corpus F1 over a run's documents.
 *
 * Draws the same samples as `pairedBootstrap` for the same seed and document ids, and
 * takes the 2.5th and 97.5th nearest-rank percentiles of the sample F1 values (with the
 * values sorted ascending as x_1 ≤ … ≤ x_B, the P-th percentile is x_k, k = ⌈P·B/100⌉).
 * The interval is degenerate ([value, value]) when every document gives the same
 * statistic, e.g. a single document; it usually, but not necessarily, contains `value`.
 *
 * @param run document id → counts
 * @param metric a metric present in every document (or `conll`, when muc, bcub and ceafe are)
 * @param options `samples` (default 1000) and `seed` (default `BOOTSTRAP_SEED`)
 * @returns the observed F1 and the interval, fractions in [0, 1]
 * @throws RangeError when there are no documents, when `metric` is not in every document,
 *   or when `samples` or `seed` is out of range; TypeError as `pairedBootstrap`
 */
export function bootstrapInterval(run: RunDocuments, metric: string, options: BootstrapOptions = {}): Interval {
  const { samples, seed } = checkOptions(options);
  const ids = [...run.keys()];
  if (ids.length === 0) throw new RangeError("bootstrap needs at least one document");
  const layout = buildLayout(ids, [run]);
  const k = layout.outputs.indexOf(metric);
  if (k < 0) {
    throw new RangeError(
      `metric "${metric}" is not in every document; available: ${layout.outputs.join(", ") || "none"}`,
    );
  }
  const matrix = fill(layout, ids, run);
  const n = ids.length;
  const sums = new Float64Array(layout.fields);
  const stat = new Float64Array(layout.outputs.length);
  statistics(layout, weightedSums(matrix, n, new Float64Array(n).fill(1), sums), stat, options.blancRule);
  const value = stat[k];
  const values = new Float64Array(samples);
  resample(drawOrder(ids), samples, seed, (w, s) => {
    statistics(layout, weightedSums(matrix, n, w, sums), stat, options.blancRule);
    values[s] = stat[k];
  });
  values.sort();
  return { metric, value, lo: percentile(values, 25), hi: percentile(values, 975) };
}

/** Float noise allowed in the p-value's ≥ comparison. */
const TOLERANCE = 1e-12;

/** The registry's default metrics, `conll`, then its optional ones; others follow alphabetically. */
const ORDER: readonly string[] = [...METRICS, "conll", ...OPTIONAL_METRICS];

function byCodeUnits(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

function byMetricOrder(x: string, y: string): number {
  const rx = ORDER.indexOf(x);
  const ry = ORDER.indexOf(y);
  return (rx < 0 ? ORDER.length : rx) - (ry < 0 ? ORDER.length : ry) || byCodeUnits(x, y);
}

/** Validated options with their defaults. */
function checkOptions(options: BootstrapOptions): { samples: number; seed: number } {
  const samples = options.samples ?? DEFAULT_BOOTSTRAP_SAMPLES;
  const seed = options.seed ?? BOOTSTRAP_SEED;
  if (!Number.isInteger(samples) || samples < 1 || samples > MAX_BOOTSTRAP_SAMPLES) {
    throw new RangeError(`bootstrap samples must be an integer in [1, ${MAX_BOOTSTRAP_SAMPLES}], got ${String(samples)}`);
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`bootstrap seed must be an integer in [0, 2^32 - 1], got ${String(seed)}`);
  }
  return { samples, seed };
}

/** The shared document ids in run A's order; throws when the two sets differ or are empty. */
function pairedIds(a: RunDocuments, b: RunDocuments): string[] {
  const onlyA = [...a.keys()].filter((id) => !b.has(id));
  const onlyB = [...b.keys()].filter((id) => !a.has(id));
  if (onlyA.length > 0 || onlyB.length > 0) {
    const few = (ids: string[]) =>
      ids.slice(0, 5).map((id) => JSON.stringify(id)).join(", ") + (ids.length > 5 ? ` and ${ids.length - 5} more` : "");
    const parts: string[] = [];
    if (onlyA.length > 0) parts.push(`only in run A: ${few(onlyA)}`);
    if (onlyB.length > 0) parts.push(`only in run B: ${few(onlyB)}`);
    throw new RangeError(`paired bootstrap needs the same documents in both runs; ${parts.join("; ")}`);
  }
  if (a.size === 0) throw new RangeError("bootstrap needs at least one document");
  return [...a.keys()];
}

/** order[j] = the index in `ids` of the j-th smallest id (code-unit order): what draw j picks. */
function drawOrder(ids: string[]): Int32Array {
  const order = Int32Array.from(ids.keys());
  return order.sort((x, y) => byCodeUnits(ids[x], ids[y]));
}

/** Where each base metric's fields sit, and which statistics are computed. */
interface Layout {
  /** Metrics read from the documents, each with its fields' first row in the matrix. */
  base: { metric: string; blanc: boolean; offset: number; out: number }[];
  /** Total number of fields (rows of the matrix). */
  fields: number;
  /** Statistic names in output order (base metrics and `conll`). */
  outputs: string[];
  /** Output indices of muc, bcub and ceafe, and of conll; -1 when conll is not computed. */
  conll: { muc: number; bcub: number; ceafe: number; at: number };
}

/** The metrics present (not undefined) in every document of every run. */
function buildLayout(ids: string[], runs: RunDocuments[]): Layout {
  let common: Set<string> | null = null;
  for (const run of runs) {
    for (const id of ids) {
      const doc = run.get(id) as DocumentCounts;
      const present = Object.keys(doc).filter((key) => doc[key] !== undefined);
      if (present.includes("conll")) {
        throw new TypeError(`document "${id}" has counts under "conll", which is derived from muc, bcub and ceafe`);
      }
      if (common === null) common = new Set(present);
      else for (const key of common) if (!present.includes(key)) common.delete(key);
    }
  }
  const names = [...(common ?? [])];
  const hasConll = CONLL_METRICS.every((x) => names.includes(x));
  const outputs = [...names, ...(hasConll ? ["conll"] : [])].sort(byMetricOrder);
  let fields = 0;
  const base = names.sort(byMetricOrder).map((metric) => {
    const blanc = metric === "blanc";
    const entry = { metric, blanc, offset: fields, out: outputs.indexOf(metric) };
    fields += blanc ? 8 : 4;
    return entry;
  });
  return {
    base,
    fields,
    outputs,
    conll: {
      muc: outputs.indexOf("muc"),
      bcub: outputs.indexOf("bcub"),
      ceafe: outputs.indexOf("ceafe"),
      at: outputs.indexOf("conll"),
    },
  };
}

/** The run's counts as a fields × documents matrix (row f holds field f of every document). */
function fill(layout: Layout, ids: string[], run: RunDocuments): Float64Array {
  const n = ids.length;
  const matrix = new Float64Array(layout.fields * n);
  ids.forEach((id, d) => {
    const doc = run.get(id) as DocumentCounts;
    for (const { metric, blanc, offset } of layout.base) {
      const value = doc[metric];
      const parts = blanc ? [(value as BlancCounts).coref, (value as BlancCounts).noncoref] : [value as Counts];
      parts.forEach((c, p) => {
        const row = offset + 4 * p;
        const fields = [c?.recallNum, c?.recallDen, c?.precisionNum, c?.precisionDen];
        for (let i = 0; i < 4; i++) {
          const x = fields[i];
          if (typeof x !== "number" || !Number.isFinite(x)) {
            throw new TypeError(`document "${id}": ${metric} counts must be finite numbers${blanc ? " (coref and noncoref)" : ""}`);
          }
          matrix[(row + i) * n + d] = x;
        }
      });
    }
  });
  return matrix;
}

/** out[f] = Σ_d w[d] · matrix[f][d], summed in document order. */
function weightedSums(matrix: Float64Array, n: number, w: Float64Array, out: Float64Array): Float64Array {
  for (let f = 0, base = 0; f < out.length; f++, base += n) {
    let acc = 0;
    for (let d = 0; d < n; d++) acc += w[d] * matrix[base + d];
    out[f] = acc;
  }
  return out;
}

/** Mutable BLANC counts reused by `statistics`. */
const scratch: BlancCounts = {
  coref: { recallNum: 0, recallDen: 0, precisionNum: 0, precisionDen: 0 },
  noncoref: { recallNum: 0, recallDen: 0, precisionNum: 0, precisionDen: 0 },
};

function setCounts(c: Counts, sums: Float64Array, at: number): void {
  c.recallNum = sums[at];
  c.recallDen = sums[at + 1];
  c.precisionNum = sums[at + 2];
  c.precisionDen = sums[at + 3];
}

/** Every statistic (F1) from summed counts, with `toScore`'s and `blancScore`'s rules. */
function statistics(layout: Layout, sums: Float64Array, out: Float64Array, blancRule: BlancRule = "reference"): void {
  for (const { blanc, offset, out: k } of layout.base) {
    if (blanc) {
      setCounts(scratch.coref, sums, offset);
      setCounts(scratch.noncoref, sums, offset + 4);
      out[k] = blancScore(scratch, blancRule).f1;
    } else {
      // toScore: recall = ratio(rn, rd), precision = ratio(pn, pd), f1 = harmonicMean(p, r).
      out[k] = harmonicMean(ratio(sums[offset + 2], sums[offset + 3]), ratio(sums[offset], sums[offset + 1]));
    }
  }
  const c = layout.conll;
  if (c.at >= 0) out[c.at] = (out[c.muc] + out[c.bcub] + out[c.ceafe]) / 3;
}

/**
 * Calls `onSample(weights, s)` for each sample s, weights[d] being how many times document d
 * was drawn: n draws of a position j in [0, n − 1], each picking document `order[j]`.
 */
function resample(order: Int32Array, samples: number, seed: number, onSample: (weights: Float64Array, s: number) => void): void {
  const n = order.length;
  const rng = xoroshiro128plus(seed);
  const weights = new Float64Array(n);
  for (let s = 0; s < samples; s++) {
    weights.fill(0);
    for (let i = 0; i < n; i++) weights[order[uniformInt(rng, 0, n - 1)]] += 1;
    onSample(weights, s);
  }
}

/** The nearest-rank percentile of sorted values for `permille` (25 = 2.5th): x_k, k = ⌈permille·B/1000⌉ ≥ 1. */
function percentile(sorted: Float64Array, permille: number): number {
  const rank = Math.max(1, Math.ceil((permille * sorted.length) / 1000));
  return sorted[rank - 1];
}

/**
 * One stratum (dataset) of a stratified bootstrap: each run's documents of that dataset, or
 * null for a run that left the dataset out (its statistic is 0 on every metric, in the
 * observed value and in every sample).
 */
export interface Stratum {
  /** run A's documents of the dataset; null: run A left it out */
  a: RunDocuments | null;
  /** run B's documents (same ids as A's when both are present); null: run B left it out */
  b: RunDocuments | null;
  /** BLANC's averaging rule of this dataset's gold key (default: `options.blancRule`, else `reference`) */
  blancRule?: BlancRule;
}

/** One stratum's resampling state: its ids in draw order and each present run's matrix. */
interface StratumState {
  ids: string[];
  order: Int32Array;
  layout: Layout;
  ma: Float64Array | null;
  mb: Float64Array | null;
  weights: Float64Array;
  sums: Float64Array;
  stat: Float64Array;
  blancRule: BlancRule | undefined;
}

/** Builds each stratum's state; the metrics of the result are those every stratum has. */
function stratumStates(strata: readonly Stratum[], blancRule: BlancRule | undefined): { states: StratumState[]; outputs: string[] } {
  if (strata.length === 0) throw new RangeError("a stratified bootstrap needs at least one stratum");
  const states = strata.map((s, k): StratumState => {
    let ids: string[];
    if (s.a && s.b) ids = pairedIds(s.a, s.b);
    else if (s.a || s.b) {
      ids = [...(s.a ?? s.b)!.keys()];
      if (ids.length === 0) throw new RangeError(`stratum ${k}: bootstrap needs at least one document`);
    } else ids = [];
    const present = [s.a, s.b].filter((r): r is RunDocuments => r !== null);
    const layout = buildLayout(ids, present);
    return {
      ids,
      order: drawOrder(ids),
      layout,
      ma: s.a ? fill(layout, ids, s.a) : null,
      mb: s.b ? fill(layout, ids, s.b) : null,
      weights: new Float64Array(ids.length),
      sums: new Float64Array(layout.fields),
      stat: new Float64Array(layout.outputs.length),
      blancRule: s.blancRule ?? blancRule,
    };
  });
  // A stratum with documents restricts the metrics; one both runs left out has every metric (0).
  let outputs: string[] | null = null;
  for (const st of states) {
    if (st.ids.length === 0) continue;
    outputs = outputs === null ? [...st.layout.outputs] : outputs.filter((m) => st.layout.outputs.includes(m));
  }
  if (outputs === null) throw new RangeError("a stratified bootstrap needs at least one stratum with documents");
  return { states, outputs };
}

/**
 * The macro-average of each output metric over the strata for one run (`side`), with each
 * stratum's document weights: out[k] = (Σ_strata F1 of metric k) / #strata, a left-out run's
 * stratum adding 0. Strata are summed in their given order.
 */
function macroStatistics(states: StratumState[], outputs: string[], side: "a" | "b", out: Float64Array): void {
  out.fill(0);
  for (const st of states) {
    const matrix = side === "a" ? st.ma : st.mb;
    if (matrix === null) continue;
    statistics(st.layout, weightedSums(matrix, st.ids.length, st.weights, st.sums), st.stat, st.blancRule);
    for (let k = 0; k < outputs.length; k++) out[k] += st.stat[st.layout.outputs.indexOf(outputs[k])];
  }
  for (let k = 0; k < outputs.length; k++) out[k] /= states.length;
}

/**
 * Calls `onSample(s)` for each sample s after setting every stratum's `weights`: within each
 * stratum, in the given order, n_k draws of a position in [0, n_k − 1] picking document
 * `order[j]` of that stratum, all from one generator. Documents are never drawn across strata.
 * With one stratum this draws exactly as `resample` does.
 */
function resampleStrata(states: StratumState[], samples: number, seed: number, onSample: (s: number) => void): void {
  const rng = xoroshiro128plus(seed);
  for (let s = 0; s < samples; s++) {
    for (const st of states) {
      const n = st.ids.length;
      st.weights.fill(0);
      for (let i = 0; i < n; i++) st.weights[st.order[uniformInt(rng, 0, n - 1)]] += 1;
    }
    onSample(s);
  }
}

/**
 * Paired bootstrap of the macro-average over datasets, resampling within each dataset
 * (stratified; the CoNLL-2012 and CRAC shared tasks rank by such macro-averages).
 *
 * Each sample draws, for every stratum in turn, as many documents as the stratum has, with
 * replacement, from that stratum only (the same draws for both runs); each run's statistic
 * of a metric is then the mean over the strata of the stratum's corpus F1 (micro-averaged
 * within the stratum from its summed counts, as `pairedBootstrap`), a run that left a stratum
 * out adding 0 for it. delta, the p-value (shift method) and the 95 % interval are as in
 * {@link pairedBootstrap}. With one stratum whose runs are both present this is exactly
 * `pairedBootstrap(a, b, options)` (same draws, same values).
 *
 * @param strata the datasets counted in the macro-average, in a fixed order (at least one with documents)
 * @param options `samples`, `seed`, and the default `blancRule` of the strata without their own
 * @returns `documents` is the total over the strata; `metrics` those present in every
 *   stratum that has documents (plus `conll` when muc, bcub and ceafe are)
 * @throws RangeError when a stratum's two runs have different document ids, a present run has
 *   no documents, no stratum has documents, or `samples`/`seed` is out of range; TypeError as
 *   `pairedBootstrap`
 */
export function stratifiedPairedBootstrap(strata: readonly Stratum[], options: BootstrapOptions = {}): PairedBootstrapResult {
  const { samples, seed } = checkOptions(options);
  const { states, outputs } = stratumStates(strata, options.blancRule);
  const m = outputs.length;
  const statA = new Float64Array(m);
  const statB = new Float64Array(m);
  for (const st of states) st.weights.fill(1);
  macroStatistics(states, outputs, "a", statA);
  macroStatistics(states, outputs, "b", statB);
  const observedA = Array.from(statA);
  const observedB = Array.from(statB);
  const deltas = new Float64Array(m * samples);
  resampleStrata(states, samples, seed, (s) => {
    macroStatistics(states, outputs, "a", statA);
    macroStatistics(states, outputs, "b", statB);
    for (let k = 0; k < m; k++) deltas[k * samples + s] = statA[k] - statB[k];
  });
  return { documents: states.reduce((n, st) => n + st.ids.length, 0), samples, seed, metrics: compareMetrics(outputs, observedA, observedB, deltas, samples) };
}

/**
 * A 95 % bootstrap percentile interval of a run's macro-average over datasets, resampling
 * within each dataset (see {@link stratifiedPairedBootstrap}; a left-out dataset adds 0).
 * With one present stratum this is exactly `bootstrapInterval(run, metric, options)`.
 *
 * @param strata the run's documents per dataset counted in the average (null: left out), in a fixed order
 * @param metric a metric every stratum with documents has (or `conll`)
 * @param options as {@link stratifiedPairedBootstrap}; `blancRules[k]` overrides stratum k's rule
 * @returns the observed macro-average and its interval, fractions in [0, 1]
 * @throws RangeError when no stratum has documents, `metric` is missing from one, or options
 *   are out of range; TypeError as `pairedBootstrap`
 */
export function stratifiedBootstrapInterval(
  strata: readonly (RunDocuments | null)[],
  metric: string,
  options: BootstrapOptions & { blancRules?: readonly (BlancRule | undefined)[] } = {},
): Interval {
  const { samples, seed } = checkOptions(options);
  const { states, outputs } = stratumStates(
    strata.map((a, k) => ({ a, b: null, blancRule: options.blancRules?.[k] })),
    options.blancRule,
  );
  const k = outputs.indexOf(metric);
  if (k < 0) throw new RangeError(`metric "${metric}" is not in every document; available: ${outputs.join(", ") || "none"}`);
  const stat = new Float64Array(outputs.length);
  for (const st of states) st.weights.fill(1);
  macroStatistics(states, outputs, "a", stat);
  const value = stat[k];
  const values = new Float64Array(samples);
  resampleStrata(states, samples, seed, (s) => {
    macroStatistics(states, outputs, "a", stat);
    values[s] = stat[k];
  });
  values.sort();
  return { metric, value, lo: percentile(values, 25), hi: percentile(values, 975) };
}
