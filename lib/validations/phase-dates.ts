/**
 * What a change of a phase's dates means for teams, in sentences (issue 11 §1: "dates can be
 * edited with a preview of what changes for teams"). Pure and zod-free, so the phase settings
 * form computes it in the browser as the organizer types, and tests pin it.
 *
 * Times are shown in the phase's display zone ("AoE" or an IANA name, see ./time.ts) with the
 * distance from `now`, e.g. "Closes in 3 days, 14:00 AoE on 2026-12-04 (was 2026-12-01 12:00 AoE)".
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns/format";
import { formatDistanceStrict } from "date-fns/formatDistanceStrict";
import { isValidTimeZone, zoneForDates } from "./time";

/** A phase's window and display zone (UTC instants). */
export interface PhaseDates {
  opensAt: Date;
  closesAt: Date;
  displayTimeZone: string;
}

/** "14:00 AoE on 2026-12-04": an instant in a display zone, time first. */
function timeOn(instant: Date, zone: string): string {
  const zoned = new TZDate(instant.getTime(), zoneForDates(zone));
  return `${format(zoned, "HH:mm")} ${zone} on ${format(zoned, "yyyy-MM-dd")}`;
}

/** "2026-12-01 12:00 AoE": an instant in a display zone, date first. */
function dateTime(instant: Date, zone: string): string {
  return `${format(new TZDate(instant.getTime(), zoneForDates(zone)), "yyyy-MM-dd HH:mm")} ${zone}`;
}

/** "in 3 days" / "2 hours ago" / "now": whole units, rounded down (3 days and 20 hours is "in 3 days"). */
function distance(instant: Date, now: Date): string {
  if (instant.getTime() === now.getTime()) return "now";
  return formatDistanceStrict(instant, now, { addSuffix: true, roundingMethod: "floor" });
}

/** One sentence about one end of the window ("Opens in …" / "Closed … ago"), with the old time when it moved. */
function edgeSentence(kind: "open" | "close", instant: Date, zone: string, now: Date, before: Date | null, beforeZone: string): string {
  const future = instant.getTime() > now.getTime();
  const verb = kind === "open" ? (future ? "Opens" : "Opened") : future ? "Closes" : "Closed";
  const when = distance(instant, now);
  const moved = before !== null && before.getTime() !== instant.getTime() ? ` (was ${dateTime(before, beforeZone)})` : "";
  return `${verb} ${when}, ${timeOn(instant, zone)}${moved}.`;
}

/**
 * The sentences teams would read about a phase's dates after a change: when it opens and when
 * it closes (with the distance from `now`, the time in the display zone, and the old time when
 * it moved), then what the change does to submitting now, and a change of display zone.
 *
 * @param after the dates as they would be saved
 * @param before the stored dates (null for a new phase: no "was …" and no change of state)
 * @param now the current time
 * @returns the sentences, in order; a single sentence naming the problem when the window is
 *   not valid (closes at or before it opens) or the zone is unknown
 */
export function phaseDatePreview(after: PhaseDates, before: PhaseDates | null, now: Date): string[] {
  if (!isValidTimeZone(after.displayTimeZone)) return [`Unknown time zone "${after.displayTimeZone}".`];
  if (Number.isNaN(after.opensAt.getTime()) || Number.isNaN(after.closesAt.getTime())) return ["Enter an opening and a closing time."];
  if (after.closesAt.getTime() <= after.opensAt.getTime()) return ["The phase would close before it opens: the closing time must be later than the opening time."];
  const zone = after.displayTimeZone;
  const oldZone = before?.displayTimeZone ?? zone;
  const sentences = [
    edgeSentence("open", after.opensAt, zone, now, before?.opensAt ?? null, oldZone),
    edgeSentence("close", after.closesAt, zone, now, before?.closesAt ?? null, oldZone),
  ];
  if (before) {
    const openBefore = before.opensAt.getTime() <= now.getTime() && now.getTime() < before.closesAt.getTime();
    const openAfter = after.opensAt.getTime() <= now.getTime() && now.getTime() < after.closesAt.getTime();
    if (openBefore && !openAfter) sentences.push("Teams can no longer submit once this is saved.");
    if (!openBefore && openAfter) sentences.push("Teams can submit as soon as this is saved.");
    if (before.displayTimeZone !== zone) sentences.push(`Times are shown to teams in ${zone} (was ${before.displayTimeZone}).`);
  }
  return sentences;
}
