/** Query parameters of a leaderboard page, API call or CSV export. */
import { z } from "zod";
import { metricSchema } from "./metrics";

/** Booleans from query strings: "1", "true", "yes" (any case) are true; absent is false. */
export const queryBoolean = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => (typeof v === "string" ? ["1", "true", "yes"].includes(v.toLowerCase()) : v === true));

/** `?metric=muc&allRuns=1` */
export const leaderboardQuerySchema = z.object({
  metric: metricSchema.optional(),
  allRuns: queryBoolean,
});
/** A validated leaderboard query: `metric` (absent = the task's primary metric) and `allRuns`. */
export type LeaderboardQuery = z.output<typeof leaderboardQuerySchema>;

/**
 * The `variant` parameter of a task's leaderboard (`?variant=partial`): the id of one of the
 * secondary variants of the task's evaluation profile, whose scores then rank the board.
 * Absent or empty means the primary setting.
 *
 * @param variantIds the profile's variant ids, in its order (`taskEvaluationProfile(task).variants`)
 * @returns a schema whose output is the variant id, or null for the primary setting; any other
 *   string fails with a message naming the allowed ids
 */
export function leaderboardVariantSchema(variantIds: readonly string[]) {
  const message =
    variantIds.length > 0
      ? `must be one of ${variantIds.join(", ")} (the task's evaluation variants), or empty for the primary setting`
      : "this task's evaluation profile has no variants; leave it out to rank by the primary setting";
  return z
    .string()
    .nullish()
    .refine((v) => v === null || v === undefined || v === "" || variantIds.includes(v), { message })
    .transform((v) => (v === null || v === undefined || v === "" ? null : v));
}
