"use client";

/**
 * Client-side navigation for the plain links (`<a href>`) of a server-rendered HTML fragment,
 * such as the leaderboard table rendered once per board version (`cached-board-table.tsx`): one
 * click handler on the box, instead of one `next/link` component per link. A click that a
 * browser would turn into a same-tab navigation to a page of this site goes through the App
 * Router (no full page load, as with `next/link`); anything else is left to the browser: a
 * modified or middle click, a link with a `target` or `download`, another origin, a link to a
 * place on this page. Without JavaScript the links are ordinary links. No prefetching (as
 * `./link.tsx`).
 */
import { useRouter } from "next/navigation";
import { useEffect, useRef, type MouseEvent, type ReactNode, type RefObject } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * The address of this site to navigate to client-side for a click, or null to leave the click
 * to the browser.
 *
 * @param event the click's button, modifier keys and whether it was already handled
 * @param anchor the link clicked (its `href` attribute, `target` and `download`)
 * @param here the page's address (`location.href`)
 * @returns path, query and fragment of the link's address, e.g. `/metrics/muc?x=1`
 */
export function clientNavigationTarget(
  event: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean; defaultPrevented: boolean },
  anchor: { href: string | null; target: string | null; download: boolean },
  here: string,
): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  if (anchor.href === null || anchor.download || (anchor.target !== null && anchor.target !== "" && anchor.target !== "_self")) return null;
  const current = new URL(here);
  const url = new URL(anchor.href, current);
  if (url.origin !== current.origin) return null;
  // A link to a place on this same page: the browser scrolls to it.
  if (url.hash !== "" && url.pathname === current.pathname && url.search === current.search) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The App Router, kept in `into` (mounted only in the browser, after hydration: see {@link ClientLinks}). */
function RouterRef({ into }: { into: RefObject<AppRouter | null> }) {
  const router = useRouter();
  useEffect(() => {
    into.current = router;
  }, [router, into]);
  return null;
}

/** The App Router's interface, as `useRouter` gives it. */
type AppRouter = ReturnType<typeof useRouter>;

/**
 * A box whose links navigate client-side (see the module comment). The router is taken once the
 * box has been hydrated (a click before that is an ordinary link's), so that the box also renders
 * where no App Router is mounted (a page rendered to HTML in a test).
 *
 * @param children the content, e.g. a `<div dangerouslySetInnerHTML>` with server-rendered links
 */
export function ClientLinks({ children }: { children: ReactNode }) {
  const router = useRef<AppRouter | null>(null);
  const hydrated = useHydrated();
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = event.target instanceof Element ? event.target.closest("a") : null;
    if (!router.current || !anchor || !event.currentTarget.contains(anchor)) return;
    const target = clientNavigationTarget(
      event,
      { href: anchor.getAttribute("href"), target: anchor.getAttribute("target"), download: anchor.hasAttribute("download") },
      window.location.href,
    );
    if (target === null) return;
    event.preventDefault();
    router.current.push(target);
  };
  // The box only takes its links' clicks (Enter on a focused link is one): it is no control itself.
  return (
    <div onClick={onClick}>
      {children}
      {hydrated && <RouterRef into={router} />}
    </div>
  );
}
