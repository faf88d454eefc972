/**
 * Paging of the leaderboard (issue 12 §1, §2): the team search above the table (a GET form:
 * `?team=`, the rest of the board's state kept, starting at the first page) with the rows shown
 * ("Rows 51–100 of 1,000"), and the "First page" and "Next" links under it. Everything comes
 * from the view model (`leaderboardView(…).pager`). Works without JavaScript. Server-safe.
 */
import Form from "next/form";
import Link from "@/app/_components/link";
import type { BoardPagerView } from "@/lib/view-models/leaderboard-view";
import { secondaryButton } from "@/app/_components/ui";

/** The search's button: `secondaryButton` as tall as the field next to it. */
const FIND_BUTTON = secondaryButton.replace("py-1.5", "py-1");

/** The team search and the rows shown. */
export function TeamSearch({ pager }: { pager: BoardPagerView }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
      <Form action={pager.action} className="flex flex-wrap items-center gap-2" role="search" aria-label="Find a team on this board" data-testid="board-team-search">
        <label htmlFor="board-team" className="text-sm font-medium text-zinc-800">
          Team
        </label>
        <input
          id="board-team"
          name="team"
          type="search"
          defaultValue={pager.team ?? ""}
          maxLength={100}
          placeholder="Part of a team's name"
          className="w-48 max-w-full rounded-md border border-zinc-300 bg-white px-3 py-1 text-sm shadow-sm placeholder:text-zinc-600 focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-zinc-200 sm:w-56"
        />
        {pager.hidden.map((f) => (
          <input key={f.name} type="hidden" name={f.name} value={f.value} />
        ))}
        <button type="submit" className={FIND_BUTTON}>
          Find
        </button>
        {pager.clear && (
          <Link href={pager.clear} className="py-1 text-sm underline" data-testid="board-team-clear">
            Show every team
          </Link>
        )}
      </Form>
      <p className="min-w-0 text-sm text-zinc-700 [overflow-wrap:anywhere]" data-testid="board-page-summary">
        {pager.summary}
        {pager.team && (
          <>
            {" "}
            among the teams matching “<span data-testid="board-team-filter">{pager.team}</span>” (ranks are those of the whole board)
          </>
        )}
      </p>
    </div>
  );
}

/** The paging links under the table (nothing on a board that fits one page). */
export function PagerNav({ pager }: { pager: BoardPagerView }) {
  if (!pager.first && !pager.next) return null;
  return (
    <nav aria-label="Leaderboard pages" className="flex flex-wrap items-center gap-3 text-sm" data-testid="board-pager">
      <span className="text-zinc-700">{pager.summary}</span>
      {pager.first && (
        <Link href={pager.first} className={secondaryButton} data-testid="board-first">
          First page
        </Link>
      )}
      {pager.next && (
        <Link href={pager.next} className={secondaryButton} data-testid="board-next" rel="next">
          Next <span aria-hidden="true">→</span>
        </Link>
      )}
    </nav>
  );
}
