/**
 * What the submission page (`app/submissions/[id]/page.tsx`) shows, shaped from the services'
 * views so that the page and its components only lay it out (issue 12 §5, §6):
 *
 * - {@link submissionPageView}: the page's links, flags and sentences (the task, the phase's
 *   board and the run's track board; whether the run is being scored again; which gold
 *   version(s) the scores come from; the compare picker's options; whether the raw fractions
 *   start open, from the query of `lib/validations/submission-query.ts`).
 * - {@link metricRows}: the metric table's rows in board order (count metrics, BLANC, CoNLL F1)
 *   with each cell's value and the exact counts behind it, shown only on demand.
 * - {@link variantScoreTable}: the run's F1 per dataset under the primary setting and each
 *   secondary variant of its evaluation profile (e.g. CRAC's partial match, exact match, head
 *   match with singletons), CoNLL F1 first (issue 24 §1).
 * - {@link transposeDisclosure}: Byron's pronoun disclosure turned round, one row per pronoun
 *   type (and the total) and one column per line of the standard table, so that it stays
 *   narrow on a phone however many pronoun types the key has.
 *
 * Pure functions (no I/O, no React): values stay fractions in [0, 1]; the components write
 * them as percentages with `formatPercent` of `app/_components/ui.tsx`.
 */
import type { ComparableRun } from "../boards/significance";
import type { BoardMetricsJson, CountsJson } from "../boards/scores";
import type { SubmissionView } from "../runs/submissions";
import type { RunAnalysisView } from "../runs/analysis";
import { COUNT_METRIC_NAMES, LEADERBOARD_METRICS, METRIC_LABELS, type CountMetricName, type LeaderboardMetric } from "../validations/metrics";
import type { SubmissionQuery } from "../validations/submission-query";

/** A numerator and a denominator as the scorer stored them (whole numbers, or sums of fractions for B³, CEAFe and LEA). */
export interface CountPair {
  num: number;
  den: number;
}

/** One number of the metric table: the fraction and the exact counts it comes from. */
export interface ScoreCell {
  /** a fraction in [0, 1] */
  value: number;
  /**
   * the counts behind it: one pair for a count metric's recall or precision, two for BLANC
   * (coreference links, then non-coreference links), none for an F1, the CoNLL F1 and a
   * macro-average over datasets (which has no counts)
   */
  counts: CountPair[];
}

/** One row of the metric table. */
export interface MetricRow {
  /** a count metric's name, "blanc" or "conll" */
  id: CountMetricName | "blanc" | "conll";
  /** e.g. "MUC", "BLANC", "CoNLL F1" */
  label: string;
  /** a line under the label, e.g. "mean of MUC, B³ and CEAFe F1"; null for none */
  note: string | null;
  /** null where the metric has none (the CoNLL F1 has no recall or precision) */
  recall: ScoreCell | null;
  precision: ScoreCell | null;
  f1: ScoreCell;
  /** the CoNLL F1 row, set apart on the page */
  summary: boolean;
}

/** `{num, den}` of a recall or precision, or none when a count is missing (a macro-average). */
function pairs(num: number | null | undefined, den: number | null | undefined): CountPair[] {
  return num === null || num === undefined || den === null || den === undefined ? [] : [{ num, den }];
}

/** BLANC's two link fractions for recall or precision, or none unless both link counts are stored. */
function blancPairs(coref: CountsJson | undefined, noncoref: CountsJson | undefined, part: "recall" | "precision"): CountPair[] {
  if (!coref || !noncoref) return [];
  return part === "recall"
    ? [
        { num: coref.recall_num, den: coref.recall_den },
        { num: noncoref.recall_num, den: noncoref.recall_den },
      ]
    : [
        { num: coref.precision_num, den: coref.precision_den },
        { num: noncoref.precision_num, den: noncoref.precision_den },
      ];
}

/**
 * The metric table's rows: every count metric `scores` has in board order
 * (`COUNT_METRIC_NAMES`), then BLANC, then the CoNLL F1; metrics missing from `scores` are
 * left out.
 *
 * @param scores a run's (or a document's) scores: fractions in [0, 1] with their counts (null
 *   counts for a macro-average over datasets)
 * @returns the rows; empty for empty scores
 */
export function metricRows(scores: BoardMetricsJson): MetricRow[] {
  const rows: MetricRow[] = [];
  for (const name of COUNT_METRIC_NAMES) {
    const s = scores[name];
    if (!s) continue;
    const complete = s.recall_num !== null && s.recall_den !== null && s.precision_num !== null && s.precision_den !== null;
    rows.push({
      id: name,
      label: METRIC_LABELS[name],
      note: null,
      recall: { value: s.recall, counts: complete ? pairs(s.recall_num, s.recall_den) : [] },
      precision: { value: s.precision, counts: complete ? pairs(s.precision_num, s.precision_den) : [] },
      f1: { value: s.f1, counts: [] },
      summary: false,
    });
  }
  const { blanc, conll } = scores;
  if (blanc) {
    rows.push({
      id: "blanc",
      label: METRIC_LABELS.blanc,
      note: "coreference · non-coreference links",
      recall: { value: blanc.recall, counts: blancPairs(blanc.coref_links, blanc.noncoref_links, "recall") },
      precision: { value: blanc.precision, counts: blancPairs(blanc.coref_links, blanc.noncoref_links, "precision") },
      f1: { value: blanc.f1, counts: [] },
      summary: false,
    });
  }
  if (conll) {
    rows.push({ id: "conll", label: `${METRIC_LABELS.conll} F1`, note: "mean of MUC, B³ and CEAFe F1", recall: null, precision: null, f1: { value: conll.f1, counts: [] }, summary: true });
  }
  return rows;
}

/** Whether any row has counts to show in the "raw fractions" disclosure. */
export function hasRawFractions(rows: readonly MetricRow[]): boolean {
  return rows.some((r) => (r.recall?.counts.length ?? 0) > 0 || (r.precision?.counts.length ?? 0) > 0);
}

/** One setting's row of the variant table: its F1 for each of the table's metrics. */
export interface SettingScoreRow {
  /** "" for the primary setting, else the variant's id (e.g. `partial`) */
  id: string;
  /** "Primary setting", or the variant's label (e.g. "Partial match") */
  label: string;
  /** the F1 (a fraction in [0, 1]) of each of {@link VariantScoreTable.metrics}, in order; null where the setting's scores lack the metric */
  f1: (number | null)[];
}

/** The rows of one dataset (or of the macro-average) in the variant table. */
export interface VariantScoreGroup {
  /** the dataset's name; null for the macro-average over the datasets (a phase with several) */
  dataset: string | null;
  /** the dataset's language, e.g. "cs"; "" when not given and for the macro-average */
  language: string;
  /** the run left the dataset out: no rows (it counts 0 in every setting) */
  missing: boolean;
  /**
   * the primary setting, then each variant in the profile's order; a setting without scores
   * on the dataset is left out (empty: left out, or not scored yet, e.g. no gold key)
   */
  settings: SettingScoreRow[];
}

/** The run's scores under every setting, per dataset: the table under the per-dataset scores. */
export interface VariantScoreTable {
  /** the columns: the CoNLL F1 first, then every other metric some row has, in board order */
  metrics: { id: LeaderboardMetric; label: string }[];
  /** each dataset in the phase's order, then (several datasets) the macro-average */
  groups: VariantScoreGroup[];
}

/** The variant table's metric order: the CoNLL F1, then the others in board order. */
const SETTING_TABLE_METRICS: readonly LeaderboardMetric[] = ["conll", ...LEADERBOARD_METRICS.filter((m) => m !== "conll")];

/**
 * The run's F1 per dataset under its primary setting and each secondary variant it was scored
 * with (`evaluation.variants`, in that order), from `SubmissionView.datasets[].scores` and
 * `.variants`; on a phase with several datasets a last group holds the macro-average (`scores`
 * and `variants` of the run).
 *
 * @param s the run as the viewer sees it
 * @returns the table; null when the run has no variant scores (not scored yet, or a profile
 *   without secondary variants such as `conll2012`)
 */
export function variantScoreTable(s: Pick<SubmissionView, "evaluation" | "scores" | "variants" | "datasets">): VariantScoreTable | null {
  const variants = s.evaluation?.variants ?? [];
  const scoredVariants = (byVariant: Record<string, BoardMetricsJson> | undefined) => variants.filter((v) => byVariant?.[v.id] !== undefined);
  if (scoredVariants(s.variants).length === 0 && !s.datasets.some((d) => scoredVariants(d.variants).length > 0)) return null;
  const settingsOf = (primary: BoardMetricsJson | null, byVariant: Record<string, BoardMetricsJson> | undefined) => [
    ...(primary ? [{ id: "", label: "Primary setting", scores: primary }] : []),
    ...scoredVariants(byVariant).map((v) => ({ id: v.id, label: v.label, scores: byVariant![v.id]! })),
  ];
  const groups = [
    ...s.datasets.map((d) => ({ dataset: d.name as string | null, language: d.language, missing: d.missing, settings: d.missing ? [] : settingsOf(d.scores, d.variants) })),
    ...(s.datasets.length > 1 ? [{ dataset: null, language: "", missing: false, settings: settingsOf(s.scores, s.variants) }] : []),
  ];
  const f1Of = (scores: BoardMetricsJson, m: LeaderboardMetric): number | null => (scores as Partial<Record<LeaderboardMetric, { f1: number }>>)[m]?.f1 ?? null;
  const metrics = SETTING_TABLE_METRICS.filter((m) => groups.some((g) => g.settings.some((x) => f1Of(x.scores, m) !== null)));
  return {
    metrics: metrics.map((id) => ({ id, label: METRIC_LABELS[id] })),
    groups: groups.map((g) => ({ ...g, settings: g.settings.map((x) => ({ id: x.id, label: x.label, f1: metrics.map((m) => f1Of(x.scores, m)) })) })),
  };
}

/** A column of the transposed disclosure: one line of Byron's standard table. */
export interface DisclosureColumnView {
  /** the standard table's row id: "raw", "non-referential", "referential", "exclusion:<category>", "excluded", "evaluation", "correct", "rr" */
  id: string;
  /** a short header, e.g. "A raw", "RR (%)" */
  short: string;
  /** the standard table's full label, e.g. "A: Raw word count" (the legend and the header's title) */
  label: string;
  /** true for the resolution rate (a fraction, written as a percentage); false for counts */
  rate: boolean;
}

/** A row of the transposed disclosure: one pronoun type, or the total. */
export interface DisclosureRowView {
  /** the pronoun's lexical type as the key writes it, e.g. "he", or "Total" */
  pronoun: string;
  /** the last row: every pronoun type together */
  total: boolean;
  /** one value per column, in column order: counts, or the RR fraction (null where C is 0) */
  values: (number | null)[];
}

/** The disclosure with pronouns as rows. */
export interface TransposedDisclosure {
  columns: DisclosureColumnView[];
  rows: DisclosureRowView[];
}

/** Short headers of the standard table's fixed lines. */
const SHORT_LABELS: Readonly<Record<string, string>> = {
  raw: "A raw",
  "non-referential": "B non-ref.",
  referential: "C referential",
  excluded: "D excluded",
  evaluation: "E evaluation",
  correct: "Correct",
  rr: "RR (%)",
};

/**
 * Byron's standard disclosure with pronouns as rows: the standard table has one column per
 * pronoun type (then "Total") and one row per line (A–E, exclusions, correct, RR); this gives
 * one row per pronoun type (the total last) and one column per line, with short headers.
 *
 * @param disclosure the table of `getRunAnalysis` (`columns`: the pronoun types then "Total";
 *   `rows`: `{id, label, values}` with one value per column)
 * @returns the same numbers turned round; a line with fewer values than columns leaves the
 *   missing cells null
 */
export function transposeDisclosure(disclosure: Pick<NonNullable<RunAnalysisView["disclosure"]>, "columns" | "rows">): TransposedDisclosure {
  const columns = disclosure.rows.map((row) => ({
    id: row.id,
    short: SHORT_LABELS[row.id] ?? (row.id.startsWith("exclusion:") ? `Excl. ${row.id.slice("exclusion:".length)}` : row.label),
    label: row.label,
    rate: row.id === "rr",
  }));
  const last = disclosure.columns.length - 1;
  const rows = disclosure.columns.map((pronoun, j) => ({
    pronoun,
    total: j === last,
    values: disclosure.rows.map((row) => row.values[j] ?? null),
  }));
  return { columns, rows };
}

/** An option of the "Compare with another run" picker. */
export interface CompareOption {
  id: string;
  /** e.g. "Team A · span-bert (baseline) · 2026-11-20 14:03 UTC" */
  label: string;
}

/** `YYYY-MM-DD HH:MM UTC`. */
function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * The compare picker's options, in the services' order.
 *
 * @param runs from `listComparableRuns`
 */
export function compareOptions(runs: readonly ComparableRun[]): CompareOption[] {
  return runs.map((r) => ({ id: r.id, label: `${r.team} · ${r.systemName}${r.isBaseline ? " (baseline)" : ""} · ${utcMinute(r.submittedAt)}` }));
}

/** The submission page's links, flags and sentences (see {@link submissionPageView}). */
export interface SubmissionPageView {
  hrefs: {
    /** `/tasks/<slug>` */
    task: string;
    /** the phase's leaderboard */
    board: string;
    /** the leaderboard of the run's track, or the phase's board for a run without one */
    trackBoard: string;
  };
  /** the page title: "<system> by <team>" */
  title: string;
  /** the phase has several datasets (the page shows the Datasets card) */
  severalDatasets: boolean;
  /** the run has scores from an earlier scoring and is being scored again */
  rescoring: boolean;
  /** "gold version 2", or "the gold versions listed per dataset" */
  goldVersionText: string;
  /** the Gold version line of the details: "2", "per dataset (see Datasets)", or null before scoring */
  goldVersionDetail: string | null;
  /** "12,345 bytes" for the team and the organizers; null for others */
  fileSizeText: string | null;
  /** the raw fractions start open (`?fractions=1`) */
  fractionsOpen: boolean;
  /** the per-document table's first sort, from the query (null: by document) */
  documentSort: { column: string; descending: boolean } | null;
  /** the metric table's rows ({@link metricRows}); empty without scores */
  metricRows: MetricRow[];
  /** whether the metric table has counts to show on demand */
  rawFractions: boolean;
  /** the run's F1 per dataset under each setting ({@link variantScoreTable}); null when it has no variant scores */
  variantScores: VariantScoreTable | null;
  /** the compare picker's options ({@link compareOptions}) */
  compare: CompareOption[];
}

/**
 * Shapes a submission for its page.
 *
 * @param s the run as the viewer sees it (`getSubmissionForViewer`)
 * @param comparable the runs it can be compared with (`listComparableRuns`)
 * @param query the page's parsed query (`parseSubmissionQuery`)
 */
export function submissionPageView(s: SubmissionView, comparable: readonly ComparableRun[], query: SubmissionQuery): SubmissionPageView {
  const task = `/tasks/${encodeURIComponent(s.task.slug)}`;
  const board = `${task}/phases/${encodeURIComponent(s.phase.id)}/leaderboard`;
  const several = s.datasets.length > 1;
  const rows = s.scores ? metricRows(s.scores) : [];
  return {
    hrefs: {
      task,
      board,
      trackBoard: s.track ? `${board}?track=${encodeURIComponent(s.track.id)}` : board,
    },
    title: `${s.systemName} by ${s.team.name}`,
    severalDatasets: several,
    rescoring: s.scores !== null && s.status !== "SCORED",
    goldVersionText: several ? "the gold versions listed per dataset" : `gold version ${s.goldVersion ?? "?"}`,
    goldVersionDetail: several ? "per dataset (see Datasets)" : s.goldVersion === null ? null : String(s.goldVersion),
    fileSizeText: s.file ? `${s.file.size.toLocaleString("en-US")} byte${s.file.size === 1 ? "" : "s"}` : null,
    fractionsOpen: query.fractions,
    documentSort: query.sort ? { column: query.sort, descending: query.order === "desc" } : null,
    metricRows: rows,
    rawFractions: hasRawFractions(rows),
    variantScores: variantScoreTable(s),
    compare: compareOptions(comparable),
  };
}
