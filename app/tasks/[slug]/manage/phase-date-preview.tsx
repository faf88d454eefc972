"use client";
/**
 * The date preview of a phase form: what the typed opening and closing times mean for teams
 * ("Closes in 3 days, 14:00 AoE on 2026-12-04 (was 2026-12-01 12:00 AoE)."), computed in the
 * browser by `phaseDatePreview` (lib/validations/phase-dates.ts, zod-free) from the form's
 * wall-clock values in the display zone. Announced politely to screen readers as it changes.
 */
import { useState, type FormEvent } from "react";
import { phaseDatePreview } from "@/lib/validations/phase-dates";
import { localDateTimeToUtc } from "@/lib/validations/time";

/** A phase's dates as a form holds them (`datetime-local` values in `displayTimeZone`). */
export interface PhaseFormDates {
  opensAt: string;
  closesAt: string;
  displayTimeZone: string;
}

/**
 * The dates a phase form's preview follows: starts from `initial` (and the server's `now`), and
 * takes each typed opening time, closing time or display zone (with the browser's time then).
 *
 * @returns the dates for {@link PhaseDatePreview}, and the form's `onChange` handler
 */
export function usePhaseFormDates(initial: PhaseFormDates, now: Date): [PhaseFormDates & { now: Date }, (event: FormEvent<HTMLFormElement>) => void] {
  const [dates, setDates] = useState({ opensAt: initial.opensAt, closesAt: initial.closesAt, displayTimeZone: initial.displayTimeZone, now });
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement | HTMLSelectElement;
    if (target.name === "opensAt" || target.name === "closesAt" || target.name === "displayTimeZone") {
      setDates((d) => ({ ...d, [target.name]: target.value, now: new Date() }));
    }
  };
  return [dates, onChange];
}

/** A form's dates as instants, or null when one cannot be read (yet). */
function instants(d: PhaseFormDates): { opensAt: Date; closesAt: Date; displayTimeZone: string } | null {
  try {
    return { opensAt: localDateTimeToUtc(d.opensAt, d.displayTimeZone), closesAt: localDateTimeToUtc(d.closesAt, d.displayTimeZone), displayTimeZone: d.displayTimeZone };
  } catch {
    return null;
  }
}

/**
 * The preview box.
 *
 * @param typed the dates as typed now
 * @param stored the saved dates (null for a phase not created yet: no "was …")
 * @param now the time to measure from
 */
export function PhaseDatePreview({ typed, stored, now }: { typed: PhaseFormDates; stored: PhaseFormDates | null; now: Date }) {
  const after = instants(typed);
  const before = stored ? instants(stored) : null;
  const sentences = after ? phaseDatePreview(after, before, now) : ["Enter an opening and a closing time to see what teams will read."];
  return (
    <div className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950" data-testid="phase-date-preview">
      <p className="font-medium">What teams will see</p>
      <ul aria-live="polite" className="mt-1 list-disc space-y-0.5 pl-5">
        {sentences.map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
    </div>
  );
}
