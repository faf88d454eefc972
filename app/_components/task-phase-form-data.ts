/**
 * Phase settings as HTML forms carry them (strings, wall-clock times in the phase's display
 * zone) and their conversion to the service input (UTC instants, numbers, booleans).
 * Used by the new-task form and the manage page. Server-side (time-zone conversion).
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import type { FieldError } from "../../lib/errors";
import type { PhaseView } from "../../lib/services/tasks";
import { localDateTimeToUtc, zoneForDates } from "../../lib/validations/time";

/** A phase's settings as form strings; times are `datetime-local` values in `displayTimeZone`. */
export interface PhaseFormValues {
  name: string;
  opensAt: string;
  closesAt: string;
  displayTimeZone: string;
  dailyLimit: string;
  totalLimit: string;
  leaderboardVisibility: string;
  selectionRule: string;
  /** NONE | TEAMS | PUBLIC (validated by the service) */
  participantAnalysis: string;
  teamDocumentScores: boolean;
  /** warn | error (validated by the service) */
  documentCheck: string;
}

/** The service-side shape of a phase's settings (see `phaseInputSchema`), before validation. */
export interface PhaseInputDraft {
  name: string;
  opensAt?: Date;
  closesAt?: Date;
  displayTimeZone: string;
  dailyLimit: number | null;
  totalLimit: number | null;
  leaderboardVisibility: string;
  selectionRule: string;
  participantAnalysis: string;
  teamDocumentScores: boolean;
  documentCheck: string;
}

/**
 * Reads a phase's fields from a form.
 *
 * @param prefix the name prefix of the phase's inputs, e.g. "phases.0." (or "" for a lone phase)
 */
export function phaseValuesFromForm(formData: FormData, prefix = ""): PhaseFormValues {
  const text = (field: string) => {
    const value = formData.get(`${prefix}${field}`);
    return typeof value === "string" ? value.trim() : "";
  };
  return {
    name: text("name"),
    opensAt: text("opensAt"),
    closesAt: text("closesAt"),
    displayTimeZone: text("displayTimeZone") || "UTC",
    dailyLimit: text("dailyLimit"),
    totalLimit: text("totalLimit"),
    leaderboardVisibility: text("leaderboardVisibility"),
    selectionRule: text("selectionRule"),
    participantAnalysis: text("participantAnalysis") || "NONE",
    teamDocumentScores: formData.get(`${prefix}teamDocumentScores`) === "on",
    documentCheck: text("documentCheck") || "warn",
  };
}

/**
 * Converts a phase's form values to service input. Times are read in the chosen display zone
 * with `localDateTimeToUtc`; an empty limit means "no limit".
 *
 * @param path the field-path prefix for errors, e.g. "phases.0." (matches the service's paths)
 * @returns the draft input, and field errors for values that cannot be converted (the
 *   corresponding draft fields are left out so the service does not report them twice)
 */
export function phaseInputFromValues(values: PhaseFormValues, path = ""): { input: PhaseInputDraft; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const time = (field: "opensAt" | "closesAt"): Date | undefined => {
    const local = values[field];
    if (!local) {
      errors.push({ path: `${path}${field}`, message: "required" });
      return undefined;
    }
    try {
      return localDateTimeToUtc(local, values.displayTimeZone);
    } catch {
      errors.push({ path: `${path}${field}`, message: "expected a date and time, e.g. 2025-03-01 23:59" });
      return undefined;
    }
  };
  const limit = (field: "dailyLimit" | "totalLimit"): number | null => {
    const raw = values[field];
    if (raw === "") return null;
    if (!/^\d+$/.test(raw)) {
      errors.push({ path: `${path}${field}`, message: "expected a whole number (or empty for no limit)" });
      return null;
    }
    return Number(raw);
  };
  const input: PhaseInputDraft = {
    name: values.name,
    displayTimeZone: values.displayTimeZone,
    dailyLimit: limit("dailyLimit"),
    totalLimit: limit("totalLimit"),
    leaderboardVisibility: values.leaderboardVisibility,
    selectionRule: values.selectionRule,
    participantAnalysis: values.participantAnalysis,
    teamDocumentScores: values.teamDocumentScores,
    documentCheck: values.documentCheck,
  };
  const opensAt = time("opensAt");
  const closesAt = time("closesAt");
  if (opensAt) input.opensAt = opensAt;
  if (closesAt) input.closesAt = closesAt;
  return { input, errors };
}

/**
 * A UTC instant as a `datetime-local` value ("YYYY-MM-DDTHH:mm") in a display zone.
 *
 * @param zone "AoE" or an IANA name
 */
function utcToLocalInput(instant: Date, zone: string): string {
  return format(new TZDate(instant.getTime(), zoneForDates(zone)), "yyyy-MM-dd'T'HH:mm");
}

/** The settings of a stored phase that its form edits (a `PhaseView`, or a phase row whose document check is a plain string). */
type PhaseSettings = Pick<
  PhaseView,
  "name" | "opensAt" | "closesAt" | "displayTimeZone" | "dailyLimit" | "totalLimit" | "leaderboardVisibility" | "selectionRule" | "participantAnalysis" | "teamDocumentScores"
> & { documentCheck: string };

/** The form values of a stored phase (times shown in its display zone; no limit as ""). */
export function phaseValuesFromPhase(phase: PhaseSettings): PhaseFormValues {
  return {
    name: phase.name,
    opensAt: utcToLocalInput(phase.opensAt, phase.displayTimeZone),
    closesAt: utcToLocalInput(phase.closesAt, phase.displayTimeZone),
    displayTimeZone: phase.displayTimeZone,
    dailyLimit: phase.dailyLimit === null ? "" : String(phase.dailyLimit),
    totalLimit: phase.totalLimit === null ? "" : String(phase.totalLimit),
    leaderboardVisibility: phase.leaderboardVisibility,
    selectionRule: phase.selectionRule,
    participantAnalysis: phase.participantAnalysis,
    teamDocumentScores: phase.teamDocumentScores,
    documentCheck: phase.documentCheck,
  };
}

/**
 * The pre-filled phases of a new task, both in UTC with public leaderboards ranking each
 * team's best run: "development" from today for four weeks (5 runs a day, 100 in total),
 * then "test" for one week (2 runs a day, 5 in total); no participant analysis, no
 * per-document scores for teams on hidden boards, and missing or unknown documents a warning.
 *
 * @param now the current time (the dates are whole UTC days from it)
 */
export function defaultPhaseValues(now: Date): PhaseFormValues[] {
  const day = (offset: number, time: string) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset));
    return `${d.toISOString().slice(0, 10)}T${time}`;
  };
  const common = { displayTimeZone: "UTC", leaderboardVisibility: "PUBLIC", selectionRule: "BEST", participantAnalysis: "NONE", teamDocumentScores: false, documentCheck: "warn" };
  return [
    { ...common, name: "development", opensAt: day(0, "00:00"), closesAt: day(28, "00:00"), dailyLimit: "5", totalLimit: "100" },
    { ...common, name: "test", opensAt: day(28, "00:00"), closesAt: day(35, "00:00"), dailyLimit: "2", totalLimit: "5" },
  ];
}
