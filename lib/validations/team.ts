/** Input schemas for teams: names and join codes. */
import { z } from "zod";

/** A team name: 2–64 characters after trimming, no control characters. */
export const teamNameSchema = z
  .string()
  .trim()
  .min(2, { error: "at least 2 characters" })
  .max(64, { error: "at most 64 characters" })
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, { error: "must not contain control characters" });

/** Creating a team. */
export const createTeamSchema = z.object({ name: teamNameSchema });

/**
 * A join code as people type it: case and spaces/hyphens do not matter
 * ("abcd-efgh-ijkl" = "ABCDEFGHIJKL"). The output is the canonical form.
 */
export const joinCodeSchema = z
  .string()
  .transform((s) => s.replace(/[\s-]/g, "").toUpperCase())
  .pipe(z.string().regex(/^[A-Z2-7]{16}$/, { error: "a join code has 16 letters and digits, e.g. ABCD-EFGH-IJKL-MNOP" }));

/** Joining a team. */
export const joinTeamSchema = z.object({ code: joinCodeSchema });
