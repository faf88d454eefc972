/**
 * The leaderboard page's data, shaped for display (issue 12 §2, §6): the table's columns in
 * reading order (the column that ranks the board right after rank, team and system, its 95 %
 * intervals next to it, the other metrics after), each header's sorting link and `aria-sort`,
 * the paging text and links, the team search, the controls' links, the notices, the
 * significance note and the charts' runs. Pure functions of `getLeaderboard`'s board, the
 * parsed query (`parseLeaderboardPageQuery`) and the stored significance
 * (`readBoardSignificance`), so the page and its parts only lay them out.
 *
 * Links: every board link starts from the state of the board shown ({@link boardLinkState}: the
 * shown track is always kept, the metric only when the address named it). A link that changes
 * which rows are listed or their order (sorting, the runs toggle, a track or dataset switch,
 * re-ranking) drops the paging cursor (it starts at page 1); the display toggles (recall and
 * precision, intervals) keep it. Every link keeps the team filter.
 *
 * Numbers follow the site's rule: percentages with 2 decimals written `78.12` under a
 * "(%)" header.
 */
import { leaderboardApiHref, leaderboardHref, leaderboardParams, submitHref, taskHref, type LeaderboardLinkState } from "../hrefs";
import type { StoredBoardSignificance } from "../boards/board-significance";
import type { BoardMetricsJson } from "../boards/scores";
import type { BoardPage, BoardSignificance, Leaderboard, LeaderboardRow } from "../boards/types";
import type { LeaderboardPageQuery, ParsedLeaderboardPageQuery } from "../validations/leaderboard-query";
import { boardColumns, CONLL_PARTS, LEADERBOARD_METRICS, METRIC_LABELS, shownMetrics, type LeaderboardMetric } from "../validations/metrics";

/** `Partial match` → `partial match`: a variant label inside a sentence. */
export function settingInSentence(label: string): string {
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/**
 * What ranks a board, for headings and captions: `"CoNLL F1"`; with the setting of a task that
 * has evaluation variants, `"CoNLL F1, partial match"` or `"CoNLL F1, primary setting"`.
 *
 * @param metric the ranking metric
 * @param setting the ranked variant's label (e.g. "Partial match"), `"primary"` for the primary
 *   setting of a task with variants, or null for a task without variants
 */
export function rankingPhrase(metric: LeaderboardMetric, setting: string | null): string {
  const base = `${METRIC_LABELS[metric]} F1`;
  if (setting === null) return base;
  return `${base}, ${setting === "primary" ? "primary setting" : settingInSentence(setting)}`;
}

/** `["a", "b", "c"]` → `"a, b and c"` (`""` for none). */
export function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The page title (the layout appends "· Corefboard"): `"Leaderboard · test phase · LitBank"`. */
export function leaderboardTitle(phaseName: string, taskTitle: string): string {
  return `Leaderboard · ${phaseName} phase · ${taskTitle}`;
}

/** How a board with one run per team picks each team's run, per selection rule. */
export function selectionText(board: Pick<Leaderboard, "phase" | "evaluation" | "policy">): string {
  switch (board.phase.selectionRule) {
    case "BEST":
      return board.evaluation.variants.length > 0
        ? "Each team is represented by its best run by the chosen metric and setting."
        : "Each team is represented by its best run by the chosen metric.";
    case "LATEST":
      return "Each team is represented by its most recent run.";
    case "TEAM_SELECTED": {
      const n = board.policy.finalRunLimit;
      return `Each team marks up to ${n} ${n === 1 ? "run" : "runs"} as final on the run's page, and is represented by the best of them by the chosen metric; a team that marked none is represented by its latest run, and its row says so.`;
    }
  }
}

/** The label of the "one run per team" half of the runs toggle, per selection rule. */
export const ONE_PER_TEAM_LABEL: Readonly<Record<Leaderboard["phase"]["selectionRule"], string>> = {
  BEST: "Best run per team",
  LATEST: "Latest run per team",
  TEAM_SELECTED: "Chosen run per team",
};

/** A piece of the board's headline; the page marks the ranking phrase and the ranking dataset. */
export interface HeadlineSegment {
  text: string;
  /** `ranked`: what ranks the board (e.g. "CoNLL F1"); `dataset`: the dataset ranking it */
  mark?: "ranked" | "dataset";
}

/** An evaluation profile's short name, before its parenthesis: "CRAC (CorefUD scorer: …)" → "CRAC". */
export function profileShortName(label: string): string {
  return label.split(" (")[0].trim() || label;
}

/**
 * The one line that says what a board ranks, e.g. "Macro-average CoNLL F1 over 6 datasets ·
 * CRAC primary setting · best run per team": the ranking value (on a phase with several
 * datasets: the macro-average over the datasets with a gold key, one dataset alone, or a
 * dataset's own board), the setting (tasks whose evaluation profile has variants), which runs
 * are listed, and the track.
 *
 * @param board the board shown
 * @returns the segments in order ({@link headlineText} joins them)
 */
export function boardHeadline(
  board: Pick<Leaderboard, "metric" | "variant" | "evaluation" | "datasets" | "dataset" | "rankDataset" | "allRuns" | "phase" | "track">,
): HeadlineSegment[] {
  const variant = board.evaluation.variants.find((v) => v.id === board.variant) ?? null;
  const ranked: HeadlineSegment = { text: `${METRIC_LABELS[board.metric]} F1${variant ? ` (${settingInSentence(variant.label)})` : ""}`, mark: "ranked" };
  const multi = board.datasets.length > 1;
  const counted = board.datasets.filter((d) => d.scored).length;
  const what: HeadlineSegment[] = !multi
    ? [ranked]
    : board.dataset
      ? [ranked, { text: ` on the ${board.dataset.name} dataset` }]
      : board.rankDataset
        ? [ranked, { text: " on " }, { text: board.rankDataset, mark: "dataset" }, { text: " alone" }]
        : [{ text: "Macro-average " }, ranked, { text: ` over ${counted} ${counted === 1 ? "dataset" : "datasets"}` }];
  const rest: string[] = [];
  if (board.evaluation.variants.length > 0) rest.push(`${profileShortName(board.evaluation.label)} ${variant ? "secondary" : "primary"} setting`);
  rest.push(board.allRuns ? "all runs" : ONE_PER_TEAM_LABEL[board.phase.selectionRule].toLowerCase());
  if (board.track) rest.push(`${board.track.name} track`);
  return [...what, ...rest.map((text) => ({ text: ` · ${text}` }))];
}

/** The headline's text. */
export function headlineText(segments: readonly HeadlineSegment[]): string {
  return segments.map((s) => s.text).join("");
}

/**
 * The link state of the board shown: its metric as the address named it (absent when the
 * address did not: links keep the default), its variant, track (always, so links stay valid
 * when the tracks' order changes), dataset, ranking dataset and runs choice as the service
 * applied them (with the team filter and the cursor of the page), and the display switches.
 *
 * @param board the board shown
 * @param query the page's parsed query
 */
export function boardLinkState(
  board: Pick<Leaderboard, "variant" | "track" | "dataset" | "rankDataset" | "allRuns" | "page">,
  query: Pick<LeaderboardPageQuery, "metric" | "rp" | "ci">,
): LeaderboardLinkState {
  return {
    metric: query.metric,
    variant: board.variant,
    track: board.track?.id ?? null,
    dataset: board.dataset?.name ?? null,
    rankDataset: board.rankDataset,
    all: board.allRuns,
    rp: query.rp,
    ci: query.ci,
    team: board.page.team,
    cursor: board.page.cursor,
  };
}

/**
 * The board state an address asked for, before the service applied it (for the sign-in link
 * of a board the viewer may not see yet: it comes back to the same address).
 */
export function requestedLinkState(query: LeaderboardPageQuery): LeaderboardLinkState {
  const { metric, variant, track, dataset, rankDataset, allRuns, rp, ci, team, cursor } = query;
  return { metric, variant, track, dataset, rankDataset, all: allRuns, rp, ci, team, cursor };
}

/** What a column header ranks the board by when clicked. */
export interface SortTarget {
  metric: LeaderboardMetric;
  /** the variant of the column (null: the primary setting) */
  variant: string | null;
  /** the dataset of the column (null: the macro-average, or the dataset's own board) */
  rankDataset: string | null;
}

/**
 * The board ranked by a column: the state with the column's metric, variant and ranking
 * dataset, without the cursor (sorting starts at page 1); everything else (track, dataset,
 * runs, display switches, team filter) kept.
 */
export function sortState(state: LeaderboardLinkState, target: SortTarget): LeaderboardLinkState {
  return { ...state, metric: target.metric, variant: target.variant, rankDataset: target.rankDataset, cursor: null };
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

/**
 * Whether the board's gold has zeros (anaphoric empty nodes) for the zeros metric to count:
 * the service's fact (`Leaderboard.zeros.inGold`, read from the key counts of the stored zero
 * scores, `goldZerosByDataset` in lib/boards/scores.ts).
 *
 * @returns true or false; null when not known (no run scored against a key yet, no zeros
 *   metric computed, or a board built without the fact)
 */
export function goldHasZeros(board: Pick<Leaderboard, "zeros">): boolean | null {
  return board.zeros?.inGold ?? null;
}

/** What the zeros metric reads on a board whose gold has none ({@link goldHasZeros}). */
export const NO_ZEROS = "n/a — the gold has no zeros";

/**
 * Where a page is on the board, for people: `"Rows 51–100 of 1,000"`; `"No rows"` for an
 * empty board; `"No rows on this page (1,000 in all)"` past its end.
 *
 * @param page the board's {@link BoardPage}
 * @param rowCount the rows on this page
 */
export function pageSummary(page: Pick<BoardPage, "total" | "offset">, rowCount: number): string {
  const n = (x: number) => x.toLocaleString("en");
  if (rowCount === 0) return page.total === 0 ? "No rows" : `No rows on this page (${n(page.total)} in all)`;
  return `Rows ${n(page.offset + 1)}–${n(page.offset + rowCount)} of ${n(page.total)}`;
}

/**
 * The paging links' states: the next page (after `page.nextCursor`, none on the last page) and
 * the first page (none on the first page). Both keep everything else, the team filter included.
 */
export function pagerStates(state: LeaderboardLinkState, page: Pick<BoardPage, "cursor" | "nextCursor">): { next: LeaderboardLinkState | null; first: LeaderboardLinkState | null } {
  return {
    next: page.nextCursor ? { ...state, cursor: page.nextCursor } : null,
    first: page.cursor ? { ...state, cursor: null } : null,
  };
}

/** A hidden field of a GET form: the state it keeps. */
export interface HiddenField {
  name: string;
  value: string;
}

/**
 * The hidden fields keeping a board state in a GET form: each non-default parameter of
 * `state` but those in `omit` (the form's own fields) and the cursor (a form starts at page 1).
 */
export function hiddenFields(state: LeaderboardLinkState, omit: readonly (keyof LeaderboardLinkState)[]): HiddenField[] {
  return [...leaderboardParams({ ...state, cursor: null }).entries()].filter(([name]) => !omit.includes(name as keyof LeaderboardLinkState)).map(([name, value]) => ({ name, value }));
}

/** The parameters the page reads besides `metric` (others of the API's, such as `format`, are ignored there). */
const PAGE_PARAMETERS = ["variant", "track", "dataset", "rankDataset", "cursor", "team"] as const;

/** Problems with the address, reported by the service per parameter (see the page's board loader). */
export type BoardQueryErrors = Partial<Record<"variant" | "track" | "dataset" | "rankDataset" | "cursor" | "team", string>>;

/**
 * The error notices of a board: each parameter of the address that could not be used (a
 * metric that is not one, a variant, track or dataset the task or phase does not have, a
 * paging link that is out of date), with what is shown instead.
 *
 * @param board the board shown (without the bad parameters)
 * @param parsed the parsed query: `invalid` holds what the schema refused, `query` the given values
 * @param errors what the service refused, by parameter
 */
export function boardNotices(
  board: Pick<Leaderboard, "evaluation" | "tracks" | "track">,
  parsed: ParsedLeaderboardPageQuery,
  errors: BoardQueryErrors,
): string[] {
  const { query, invalid } = parsed;
  const notices: string[] = [];
  if (invalid.metric) {
    notices.push(`“${invalid.metric.value}” is not a metric. Choose one of: ${LEADERBOARD_METRICS.map((m) => METRIC_LABELS[m]).join(", ")}. Showing the default ranking.`);
  }
  for (const name of PAGE_PARAMETERS) {
    const problem = invalid[name];
    if (problem) notices.push(`The address's ${name} “${problem.value.slice(0, 60)}” ${problem.message}; it is left out.`);
  }
  if (errors.track) notices.push(`“${query.track}” is not a track of this phase: choose one of ${listOf(board.tracks.map((t) => t.name))}. Showing the ${board.track?.name} track.`);
  if (errors.dataset || errors.rankDataset) {
    notices.push(`${errors.dataset ?? errors.rankDataset} Showing the ${errors.dataset ? "board of all datasets" : "macro-average ranking"}.`);
  }
  if (errors.variant) {
    const variants = board.evaluation.variants;
    const choice = variants.length > 0 ? `choose one of ${listOf(variants.map((v) => `${v.label} (${v.id})`))}` : "it has no secondary variants";
    notices.push(`“${query.variant}” is not an evaluation setting of this task: ${choice}. Showing the primary setting.`);
  }
  if (errors.cursor) notices.push("This page link is out of date or not valid. Showing the first page.");
  if (errors.team) notices.push(`${errors.team} Showing every team.`);
  return notices;
}

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

/** The significance section of a board, by the stored significance's status. */
export type SignificanceView =
  | {
      status: "ready";
      significance: BoardSignificance;
      /** the ranking metric's label, e.g. "CoNLL" */
      metricLabel: string;
      /** how the bootstrap resamples a board of a multi-dataset phase, or null */
      resampling: string | null;
      /** the 95 % intervals are shown */
      intervals: boolean;
    }
  /** a job computes them: a note, and no markers (never stale ones) */
  | { status: "pending" }
  /** never shown for this board: the service's reason, and the board ranked by the primary setting when a variant ranks it */
  | { status: "none"; reason: string; primarySettingHref: string | null };

/**
 * The significance section's content.
 *
 * @param stored `readBoardSignificance(board, {intervals: query.ci})`
 * @param board the board shown
 * @param state its link state (for the "rank by the primary setting" link)
 */
export function significanceView(
  stored: StoredBoardSignificance,
  board: Pick<Leaderboard, "metric" | "variant" | "datasets" | "dataset" | "rankDataset" | "task" | "phase">,
  state: LeaderboardLinkState,
): SignificanceView {
  if (stored.status === "pending") return { status: "pending" };
  if (stored.status === "none") {
    const primarySettingHref = board.variant !== null ? leaderboardHref(board.task.slug, board.phase.id, { ...state, variant: null, cursor: null }) : null;
    return { status: "none", reason: stored.reason, primarySettingHref };
  }
  const multi = board.datasets.length > 1;
  const one = board.dataset?.name ?? board.rankDataset;
  const resampling = !multi
    ? null
    : one
      ? `The bootstrap resamples the documents of the ${one} dataset.`
      : "For the macro-average, each sample resamples the documents within each dataset (a dataset a run left out counts as 0 in every sample).";
  const intervals = Object.values(stored.significance.rows).some((r) => r.interval !== null);
  return { status: "ready", significance: stored.significance, metricLabel: METRIC_LABELS[board.metric], resampling, intervals };
}

/** A link of the controls bar. */
export interface ControlLink {
  label: string;
  href: string;
}

/** A choice of a board switch (tracks, datasets) or of the runs toggle. */
export interface BoardChoice {
  key: string;
  label: string;
  title?: string;
  href: string;
  current: boolean;
}

/** An option of a select. */
export interface SelectOption {
  value: string;
  label: string;
}

/** The controls above the table. */
export interface BoardControlsView {
  /** the track switch (phases with tracks), else null */
  tracks: BoardChoice[] | null;
  /**
   * the dataset board chooser (phases with several datasets), a GET form with one select:
   * the macro-averaged board (value "") or a dataset's own board; else null
   */
  datasetForm: { action: string; value: string; options: SelectOption[]; hidden: HiddenField[] } | null;
  /** the column set switch, "Per dataset" or "All metrics" (the macro-averaged board of a phase with several datasets), else null */
  columns: [BoardChoice, BoardChoice] | null;
  /** the "Rank by" GET form */
  rankForm: {
    action: string;
    ariaLabel: string;
    metric: string;
    metrics: SelectOption[];
    /** the setting select (tasks with variants), else null */
    variant: { value: string; options: SelectOption[] } | null;
    /** the "Over" select (the macro-averaged board of a multi-dataset phase), else null */
    rankDataset: { value: string; options: SelectOption[] } | null;
    hidden: HiddenField[];
  };
  /** one run per team, or every run */
  runs: [BoardChoice, BoardChoice];
  /** null when no column shown has a recall and precision (only CoNLL F1 and datasets' columns) and they are off */
  rp: ControlLink | null;
  /** null when the board has no significance (so no intervals) */
  ci: ControlLink | null;
  /** the exports of the board shown (its choices and team filter, no cursor): the API's JSON, CSV, LaTeX and Markdown */
  json: string;
  csv: string;
  latex: string;
  markdown: string;
}

/** The paging and team search under the controls. */
export interface BoardPagerView {
  /** e.g. "Rows 51–100 of 1,000" */
  summary: string;
  next: string | null;
  first: string | null;
  /** the team filter applied, or null */
  team: string | null;
  /** the search form: its action and the state it keeps */
  action: string;
  hidden: HiddenField[];
  /** the board without the team filter, when one is applied */
  clear: string | null;
}

/** Everything the page lays out besides the board itself. */
export interface LeaderboardView {
  title: string;
  taskHref: string;
  submitHref: string;
  /** e.g. "CoNLL F1" or "CoNLL F1, partial match" */
  rankedBy: string;
  /** the ranking metric is the task's primary metric, in the primary setting */
  isTaskPrimary: boolean;
  /** how teams are represented ("All runs are listed." with every run) */
  selection: string;
  /** the ranked variant (null: the primary setting) */
  rankedVariant: { id: string; label: string } | null;
  /** the one line saying what is ranked ({@link boardHeadline}) */
  headline: HeadlineSegment[];
  notices: string[];
  controls: BoardControlsView;
  pager: BoardPagerView;
  /** the column set shown ({@link boardColumnSet}): null on boards without the switch */
  columnSet: "compact" | "all" | null;
  columns: BoardColumn[];
  /** the best of each score column among the rows shown ({@link columnBests}) */
  best: Record<string, ColumnBest>;
  /** the words a screen reader hears after a best value: "best in this column", "… on this page" when the rows are not the whole board */
  bestLabel: string;
  /** whether the gold has zeros ({@link goldHasZeros}); when false the zeros column is left out and the metric reads {@link NO_ZEROS} */
  goldZeros: boolean | null;
  /** the line over the table: what the dataset columns hold, how the best is marked, the zeros metric when n/a */
  legend: string;
  significance: SignificanceView;
  /** the markers and intervals the table shows (ready significance), else null */
  tableSignificance: BoardSignificance | null;
  /**
   * the charts' runs, the precision-recall chart's metric, the note on the setting charted, the
   * datasets of the datasets × runs heatmap (the macro-averaged board of a phase with several
   * datasets; in the table's order; else empty), and the heatmap's setting for its description
   * ("primary setting", "partial match"; null for a task without variants)
   */
  charts: { runs: BoardChartRun[]; primaryLabel: string; settingNote: string | null; datasets: ChartDataset[]; heatmapSetting: string | null };
  /** the empty board's sentence (no rows at all, no team filter), else null */
  empty: string | null;
  /** the team filter matched no row: its sentence, else null */
  noMatch: string | null;
}

/** A dataset of the datasets × runs heatmap. */
export interface ChartDataset {
  name: string;
  /** its column's short name ({@link shortDatasetNames}) */
  short: string;
}

/** What the page's address sets beyond the board query: the column set (`?columns=all`). */
export interface LeaderboardDisplay {
  /** the address's `columns` value */
  columns?: string | null;
}

/** `href` with one more query parameter. */
function withParam(href: string, name: string, value: string): string {
  return `${href}${href.includes("?") ? "&" : "?"}${name}=${encodeURIComponent(value)}`;
}

/**
 * The line over the table: what a macro-averaged board's dataset columns hold, how the best of
 * each column is marked, and the zeros metric when the gold has none.
 */
export function boardLegend(options: { datasetColumns: boolean; variantRanked: string | null; partial: boolean; noZeros: boolean }): string {
  const parts: string[] = [];
  if (options.datasetColumns) parts.push(`Dataset columns: CoNLL F1 (%)${options.variantRanked !== null ? `, ${settingInSentence(options.variantRanked)}` : ""}, shaded by share of the column's best.`);
  parts.push(`The best value of each column${options.partial ? " on this page" : ""} is in bold.`);
  if (options.noZeros) parts.push(`Zeros: ${NO_ZEROS}.`);
  return parts.join(" ");
}

/**
 * The page's view of a board.
 *
 * @param board from `getLeaderboard` (one page of it)
 * @param parsed the page's parsed query
 * @param errors the parameters the service refused (they were left out to load `board`)
 * @param stored the board's stored significance (`readBoardSignificance`)
 * @param display the column set the address asks for ({@link LeaderboardDisplay}); every link
 *   of the view keeps `?columns=all` when it is shown
 */
export function leaderboardView(
  board: Leaderboard,
  parsed: ParsedLeaderboardPageQuery,
  errors: BoardQueryErrors,
  stored: StoredBoardSignificance,
  display: LeaderboardDisplay = {},
): LeaderboardView {
  const { query } = parsed;
  const slug = board.task.slug;
  const phaseId = board.phase.id;
  const columnSet = boardColumnSet(board, display.columns);
  const keepColumns = (h: string) => (columnSet === "all" ? withParam(h, "columns", "all") : h);
  const href = (s: LeaderboardLinkState) => keepColumns(leaderboardHref(slug, phaseId, s));
  const action = leaderboardHref(slug, phaseId, {});
  const state = boardLinkState(board, query);
  const hidden = (omit: readonly (keyof LeaderboardLinkState)[]) => [...hiddenFields(state, omit), ...(columnSet === "all" ? [{ name: "columns", value: "all" }] : [])];
  const restart = (change: Partial<LeaderboardLinkState>) => href({ ...state, ...change, cursor: null });
  const variants = board.evaluation.variants;
  const rankedVariant = variants.find((v) => v.id === board.variant) ?? null;
  const multi = board.datasets.length > 1;
  const macro = multi && !board.dataset;
  const metric = board.metric;
  const significance = significanceView(stored, board, state);
  const tableSignificance = significance.status === "ready" ? significance.significance : null;
  const goldZeros = goldHasZeros(board);
  const omitMetrics: LeaderboardMetric[] = goldZeros === false ? ["zero"] : [];

  const columns = boardTableColumns({
    rows: board.rows,
    metric,
    showRp: query.rp,
    variants,
    rankedVariant: board.variant,
    datasets: macro ? board.datasets : [],
    rankDataset: board.rankDataset,
    intervals: significance.status === "ready" && significance.intervals,
    sortHref: (target) => href(sortState(state, target)),
    compact: columnSet === "compact",
    omitMetrics,
  });
  const hasRp = columns.some((c) => c.kind === "metric" && c.metric !== "conll");
  const api = leaderboardApiHref(phaseId, apiParams(board, state));

  const selectable = shownMetrics(LEADERBOARD_METRICS, (m) => m === metric || (!omitMetrics.includes(m) && board.rows.some((r) => r.scores[m] !== undefined)));
  const controls: BoardControlsView = {
    tracks:
      board.track && board.tracks.length > 0
        ? board.tracks.map((t) => ({ key: t.id, label: t.name, href: restart({ track: t.id }), current: t.id === board.track?.id }))
        : null,
    datasetForm: multi
      ? {
          action,
          value: board.dataset?.name ?? "",
          options: [
            { value: "", label: "All datasets" },
            ...board.datasets.map((d) => ({ value: d.name, label: d.language ? `${d.name} (${d.language})` : d.name })),
          ],
          hidden: hidden(["dataset", "rankDataset"]),
        }
      : null,
    columns: columnSet
      ? [
          { key: "compact", label: "Per dataset", href: leaderboardHref(slug, phaseId, state), current: columnSet === "compact" },
          { key: "all", label: "All metrics", href: withParam(leaderboardHref(slug, phaseId, state), "columns", "all"), current: columnSet === "all" },
        ]
      : null,
    rankForm: {
      action,
      ariaLabel: variants.length > 0 ? "Ranking metric and setting" : "Ranking metric",
      metric,
      metrics: selectable.map((m) => ({ value: m, label: `${METRIC_LABELS[m]} F1` })),
      variant: variants.length > 0 ? { value: board.variant ?? "", options: [{ value: "", label: "Primary setting" }, ...variants.map((v) => ({ value: v.id, label: v.label }))] } : null,
      rankDataset:
        multi && !board.dataset
          ? { value: board.rankDataset ?? "", options: [{ value: "", label: "Macro-average" }, ...board.datasets.map((d) => ({ value: d.name, label: `${d.name} only` }))] }
          : null,
      hidden: hidden(["metric", "variant", "rankDataset"]),
    },
    runs: [
      { key: "one", label: ONE_PER_TEAM_LABEL[board.phase.selectionRule], href: restart({ all: false }), current: !board.allRuns },
      { key: "all", label: "All runs", href: restart({ all: true }), current: board.allRuns },
    ],
    rp: hasRp || query.rp ? { label: query.rp ? "Hide recall and precision" : "Show recall and precision", href: href({ ...state, rp: !query.rp }) } : null,
    ci: stored.status === "none" ? null : { label: query.ci ? "Hide 95 % intervals" : "Show 95 % intervals", href: href({ ...state, ci: !query.ci }) },
    json: api,
    csv: leaderboardApiHref(phaseId, { ...apiParams(board, state), format: "csv" }),
    latex: withParam(api, "format", "latex"),
    markdown: withParam(api, "format", "markdown"),
  };

  const pages = pagerStates(state, board.page);
  const pager: BoardPagerView = {
    summary: pageSummary(board.page, board.rows.length),
    next: pages.next && href(pages.next),
    first: pages.first && href(pages.first),
    team: state.team ?? null,
    action,
    hidden: hidden(["team"]),
    clear: state.team ? restart({ team: null }) : null,
  };

  // The rows shown are not the whole board when there are other pages or a team filter.
  const partial = board.page.total > board.rows.length || board.page.team !== null;
  const chartDatasets: ChartDataset[] = macro ? groupDatasets(board.datasets).flatMap((g) => g.datasets.map(({ dataset, short }) => ({ name: dataset.name, short }))) : [];
  const settingNote = rankedVariant
    ? `The charts show the ${settingInSentence(rankedVariant.label)} setting, by which the board is ranked.`
    : null;

  const filtered = state.team ?? null;
  const empty =
    board.page.total > 0 || board.rows.length > 0 || filtered
      ? null
      : board.policy.ownTeamOnly
        ? "No runs to show you yet: until the phase closes, each team sees only its own scored runs."
        : board.track
          ? `No scored runs yet in the ${board.track.name} track.`
          : "No scored runs yet in this phase.";
  const noMatch = filtered && board.page.total === 0 ? `No team on this board has “${filtered}” in its name.` : null;

  return {
    title: leaderboardTitle(board.phase.name, board.task.title),
    taskHref: taskHref(slug),
    submitHref: submitHref(slug, phaseId),
    rankedBy: rankingPhrase(metric, variants.length === 0 ? null : (rankedVariant?.label ?? "primary")),
    isTaskPrimary: metric === board.task.primaryMetric && board.variant === null,
    selection: board.allRuns ? "All runs are listed." : selectionText(board),
    rankedVariant,
    headline: boardHeadline(board),
    notices: boardNotices(board, parsed, errors),
    controls,
    pager,
    columnSet,
    columns,
    best: columnBests(board.rows, columns),
    bestLabel: partial ? "best in this column on this page" : "best in this column",
    goldZeros,
    // The zeros metric's n/a is said where its column would be: not in the compact set.
    legend: boardLegend({ datasetColumns: columns.some((c) => c.kind === "dataset"), variantRanked: rankedVariant?.label ?? null, partial, noZeros: goldZeros === false && columnSet !== "compact" }),
    significance,
    tableSignificance,
    charts: {
      runs: boardChartRuns(board, chartDatasets.map((d) => d.name)),
      primaryLabel: chartPrimaryLabel(board),
      settingNote,
      datasets: chartDatasets,
      heatmapSetting: variants.length === 0 ? null : rankedVariant ? settingInSentence(rankedVariant.label) : "primary setting",
    },
    empty,
    noMatch,
  };
}

/** The API parameters of the board shown (its JSON and CSV links): the board's own choices and the team filter, no cursor. */
function apiParams(board: Pick<Leaderboard, "metric" | "variant" | "track" | "dataset" | "rankDataset" | "allRuns">, state: LeaderboardLinkState) {
  return {
    metric: board.metric,
    variant: board.variant,
    track: board.track?.id ?? null,
    dataset: board.dataset?.name ?? null,
    rankDataset: board.rankDataset,
    allRuns: board.allRuns,
    team: state.team ?? null,
  };
}
