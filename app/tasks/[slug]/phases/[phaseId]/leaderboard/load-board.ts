/**
 * Loading the leaderboard page's board: one page of `getLeaderboard` for the address's
 * choices, with the choices the service refuses left out (and reported) rather than failing
 * the page. {@link loadPageBoard} loads it once per request, for the page's title and the page.
 */
import { notFound } from "next/navigation";
import { cache } from "react";
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "@/lib/errors";
import type { Viewer } from "@/lib/permissions";
import { getLeaderboard, readBoardSignificance } from "@/lib/boards";
import type { Leaderboard, StoredBoardSignificance } from "@/lib/boards";
import { coalesced } from "@/lib/http/coalesced";
import { getViewer } from "@/lib/auth/session";
import { LEADERBOARD_PAGE_SIZE, leaderboardBoardOptions, parseLeaderboardPageQuery, type LeaderboardPageQuery, type ParsedLeaderboardPageQuery } from "@/lib/validations/leaderboard-query";
import type { BoardQueryErrors } from "@/lib/view-models/leaderboard-text";

/** The parameters a failing board load may drop, in the order they are tried. */
const DROPPABLE = ["variant", "track", "dataset", "rankDataset", "cursor", "team"] as const;

/** What loading gave: the board (with the parameters left out), or why the viewer may not see it. */
export type LoadedBoard =
  | { kind: "board"; board: Leaderboard; errors: BoardQueryErrors }
  | { kind: "denied"; message: string; /** the viewer is anonymous: offer to sign in */ signIn: boolean };

/**
 * The page of the board an address asks for: {@link LEADERBOARD_PAGE_SIZE} rows after
 * `cursor`, among the teams matching `team`. A `variant` the task's evaluation profile does not
 * have, or a `track`, `dataset` or `rankDataset` the phase does not have, or a damaged `cursor`,
 * is not an error page: the board is loaded without it (the primary setting, the first track,
 * the phase-level board, the macro-average, the first page), with the service's reason in
 * `errors` under the parameter's name.
 *
 * @param phaseId the phase (from the route)
 * @param viewer the signed-in viewer, or null
 * @param query the page's parsed query
 * @returns the board, or `denied` for a 401/403 of the service (a message for the page)
 * @throws via `notFound()` for an unknown phase (404); other errors propagate
 */
export async function loadBoard(phaseId: string, viewer: Viewer, query: LeaderboardPageQuery): Promise<LoadedBoard> {
  const errors: BoardQueryErrors = {};
  let options = { ...leaderboardBoardOptions(query), limit: LEADERBOARD_PAGE_SIZE };
  // At most one retry per parameter: each failure drops the parameter it names.
  for (;;) {
    try {
      return { kind: "board", board: await getLeaderboard(phaseId, viewer, options), errors };
    } catch (error) {
      if (error instanceof NotFoundError) notFound();
      if (error instanceof UnauthorizedError || error instanceof ForbiddenError) {
        return { kind: "denied", message: error.message, signIn: error instanceof UnauthorizedError };
      }
      const fields = error instanceof ValidationError ? error.fieldErrors : [];
      const failed = DROPPABLE.find((name) => options[name] !== null && fields.some((f) => f.path === name));
      if (!failed) throw error;
      errors[failed] = fields.find((f) => f.path === failed)!.message;
      options = { ...options, [failed]: null };
    }
  }
}

/**
 * A page's search parameters as one string (first values, in the address's order), the key
 * of {@link loadPageBoard}.
 */
export function searchKey(searchParams: Record<string, string | string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(searchParams)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) params.set(name, first);
  }
  return params.toString();
}

/**
 * The parsed query, the board of a leaderboard address and its stored significance (for the
 * table's markers and the significance section), for the signed-in viewer; loaded once per
 * request (React `cache`), so the title and the page share one `getLeaderboard`. Anonymous
 * readers of the same address whose requests arrive while it is being loaded join that load
 * (`coalesced`, as the board's JSON API does): they are shown the same board, and nothing is
 * kept once it is loaded.
 *
 * @param phaseId the route's phase
 * @param search {@link searchKey} of the page's search parameters
 */
export const loadPageBoard = cache(async (phaseId: string, search: string): Promise<PageBoard> => {
  const parsed = parseLeaderboardPageQuery(Object.fromEntries(new URLSearchParams(search)));
  const viewer = await getViewer();
  const load = async (): Promise<PageBoard> => {
    const loaded = await loadBoard(phaseId, viewer, parsed.query);
    if (loaded.kind !== "board") return { parsed, loaded };
    return { parsed, loaded: { ...loaded, significance: await readBoardSignificance(loaded.board, { intervals: parsed.query.ci }) } };
  };
  return viewer === null ? coalesced(JSON.stringify(["leaderboard page", phaseId, search]), load) : load();
});

/** What {@link loadPageBoard} gives: the parsed query, and the board with its stored significance (or why the viewer may not see it). */
export interface PageBoard {
  parsed: ParsedLeaderboardPageQuery;
  loaded: Exclude<LoadedBoard, { kind: "board" }> | (Extract<LoadedBoard, { kind: "board" }> & { significance: StoredBoardSignificance });
}
