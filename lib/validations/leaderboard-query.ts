/**
 * The query string of a phase's leaderboard, one zod schema for the page
 * (`/tasks/<slug>/phases/<id>/leaderboard`) and its API twin (`GET /api/v1/phases/<id>/leaderboard`),
 * issue 12 §6. Every parameter is optional:
 *
 * - `metric`: the ranking metric, one of `LEADERBOARD_METRICS` (absent: the task's primary metric);
 * - `variant`, `track`, `dataset`, `rankDataset`: a secondary variant id, a track (id or name), a
 *   dataset's own board, the dataset ranking the phase-level board (names or ids); checked
 *   against the phase by `getLeaderboard`, here only trimmed and bounded;
 * - `all` or `allRuns`: every run instead of one per team;
 * - `rp`: recall and precision next to each F1; `ci`: the ranking metric's 95 % intervals (page);
 * - `significance`, `intervals` (API): add the stored significance facts, and the intervals
 *   (`intervals` implies `significance`);
 * - `cursor`: the opaque paging cursor (the page starts after it); `limit` (API): the page size,
 *   1 to {@link MAX_LEADERBOARD_LIMIT} (the page always shows {@link LEADERBOARD_PAGE_SIZE});
 * - `team`: the team-name filter (case-insensitive part of the name);
 * - `format` (API): `json` (default), `csv`, `latex` or `markdown` (the paper tables).
 *
 * Switches follow the one "1/true/yes" rule (`queryBoolean`). Strings are trimmed; an empty
 * parameter counts as absent. The API parses with `parseQuery(request, leaderboardPageQuerySchema)`
 * (a bad value is a 422 naming it); the page with {@link parseLeaderboardPageQuery}, which never
 * throws: a bad value falls back to its default and is reported, so the page can say so.
 */
import { z } from "zod";
import { queryBoolean } from "./leaderboard";
import { metricSchema } from "./metrics";
import { parseInput } from "./parse";

/** Rows on one leaderboard page (and the API's default page size). */
export const LEADERBOARD_PAGE_SIZE = 50;

/** The largest `limit` an API caller may ask for (the service's `MAX_BOARD_PAGE`). */
export const MAX_LEADERBOARD_LIMIT = 500;

/** Longest `variant`, `track`, `dataset` and `rankDataset` value. */
const MAX_REF = 200;

/** Longest `team` filter. */
export const MAX_TEAM_FILTER = 100;

/** Longest `cursor` (as the service bounds it). */
const MAX_CURSOR = 300;

/** A string trimmed; empty (or absent) → undefined. Other types pass through for zod to refuse. */
function blankToUndefined(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** An optional text parameter of at most `max` characters: the trimmed text, or null when absent or empty. */
function optionalText(max: number) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(max, { error: `at most ${max} characters` })
      .optional()
      .transform((v) => v ?? null),
  );
}

/** A "1/true/yes" switch (trimmed first). */
const flag = z.preprocess((v) => (typeof v === "string" ? v.trim() : v), queryBoolean);

/** `limit`: a whole number from 1 to {@link MAX_LEADERBOARD_LIMIT}; absent → null. */
const limitSchema = z.preprocess(
  blankToUndefined,
  z
    .string()
    .regex(/^\d{1,6}$/, { error: `must be a whole number from 1 to ${MAX_LEADERBOARD_LIMIT}` })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: "must be at least 1" }).max(MAX_LEADERBOARD_LIMIT, { error: `must be at most ${MAX_LEADERBOARD_LIMIT}` }))
    .optional()
    .transform((v) => v ?? null),
);

/** The query of a leaderboard page or API call; see the module comment. */
export const leaderboardPageQuerySchema = z
  .object({
    metric: z.preprocess(blankToUndefined, metricSchema.optional()),
    variant: optionalText(MAX_REF),
    track: optionalText(MAX_REF),
    dataset: optionalText(MAX_REF),
    rankDataset: optionalText(MAX_REF),
    all: flag,
    allRuns: flag,
    rp: flag,
    ci: flag,
    significance: flag,
    intervals: flag,
    cursor: optionalText(MAX_CURSOR),
    team: optionalText(MAX_TEAM_FILTER),
    limit: limitSchema,
    format: z.preprocess(blankToUndefined, z.enum(["json", "csv", "latex", "markdown"], { error: "must be json, csv, latex or markdown" }).default("json")),
  })
  .transform((q) => ({
    metric: q.metric ?? null,
    variant: q.variant,
    track: q.track,
    dataset: q.dataset,
    rankDataset: q.rankDataset,
    allRuns: q.all || q.allRuns,
    rp: q.rp,
    ci: q.ci,
    significance: q.significance || q.intervals,
    intervals: q.intervals,
    cursor: q.cursor,
    team: q.team,
    limit: q.limit,
    format: q.format,
  }));

/**
 * A parsed leaderboard query: `metric` (null: the task's primary metric), `variant`, `track`,
 * `dataset`, `rankDataset`, `cursor`, `team` (strings or null), `limit` (number or null),
 * `allRuns`, `rp`, `ci`, `significance`, `intervals` (booleans), `format` ("json" | "csv" | "latex" | "markdown").
 */
export type LeaderboardPageQuery = z.output<typeof leaderboardPageQuerySchema>;

/**
 * The board a parsed query asks `getLeaderboard` for: metric, variant, track, dataset,
 * rankDataset, allRuns, cursor and team (paging size and significance are the caller's).
 *
 * @param query a parsed query (`leaderboardPageQuerySchema`)
 * @returns the options, strings or null (`metric` null: the task's primary metric)
 */
export function leaderboardBoardOptions(query: LeaderboardPageQuery) {
  return {
    metric: query.metric,
    variant: query.variant,
    track: query.track,
    dataset: query.dataset,
    rankDataset: query.rankDataset,
    allRuns: query.allRuns,
    cursor: query.cursor,
    team: query.team,
  };
}

/** A parameter of the query string, as the schema names it. */
export type LeaderboardQueryField = keyof z.input<typeof leaderboardPageQuerySchema>;

/** A parameter the page could not use: its value as given and why. */
export interface InvalidQueryParameter {
  value: string;
  message: string;
}

/** The parsed page query and the parameters that fell back to their defaults. */
export interface ParsedLeaderboardPageQuery {
  query: LeaderboardPageQuery;
  /** by parameter name: the bad values (each replaced by its default in `query`) */
  invalid: Partial<Record<LeaderboardQueryField, InvalidQueryParameter>>;
}

/**
 * Parses a leaderboard page's search parameters (Next's `searchParams`: a repeated parameter
 * gives an array, of which the first value counts, as `parseQuery` does for API routes).
 * Never throws: each parameter that does not parse falls back to its default (absent) and is
 * listed in `invalid` with its value and the reason.
 *
 * @param searchParams the page's awaited `searchParams` (null or absent: no query)
 * @returns e.g. `?metric=nope&rp=1` → `{query: {metric: null, rp: true, …}, invalid: {metric: {value: "nope", message: "must be one of …"}}}`
 */
export function parseLeaderboardPageQuery(searchParams: Record<string, string | string[] | undefined> | null | undefined): ParsedLeaderboardPageQuery {
  const input: Record<string, string> = {};
  for (const [key, value] of Object.entries(searchParams ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) input[key] = first;
  }
  const invalid: ParsedLeaderboardPageQuery["invalid"] = {};
  // Each round drops the parameters that failed; at most one round per parameter.
  for (let round = 0; round <= Object.keys(input).length; round++) {
    const result = leaderboardPageQuerySchema.safeParse(input);
    if (result.success) return { query: result.data, invalid };
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? "");
      if (!(field in input)) continue;
      invalid[field as LeaderboardQueryField] ??= { value: input[field], message: issue.message };
      delete input[field];
    }
  }
  return { query: leaderboardPageQuerySchema.parse({}), invalid };
}

/**
 * Parses a leaderboard query strictly (the API's way, for callers holding a plain object).
 *
 * @param input parameter names to their first values
 * @throws ValidationError (422) naming each bad parameter, e.g. `metric: must be one of …`
 */
export function parseLeaderboardQuery(input: Record<string, string | undefined>): LeaderboardPageQuery {
  return parseInput(leaderboardPageQuerySchema, input, "query");
}
