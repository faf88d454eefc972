/**
 * Phase settings as HTML forms carry them (strings, wall-clock times in the phase's display
 * zone) and their conversion to the service input (UTC instants, numbers, booleans).
 * Used by the new-task form and the manage page, on the server and in the browser (no zod:
 * the services validate; `defaultPhaseValues` and `newPhaseValues` pre-fill new phases).
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import type { FieldError } from "@/lib/errors";
import type { PhaseView } from "@/lib/tasks";
import { localDateTimeToUtc, zoneForDates } from "@/lib/validations/time";

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
  /** live | after_close | frozen (validated by the service) */
  leaderboardTiming: string;
  /** the freeze, a `datetime-local` value in `displayTimeZone`; read only when `leaderboardTiming` is "frozen" */
  frozenAt: string;
  /** TEAM_SELECTED: how many runs a team may mark as final ("" = 1) */
  finalRunLimit: string;
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
  leaderboardTiming: string;
  /** null unless the timing is "frozen"; left out when the form's value could not be read */
  frozenAt?: Date | null;
  finalRunLimit: number;
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
    leaderboardTiming: text("leaderboardTiming") || "live",
    frozenAt: text("frozenAt"),
    finalRunLimit: text("finalRunLimit"),
  };
}

/**
 * Converts a phase's form values to service input. Times are read in the chosen display zone
 * with `localDateTimeToUtc`; an empty limit means "no limit"; the freeze time is read only for
 * a "frozen" leaderboard (else null; empty with "frozen" is left to the service, which says it
 * is required); an empty final-run limit is 1.
 *
 * @param path the field-path prefix for errors, e.g. "phases.0." (matches the service's paths)
 * @returns the draft input, and field errors for values that cannot be converted (the
 *   corresponding draft fields are left out so the service does not report them twice)
 */
export function phaseInputFromValues(values: PhaseFormValues, path = ""): { input: PhaseInputDraft; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const time = (field: "opensAt" | "closesAt" | "frozenAt"): Date | undefined => {
    const local = values[field];
    if (!local) {
      if (field === "frozenAt") return undefined;
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
    leaderboardTiming: values.leaderboardTiming,
    finalRunLimit: 1,
  };
  if (values.finalRunLimit !== "") {
    if (/^\d+$/.test(values.finalRunLimit)) input.finalRunLimit = Number(values.finalRunLimit);
    else errors.push({ path: `${path}finalRunLimit`, message: "expected a whole number" });
  }
  if (values.leaderboardTiming !== "frozen") input.frozenAt = null;
  else if (values.frozenAt === "") input.frozenAt = null;
  else {
    const frozenAt = time("frozenAt");
    if (frozenAt) input.frozenAt = frozenAt;
  }
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
export function utcToLocalInput(instant: Date, zone: string): string {
  return format(new TZDate(instant.getTime(), zoneForDates(zone)), "yyyy-MM-dd'T'HH:mm");
}

/** The settings of a stored phase that its form edits (a `PhaseView`, or a phase row whose document check is a plain string). */
type PhaseSettings = Pick<
  PhaseView,
  "name" | "opensAt" | "closesAt" | "displayTimeZone" | "dailyLimit" | "totalLimit" | "leaderboardVisibility" | "selectionRule" | "participantAnalysis" | "teamDocumentScores"
> & { documentCheck: string; leaderboardTiming: string; frozenAt: Date | null; finalRunLimit: number };

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
    leaderboardTiming: phase.leaderboardTiming,
    frozenAt: phase.frozenAt === null ? "" : utcToLocalInput(phase.frozenAt, phase.displayTimeZone),
    finalRunLimit: String(phase.finalRunLimit),
  };
}

/** Midnight UTC `offset` whole days from `now`'s day, as a `datetime-local` value. */
function utcDay(now: Date, offset: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset));
  return `${d.toISOString().slice(0, 10)}T00:00`;
}

/** The settings every pre-filled phase starts with. */
const PHASE_DEFAULTS = {
  displayTimeZone: "UTC",
  leaderboardVisibility: "PUBLIC",
  selectionRule: "BEST",
  participantAnalysis: "NONE",
  teamDocumentScores: false,
  documentCheck: "warn",
  leaderboardTiming: "live",
  frozenAt: "",
  finalRunLimit: "1",
} as const;

/**
 * The pre-filled phase of a new task: "development", in UTC, from today for four weeks (5
 * runs a day, 100 in total), a public live leaderboard ranking each team's best run, no
 * participant analysis, no per-document scores for teams on hidden boards, missing or
 * unknown documents a warning. More phases are added with {@link newPhaseValues}.
 *
 * @param now the current time (the dates are whole UTC days from it)
 */
export function defaultPhaseValues(now: Date): PhaseFormValues[] {
  return [{ ...PHASE_DEFAULTS, name: "development", opensAt: utcDay(now, 0), closesAt: utcDay(now, 28), dailyLimit: "5", totalLimit: "100" }];
}

/**
 * A further phase for a form (the new-task form's "Add a phase", the phases tab's "Add
 * phase"): named "test" when no phase has that name yet, else "phase N"; one week from the
 * latest closing time among `existing` (from today when there is none), 2 runs a day, 5 in
 * total, otherwise as {@link defaultPhaseValues}.
 *
 * @param existing the phases already in the form or the task (names and `datetime-local` closing times in UTC)
 * @param now the current time
 */
export function newPhaseValues(existing: readonly { name: string; closesAt: string }[], now: Date): PhaseFormValues {
  const names = new Set(existing.map((p) => p.name));
  let name = "test";
  for (let n = existing.length + 1; names.has(name); n += 1) name = `phase ${n}`;
  const latest = existing
    .map((p) => Date.parse(`${p.closesAt}Z`))
    .filter((t) => !Number.isNaN(t))
    .reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  const start = Number.isFinite(latest) && latest > now.getTime() ? new Date(latest) : now;
  const startDay = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()) === start.getTime() ? 0 : 1;
  return { ...PHASE_DEFAULTS, name, opensAt: utcDay(start, startDay), closesAt: utcDay(start, startDay + 7), dailyLimit: "2", totalLimit: "5" };
}
