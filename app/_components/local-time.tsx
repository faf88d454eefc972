"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** Formats an instant in the browser's own zone, e.g. "Mar 1, 2025, 01:00 PM GMT+1 (Europe/Prague)". */
function formatLocal(iso: string, withWeekday: boolean): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const text = new Intl.DateTimeFormat(undefined, {
    ...(withWeekday ? { weekday: "short" as const } : {}),
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
  return zone && zone !== "UTC" && !text.includes(zone) ? `${text} (${zone})` : text;
}

/**
 * An instant in the reader's own time zone. The server does not know that zone, so the
 * server render (and the first client render, and a page without JavaScript) shows the
 * instant in UTC; the browser then fills in its local time.
 *
 * @param iso the instant as an ISO 8601 string (UTC)
 * @param testId optional `data-testid`
 * @param withWeekday include the day of the week
 */
export function LocalTime({ iso, testId, withWeekday = false }: { iso: string; testId?: string; withWeekday?: boolean }) {
  const text = useSyncExternalStore(noSubscription, () => formatLocal(iso, withWeekday), () => null);
  return (
    <time dateTime={iso} title={iso} data-testid={testId}>
      {text ?? `${iso.slice(0, 16).replace("T", " ")} UTC`}
    </time>
  );
}
