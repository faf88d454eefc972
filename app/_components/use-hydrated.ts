"use client";

import { useSyncExternalStore } from "react";

/** Nothing to subscribe to: whether the page is hydrated changes only from one render to the next. */
const subscribeNever = () => () => {};

/**
 * Whether this render runs in the browser after hydration: false on the server and in the
 * render that hydrates the server's HTML (so both give the same markup), true from the next one.
 * For what only the browser can do or show, such as a chart drawn to its measured box.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
