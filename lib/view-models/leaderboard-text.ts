/**
 * The leaderboard page's words (issue 12 §2, §6): the title, what ranks the board and how teams
 * are represented, the headline, the notices about the address's parameters, the line over the
 * table, and where a page is on the board. Pure functions of `getLeaderboard`'s board.
 */
import type { BoardPage, Leaderboard } from "../boards";
import type { ParsedLeaderboardPageQuery } from "../validations/leaderboard-query";
import { LEADERBOARD_METRICS, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";

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
