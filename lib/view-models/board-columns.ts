/**
 * The leaderboard table's score columns (issue 12 §2, §6): which columns a board shows and in
 * what order (the ranking column first), what each header sorts by, the datasets' columns
 * grouped by language, each cell's value, the best of each column, and the shading of the
 * per-dataset cells. Pure functions of `getLeaderboard`'s board.
 */
import type { Leaderboard, LeaderboardRow } from "../boards";
import { boardColumns, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";
import { rankingPhrase } from "./leaderboard-text";

/** What a column header ranks the board by when clicked. */
export interface SortTarget {
  metric: LeaderboardMetric;
  /** the variant of the column (null: the primary setting) */
  variant: string | null;
  /** the dataset of the column (null: the macro-average, or the dataset's own board) */
  rankDataset: string | null;
}

/** A part of a metric's score. */
export type ScorePart = "recall" | "precision" | "f1";

/** The header's short name of a part, and its name in a sentence. */
export const SCORE_PART_LABEL: Readonly<Record<ScorePart, { short: string; name: string }>> = {
  recall: { short: "R", name: "recall" },
  precision: { short: "P", name: "precision" },
  f1: { short: "F1", name: "F1" },
};

/** What every score column has. */
interface ColumnBase {
  /** unique among the columns (React key) */
  key: string;
  /** this column ranks the board */
  ranked: boolean;
  /** `aria-sort` of its header: "descending" on the ranking column, else absent */
  ariaSort: "descending" | undefined;
  /** the board ranked by this column (its header is a link), or null (the ranking column, or one that cannot rank) */
  sortHref: string | null;
}

/** A score column of the table, after the fixed rank, team and system columns. */
export type BoardColumn = ColumnBase &
  (
    | {
        /** a metric of the primary setting (on a dataset's own board: that dataset's) */
        kind: "metric";
        metric: LeaderboardMetric;
        /** `["f1"]`, or `["recall", "precision", "f1"]` with recall and precision shown (never for CoNLL) */
        parts: ScorePart[];
        /** e.g. "MUC F1 (%)", or "MUC (%)" over its R, P and F1 */
        label: string;
        /** a line over the label: "Macro-average" for the CoNLL F1 and the ranking metric of a macro-averaged board; else absent */
        over?: string;
      }
    | {
        /** a secondary variant's CoNLL F1, or the ranking metric of the variant ranking the board */
        kind: "variant";
        variant: { id: string; label: string };
        metric: LeaderboardMetric;
        /** e.g. "CoNLL F1 (%)", under the variant's label */
        label: string;
      }
    | {
        /** a dataset's CoNLL F1 (the macro-averaged board of a phase with several datasets) */
        kind: "dataset";
        dataset: { name: string; scored: boolean; language: string };
        /** the name as its header shows it, without the prefix its group shares (`bio` for `en_gum_bio`); the name itself when nothing is shared */
        short: string;
        /** its group in the two-row header; null for the dataset ranking the board (first, under its full name) */
        group: DatasetGroup | null;
        /** the label of the variant ranking the board, whose CoNLL F1 the column holds; null: the primary setting */
        setting: string | null;
        label: string;
      }
    | {
        /** the value ranking a board ranked by a dataset on another metric or setting than its CoNLL F1 */
        kind: "ranked-value";
        dataset: string;
        /** e.g. "MUC F1, partial match (%)", under the dataset's name */
        label: string;
      }
    | {
        /** the 95 % intervals of the ranking metric */
        kind: "interval";
        label: string;
      }
    | {
        /** when each run was submitted */
        kind: "submitted";
        label: string;
      }
  );

/** What {@link boardTableColumns} lays out. */
export interface BoardTableInput {
  /** the rows shown (optional metrics get a column when one of them has it) */
  rows: readonly Pick<LeaderboardRow, "scores">[];
  /** the ranking metric */
  metric: LeaderboardMetric;
  /** show recall and precision next to each F1 */
  showRp: boolean;
  /** the secondary variants of the task's evaluation profile (one CoNLL F1 column each) */
  variants?: readonly { id: string; label: string }[];
  /** the variant ranking the board, or null */
  rankedVariant?: string | null;
  /** the datasets whose CoNLL F1 columns to show (the macro-averaged board of a multi-dataset phase; none otherwise) */
  datasets?: readonly { name: string; scored: boolean; language?: string }[];
  /** the dataset ranking the board, or null */
  rankDataset?: string | null;
  /** the ranking metric's 95 % intervals are shown */
  intervals?: boolean;
  /** the board ranked by a column; absent: headers do not sort (e.g. a published final board) */
  sortHref?: (target: SortTarget) => string;
  /**
   * the compact column set of a macro-averaged board ({@link boardColumnSet}): the ranking
   * column (and its intervals), the macro-averaged CoNLL F1 and the datasets' columns; the
   * other metrics, the variants and the submission time are left out
   */
  compact?: boolean;
  /** metrics to leave out unless they rank the board (e.g. `zero` when the gold has no zeros: {@link goldHasZeros}) */
  omitMetrics?: readonly LeaderboardMetric[];
}

/** A group of dataset columns under one cell of the table's two-row header. */
export interface DatasetGroup {
  /** the group's key: its language code ("" when not given), or "" for the one group of a board whose datasets share a language */
  key: string;
  /** the header's text: the language code (e.g. "cs"), or "CoNLL F1 (%) per dataset" when the board has one group */
  label: string;
  /** the language in words for the hover text, e.g. "Czech (cs)"; "" when no language is given */
  title: string;
}

/**
 * A language code in words, e.g. `cs` → "Czech (cs)"; the code alone when it has no English
 * name (e.g. a code that is not BCP 47), "" for none.
 */
export function languageTitle(code: string): string {
  if (!code) return "";
  try {
    const name = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/**
 * Dataset names without the prefix they share, for narrow column headers: the longest common
 * prefix that ends in `_` (`en_gum_bio`, `en_gum_news` → `bio`, `news`); a lone dataset loses
 * its language prefix (`ca_ancora` in `ca` → `ancora`). A name is never cut to nothing.
 *
 * @param names the datasets of one group, in order
 * @param language the group's language code ("" when not given)
 * @returns the short names, in the same order
 */
export function shortDatasetNames(names: readonly string[], language: string): string[] {
  let prefix = "";
  if (names.length > 1) {
    let common = names[0];
    for (const name of names) while (!name.startsWith(common)) common = common.slice(0, -1);
    prefix = common.slice(0, common.lastIndexOf("_") + 1);
  } else if (names.length === 1 && language && names[0].toLowerCase().startsWith(`${language.toLowerCase()}_`)) {
    prefix = names[0].slice(0, language.length + 1);
  }
  return names.map((name) => (prefix && name.length > prefix.length ? name.slice(prefix.length) : name));
}

/**
 * The datasets' columns grouped by language, for a two-row header (designed for CorefUD's 20+
 * datasets): groups in order of their first dataset, datasets in the phase's order within
 * each, each with its short name ({@link shortDatasetNames}). A board whose datasets share one
 * language (or give none) has one group, "CoNLL F1 (%) per dataset".
 *
 * @param datasets the datasets, in the phase's order
 */
export function groupDatasets<D extends { name: string; language?: string }>(datasets: readonly D[]): { group: DatasetGroup; datasets: { dataset: D; short: string }[] }[] {
  const byLanguage = new Map<string, D[]>();
  for (const d of datasets) {
    const key = d.language ?? "";
    const list = byLanguage.get(key);
    if (list) list.push(d);
    else byLanguage.set(key, [d]);
  }
  const single = byLanguage.size === 1;
  return [...byLanguage].map(([language, members]) => {
    const shorts = shortDatasetNames(
      members.map((d) => d.name),
      language,
    );
    const title = languageTitle(language);
    return {
      group: single ? { key: "", label: "CoNLL F1 (%) per dataset", title } : { key: language, label: language || "other", title: title || "No language given" },
      datasets: members.map((dataset, i) => ({ dataset, short: shorts[i] })),
    };
  });
}

/**
 * The table's score columns in reading order: the column that ranks the board first (so it is
 * on screen next to rank, team and system), then its 95 % intervals (when shown), then the
 * other metrics in board order (`boardColumns`), the variants' columns, the datasets'
 * columns (grouped by language: {@link groupDatasets}), and the submission time last. Exactly
 * one column is `ranked` (`aria-sort` "descending", no sorting link); every other column that
 * can rank the board links to it. With `compact`, only the ranking column, its intervals, the
 * macro-averaged CoNLL F1 and the datasets' columns.
 */
export function boardTableColumns(input: BoardTableInput): BoardColumn[] {
  const { rows, metric, showRp, variants = [], rankedVariant = null, datasets = [], rankDataset = null, intervals = false, sortHref, compact = false, omitMetrics = [] } = input;
  const macro = datasets.length > 0;
  const base = (key: string, ranked: boolean, target: SortTarget | null): ColumnBase => ({
    key,
    ranked,
    ariaSort: ranked ? "descending" : undefined,
    sortHref: !ranked && target && sortHref ? sortHref(target) : null,
  });
  const columns: BoardColumn[] = [];
  // The primary setting's metrics rank the board when neither a variant nor a dataset does.
  for (const m of boardColumns(metric, (o) => !omitMetrics.includes(o) && rows.some((r) => r.scores[o] !== undefined))) {
    if (m !== metric && omitMetrics.includes(m)) continue;
    const parts: ScorePart[] = showRp && m !== "conll" ? ["recall", "precision", "f1"] : ["f1"];
    const ranked = m === metric && rankedVariant === null && rankDataset === null;
    columns.push({
      ...base(`metric-${m}`, ranked, { metric: m, variant: null, rankDataset: null }),
      kind: "metric",
      metric: m,
      parts,
      label: parts.length > 1 ? `${METRIC_LABELS[m]} (%)` : `${METRIC_LABELS[m]} F1 (%)`,
      ...(macro && (m === "conll" || m === metric) ? { over: "Macro-average" } : {}),
    });
  }
  // Each variant's CoNLL F1; the variant ranking the board on another metric adds that metric's column.
  const variantRanked = rankDataset === null ? rankedVariant : null;
  for (const v of variants) {
    const shown: LeaderboardMetric[] = v.id === variantRanked && metric !== "conll" ? ["conll", metric] : ["conll"];
    for (const m of shown) {
      const ranked = v.id === variantRanked && m === metric;
      columns.push({
        ...base(`variant-${v.id}-${m}`, ranked, { metric: m, variant: v.id, rankDataset: null }),
        kind: "variant",
        variant: { id: v.id, label: v.label },
        metric: m,
        label: `${METRIC_LABELS[m]} F1 (%)`,
      });
    }
  }
  // The dataset columns hold each dataset's CoNLL F1 in the board's setting (the primary one, or
  // the variant ranking the board). A dataset's column ranks the board when ranked by its CoNLL
  // F1; else the ranked value gets a column of its own.
  const datasetConllRanked = rankDataset !== null && metric === "conll";
  const datasetSetting = rankedVariant === null ? null : (variants.find((v) => v.id === rankedVariant)?.label ?? rankedVariant);
  const datasetColumn = (d: (typeof datasets)[number], ranked: boolean, short: string, group: DatasetGroup | null): BoardColumn => ({
    ...base(`dataset-${d.name}`, ranked, { metric: "conll", variant: rankedVariant, rankDataset: d.name }),
    kind: "dataset",
    dataset: { name: d.name, scored: d.scored, language: d.language ?? "" },
    short,
    group,
    setting: datasetSetting,
    label: `${rankingPhrase("conll", datasetSetting)} (%)`,
  });
  const rankedOne = datasetConllRanked ? datasets.find((d) => d.name === rankDataset) : undefined;
  if (rankedOne) columns.push(datasetColumn(rankedOne, true, rankedOne.name, null));
  for (const { group, datasets: members } of groupDatasets(datasets.filter((d) => d !== rankedOne))) {
    for (const { dataset, short } of members) columns.push(datasetColumn(dataset, false, short, group));
  }
  if (rankDataset !== null && !columns.some((c) => c.ranked)) {
    columns.push({
      ...base("ranked-value", true, null),
      kind: "ranked-value",
      dataset: rankDataset,
      label: `${rankingPhrase(metric, datasetSetting)} (%)`,
    });
  }
  const ranked = columns.filter((c) => c.ranked);
  const interval: BoardColumn[] = intervals ? [{ ...base("interval", false, null), kind: "interval", label: `95 % interval, ${METRIC_LABELS[metric]} F1 (%)` }] : [];
  const submitted: BoardColumn = { ...base("submitted", false, null), kind: "submitted", label: "Submitted (UTC)" };
  // The compact set: the datasets and the macro-averaged CoNLL F1, both in the board's setting.
  const macroConll = (c: BoardColumn) => (rankedVariant === null ? c.kind === "metric" && c.metric === "conll" : c.kind === "variant" && c.variant.id === rankedVariant && c.metric === "conll");
  const others = columns.filter((c) => !c.ranked && (!compact || c.kind === "dataset" || macroConll(c)));
  return [...ranked, ...interval, ...others, ...(compact ? [] : [submitted])];
}

/**
 * Which score columns a board shows: `compact` on the macro-averaged board of a phase with
 * several datasets (rank, team, system, the ranking value, the macro-averaged CoNLL F1 and one
 * column per dataset, as CRAC papers print it) unless the address asks for every metric
 * (`?columns=all`); `all` when it does; null on every other board (one dataset, or a
 * dataset's own board), which shows every metric and has no switch.
 *
 * @param board the board shown
 * @param requested the address's `columns` value (only `all` means anything)
 */
export function boardColumnSet(board: Pick<Leaderboard, "datasets" | "dataset">, requested: string | null | undefined): "compact" | "all" | null {
  if (board.datasets.length < 2 || board.dataset !== null) return null;
  return requested?.trim().toLowerCase() === "all" ? "all" : "compact";
}

/** The key of a score cell's column part, for {@link columnBests}: `metric-muc:f1`, `dataset-en_gum_bio`. */
export function cellKey(column: BoardColumn, part: ScorePart = "f1"): string {
  return column.kind === "metric" ? `${column.key}:${part}` : column.key;
}

/**
 * The value a score cell shows (a fraction), or null when the run has none there (or the
 * column holds no score: intervals, submission time). A dataset a run left out shows the 0 it
 * counts as.
 */
export function cellValue(row: Pick<LeaderboardRow, "scores" | "variants" | "datasets" | "value">, column: BoardColumn, part: ScorePart = "f1"): number | null {
  switch (column.kind) {
    case "metric": {
      if (column.metric === "conll") return part === "f1" ? (row.scores.conll?.f1 ?? null) : null;
      const s = row.scores[column.metric];
      return s ? s[part] : null;
    }
    case "variant":
      return row.variants[column.variant.id]?.[column.metric]?.f1 ?? null;
    case "dataset":
      return row.datasets[column.dataset.name]?.conllF1 ?? null;
    case "ranked-value":
      return row.value;
    default:
      return null;
  }
}

/** The best value of a score column among the rows shown, and the runs that have it. */
export interface ColumnBest {
  /** the highest value (a fraction, > 0) */
  max: number;
  /** the submission ids of the rows with it (every one of a tie) */
  runs: string[];
}

/**
 * The best of each score column (by {@link cellKey}), as CRAC papers mark it: the highest value
 * among the rows shown that compete (disqualified and hidden runs do not; baselines do), every
 * row of a tie (equal within 1e-12, float noise of averaging). A column gets none when fewer
 * than two rows have a value there, or when the highest is 0 (nothing to single out).
 *
 * @param rows the rows shown, in board order
 * @param columns the table's columns
 */
export function columnBests(rows: readonly LeaderboardRow[], columns: readonly BoardColumn[]): Record<string, ColumnBest> {
  const competing = rows.filter((r) => !r.disqualified && !r.hidden);
  const bests: Record<string, ColumnBest> = {};
  for (const c of columns) {
    for (const part of c.kind === "metric" ? c.parts : (["f1"] as ScorePart[])) {
      const values = competing.flatMap((r) => {
        const v = cellValue(r, c, part);
        return v === null ? [] : [{ id: r.submissionId, v }];
      });
      if (values.length < 2) continue;
      const max = Math.max(...values.map((x) => x.v));
      if (!(max > 0)) continue;
      bests[cellKey(c, part)] = { max, runs: values.filter((x) => max - x.v <= 1e-12).map((x) => x.id) };
    }
  }
  return bests;
}

/** Steps of the per-dataset cells' shading ({@link heatLevel}). */
export const HEAT_STEPS = 4;

/**
 * How strongly to shade a cell: its value's share of the column's best, in {@link HEAT_STEPS}
 * steps (0: none, for 0 or below; HEAT_STEPS: the best).
 */
export function heatLevel(value: number, max: number): number {
  if (!(max > 0) || !(value > 0)) return 0;
  return Math.max(0, Math.min(HEAT_STEPS, Math.round((value / max) * HEAT_STEPS)));
}
