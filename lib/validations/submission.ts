/** Input schemas for submissions: the metadata sent with the file (form fields or API JSON). */
import { z } from "zod";
import { trackRefSchema } from "./track";

/** An http(s) URL, or empty/absent (→ null). */
const urlField = z
  .string()
  .trim()
  .max(2000, { error: "at most 2000 characters" })
  .nullish()
  .transform((s) => (s ? s : null))
  .refine((s) => s === null || /^https?:\/\/[^\s/]+\S*$/.test(s), { error: "expected an http:// or https:// URL" });

/** The metadata of a submission. */
export const submissionMetadataSchema = z.object({
  systemName: z.string().trim().min(1, { error: "required" }).max(100, { error: "at most 100 characters" }),
  description: z.string().trim().max(5000, { error: "at most 5000 characters" }).default(""),
  paperUrl: urlField,
  codeUrl: urlField,
  /** Team id or name; required only for users in several teams. */
  team: z.string().trim().max(100).nullish().transform((s) => (s ? s : null)),
  /** Organizers only: a reference system shown (flagged) on the leaderboard. */
  isBaseline: z.boolean().default(false),
  /** PRIVATE runs are seen only by the team and the organizers, and never ranked. */
  visibility: z.enum(["PUBLIC", "PRIVATE"]).default("PUBLIC"),
});
/** Submission metadata as a form or API client sends it. */
export type SubmissionMetadataInput = z.input<typeof submissionMetadataSchema>;
/** Submission metadata after validation: trimmed, defaults applied, empty URLs and team as null. */
export type SubmissionMetadata = z.output<typeof submissionMetadataSchema>;

/**
 * The upload's confirmation of document warnings: `acknowledgeWarnings` submits a run even
 * though its document names do not match the gold key's (a phase whose document check warns
 * answers 409 with the warnings without it). A boolean, or the form value "true" / "false"
 * (any case); absent or empty is false; anything else is a field error.
 */
export const uploadConfirmationSchema = z.object({
  acknowledgeWarnings: z
    .union([z.boolean(), z.string().trim().toLowerCase().pipe(z.enum(["true", "false", ""], { error: 'expected "true" or "false"' }))])
    .nullish()
    .transform((v) => v === true || v === "true"),
});

/**
 * The upload's track (`track`): a track id or name, trimmed; absent or empty is null. Required
 * in a phase with tracks (baselines excepted) and refused in one without: the service checks
 * it against the phase's tracks (`uploadTrack` of `lib/tasks/tracks.ts`).
 */
export const uploadTrackSchema = z.object({ track: trackRefSchema });
