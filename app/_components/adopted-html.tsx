"use client";

/**
 * A server-rendered HTML fragment that a page load's RSC payload does not carry
 * (`fragment-handover.ts`, issue 26 §3): the server's HTML render takes it from the handover; in
 * the browser the render that hydrates it keeps the server's markup (React neither compares nor
 * rewrites `dangerouslySetInnerHTML` when it hydrates), and the fragment is then read from the
 * DOM and kept by its id, for when the same payload is rendered again (back and forward use the
 * router's cached payload). A client-side navigation's payload carries the fragment itself.
 * Should the browser have neither (a fragment it never kept, or a server render that found
 * nothing), it asks the server for the page's payload again (`router.refresh()`), which carries
 * it.
 */
import { LRUCache } from "lru-cache";
import { useRouter } from "next/navigation";
import { useLayoutEffect, useRef } from "react";
import { handedOverFragment } from "./fragment-handover";

/** Fragments this browser tab has shown, by id, the 32 latest: a bound on memory, not a cache policy. */
const kept = new LRUCache<string, string>({ max: 32 });

/** Fragments this tab asked the server for once already: never again, whatever comes back. */
const refreshed = new Set<string>();

/**
 * The fragment in a `<div>`.
 *
 * @param id the fragment's digest (one id is always one HTML text)
 * @param html the fragment when the payload carries it (a client-side navigation), else null
 */
export function AdoptedHtml({ id, html }: { id: string; html: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  const mounted = useRef(false);
  const router = useRouter();
  // Server: the handover. Browser: the payload's, or the one kept; while hydrating neither, and
  // the empty text leaves the server's markup in place.
  const shown = html ?? (typeof window === "undefined" ? handedOverFragment(id) : (kept.get(id) ?? null));
  useLayoutEffect(() => {
    const first = !mounted.current;
    mounted.current = true;
    if (shown !== null) {
      kept.set(id, shown);
      return;
    }
    // Only the box's first markup can be the server's (hydration); later, or empty, ask again.
    const adopted = first ? (box.current?.innerHTML ?? "") : "";
    if (adopted !== "") kept.set(id, adopted);
    else if (!refreshed.has(id)) {
      refreshed.add(id);
      router.refresh();
    }
  }, [id, shown, router]);
  // The render that hydrates gives an empty text where the server gave the fragment, on purpose:
  // development builds would report that difference.
  return <div ref={box} dangerouslySetInnerHTML={{ __html: shown ?? "" }} suppressHydrationWarning />;
}
