/**
 * The handover of a server-rendered HTML fragment from a page's server component render (the RSC
 * pass) to the HTML render of the same request (the SSR pass), in the same process, so that a
 * page load's RSC payload need not carry the fragment (issue 26 §3).
 *
 * Why: the leaderboard table is some 130 kB of HTML, made once per board version
 * (`cached-board-table.tsx`). Handed to the browser as a prop it went out twice in every page:
 * once as HTML, once as a string in the page's inline RSC payload, where Next escapes each `<`,
 * `>` and `&` (`\u003c`). Leaving the payload's copy out took the page from 390 to 232 kB and its
 * server CPU per view down by 13–20 % (bench:web's board, 50 rows).
 *
 * How: the server component hands the fragment over under its digest ({@link handOverFragment})
 * and passes only the digest; the client component's server render reads it back
 * ({@link handedOverFragment}). The two passes are bundled apart (each has its own copy of this
 * module), so the entries live on `globalThis`. An entry is kept for {@link PIN_MS} after its
 * latest handover (the HTML render follows within milliseconds), and at most
 * {@link MAX_ENTRIES} of them (the oldest go first). Should a render find nothing (some 64 other
 * tables handed over between its two passes), the browser gets an empty box and asks for the
 * page's RSC payload again (`AdoptedHtml`). The App Router's own requests (client-side
 * navigation) have no HTML render: their payload carries the fragment, as any request's that
 * does not ask for text/html (`isPageLoad` in cached-board-table.tsx).
 */

import { LRUCache } from "lru-cache";

/** How long a handed-over fragment is kept for its request's HTML render, in ms. */
export const PIN_MS = 60_000;

/** How many fragments are kept at most: a bound on memory, not a cache policy. */
const MAX_ENTRIES = 64;

const KEY = Symbol.for("corefboard.fragmentHandover");

/**
 * The process's store, shared by both module copies: the latest {@link MAX_ENTRIES} handovers,
 * each for {@link PIN_MS} (timed by `Date.now`, checked on every read).
 */
function store(): LRUCache<string, string> {
  const holder = globalThis as unknown as Record<symbol, LRUCache<string, string> | undefined>;
  return (holder[KEY] ??= new LRUCache<string, string>({ max: MAX_ENTRIES, ttl: PIN_MS, ttlResolution: 0, updateAgeOnGet: false, perf: { now: () => Date.now() } }));
}

/**
 * Keeps `html` under `id` for this request's HTML render (and any other request's with the same
 * fragment) for {@link PIN_MS} from now; beyond {@link MAX_ENTRIES} the least recently handed
 * over go first.
 *
 * @param id the fragment's digest: one id is always one HTML text
 * @param html the fragment
 */
export function handOverFragment(id: string, html: string): void {
  store().set(id, html);
}

/**
 * The fragment handed over under `id`, or null when there is none (it went: the caller renders
 * without it and the browser asks again).
 */
export function handedOverFragment(id: string): string | null {
  return store().get(id) ?? null;
}
