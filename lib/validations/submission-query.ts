/**
 * The query string of a submission page (`/submissions/<id>?fractions=1&sort=muc&order=desc`),
 * parsed with one zod schema (issue 12 §6). A page must render whatever the address says, so a
 * value that does not parse falls back to its default instead of failing the page:
 *
 * - `fractions`: open the "raw fractions" disclosure of the metric table ("1", "true", "yes",
 *   any case; anything else, or absent, is false);
 * - `sort`: the per-document table's first sort column, `document` or a leaderboard metric
 *   (`muc`, `conll`, …); absent or unknown: by document;
 * - `order`: `asc` or `desc` (default: `desc` for a metric, `asc` for `document`).
 */
import { z } from "zod";
import { metricSchema } from "./metrics";

/** Booleans from query strings: "1", "true", "yes" (any case) are true; anything else is false. */
const queryFlag = z
  .string()
  .optional()
  .transform((v) => v !== undefined && ["1", "true", "yes"].includes(v.trim().toLowerCase()))
  .catch(false);

/** The first value of a repeated parameter (`?a=1&a=2` → "1"). */
const firstValue = (value: unknown) => (Array.isArray(value) ? value[0] : value);

/** The submission page's query; see the module comment. */
export const submissionQuerySchema = z
  .object({
    fractions: z.preprocess(firstValue, queryFlag),
    sort: z.preprocess(firstValue, z.union([z.literal("document"), metricSchema]).optional()).catch(undefined),
    order: z.preprocess(firstValue, z.enum(["asc", "desc"]).optional()).catch(undefined),
  })
  .transform((q) => ({
    fractions: q.fractions,
    sort: q.sort ?? null,
    order: q.order ?? (q.sort !== undefined && q.sort !== "document" ? ("desc" as const) : ("asc" as const)),
  }));

/** A parsed submission-page query: `{fractions: boolean, sort: "document" | metric | null, order: "asc" | "desc"}`. */
export type SubmissionQuery = z.output<typeof submissionQuerySchema>;

/**
 * Parses a submission page's `searchParams` (Next's `{name: string | string[] | undefined}`).
 * Never throws: unknown parameters are ignored and bad values become their defaults.
 *
 * @param searchParams the page's awaited `searchParams` (null or absent: no query)
 */
export function parseSubmissionQuery(searchParams: Record<string, string | string[] | undefined> | null | undefined): SubmissionQuery {
  const parsed = submissionQuerySchema.safeParse(searchParams ?? {});
  return parsed.success ? parsed.data : { fractions: false, sort: null, order: "asc" };
}
