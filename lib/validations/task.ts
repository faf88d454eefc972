/**
 * Input schemas for tasks and phases, shared by the admin forms and the API.
 *
 * Times must carry a zone (ISO 8601 with `Z` or an offset) or be `Date` objects; forms that
 * collect a wall-clock time in the phase's zone convert it first with `localDateTimeToUtc`.
 */
import { z } from "zod";
import { DEFAULT_PRIMARY_METRIC, metricSchema } from "./metrics";
import { isValidTimeZone } from "./time";

/** Task slugs: lower-case letters, digits and single hyphens, 2–64 characters. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Most phases in one task. */
export const MAX_PHASES = 20;

/** A UTC instant: a `Date`, or an ISO 8601 string with `Z` or an offset. */
export const instantSchema = z.union([
  z.date({ error: "expected a date and time" }),
  z.iso
    .datetime({ offset: true, error: "expected an ISO 8601 time with a zone, e.g. 2025-03-01T23:59:00Z" })
    .transform((s) => new Date(s)),
]).refine((d) => !Number.isNaN(d.getTime()), { error: "not a valid time" });

/** A per-team limit: a whole number ≥ 1, or null for no limit. */
const limitSchema = z.number().int({ error: "expected a whole number" }).min(1, { error: "must be at least 1 (or empty for no limit)" }).max(1_000_000).nullable();

const optionalText = (max: number) =>
  z.string().trim().max(max, { error: `at most ${max} characters` }).nullish().transform((s) => (s ? s : null));

const timeZoneSchema = z
  .string()
  .trim()
  .refine(isValidTimeZone, { error: "unknown time zone: use an IANA name such as Europe/Prague, UTC, or AoE" });
const visibilitySchema = z.enum(["PUBLIC", "PARTICIPANTS", "ORGANIZERS"]);
const selectionRuleSchema = z.enum(["BEST", "LATEST"]);
/**
 * Who besides the organizers sees the error analysis of a phase's runs (it reveals the gold
 * key's mentions): NONE; TEAMS (signed-in members of the task's teams); PUBLIC (anyone who
 * may see the run, anonymous readers included: this publishes the gold key's mentions).
 */
export const participantAnalysisSchema = z.enum(["NONE", "TEAMS", "PUBLIC"]);

/** Fields of a phase, without defaults or cross-field checks (the base of create and patch). */
export const phaseFieldsSchema = z.object({
  name: z.string().trim().min(1, { error: "required" }).max(64, { error: "at most 64 characters" }),
  opensAt: instantSchema,
  closesAt: instantSchema,
  displayTimeZone: timeZoneSchema,
  dailyLimit: limitSchema,
  totalLimit: limitSchema,
  leaderboardVisibility: visibilitySchema,
  selectionRule: selectionRuleSchema,
  participantAnalysis: participantAnalysisSchema,
  /** on a hidden leaderboard (ORGANIZERS): teams see their own runs' per-document scores */
  teamDocumentScores: z.boolean(),
});

/**
 * Checks that a phase closes after it opens (shared by create and update).
 *
 * @returns null when `closesAt` is later than `opensAt`; else the problem, worded to follow
 *   the field's name ("must be later than the opening time")
 */
export function phaseWindowProblem(opensAt: Date, closesAt: Date): string | null {
  return closesAt.getTime() > opensAt.getTime() ? null : "must be later than the opening time";
}

/** One phase of a new task. */
export const phaseInputSchema = phaseFieldsSchema
  .extend({
    displayTimeZone: timeZoneSchema.default("UTC"),
    dailyLimit: limitSchema.default(null),
    totalLimit: limitSchema.default(null),
    leaderboardVisibility: visibilitySchema.default("PUBLIC"),
    selectionRule: selectionRuleSchema.default("BEST"),
    participantAnalysis: participantAnalysisSchema.default("NONE"),
    teamDocumentScores: z.boolean().default(false),
  })
  .superRefine((p, ctx) => {
  const problem = phaseWindowProblem(p.opensAt, p.closesAt);
  if (problem) ctx.addIssue({ code: "custom", path: ["closesAt"], message: problem });
});
/** A validated new phase: UTC instants, defaults applied. */
export type PhaseInput = z.output<typeof phaseInputSchema>;

/**
 * A change to a phase: any subset of its fields, no defaults (an absent field stays as it
 * is; `null` clears a limit). Unknown fields are rejected. The service checks the merged window.
 */
export const phasePatchSchema = phaseFieldsSchema.partial().strict();
/** A validated phase change: only the fields sent. */
export type PhasePatch = z.output<typeof phasePatchSchema>;

/** A new task with its phases. */
export const createTaskSchema = z
  .object({
    slug: z
      .string()
      .trim()
      .min(2, { error: "at least 2 characters" })
      .max(64, { error: "at most 64 characters" })
      .regex(SLUG_PATTERN, { error: "use lower-case letters, digits and single hyphens, e.g. crac-2025" }),
    title: z.string().trim().min(1, { error: "required" }).max(200, { error: "at most 200 characters" }),
    description: z.string().max(100_000, { error: "at most 100,000 characters" }).default(""),
    primaryMetric: metricSchema.default(DEFAULT_PRIMARY_METRIC),
    dataLicense: optionalText(10_000),
    dataSource: optionalText(10_000),
    phases: z.array(phaseInputSchema).min(1, { error: "add at least one phase" }).max(MAX_PHASES),
  })
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    t.phases.forEach((p, i) => {
      if (seen.has(p.name)) ctx.addIssue({ code: "custom", path: ["phases", i, "name"], message: `two phases are named "${p.name}"` });
      seen.add(p.name);
    });
  });
/** A new task as a form or API client sends it (times as ISO strings or Dates). */
export type CreateTaskInput = z.input<typeof createTaskSchema>;
/** A validated new task: trimmed, defaults applied, times as UTC instants. */
export type CreateTaskData = z.output<typeof createTaskSchema>;

/** Adding an organizer by e-mail address. */
export const organizerEmailSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email({ error: "expected an e-mail address" })),
});
