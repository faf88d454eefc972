/**
 * The leaderboard table rendered once per board version (issue 26 §3). `getLeaderboard` gives the
 * same rows array to every view of a board while its version holds and the rows' other inputs
 * (the viewer's teams among them) are the same (`cachedRows`, lib/boards/leaderboard.ts); the
 * table's HTML is kept beside that array, in a WeakMap that lets it go with the rows, under the
 * JSON of everything else the table is made of. A view of an unchanged board sends the kept HTML
 * instead of rendering and serializing some 2,500 elements again.
 *
 * A page load sends it once, as HTML: the page's RSC payload carries only its digest, and the
 * HTML render of the same request takes the text from the handover (`fragment-handover.ts`,
 * `AdoptedHtml`). A client-side navigation's payload carries the text.
 *
 * The fragment is plain markup: no nonce, no script (the CSP nonce stays per response, in the
 * page around it). Its links are plain `<a>`, made client-side by {@link ClientLinks}.
 */
import { createHash } from "node:crypto";
import { headers } from "next/headers";
import { teamProgressHref } from "@/lib/hrefs";
import type { BoardSignificance, LeaderboardRow } from "@/lib/boards";
import { BoardTable, hasIntervals, type BoardTableProps } from "./board-table";
import { AdoptedHtml } from "./adopted-html";
import { ClientLinks } from "./client-links";
import { handOverFragment } from "./fragment-handover";
import { renderStaticMarkup } from "./static-markup";

/** How many tables around one rows array are kept (their sorting, columns or significance differ): a bound, not a cache policy. */
const MAX_PER_ROWS = 16;

/** A table's HTML and its id: the digest of the text (base64url of its SHA-256). */
export interface TableFragment {
  html: string;
  id: string;
}

const fragments = new WeakMap<readonly LeaderboardRow[], Map<string, TableFragment>>();

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
 * The HTML of the table (`BoardTable`) for these props, made once per rows array and key, and its id.
 *
 * @param props the table's props
 * @returns the HTML text, as `renderStaticMarkup` writes it, and its digest
 */
export function boardTableFragment({ teamProgress, rows, significance = null, intervals, ...rest }: CachedBoardTableProps): TableFragment {
  const shown = { ...rest, significance: rowsSignificance(significance, rows), intervals: intervals ?? hasIntervals(significance), teamProgress };
  const key = JSON.stringify(shown);
  let around = fragments.get(rows);
  let fragment = around?.get(key);
  if (fragment === undefined) {
    const teamHref = teamProgress ? (teamId: string) => teamProgressHref(teamProgress.slug, teamProgress.phaseId, teamId) : undefined;
    const html = renderStaticMarkup(<BoardTable {...rest} rows={rows} significance={shown.significance} intervals={shown.intervals} teamHref={teamHref} />);
    fragment = { html, id: createHash("sha256").update(html, "utf8").digest("base64url") };
    if (!around) fragments.set(rows, (around = new Map()));
    if (around.size >= MAX_PER_ROWS) around.delete(around.keys().next().value as string);
    around.set(key, fragment);
  }
  return fragment;
}

/**
 * Whether a request with this `Accept` header is a browser's page load, whose RSC pass an HTML
 * render follows in this process: browsers ask for `text/html` when they load a page, and the
 * App Router's own requests (client-side navigation, prefetch, refresh) never do. (Next hides its
 * `RSC` request header from `headers()`.) Any other request gets the fragment in its payload.
 */
export function isPageLoad(accept: string | null): boolean {
  return accept !== null && /(^|[\s,])text\/html(\s*(;|,|$))/i.test(accept);
}

/**
 * The leaderboard table, from the HTML kept for its board version ({@link boardTableFragment}),
 * with client-side links: for a page load handed over to the request's HTML render (the payload
 * carries only its id), else in the payload.
 */
export async function CachedBoardTable(props: CachedBoardTableProps) {
  const { html, id } = boardTableFragment(props);
  const handedOver = isPageLoad((await headers()).get("accept"));
  if (handedOver) handOverFragment(id, html);
  return (
    <ClientLinks>
      <AdoptedHtml id={id} html={handedOver ? null : html} />
    </ClientLinks>
  );
}
