/**
 * What the submission page (`app/submissions/[id]/page.tsx`) shows, shaped from the services'
 * views so that the page and its components only lay it out (issue 12 §5, §6):
 *
 * - {@link submissionPageView}: the page's links, flags and sentences (the task, the phase's
 *   board and the run's track board; whether the run is being scored again; which gold
 *   version(s) the scores come from; the compare picker's options; whether the raw fractions
 *   start open, from the query of `lib/validations/submission-query.ts`; the cards' titles and
 *   descriptions).
 * - {@link documentScoresView}, {@link runRankLinks}, {@link runControlsView} and
 *   {@link finalRunView}: what the per-document card, the rank line, the run controls and the
 *   final-run card show (they need the analysis, rank and final state the page loads beside
 *   the run).
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
import type { ComparableRun, BoardMetricsJson, CountsJson } from "../boards";
import type { SubmissionView, RunAnalysisView, RunFinalState, RunRank } from "../runs";
import { COUNT_METRIC_NAMES, LEADERBOARD_METRICS, METRIC_LABELS, type CountMetricName, type LeaderboardMetric } from "../validations/metrics";
import type { SubmissionQuery } from "../validations/submission-query";
import { formatUtc } from "../validations/time";

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
  /** the header's breadcrumbs: the task, then the run's board ("test leaderboard", or "test leaderboard, LLM track") */
  breadcrumbs: { href: string; label: string }[];
  /** the Scores card's description (with a line about the raw fractions when there are any); null without scores */
  scoresDescription: string | null;
  /** what the Scores card says without scores: that a failed run has none, or that they appear when scoring finishes */
  noScoresText: string;
  /** the description of the card of scores under each evaluation setting: per dataset, or on the phase's dataset */
  variantScoresDescription: string;
  /** the first 12 hex digits of the file's sha256 (the details show them, the full sum in a tooltip); null without a file */
  fileShaPrefix: string | null;
  /** the labels of the evaluation's secondary variants, joined with "; " ("Partial match; Exact match"); null for none or before scoring */
  alsoScoredText: string | null;
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
  const trackBoard = s.track ? `${board}?track=${encodeURIComponent(s.track.id)}` : board;
  const rows = s.scores ? metricRows(s.scores) : [];
  const rawFractions = hasRawFractions(rows);
  return {
    hrefs: { task, board, trackBoard },
    severalDatasets: several,
    rescoring: s.scores !== null && s.status !== "SCORED",
    goldVersionText: several ? "the gold versions listed per dataset" : `gold version ${s.goldVersion ?? "?"}`,
    goldVersionDetail: several ? "per dataset (see Datasets)" : s.goldVersion === null ? null : String(s.goldVersion),
    fileSizeText: s.file ? `${s.file.size.toLocaleString("en-US")} byte${s.file.size === 1 ? "" : "s"}` : null,
    fractionsOpen: query.fractions,
    documentSort: query.sort ? { column: query.sort, descending: query.order === "desc" } : null,
    metricRows: rows,
    rawFractions,
    variantScores: variantScoreTable(s),
    compare: compareOptions(comparable),
    breadcrumbs: [
      { href: task, label: s.task.title },
      { href: trackBoard, label: `${s.phase.name} leaderboard${s.track ? `, ${s.track.name} track` : ""}` },
    ],
    scoresDescription: s.scores
      ? `Percentages with 2 decimals; hover over a number for its exact value.${rawFractions ? " The numerators and denominators behind recall and precision are under the table." : ""}`
      : null,
    noScoresText: s.status === "FAILED" ? "This run has no scores." : "Scores appear here as soon as scoring finishes; this page updates by itself.",
    variantScoresDescription: `F1 in % under the primary setting and each of the task's evaluation variants, ${several ? "per dataset, then the macro-average" : "on the phase's dataset"}; the CoNLL F1 first.`,
    fileShaPrefix: s.file ? s.file.sha256.slice(0, 12) : null,
    alsoScoredText: s.evaluation?.variants.length ? s.evaluation.variants.map((v) => v.label).join("; ") : null,
  };
}

/** The "Scores per document" card: its description and whether document names open their error views. */
export interface DocumentScoresView {
  /** "F1 per document in %…; click a column header to sort." and, when names are links, that a name opens its error view */
  description: string;
  /** the viewer may open each document's error view (the run's analysis is available and the viewer may see its errors) */
  linkDocuments: boolean;
}

/**
 * Shapes the per-document card of the submission page.
 *
 * @param severalDatasets the phase has several datasets (the table groups documents by dataset)
 * @param analysis the run's analysis as the viewer sees it (`getRunAnalysis`)
 */
export function documentScoresView(severalDatasets: boolean, analysis: Pick<RunAnalysisView, "available" | "canViewErrors">): DocumentScoresView {
  const linkDocuments = analysis.available && analysis.canViewErrors;
  return {
    description: `F1 per document in %${severalDatasets ? ", grouped by dataset (documents are named within a dataset)" : ""}; click a column header to sort.${
      linkDocuments ? " A document's name opens its error view." : ""
    }`,
    linkDocuments,
  };
}

/**
 * The links of the run's rank line: the board (on the rank's track, when it has one) and, when
 * another run counts for the team, that run's page.
 *
 * @param rank the run's rank, or why it has none (`getRunRank`)
 * @param boardHref the phase's leaderboard ({@link SubmissionPageView.hrefs})
 * @returns `board`: the board with `?track=<id>` for a ranked or not-counted run on a track;
 *   `counted`: `/submissions/<id>` of the counted run, else null
 */
export function runRankLinks(rank: RunRank, boardHref: string): { board: string; counted: string | null } {
  const track = rank.kind !== "unranked" && rank.track ? `?track=${encodeURIComponent(rank.track.id)}` : "";
  const counted = rank.kind === "not-counted" && rank.counted ? `/submissions/${encodeURIComponent(rank.counted.submissionId)}` : null;
  return { board: `${boardHref}${track}`, counted };
}

/** What the "Final run" card's form is given: `FinalRunForm`'s props but the run's id. */
export interface FinalRunView {
  selected: boolean;
  count: number;
  limit: number;
  /** the viewer may unmark the run (when marked) or mark it (when not) now */
  canChange: boolean;
  reason: string | null;
  /** the system names of the team's other final runs */
  others: string[];
  /** when the choice closes, "2026-11-20 14:03 UTC" */
  closesAtText: string;
}

/**
 * Shapes the run's final-run state for the "Final run" card.
 *
 * @param state from `runFinalState` (the run's team, on a team-selected phase)
 */
export function finalRunView(state: RunFinalState): FinalRunView {
  return {
    selected: state.selected,
    count: state.count,
    limit: state.limit,
    canChange: state.selected ? state.canUnselect : state.canSelect,
    reason: state.reason,
    others: state.others.map((r) => r.systemName),
    closesAtText: formatUtc(state.closesAt),
  };
}

/** The "Run controls" card: the team's withdrawal and the organizers' disqualification. */
export interface RunControlsView {
  /** when the team may withdraw the run: until when ("2026-11-20 14:03 UTC"); else null */
  withdrawClosesAtText: string | null;
  /** the organizers' controls (not on a withdrawn run); else null */
  organizer: {
    /** "Disqualify this run", or "Disqualified: change the reason or reinstate" */
    heading: string;
    /** the current public reason of a disqualified run; null when it is not */
    currentReason: string | null;
    /** the run is disqualified: it can be reinstated */
    canReinstate: boolean;
  } | null;
}

/**
 * Which run controls the viewer gets: "Withdraw this run" for its team while it may, and
 * "Disqualify" / "Reinstate" for the organizers unless the run is withdrawn.
 *
 * @param s the run as the viewer sees it
 * @returns the controls; null when the viewer has none (the page shows no card)
 */
export function runControlsView(
  s: Pick<SubmissionView, "viewerCanWithdraw" | "viewerIsOrganizer" | "withdrawnAt" | "withdrawableUntil" | "disqualified">,
): RunControlsView | null {
  const organizerControls = s.viewerIsOrganizer && !s.withdrawnAt;
  if (!s.viewerCanWithdraw && !organizerControls) return null;
  return {
    withdrawClosesAtText: s.viewerCanWithdraw ? formatUtc(s.withdrawableUntil) : null,
    organizer: organizerControls
      ? {
          heading: s.disqualified ? "Disqualified: change the reason or reinstate" : "Disqualify this run",
          currentReason: s.disqualified?.reason ?? null,
          canReinstate: s.disqualified !== null,
        }
      : null,
  };
}
