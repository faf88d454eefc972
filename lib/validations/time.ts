/**
 * Time zones of phases. Times are stored in UTC; each phase names a display zone, an IANA
 * name ("Europe/Prague", "UTC") or "AoE" (Anywhere on Earth, UTC−12, the usual deadline zone).
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns/format";

/** The "Anywhere on Earth" pseudo-zone: UTC−12 all year. */
export const AOE = "AoE";

/** The UTC offset string that @date-fns/tz understands for a display zone ("AoE" → "-12:00"). */
export function zoneForDates(displayTimeZone: string): string {
  return displayTimeZone === AOE ? "-12:00" : displayTimeZone;
}

/**
 * Whether a display time zone is usable.
 *
 * @param name "AoE" or an IANA zone name known to this Node's Intl data
 * @returns true for "AoE" and every zone `Intl.DateTimeFormat` accepts
 */
export function isValidTimeZone(name: string): boolean {
  if (name === AOE) return true;
  if (name.trim() !== name || name === "") return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a wall-clock time as seen in a display zone, e.g. a form's `datetime-local` value.
 *
 * @param local "YYYY-MM-DDTHH:mm" or "YYYY-MM-DDTHH:mm:ss" without zone
 * @param displayTimeZone "AoE" or an IANA name
 * @returns the UTC instant; for a wall-clock time skipped by a DST change, the instant after the gap
 * @throws RangeError on a malformed time or an unknown zone
 */
export function localDateTimeToUtc(local: string, displayTimeZone: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) throw new RangeError(`expected a time like 2025-03-01T23:59, got ${JSON.stringify(local)}`);
  if (!isValidTimeZone(displayTimeZone)) throw new RangeError(`unknown time zone ${JSON.stringify(displayTimeZone)}`);
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  const date = new TZDate(y, mo - 1, d, h, mi, s, zoneForDates(displayTimeZone));
  if (Number.isNaN(date.getTime()) || date.getMonth() !== mo - 1) throw new RangeError(`not a calendar time: ${local}`);
  return new Date(date.getTime());
}

/**
 * Formats an instant in a display zone, for pages and messages.
 *
 * @returns e.g. "2025-03-01 23:59 AoE (UTC−12:00)" or "2025-03-01 10:00 Europe/Prague (UTC+01:00)"
 */
export function formatInZone(instant: Date, displayTimeZone: string): string {
  const zoned = new TZDate(instant.getTime(), zoneForDates(displayTimeZone));
  return `${format(zoned, "yyyy-MM-dd HH:mm")} ${displayTimeZone} (UTC${format(zoned, "xxx").replace("-", "−")})`;
}

/** Formats an instant in UTC: "2025-03-01 23:59 UTC". */
export function formatUtc(instant: Date): string {
  return `${instant.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
