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
 *
 * This module puts the view together ({@link leaderboardView}: controls, pager, significance,
 * charts, empty board); its parts are pure functions of their own: the table's columns, cells,
 * bests and heatmap shading in `board-columns.ts`, the words (title, headline, notices, legend,
 * page summary) in `leaderboard-text.ts`, the link states in `board-links.ts`, and the charts'
 * runs in `board-charts.ts`.
 */
import { leaderboardApiHref, leaderboardHref, submitHref, taskHref, type LeaderboardLinkState } from "../hrefs";
import type { StoredBoardSignificance, BoardSignificance, Leaderboard } from "../boards";
import type { LeaderboardPageQuery, ParsedLeaderboardPageQuery } from "../validations/leaderboard-query";
import { LEADERBOARD_METRICS, METRIC_LABELS, shownMetrics, type LeaderboardMetric } from "../validations/metrics";
import { boardChartRuns, chartPrimaryLabel, type BoardChartRun } from "./board-charts";
import { boardColumnSet, boardTableColumns, columnBests, groupDatasets, type BoardColumn, type ColumnBest } from "./board-columns";
import { apiParams, boardLinkState, hiddenFields, pagerStates, sortState, withParam, type HiddenField } from "./board-links";
import {
  boardHeadline,
  boardLegend,
  boardNotices,
  goldHasZeros,
  leaderboardTitle,
  ONE_PER_TEAM_LABEL,
  pageSummary,
  rankingPhrase,
  selectionText,
  settingInSentence,
  type BoardQueryErrors,
  type HeadlineSegment,
} from "./leaderboard-text";

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

/** The links of a board's view ({@link viewLinks}): every one keeps the board shown and, when shown, `?columns=all`. */
interface ViewLinks {
  /** the board's link state ({@link boardLinkState}) */
  state: LeaderboardLinkState;
  /** the column set shown ({@link boardColumnSet}) */
  columnSet: "compact" | "all" | null;
  /** the board page at a link state */
  href: (s: LeaderboardLinkState) => string;
  /** the board page with `change` applied, from page 1 (no cursor) */
  restart: (change: Partial<LeaderboardLinkState>) => string;
  /** the GET forms' action: the board page without parameters */
  action: string;
  /** the hidden fields of a GET form whose own fields are `omit` */
  hidden: (omit: readonly (keyof LeaderboardLinkState)[]) => HiddenField[];
}

/** The link makers of a board's view, from the board shown, the page's query and its column set. */
function viewLinks(board: Leaderboard, query: LeaderboardPageQuery, display: LeaderboardDisplay): ViewLinks {
  const slug = board.task.slug;
  const phaseId = board.phase.id;
  const columnSet = boardColumnSet(board, display.columns);
  const keepColumns = (h: string) => (columnSet === "all" ? withParam(h, "columns", "all") : h);
  const href = (s: LeaderboardLinkState) => keepColumns(leaderboardHref(slug, phaseId, s));
  const state = boardLinkState(board, query);
  return {
    state,
    columnSet,
    href,
    restart: (change) => href({ ...state, ...change, cursor: null }),
    action: leaderboardHref(slug, phaseId, {}),
    hidden: (omit) => [...hiddenFields(state, omit), ...(columnSet === "all" ? [{ name: "columns", value: "all" }] : [])],
  };
}

/**
 * The controls above the table ({@link BoardControlsView}): the track switch, the dataset
 * chooser, the column set switch, the "Rank by" form (the metrics a shown row has, or the
 * ranking one), the runs toggle, the recall/precision and interval toggles, and the exports.
 *
 * @param columns the table's columns (the recall/precision toggle shows when one has them)
 * @param omitMetrics metrics left out of the "Rank by" choices unless they rank the board
 * @param stored the board's stored significance (no interval toggle without any)
 */
function boardControls(
  board: Leaderboard,
  query: Pick<LeaderboardPageQuery, "rp" | "ci">,
  links: ViewLinks,
  { columns, omitMetrics, stored }: { columns: readonly BoardColumn[]; omitMetrics: readonly LeaderboardMetric[]; stored: StoredBoardSignificance },
): BoardControlsView {
  const { state, columnSet, href, restart, action, hidden } = links;
  const slug = board.task.slug;
  const phaseId = board.phase.id;
  const variants = board.evaluation.variants;
  const multi = board.datasets.length > 1;
  const metric = board.metric;
  const hasRp = columns.some((c) => c.kind === "metric" && c.metric !== "conll");
  const api = leaderboardApiHref(phaseId, apiParams(board, state));
  const selectable = shownMetrics(LEADERBOARD_METRICS, (m) => m === metric || (!omitMetrics.includes(m) && board.rows.some((r) => r.scores[m] !== undefined)));
  return {
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
}

/** The paging and team search under the controls ({@link BoardPagerView}). */
function boardPager(board: Pick<Leaderboard, "page" | "rows">, links: ViewLinks): BoardPagerView {
  const { state, href, restart } = links;
  const pages = pagerStates(state, board.page);
  return {
    summary: pageSummary(board.page, board.rows.length),
    next: pages.next && href(pages.next),
    first: pages.first && href(pages.first),
    team: state.team ?? null,
    action: links.action,
    hidden: links.hidden(["team"]),
    clear: state.team ? restart({ team: null }) : null,
  };
}

/**
 * The charts' part of the view ({@link LeaderboardView}`.charts`): the runs, the
 * precision-recall chart's metric, the setting note, and the heatmap's datasets (the
 * macro-averaged board of a phase with several datasets, in the table's order) and setting.
 */
function viewCharts(board: Leaderboard, rankedVariant: { id: string; label: string } | null, macro: boolean): LeaderboardView["charts"] {
  const chartDatasets: ChartDataset[] = macro ? groupDatasets(board.datasets).flatMap((g) => g.datasets.map(({ dataset, short }) => ({ name: dataset.name, short }))) : [];
  const settingNote = rankedVariant
    ? `The charts show the ${settingInSentence(rankedVariant.label)} setting, by which the board is ranked.`
    : null;
  return {
    runs: boardChartRuns(board, chartDatasets.map((d) => d.name)),
    primaryLabel: chartPrimaryLabel(board),
    settingNote,
    datasets: chartDatasets,
    heatmapSetting: board.evaluation.variants.length === 0 ? null : rankedVariant ? settingInSentence(rankedVariant.label) : "primary setting",
  };
}

/** The empty board's sentence (no rows at all, no team filter) and the team filter's when it matched no row. */
function emptyTexts(board: Pick<Leaderboard, "page" | "rows" | "policy" | "track">, filtered: string | null): Pick<LeaderboardView, "empty" | "noMatch"> {
  const empty =
    board.page.total > 0 || board.rows.length > 0 || filtered
      ? null
      : board.policy.ownTeamOnly
        ? "No runs to show you yet: until the phase closes, each team sees only its own scored runs."
        : board.track
          ? `No scored runs yet in the ${board.track.name} track.`
          : "No scored runs yet in this phase.";
  const noMatch = filtered && board.page.total === 0 ? `No team on this board has “${filtered}” in its name.` : null;
  return { empty, noMatch };
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
  const links = viewLinks(board, query, display);
  const { state, columnSet, href } = links;
  const variants = board.evaluation.variants;
  const rankedVariant = variants.find((v) => v.id === board.variant) ?? null;
  const macro = board.datasets.length > 1 && !board.dataset;
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
  // The rows shown are not the whole board when there are other pages or a team filter.
  const partial = board.page.total > board.rows.length || board.page.team !== null;

  return {
    title: leaderboardTitle(board.phase.name, board.task.title),
    taskHref: taskHref(board.task.slug),
    submitHref: submitHref(board.task.slug, board.phase.id),
    rankedBy: rankingPhrase(metric, variants.length === 0 ? null : (rankedVariant?.label ?? "primary")),
    isTaskPrimary: metric === board.task.primaryMetric && board.variant === null,
    selection: board.allRuns ? "All runs are listed." : selectionText(board),
    rankedVariant,
    headline: boardHeadline(board),
    notices: boardNotices(board, parsed, errors),
    controls: boardControls(board, query, links, { columns, omitMetrics, stored }),
    pager: boardPager(board, links),
    columnSet,
    columns,
    best: columnBests(board.rows, columns),
    bestLabel: partial ? "best in this column on this page" : "best in this column",
    goldZeros,
    // The zeros metric's n/a is said where its column would be: not in the compact set.
    legend: boardLegend({ datasetColumns: columns.some((c) => c.kind === "dataset"), variantRanked: rankedVariant?.label ?? null, partial, noZeros: goldZeros === false && columnSet !== "compact" }),
    significance,
    tableSignificance,
    charts: viewCharts(board, rankedVariant, macro),
    ...emptyTexts(board, state.team ?? null),
  };
}
