"use client";

import { useEffect, useState } from "react";

/**
 * An instant in the reader's own time zone (browser locale), e.g. "Mar 1, 2025, 1:00 AM
 * GMT+1". The server does not know the reader's zone, so the text is filled in after
 * hydration; until then (and without JavaScript) it shows the ISO instant in UTC.
 *
 * @param iso the instant as an ISO 8601 string (UTC)
 */
export function RunLocalTime({ iso, testId }: { iso: string; testId?: string }) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    const date = new Date(iso);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const formatted = new Intl.DateTimeFormat(undefined, {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZoneName: "short",
    }).format(date);
    setText(zone && zone !== "UTC" && !formatted.includes(zone) ? `${formatted} (${zone})` : formatted);
  }, [iso]);
  return (
    <time dateTime={iso} title={iso} data-testid={testId}>
      {text ?? `${iso.slice(0, 16).replace("T", " ")} UTC`}
    </time>
  );
}
