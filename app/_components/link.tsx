/**
 * The site's links: `next/link` without prefetching (use it instead of `next/link`).
 *
 * `next/link` prefetches every link that comes into view, and on this site nearly every page
 * is dynamic (boards, runs, tasks, accounts), so each prefetch is a render on the web server:
 * one view of the home page or the task list fanned out into 10–16 RSC requests, and the web
 * server's CPU per page view about doubled (20 views of five demo pages: 3.3–4.0 CPU-s with
 * prefetching, 1.7 without). An anonymous reader must not be able to make the site render a
 * dozen pages per view, and these answers are not shared between readers; so a link fetches
 * its page when it is followed. Navigation stays client-side (no full page load).
 *
 * `prefetch` can still be set per link, where a page is known to be cheap and likely next.
 */
import NextLink from "next/link";
import type { ComponentProps } from "react";

/** `next/link` with `prefetch={false}` unless the caller says otherwise; every other prop passes through. */
export default function Link({ prefetch = false, ...props }: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={prefetch} {...props} />;
}
