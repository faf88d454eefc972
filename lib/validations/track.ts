/**
 * Input schemas for the tracks of a phase (issue 10 §5), shared by the manage page's forms and
 * the service: a track's name, description and optional per-team limits, and the `track`
 * field of an upload.
 */
import { z } from "zod";

/** Longest track name. */
export const MAX_TRACK_NAME = 60;
/** Longest track description. */
export const MAX_TRACK_DESCRIPTION = 2000;
/** Most tracks in one phase. */
export const MAX_TRACKS = 20;

/**
 * A track's per-team limit: a whole number ≥ 1, or null (also from an empty form field) for
 * none. Form strings of digits are accepted.
 */
const trackLimitSchema = z
  .union([z.number(), z.string().trim()])
  .nullish()
  .transform((v, ctx) => {
    if (v === null || v === undefined || v === "") return null;
    const n = typeof v === "number" ? v : /^\d+$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isInteger(n)) {
      ctx.addIssue({ code: "custom", message: "expected a whole number (or empty for no limit of the track's own)" });
      return z.NEVER;
    }
    if (n < 1 || n > 1_000_000) {
      ctx.addIssue({ code: "custom", message: "must be between 1 and 1000000 (or empty for no limit of the track's own)" });
      return z.NEVER;
    }
    return n;
  });

/** The fields of a track. */
export const trackFieldsSchema = z.object({
  /** 1–60 characters after trimming; unique in the phase (checked by the service) */
  name: z.string({ error: "required" }).trim().min(1, { error: "required" }).max(MAX_TRACK_NAME, { error: `at most ${MAX_TRACK_NAME} characters` }),
  description: z
    .string()
    .trim()
    .max(MAX_TRACK_DESCRIPTION, { error: `at most ${MAX_TRACK_DESCRIPTION} characters` })
    .nullish()
    .transform((s) => s ?? ""),
  /**
   * runs per team per UTC day in this track; with `totalLimit` null too, the phase's limits
   * apply (shared with the other tracks without limits of their own)
   */
  dailyLimit: trackLimitSchema,
  /** runs per team in this track in total; see `dailyLimit` */
  totalLimit: trackLimitSchema,
});

/** A new track: `name` required; `description` default ""; limits default null. */
export const trackInputSchema = trackFieldsSchema.strict();
/** A new track as a form or client sends it. */
export type TrackInput = z.input<typeof trackInputSchema>;

/** A change to a track: any subset of its fields (absent = unchanged; a limit set to null or "" removes it). */
export const trackPatchSchema = trackFieldsSchema.partial().strict();
/** A validated track change. */
export type TrackPatch = z.output<typeof trackPatchSchema>;

/** A move in the order of a phase's tracks. */
export const trackMoveSchema = z.object({ direction: z.enum(["up", "down"], { error: 'expected "up" or "down"' }) });

/**
 * An upload's or a leaderboard query's `track`: a track id or name, or absent/empty (→ null).
 * Whether it names one of the phase's tracks is the service's check.
 */
export const trackRefSchema = z
  .string()
  .trim()
  .max(200, { error: "at most 200 characters" })
  .nullish()
  .transform((s) => (s ? s : null));

export { trackFormValues, type TrackFormValues } from "./track-form";
