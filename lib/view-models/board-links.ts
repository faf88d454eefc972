/**
 * The leaderboard page's link states (see `leaderboard-view.ts` for the rules): the state of the
 * board shown and of the address asked for, sorting by a column, the paging links, the hidden
 * fields of the GET forms, and the API parameters of the board's exports.
 */
import { leaderboardParams, type LeaderboardLinkState } from "../hrefs";
import type { BoardPage, Leaderboard } from "../boards";
import type { LeaderboardPageQuery } from "../validations/leaderboard-query";
import type { SortTarget } from "./board-columns";

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

/**
 * The board ranked by a column: the state with the column's metric, variant and ranking
 * dataset, without the cursor (sorting starts at page 1); everything else (track, dataset,
 * runs, display switches, team filter) kept.
 */
export function sortState(state: LeaderboardLinkState, target: SortTarget): LeaderboardLinkState {
  return { ...state, metric: target.metric, variant: target.variant, rankDataset: target.rankDataset, cursor: null };
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

/** `href` with one more query parameter. */
export function withParam(href: string, name: string, value: string): string {
  return `${href}${href.includes("?") ? "&" : "?"}${name}=${encodeURIComponent(value)}`;
}

/** The API parameters of the board shown (its JSON and CSV links): the board's own choices and the team filter, no cursor. */
export function apiParams(board: Pick<Leaderboard, "metric" | "variant" | "track" | "dataset" | "rankDataset" | "allRuns">, state: LeaderboardLinkState) {
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
