/**
 * Input schemas for tasks and phases, shared by the admin forms and the API.
 *
 * Times must carry a zone (ISO 8601 with `Z` or an offset) or be `Date` objects; forms that
 * collect a wall-clock time in the phase's zone convert it first with `localDateTimeToUtc`.
 */
import { z } from "zod";
import { EVALUATION_PROFILE_NAMES, MENTION_MATCHES, ZERO_MATCHES, type EvaluationProfileName, type MentionMatch, type ZeroMatch } from "../../scoring/index";
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
/** Which runs count per team: BEST, LATEST, or TEAM_SELECTED (up to `finalRunLimit` runs each team marks as final). */
const selectionRuleSchema = z.enum(["BEST", "LATEST", "TEAM_SELECTED"]);
/**
 * A phase's leaderboard timing (`phases.leaderboard_timing`): "live" (runs show as they are
 * scored), "after_close" (until the phase closes, teams see only their own runs' scores) or
 * "frozen" (runs made at or after `frozenAt` are scored but shown only to their team and the
 * organizers).
 */
export const LEADERBOARD_TIMINGS = ["live", "after_close", "frozen"] as const;
/** One of {@link LEADERBOARD_TIMINGS}. */
export type LeaderboardTiming = (typeof LEADERBOARD_TIMINGS)[number];

const leaderboardTimingSchema = z.enum(LEADERBOARD_TIMINGS, { error: `expected one of ${LEADERBOARD_TIMINGS.join(", ")}` });
/** Most runs a team may mark as final in a TEAM_SELECTED phase (the migration's CHECK). */
export const MAX_FINAL_RUN_LIMIT = 100;
/**
 * Who besides the organizers sees the error analysis of a phase's runs (it reveals the gold
 * key's mentions): NONE; TEAMS (signed-in members of the task's teams); PUBLIC (anyone who
 * may see the run, anonymous readers included: this publishes the gold key's mentions).
 */
export const participantAnalysisSchema = z.enum(["NONE", "TEAMS", "PUBLIC"]);

/**
 * The phase's document check (`phases.document_check`), the default first: what happens to a
 * run whose response documents match no key document, or that leaves key documents out.
 * `warn`: the upload lists them and the submitter confirms before the run counts; `error`:
 * the upload is refused.
 */
export const DOCUMENT_CHECKS = ["warn", "error"] as const;
/** One of {@link DOCUMENT_CHECKS}. */
export type DocumentCheck = (typeof DOCUMENT_CHECKS)[number];
/** A phase's document check (see {@link DOCUMENT_CHECKS}). */
export const documentCheckSchema = z.enum(DOCUMENT_CHECKS, { error: `expected one of ${DOCUMENT_CHECKS.join(", ")}` });

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
  /** missing or unknown documents in a run: "warn" (the submitter confirms) or "error" (refused) */
  documentCheck: documentCheckSchema,
  /** "live", "after_close" (teams see only their own runs until the phase closes) or "frozen" (at `frozenAt`) */
  leaderboardTiming: leaderboardTimingSchema,
  /** the freeze: required with "frozen", null otherwise */
  frozenAt: instantSchema.nullable(),
  /** TEAM_SELECTED: how many runs a team may mark as final (1–100) */
  finalRunLimit: z.number().int({ error: "expected a whole number" }).min(1, { error: "must be at least 1" }).max(MAX_FINAL_RUN_LIMIT, { error: `at most ${MAX_FINAL_RUN_LIMIT}` }),
});

/** A phase's settings that have rules across fields (see {@link phaseSettingsProblems}). */
export interface PhaseRuleFacts {
  opensAt: Date;
  closesAt: Date;
  leaderboardTiming: string;
  frozenAt: Date | null;
}

/**
 * The cross-field rules of a phase, shared by create and update (which checks the phase as it
 * would be after the change): it closes after it opens; a "frozen" board has a freeze time, at
 * or after the opening and before the closing; other timings have none.
 *
 * @returns `{path, message}` per problem (paths are field names; messages follow the field's
 *   label, e.g. "must be later than the opening time"), empty when the settings are valid
 */
export function phaseSettingsProblems(p: PhaseRuleFacts): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const window = phaseWindowProblem(p.opensAt, p.closesAt);
  if (window) problems.push({ path: "closesAt", message: window });
  if (p.leaderboardTiming === "frozen") {
    if (p.frozenAt === null) problems.push({ path: "frozenAt", message: "required when the leaderboard freezes" });
    else if (p.frozenAt.getTime() < p.opensAt.getTime() || p.frozenAt.getTime() >= p.closesAt.getTime())
      problems.push({ path: "frozenAt", message: "must be between the opening and the closing time" });
  } else if (p.frozenAt !== null) {
    problems.push({ path: "frozenAt", message: "only a leaderboard that freezes takes a freeze time" });
  }
  return problems;
}

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
    documentCheck: documentCheckSchema.default("warn"),
    leaderboardTiming: leaderboardTimingSchema.default("live"),
    frozenAt: instantSchema.nullable().default(null),
    finalRunLimit: phaseFieldsSchema.shape.finalRunLimit.default(1),
  })
  .superRefine((p, ctx) => {
    for (const problem of phaseSettingsProblems(p)) ctx.addIssue({ code: "custom", path: [problem.path], message: problem.message });
  });
/** A validated new phase: UTC instants, defaults applied. */
export type PhaseInput = z.output<typeof phaseInputSchema>;

/**
 * A change to a phase: any subset of its fields, no defaults (an absent field stays as it
 * is; `null` clears a limit). Unknown fields are rejected. The service checks the merged phase
 * with {@link phaseSettingsProblems}.
 */
export const phasePatchSchema = phaseFieldsSchema.partial().strict();
/** A validated phase change: only the fields sent. */
export type PhasePatch = z.output<typeof phasePatchSchema>;

/** The settings only the `custom` evaluation profile takes (the fixed profiles bring their own). */
export const CUSTOM_EVALUATION_FIELDS = ["mentionMatching", "keepSingletons", "zeroMatching"] as const;

/** The evaluation profile of a task created without one (`EVALUATION_PROFILE_NAMES` lists the default first). */
export const DEFAULT_EVALUATION_PROFILE: EvaluationProfileName = EVALUATION_PROFILE_NAMES[0];

/**
 * A task's evaluation profile as forms and API clients send it: `evaluationProfile`
 * (`conll2012` | `crac` | `custom`, see `EVALUATION_PROFILES` in scoring/presets.ts) and, for
 * `custom` only, `mentionMatching` (exact | partial | head), `keepSingletons` (boolean) and
 * `zeroMatching` (dependent | linear). Cross-field rules: {@link evaluationProblems}.
 */
const evaluationShape = {
  evaluationProfile: z.enum(EVALUATION_PROFILE_NAMES as readonly EvaluationProfileName[], { error: `expected one of ${EVALUATION_PROFILE_NAMES.join(", ")}` }),
  mentionMatching: z.enum(MENTION_MATCHES as readonly MentionMatch[], { error: `expected one of ${MENTION_MATCHES.join(", ")}` }).optional(),
  keepSingletons: z.boolean({ error: "expected true (keep singletons) or false (exclude them)" }).optional(),
  zeroMatching: z.enum(ZERO_MATCHES as readonly ZeroMatch[], { error: `expected one of ${ZERO_MATCHES.join(", ")}` }).optional(),
};

/**
 * The cross-field rules of an evaluation choice: the custom profile needs all three of its
 * settings; a fixed profile takes none of them (it brings its own, and a setting sent with it
 * would be silently ignored).
 *
 * @returns `{path, message}` per problem (paths are the field names), empty when the choice is valid
 */
export function evaluationProblems(e: {
  evaluationProfile: EvaluationProfileName;
  mentionMatching?: unknown;
  keepSingletons?: unknown;
  zeroMatching?: unknown;
}): { path: string; message: string }[] {
  const custom = e.evaluationProfile === "custom";
  return CUSTOM_EVALUATION_FIELDS.flatMap((field) => {
    const given = e[field] !== undefined;
    if (custom && !given) return [{ path: field, message: "required for the custom evaluation profile" }];
    if (!custom && given) return [{ path: field, message: `only the custom evaluation profile takes this setting; the ${e.evaluationProfile} profile brings its own` }];
    return [];
  });
}

/** A task's evaluation choice (the manage page's "Evaluation" form and its service). Unknown fields are rejected. */
export const taskEvaluationSchema = z
  .object(evaluationShape)
  .strict()
  .superRefine((e, ctx) => {
    for (const p of evaluationProblems(e)) ctx.addIssue({ code: "custom", path: [p.path], message: p.message });
  });
/** A validated evaluation choice: the profile, and for `custom` its three settings. */
export type TaskEvaluationInput = z.output<typeof taskEvaluationSchema>;

/**
 * An evaluation choice as HTML forms carry it (strings): the profile, and the custom settings
 * (`keepSingletons` is "keep" or "exclude"). Forms send the custom settings whatever the
 * profile; {@link evaluationInputFromValues} keeps them for `custom` only.
 */
export interface EvaluationFormValues {
  evaluationProfile: string;
  mentionMatching: string;
  keepSingletons: string;
  zeroMatching: string;
}

/** The form value of a singleton rule: "keep" (keep singleton entities) or "exclude". */
export function singletonsValue(keepSingletons: boolean): "keep" | "exclude" {
  return keepSingletons ? "keep" : "exclude";
}

/** Reads an evaluation choice from a form (fields `evaluationProfile`, `mentionMatching`, `keepSingletons`, `zeroMatching`). */
export function evaluationValuesFromForm(formData: FormData): EvaluationFormValues {
  const text = (field: keyof EvaluationFormValues) => {
    const value = formData.get(field);
    return typeof value === "string" ? value.trim() : "";
  };
  return { evaluationProfile: text("evaluationProfile"), mentionMatching: text("mentionMatching"), keepSingletons: text("keepSingletons"), zeroMatching: text("zeroMatching") };
}

/**
 * The service input of a form's evaluation choice: `{evaluationProfile}`, plus for `custom`
 * `mentionMatching`, `keepSingletons` ("keep" → true, "exclude" → false; anything else is
 * passed on for the schema to refuse) and `zeroMatching`. Empty fields are left out (no
 * profile at all: `{}`, which task creation reads as the default profile).
 */
export function evaluationInputFromValues(values: EvaluationFormValues): Record<string, unknown> {
  if (values.evaluationProfile === "") return {};
  const input: Record<string, unknown> = { evaluationProfile: values.evaluationProfile };
  if (values.evaluationProfile !== "custom") return input;
  const keep = values.keepSingletons === singletonsValue(true) ? true : values.keepSingletons === singletonsValue(false) ? false : values.keepSingletons;
  for (const [field, value] of [["mentionMatching", values.mentionMatching], ["keepSingletons", keep], ["zeroMatching", values.zeroMatching]] as const) {
    if (value !== "") input[field] = value;
  }
  return input;
}

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
    ...evaluationShape,
    evaluationProfile: evaluationShape.evaluationProfile.default(DEFAULT_EVALUATION_PROFILE),
  })
  .superRefine((t, ctx) => {
    for (const p of evaluationProblems(t)) ctx.addIssue({ code: "custom", path: [p.path], message: p.message });
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
