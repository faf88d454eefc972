/**
 * The leaderboard table rendered once per board version (issue 26 §3). `getLeaderboard` gives the
 * same rows array to every view of a board while its version holds and the rows' other inputs
 * (the viewer's teams among them) are the same (`cachedRows`, lib/boards/leaderboard.ts); the
 * table's HTML is kept beside that array, in a WeakMap that lets it go with the rows, under the
 * JSON of everything else the table is made of. A view of an unchanged board sends the kept HTML
 * (one string in the page's RSC payload, written out as it is) instead of rendering and
 * serializing some 2,500 elements again.
 *
 * The fragment is plain markup: no nonce, no script (the CSP nonce stays per response, in the
 * page around it). Its links are plain `<a>`, made client-side by {@link ClientLinks}.
 */
import { teamProgressHref } from "@/lib/hrefs";
import type { BoardSignificance, LeaderboardRow } from "@/lib/boards";
import { BoardTable, hasIntervals, type BoardTableProps } from "./board-table";
import { ClientLinks } from "./client-links";
import { renderStaticMarkup } from "./static-markup";

/** How many tables around one rows array are kept (their sorting, columns or significance differ): a bound, not a cache policy. */
const MAX_PER_ROWS = 16;

const fragments = new WeakMap<readonly LeaderboardRow[], Map<string, string>>();

/** The props of {@link CachedBoardTable}: {@link BoardTableProps} with the team links named by data instead of a function. */
export type CachedBoardTableProps = Omit<BoardTableProps, "teamHref"> & {
  /** link each team to its progress page in this task's phase (`teamProgressHref`), or null for no team links */
  teamProgress: { slug: string; phaseId: string } | null;
};

/**
 * The significance facts a table of these rows reads: the board's, with only these rows' entries.
 * (The interval column depends on the whole board's facts: `hasIntervals`, passed on apart.)
 */
function rowsSignificance(significance: BoardSignificance | null, rows: readonly LeaderboardRow[]): BoardSignificance | null {
  if (significance === null) return null;
  const entries = rows.flatMap((row) => {
    const entry = significance.rows[row.submissionId];
    return entry ? [[row.submissionId, entry] as const] : [];
  });
  return { ...significance, rows: Object.fromEntries(entries) };
}

/**
 * The HTML of the table (`BoardTable`) for these props, made once per rows array and key.
 *
 * @param props the table's props
 * @returns the HTML text, as `renderStaticMarkup` writes it
 */
export function boardTableHtml({ teamProgress, rows, significance = null, intervals, ...rest }: CachedBoardTableProps): string {
  const shown = { ...rest, significance: rowsSignificance(significance, rows), intervals: intervals ?? hasIntervals(significance), teamProgress };
  const key = JSON.stringify(shown);
  let around = fragments.get(rows);
  let html = around?.get(key);
  if (html === undefined) {
    const teamHref = teamProgress ? (teamId: string) => teamProgressHref(teamProgress.slug, teamProgress.phaseId, teamId) : undefined;
    html = renderStaticMarkup(<BoardTable {...rest} rows={rows} significance={shown.significance} intervals={shown.intervals} teamHref={teamHref} />);
    if (!around) fragments.set(rows, (around = new Map()));
    if (around.size >= MAX_PER_ROWS) around.delete(around.keys().next().value as string);
    around.set(key, html);
  }
  return html;
}

/**
 * The leaderboard table, from the HTML kept for its board version ({@link boardTableHtml}), with
 * client-side links.
 */
export function CachedBoardTable(props: CachedBoardTableProps) {
  return (
    <ClientLinks>
      <div dangerouslySetInnerHTML={{ __html: boardTableHtml(props) }} />
    </ClientLinks>
  );
}
