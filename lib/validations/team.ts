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

/** A member change on a team: the team and the member (both ids). */
export const teamMemberChangeSchema = z.object({
  teamId: z.guid({ error: "not a team id" }),
  userId: z.guid({ error: "not a user id" }),
});

/** Leaving a team: the team's id. */
export const leaveTeamSchema = z.object({ teamId: z.guid({ error: "not a team id" }) });

/** Most people one invitation link may let in. */
export const MAX_INVITATION_USES = 50;

/**
 * Creating an invitation link: the team and how many people may join through it (1 = a
 * single-use link, the default; at most {@link MAX_INVITATION_USES}). Form values arrive as
 * strings and are coerced; an empty value means the default.
 */
export const createTeamInvitationSchema = z.object({
  teamId: z.guid({ error: "not a team id" }),
  maxUses: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? 1 : typeof v === "string" ? Number(v.trim()) : v),
    z.number({ error: "must be a whole number" }).int({ error: "must be a whole number" }).min(1, { error: "at least 1" }).max(MAX_INVITATION_USES, { error: `at most ${MAX_INVITATION_USES}` }),
  ),
});
