"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** Formats an instant in the browser's own zone, e.g. "Sat, 1 Mar 2025, 13:00 (Europe/Prague, GMT+1)". */
function formatLocal(iso: string): string {
  const date = new Date(iso);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const text = new Intl.DateTimeFormat(undefined, {
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(date);
  return zone ? `${text} (${zone})` : text;
}

/**
 * An instant in the reader's local time zone. The server does not know that zone, so the
 * server render (and the first client render) shows nothing; the browser fills it in.
 */
export function TaskLocalTime({ iso, prefix = "your time: " }: { iso: string; prefix?: string }) {
  const text = useSyncExternalStore(noSubscription, () => formatLocal(iso), () => null);
  if (text === null) return null;
  return (
    <span className="text-zinc-500" data-testid="local-time">
      {prefix}
      <time dateTime={iso}>{text}</time>
    </span>
  );
}
