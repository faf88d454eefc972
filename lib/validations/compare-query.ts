/**
 * The query string of the compare page (`/compare`) and of its API twin
 * (`GET /api/v1/compare`), one set of field rules for both:
 *
 * - `a`, `b`: the runs' ids (deltas are A − B). The API needs both; the page without them
 *   offers pickers;
 * - `phase`: the page's phase whose runs the pickers list (ignored once `a` and `b` are given);
 * - `samples`: bootstrap samples, a whole number from 1 to {@link MAX_COMPARE_SAMPLES}
 *   (default: the service's, 1,000).
 *
 * Strings are trimmed; an empty parameter counts as absent on the page.
 */
import { z } from "zod";
import { parseInput } from "./parse";

/** Most bootstrap samples a caller may ask for. */
export const MAX_COMPARE_SAMPLES = 10_000;

/** `samples`: a whole number from 1 to {@link MAX_COMPARE_SAMPLES}, given as a string. */
const samplesSchema = z
  .string()
  .trim()
  .regex(/^\d{1,6}$/, { error: `must be a whole number from 1 to ${MAX_COMPARE_SAMPLES.toLocaleString("en")}` })
  .transform(Number)
  .pipe(z.number().int().min(1, { error: "must be at least 1" }).max(MAX_COMPARE_SAMPLES, { error: `must be at most ${MAX_COMPARE_SAMPLES.toLocaleString("en")}` }));

/** A required run id; `which` names it in the message ("first", "second"). */
function requiredRunId(which: string) {
  const error = `required: the ${which} run's id`;
  return z.string({ error }).trim().min(1, { error });
}

/** An optional id: trimmed, and absent when empty. */
const optionalId = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** The page's query: every parameter optional. */
export const compareQuerySchema = z.object({
  a: optionalId,
  b: optionalId,
  phase: optionalId,
  samples: samplesSchema.optional(),
});

/** A validated page query (`a`, `b`, `phase` absent or non-empty; `samples` a number or absent). */
export type CompareQuery = z.output<typeof compareQuerySchema>;

/** The API's query: both runs required. */
export const compareApiQuerySchema = z.object({
  a: requiredRunId("first"),
  b: requiredRunId("second"),
  samples: samplesSchema.optional(),
});

/** A validated API query. */
export type CompareApiQuery = z.output<typeof compareApiQuerySchema>;

/**
 * Parses a page's search parameters (Next's `searchParams`: a repeated parameter gives an
 * array, of which the first value counts, as `parseQuery` does for API routes).
 *
 * @param searchParams the page's awaited `searchParams`
 * @returns the {@link CompareQuery}
 * @throws ValidationError (422) naming each bad parameter (e.g. `samples: must be at most 10,000`)
 */
export function parseCompareQuery(searchParams: Record<string, string | string[] | undefined>): CompareQuery {
  const input: Record<string, string> = {};
  for (const [key, value] of Object.entries(searchParams)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) input[key] = first;
  }
  return parseInput(compareQuerySchema, input, "query");
}
