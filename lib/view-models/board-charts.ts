/**
 * The leaderboard charts' data (issue 12 §6): the runs the charts draw with their scores in the
 * ranked setting, the datasets × runs heatmap's cells, and the precision-recall chart's metric.
 * Pure functions of `getLeaderboard`'s board.
 */
import type { BoardMetricsJson, Leaderboard, LeaderboardRow } from "../boards";
import { boardColumns, CONLL_PARTS, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";
import { heatLevel } from "./board-columns";
import { settingInSentence } from "./leaderboard-text";

/** One run as the leaderboard charts take it (the shape of the charts' `LeaderboardChartRun`). */
export interface BoardChartRun {
  /** the submission id */
  id: string;
  /** e.g. "Team A · system-1 (baseline)" */
  label: string;
  /** the system's name, e.g. "system-1 (baseline)": the bar's label */
  system: string;
  /** the team's name: the bar label's second line */
  team: string;
  /** the heatmap's cells: per dataset of a macro-averaged board (in its columns' order; else none) */
  datasets: HeatmapCell[];
  /** F1 per metric (fractions), in board order */
  metrics: { metric: string; label: string; f1: number }[];
  /** recall and precision (fractions) of the ranking metric; null when the run has none */
  primary: { recall: number; precision: number } | null;
}

/** A run's cell of the datasets × runs heatmap. */
export interface HeatmapCell {
  /** the run's CoNLL F1 on the dataset (a fraction, primary setting; 0 for a dataset it left out), or null when it has none */
  f1: number | null;
  /** its shade, {@link heatLevel} of its share of the heatmap's highest value (0 to {@link HEAT_STEPS}) */
  heat: number;
  /** the best of its dataset among the charted runs (ties all; as {@link columnBests}) */
  best: boolean;
}

/**
 * A run's recall and precision on a metric, for the precision/recall chart. CoNLL has none
 * of its own: its point is the mean recall and the mean precision of MUC, B³ and CEAFe (as
 * the CoNLL F1 is their mean F1).
 */
export function recallPrecision(scores: BoardMetricsJson, metric: LeaderboardMetric): { recall: number; precision: number } | null {
  if (metric === "conll") {
    const parts = CONLL_PARTS.map((m) => scores[m]);
    if (parts.some((p) => !p)) return null;
    const mean = (f: (p: NonNullable<(typeof parts)[number]>) => number) => parts.reduce((sum, p) => sum + f(p!), 0) / parts.length;
    return { recall: mean((p) => p.recall), precision: mean((p) => p.precision) };
  }
  const s = scores[metric];
  return s ? { recall: s.recall, precision: s.precision } : null;
}

/**
 * The runs the charts draw: this page's ranked rows in rank order (disqualified and hidden
 * runs, and rows without a value, are not ranked and not charted), with their scores in the
 * ranked setting: the standard metrics, CoNLL and the ranking metric; and, for the datasets ×
 * runs heatmap, their cells on `datasets` (CoNLL F1 in the board's setting, one shading scale for all
 * cells, the best of each dataset marked).
 *
 * @param board the board shown
 * @param datasets the heatmap's datasets by name, in its columns' order (none: no heatmap)
 */
export function boardChartRuns(board: Pick<Leaderboard, "rows" | "metric" | "variant">, datasets: readonly string[] = []): BoardChartRun[] {
  const chartMetrics = boardColumns(board.metric, () => false);
  const charted = board.rows.filter((r) => r.value !== null && !r.disqualified && !r.hidden);
  // The heatmap: one scale for every cell (datasets compare), the best marked per dataset.
  const f1 = (r: LeaderboardRow, name: string) => r.datasets[name]?.conllF1 ?? null;
  const values = datasets.map((name) => charted.map((r) => f1(r, name)).filter((v): v is number => v !== null));
  const top = Math.max(0, ...values.flat());
  const bestOf = values.map((vs) => (vs.length >= 2 && Math.max(...vs) > 0 ? Math.max(...vs) : null));
  return charted.map((r) => {
    const scores = board.variant === null ? r.scores : (r.variants[board.variant] ?? {});
    const system = `${r.systemName}${r.isBaseline ? " (baseline)" : ""}`;
    return {
      id: r.submissionId,
      label: `${r.team.name} · ${system}`,
      system,
      team: r.team.name,
      datasets: datasets.map((name, j) => {
        const v = f1(r, name);
        return { f1: v, heat: v === null ? 0 : heatLevel(v, top), best: v !== null && bestOf[j] !== null && bestOf[j]! - v <= 1e-12 };
      }),
      metrics: chartMetrics.filter((m) => scores[m]).map((m) => ({ metric: m, label: METRIC_LABELS[m], f1: scores[m]?.f1 ?? 0 })),
      primary: recallPrecision(scores, board.metric),
    };
  });
}

/** The precision–recall chart's metric name: "CoNLL (mean of MUC, B³ and CEAFe)", "MUC", with the ranked variant's setting. */
export function chartPrimaryLabel(board: Pick<Leaderboard, "metric" | "variant" | "evaluation">): string {
  const variant = board.evaluation.variants.find((v) => v.id === board.variant);
  const name = board.metric === "conll" ? "CoNLL (mean of MUC, B³ and CEAFe)" : METRIC_LABELS[board.metric];
  return variant ? `${name}, ${settingInSentence(variant.label)}` : name;
}
