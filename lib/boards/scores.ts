/**
 * Stored score rows → the score JSON (`scoring/score-json.ts`, the CLI's `--format json`
 * shape): fractions in [0, 1], snake_case exact counts.
 *
 * Stored metric names (written by the scoring worker, `lib/worker/scoring-job.ts`): each count
 * metric of the registry (`mentions` … `lea`, and the optional `mcf`, `mor`, `zero` when the task
 * computes them) with counts and fractions; `blanc` (fractions) with `blanc_coref` and
 * `blanc_noncoref` (the link counts); `conll` (f1 only). Score rows carry the `variant` of the
 * task's evaluation profile they belong to: `""` for the primary setting, else a secondary
 * variant's id (e.g. `partial`; `lib/tasks/evaluation.ts`). DocumentScore rows (primary setting
 * only) hold counts only, so per-document fractions, BLANC and CoNLL are derived here as
 * `scoring/` derives them, BLANC by the averaging rule of the gold key's format
 * ({@link blancRuleForGold}).
 *
 * Datasets (issue 10): DatasetScore rows are a run's corpus scores on one dataset, in the same
 * shape; Score rows are the phase level: the dataset's rows for a one-dataset phase, else the
 * macro-average over the datasets ({@link macroScoreRows}: fractions only, counts null).
 */
import { detectFormat } from "../../scoring/formats";
import {
  countsFromJson,
  countsToJson,
  metricsJsonFromCounts,
  scoreToJson,
  toScore,
  type BlancJson,
  type BlancRule,
  type ConllJson,
  type Counts,
  type CountsJson,
  type CountScoreJson,
  type MetricCountsLike,
  type MetricsJson,
} from "../../scoring";
import { COUNT_METRIC_NAMES, type CountMetricName, type LeaderboardMetric } from "../validations/metrics";
import type { Db } from "../db";

export type { BlancJson, ConllJson, CountScoreJson, CountsJson, MetricsJson } from "../../scoring";

/** Stored metric name of BLANC's coreference-link counts. */
export const BLANC_COREF = "blanc_coref";
/** Stored metric name of BLANC's non-coreference-link counts. */
export const BLANC_NONCOREF = "blanc_noncoref";

/** The columns of a Score row that matter here. */
export interface ScoreRowLike {
  metric: string;
  recallNum: number | null;
  recallDen: number | null;
  precisionNum: number | null;
  precisionDen: number | null;
  recall: number | null;
  precision: number | null;
  f1: number;
}

/** A Score row as the worker writes it: {@link ScoreRowLike} plus its variant. */
export interface ScoreRowData extends ScoreRowLike {
  /** `""` for the evaluation profile's primary setting, else the secondary variant's id (e.g. `partial`). */
  variant: string;
}

/** The columns of a DocumentScore row that matter here. */
export interface DocumentScoreRowLike {
  document: string;
  metric: string;
  recallNum: number;
  recallDen: number;
  precisionNum: number;
  precisionDen: number;
}

const isCountMetric = (m: string): m is CountMetricName => (COUNT_METRIC_NAMES as readonly string[]).includes(m);

/** A stored row's counts; an Error when they are missing (the worker always writes them). */
function storedCounts(row: ScoreRowLike): Counts {
  const { recallNum, recallDen, precisionNum, precisionDen } = row;
  if (recallNum === null || recallDen === null || precisionNum === null || precisionDen === null) {
    throw new Error(`the stored "${row.metric}" score has no counts; the scoring worker always stores them, so the run must be scored again`);
  }
  return { recallNum, recallDen, precisionNum, precisionDen };
}

/**
 * Score rows for scores: the inverse of {@link scoresToJson}. Each count metric becomes a row
 * with its counts and fractions; BLANC a `blanc` row with its fractions and the
 * {@link BLANC_COREF} and {@link BLANC_NONCOREF} rows with each part's link counts and
 * fractions (by `toScore`); CoNLL a `conll` row with its F1. Counts and fractions that a metric
 * does not have are null.
 *
 * @param json a run's corpus scores under one setting (`metricsToJson(report.metrics)`)
 * @param variant the setting: `""` (default) for the evaluation profile's primary setting, else
 *   the secondary variant's id (e.g. `partial`), stored as `scores.variant` on every row
 * @returns the rows, without submission and phase ids, in the JSON's order
 */
export function scoreRowsFromJson(json: MetricsJson, variant = ""): ScoreRowData[] {
  const rows: ScoreRowData[] = [];
  const counted = (metric: string, s: CountScoreJson): ScoreRowData => ({
    variant,
    metric,
    recallNum: s.recall_num,
    recallDen: s.recall_den,
    precisionNum: s.precision_num,
    precisionDen: s.precision_den,
    recall: s.recall,
    precision: s.precision,
    f1: s.f1,
  });
  const uncounted = { recallNum: null, recallDen: null, precisionNum: null, precisionDen: null };
  for (const metric of COUNT_METRIC_NAMES) {
    const s = json[metric];
    if (s) rows.push(counted(metric, s));
  }
  if (json.blanc) {
    const b = json.blanc;
    rows.push({ variant, metric: "blanc", ...uncounted, recall: b.recall, precision: b.precision, f1: b.f1 });
    rows.push(counted(BLANC_COREF, scoreToJson(toScore(countsFromJson(b.coref_links)))));
    rows.push(counted(BLANC_NONCOREF, scoreToJson(toScore(countsFromJson(b.noncoref_links)))));
  }
  if (json.conll) rows.push({ variant, metric: "conll", ...uncounted, recall: null, precision: null, f1: json.conll.f1 });
  return rows;
}

/**
 * The stored metric names a metric's score is read from: BLANC needs its link-count rows too.
 *
 * @param metric a leaderboard metric
 * @returns e.g. `["muc"]`, `["blanc", "blanc_coref", "blanc_noncoref"]`
 */
export function storedMetricNames(metric: LeaderboardMetric): string[] {
  return metric === "blanc" ? [metric, BLANC_COREF, BLANC_NONCOREF] : [metric];
}

/**
 * A submission's corpus scores under one setting from its Score rows (pass the rows of one
 * variant only: the primary setting's are those with `variant: ""`). Stored fractions are
 * used as they are (`evaluate` computed them from the same counts, BLANC by its format's
 * rule); unknown metric names are ignored.
 *
 * @param rows the submission's Score rows, any order (a subset is fine: see {@link storedMetricNames})
 * @returns the score JSON, metrics in registry order
 * @throws Error when a count metric's row has no counts, or a `blanc` row lacks its link-count
 *   rows: the worker writes them together, so the stored run is damaged (HTTP 500)
 */
export function scoresToJson(rows: readonly ScoreRowLike[]): MetricsJson {
  const byMetric = new Map(rows.map((r) => [r.metric, r]));
  const out: MetricsJson = {};
  for (const metric of COUNT_METRIC_NAMES) {
    const row = byMetric.get(metric);
    if (!row) continue;
    const derived = scoreToJson(toScore(storedCounts(row)));
    out[metric] = { ...derived, recall: row.recall ?? derived.recall, precision: row.precision ?? derived.precision, f1: row.f1 };
  }
  const blanc = byMetric.get("blanc");
  if (blanc) {
    const coref = byMetric.get(BLANC_COREF);
    const noncoref = byMetric.get(BLANC_NONCOREF);
    if (!coref || !noncoref) throw new Error(`the stored BLANC score has no ${!coref ? BLANC_COREF : BLANC_NONCOREF} row; the scoring worker always stores both link counts, so the run must be scored again`);
    out.blanc = {
      recall: blanc.recall ?? 0,
      precision: blanc.precision ?? 0,
      f1: blanc.f1,
      coref_links: countsToJson(storedCounts(coref)),
      noncoref_links: countsToJson(storedCounts(noncoref)),
    };
  }
  const conll = byMetric.get("conll");
  if (conll) out.conll = { f1: conll.f1 };
  return out;
}

/**
 * BLANC's averaging rule for runs scored against a gold key: `evaluate` scores CorefUD CoNLL-U
 * input (`.conllu`) as the CorefUD scorer does (`corefud`: a part is dropped only when both its
 * denominators are 0) and everything else as the CoNLL reference scorer does (`reference`: a
 * part is dropped when the key has no links of its kind). See `scoring/metrics/blanc.ts`.
 *
 * @param goldFileName the gold key's file name; its extension picks the reader (`detectFormat`)
 */
export function blancRuleForGold(goldFileName: string): BlancRule {
  return detectFormat(goldFileName) === "conllu" ? "corefud" : "reference";
}

/**
 * BLANC's averaging rule for a scored run's per-document counts: that of the gold key its
 * results on a dataset come from. Which gold key:
 * - with `run.id`: the one recorded on the run's file for `datasetId` (default: its first
 *   scored file in the phase's dataset order; `submission_files.gold_key_id`);
 * - else, or when no file records one, by `run.goldVersion` (a one-dataset phase: that
 *   version of the dataset `datasetId`, default the phase's first dataset), as before datasets;
 * - else the active gold key of that dataset.
 *
 * @param db client or transaction
 * @param run the run's phase, its gold version (null for a phase with several datasets, or
 *   when not scored) and optionally its id
 * @param datasetId the dataset whose document rows are read (default: the first one)
 * @returns the rule ({@link blancRuleForGold}); `reference` when no such gold key exists (a
 *   run without results has no counts to read)
 */
export async function blancRuleForRun(db: Db, run: { id?: string; phaseId: string; goldVersion: number | null }, datasetId?: string): Promise<BlancRule> {
  const datasetOrder = [{ dataset: { position: "asc" as const } }, { dataset: { name: "asc" as const } }];
  if (run.id !== undefined) {
    const file = await db.submissionFile.findFirst({
      where: { submissionId: run.id, goldKeyId: { not: null }, ...(datasetId ? { datasetId } : {}) },
      orderBy: datasetOrder,
      select: { goldKey: { select: { fileName: true } } },
    });
    if (file?.goldKey) return blancRuleForGold(file.goldKey.fileName);
  }
  const gold = await db.goldKey.findFirst({
    where: {
      phaseId: run.phaseId,
      ...(datasetId ? { datasetId } : {}),
      ...(run.goldVersion !== null ? { version: run.goldVersion } : { active: true }),
    },
    orderBy: datasetOrder,
    select: { fileName: true },
  });
  return gold ? blancRuleForGold(gold.fileName) : "reference";
}

/**
 * The phase-level Score rows of a run on a phase with several datasets: the macro-average over
 * the phase's datasets that have an active gold key, as CoNLL-2012 and CRAC rank. For each
 * (variant, metric) present in any dataset's rows: F1, recall and precision are each the sum
 * over the datasets divided by `datasetCount` (so a dataset the run left out, or whose rows lack
 * that metric, counts 0); recall and precision stay null when no dataset has them (`conll`).
 * The F1 is the mean of the datasets' F1, not the F1 of the mean recall and precision. Counts
 * are null: a macro-average has no single fraction. (A one-dataset phase copies the dataset's
 * rows instead, counts included.)
 *
 * @param perDataset each scored dataset's rows (DatasetScore rows as `scoreRows` gives them),
 *   at most `datasetCount` lists, in the phase's dataset order
 * @param datasetCount how many datasets the average is over (the phase's datasets with an
 *   active gold key), >= 1
 * @returns one row per (variant, metric), in order of first appearance
 * @throws RangeError when `datasetCount` is not a whole number >= 1 or less than the number
 *   of lists, or when one list holds a (variant, metric) twice
 */
export function macroScoreRows(perDataset: readonly (readonly ScoreRowData[])[], datasetCount: number): ScoreRowData[] {
  if (!Number.isInteger(datasetCount) || datasetCount < 1 || datasetCount < perDataset.length) {
    throw new RangeError(`macroScoreRows: cannot average ${perDataset.length} datasets' rows over ${datasetCount} datasets`);
  }
  const sums = new Map<string, { variant: string; metric: string; recall: number | null; precision: number | null; f1: number }>();
  perDataset.forEach((rows, i) => {
    const seen = new Set<string>();
    for (const r of rows) {
      const key = `${r.variant}\u0000${r.metric}`;
      if (seen.has(key)) throw new RangeError(`macroScoreRows: dataset ${i + 1} has two "${r.metric}" rows for variant "${r.variant}"`);
      seen.add(key);
      let sum = sums.get(key);
      if (!sum) sums.set(key, (sum = { variant: r.variant, metric: r.metric, recall: null, precision: null, f1: 0 }));
      sum.f1 += r.f1;
      if (r.recall !== null) sum.recall = (sum.recall ?? 0) + r.recall;
      if (r.precision !== null) sum.precision = (sum.precision ?? 0) + r.precision;
    }
  });
  return [...sums.values()].map((s) => ({
    variant: s.variant,
    metric: s.metric,
    recallNum: null,
    recallDen: null,
    precisionNum: null,
    precisionDen: null,
    recall: s.recall === null ? null : s.recall / datasetCount,
    precision: s.precision === null ? null : s.precision / datasetCount,
    f1: s.f1 / datasetCount,
  }));
}

/**
 * Per-document scores from DocumentScore rows: fractions from the counts (as `toScore`),
 * BLANC from its link counts (as `blancScore` with `blancRule`), CoNLL as the mean of the
 * document's MUC, B³ and CEAFe F1 when all three are there (`metricsJsonFromCounts`).
 *
 * @param rows DocumentScore rows of one run; unknown metric names are ignored
 * @param blancRule the rule of the run's gold key ({@link blancRuleForRun})
 * @returns one entry per document, in document-name order, metrics in registry order
 */
export function documentScoresToJson(rows: readonly DocumentScoreRowLike[], blancRule: BlancRule): { document: string; metrics: MetricsJson }[] {
  const docs = new Map<string, { counts: MetricCountsLike; coref?: Counts; noncoref?: Counts }>();
  for (const r of rows) {
    let doc = docs.get(r.document);
    if (!doc) docs.set(r.document, (doc = { counts: {} }));
    const c: Counts = { recallNum: r.recallNum, recallDen: r.recallDen, precisionNum: r.precisionNum, precisionDen: r.precisionDen };
    if (isCountMetric(r.metric)) doc.counts[r.metric] = c;
    else if (r.metric === BLANC_COREF) doc.coref = c;
    else if (r.metric === BLANC_NONCOREF) doc.noncoref = c;
  }
  return [...docs.keys()].sort().map((document) => {
    const { counts, coref, noncoref } = docs.get(document)!;
    if (coref && noncoref) counts.blanc = { coref, noncoref };
    return { document, metrics: metricsJsonFromCounts(counts, blancRule) };
  });
}

/**
 * The value a leaderboard ranks by: the metric's F1 (for `conll`, its only number).
 *
 * @returns null when the scores lack the metric
 */
export function rankingValue(scores: MetricsJson, metric: LeaderboardMetric): number | null {
  return scores[metric]?.f1 ?? null;
}

/**
 * {@link rankingValue} read straight from stored Score rows of one variant: the F1 of the row
 * named `metric`. Unlike {@link scoresToJson} it needs no counts, so it also reads the
 * macro-averaged rows of a phase with several datasets ({@link macroScoreRows}).
 *
 * @param rows one variant's Score rows (any subset holding `metric`'s row)
 * @returns the F1, a fraction in [0, 1]; null when the rows lack the metric
 */
export function rankingValueOfRows(rows: readonly ScoreRowLike[], metric: LeaderboardMetric): number | null {
  return rows.find((r) => r.metric === metric)?.f1 ?? null;
}

/** A count metric's score on a board: as in the score JSON, but a macro-average has no counts (null). */
export type BoardCountScore = Omit<CountScoreJson, keyof CountsJson> & { [K in keyof CountsJson]: number | null };

/**
 * A run's scores on a board: the score JSON (`MetricsJson`) for a phase with one dataset and for
 * a dataset's board; for the macro-average of a phase with several datasets, the same shape
 * with recall, precision and F1 averaged and the counts null (BLANC without link counts).
 */
export type BoardMetricsJson = Partial<Record<CountMetricName, BoardCountScore>> & {
  blanc?: Omit<BlancJson, "coref_links" | "noncoref_links"> & Partial<Pick<BlancJson, "coref_links" | "noncoref_links">>;
  conll?: ConllJson;
};

/** Whether a stored row has all four counts. */
function hasCounts(row: ScoreRowLike): boolean {
  return row.recallNum !== null && row.recallDen !== null && row.precisionNum !== null && row.precisionDen !== null;
}

/**
 * A run's macro-averaged scores (the phase-level Score rows of a phase with several datasets:
 * recall, precision and F1 averaged over the datasets, counts null) as the board shows them.
 * Rows with counts are read as `scoresToJson` reads them; BLANC keeps its link counts only
 * when both link rows have counts.
 *
 * @param rows the Score rows of one setting of one run (unknown metric names are ignored)
 * @returns {@link BoardMetricsJson}, metrics in registry order
 * @throws Error when a count metric's row has neither counts nor recall and precision: the
 *   worker writes them together, so the stored run is damaged (HTTP 500)
 */
export function macroScoresToJson(rows: readonly ScoreRowLike[]): BoardMetricsJson {
  const byMetric = new Map(rows.map((r) => [r.metric, r]));
  const out: BoardMetricsJson = {};
  for (const metric of COUNT_METRIC_NAMES) {
    const row = byMetric.get(metric);
    if (!row) continue;
    if (hasCounts(row)) {
      out[metric] = scoresToJson([row])[metric];
      continue;
    }
    if (row.recall === null || row.precision === null) {
      throw new Error(`the stored macro-averaged "${metric}" score has neither counts nor recall and precision; the scoring worker always stores them, so the run must be scored again`);
    }
    out[metric] = { recall: row.recall, precision: row.precision, f1: row.f1, recall_num: null, recall_den: null, precision_num: null, precision_den: null };
  }
  const blanc = byMetric.get("blanc");
  if (blanc) {
    const coref = byMetric.get(BLANC_COREF);
    const noncoref = byMetric.get(BLANC_NONCOREF);
    const links = coref && noncoref && hasCounts(coref) && hasCounts(noncoref) ? scoresToJson([blanc, coref, noncoref]).blanc : undefined;
    out.blanc = links ?? { recall: blanc.recall ?? 0, precision: blanc.precision ?? 0, f1: blanc.f1 };
  }
  const conll = byMetric.get("conll");
  if (conll) out.conll = { f1: conll.f1 };
  return out;
}


/**
 * Whether the active gold key of each dataset of a phase has zeros, as the stored scores tell
 * (no gold file is read). The zero score's recall denominator (`scoring/corefud/zero.ts`:
 * TP + FN + WL) counts the key's zero anaphors, the zeros (mentions headed by an empty node)
 * that are not the first mention of their entity; every key anaphor is one of the three
 * whatever the response, so every run scored against the key stores the same denominator.
 * A key whose denominator is 0 has no zero the score could count: its zero score is 0 of 0,
 * meaningless. One query for the whole phase (two index-backed EXISTS per dataset), not per run.
 *
 * @param db client or transaction
 * @param phaseId the phase
 * @returns by dataset id: true when a stored primary-setting `zero` DatasetScore row of a run
 *   scored against the dataset's active gold key (`submission_files.gold_key_id`) has a recall
 *   denominator above 0, false when such rows exist and all have 0; a dataset is absent when
 *   there are none (no active gold key, no run scored against it yet, or no zero score
 *   computed: a key that is not CorefUD CoNLL-U, or a profile without the zero metric)
 */
export async function goldZerosByDataset(db: Db, phaseId: string): Promise<Map<string, boolean>> {
  const rows = await db.$queryRaw<{ id: string; zeros: boolean; scored: boolean }[]>`
    SELECT d.id::text AS id,
           EXISTS (SELECT 1 FROM dataset_scores ds
                     JOIN submission_files sf ON sf.submission_id = ds.submission_id AND sf.dataset_id = ds.dataset_id
                     JOIN gold_keys g ON g.id = sf.gold_key_id AND g.active
                    WHERE ds.dataset_id = d.id AND ds.variant = '' AND ds.metric = 'zero' AND ds.recall_den > 0) AS zeros,
           EXISTS (SELECT 1 FROM dataset_scores ds
                     JOIN submission_files sf ON sf.submission_id = ds.submission_id AND sf.dataset_id = ds.dataset_id
                     JOIN gold_keys g ON g.id = sf.gold_key_id AND g.active
                    WHERE ds.dataset_id = d.id AND ds.variant = '' AND ds.metric = 'zero') AS scored
      FROM datasets d
     WHERE d.phase_id = ${phaseId}::uuid`;
  return new Map(rows.filter((r) => r.scored).map((r) => [r.id, r.zeros]));
}
