/** Query parameters of a leaderboard page, API call or CSV export. */
import { z } from "zod";
import { metricSchema } from "./metrics";

/** Booleans from query strings: "1", "true", "yes" (any case) are true; absent is false. */
const queryBoolean = z
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
