/**
 * Every URL the site links to, built in one place (issue 12 §6): pages and components call
 * these instead of writing paths and query strings by hand, so path segments are encoded one
 * way (`encodeURIComponent`), query parameters come in one order, and a default is never
 * written out (a board link carries only what differs from the default board).
 *
 * Pure and dependency-light (client components may import it). Paths are site-relative
 * (`/tasks/…`), never absolute URLs.
 */
import { isLeaderboardMetric, type LeaderboardMetric } from "./validations/metrics";

/** A path segment, encoded (`lit bank` → `lit%20bank`, `a/b` → `a%2Fb`). */
function segment(value: string): string {
  return encodeURIComponent(value);
}

/** `path` with `params` as its query string (`path` alone when there are none). */
function withQuery(path: string, params: URLSearchParams): string {
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** A task's page: `/tasks/<slug>`. */
export function taskHref(slug: string): string {
  return `/tasks/${segment(slug)}`;
}

/**
 * A phase's base path, `/tasks/<slug>/phases/<phaseId>`: its pages (leaderboard, submit,
 * results, a team's progress) are under it.
 */
export function phaseHref(slug: string, phaseId: string): string {
  return `${taskHref(slug)}/phases/${segment(phaseId)}`;
}

/** The upload page of a phase: `/tasks/<slug>/phases/<phaseId>/submit`. */
export function submitHref(slug: string, phaseId: string): string {
  return `${phaseHref(slug, phaseId)}/submit`;
}

/** A team's progress over time in a phase: `/tasks/<slug>/phases/<phaseId>/teams/<teamId>`. */
export function teamProgressHref(slug: string, phaseId: string, teamId: string): string {
  return `${phaseHref(slug, phaseId)}/teams/${segment(teamId)}`;
}

/** A run's page: `/submissions/<id>`. */
export function submissionHref(id: string): string {
  return `/submissions/${segment(id)}`;
}

/**
 * One document's error view of a run. On a phase with several datasets it names the dataset
 * (`?dataset=`), since documents are named within a dataset.
 *
 * @param submissionId the run
 * @param document the key document id, e.g. `"bleak_house/part 0"` (encoded as one segment)
 * @param dataset the document's dataset name; null or absent on a one-dataset phase
 * @returns e.g. `/submissions/<id>/documents/bleak_house%2Fpart%200?dataset=en_gum`
 */
export function documentHref(submissionId: string, document: string, dataset: string | null = null): string {
  const params = new URLSearchParams();
  if (dataset !== null) params.set("dataset", dataset);
  return withQuery(`${submissionHref(submissionId)}/documents/${segment(document)}`, params);
}

/** The compare page of two runs: `/compare?a=<a>&b=<b>` (differences are A − B). */
export function compareHref(a: string, b: string): string {
  return withQuery("/compare", new URLSearchParams({ a, b }));
}

/** The sign-in page, coming back to `callbackUrl` (a site path) afterwards. */
export function signInHref(callbackUrl: string): string {
  return withQuery("/signin", new URLSearchParams({ callbackUrl }));
}

/**
 * Other names of the metrics, as they occur in stored scores, the CLI and other scorers
 * (lower case, without spaces, dashes or underscores), mapped to explanation page ids.
 * Leaderboard metric ids are page ids already.
 */
const METRIC_ALIASES: Readonly<Record<string, LeaderboardMetric>> = {
  mention: "mentions",
  mentionidentification: "mentions",
  b3: "bcub",
  "b³": "bcub",
  bcubed: "bcub",
  bcube: "bcub",
  ceafphi3: "ceafm",
  ceafphi4: "ceafe",
  blanccoref: "blanc",
  blancnoncoref: "blanc",
  conllf1: "conll",
  avg: "conll",
  mappedclusterf: "mcf",
  mappedf: "mcf",
  mentionoverlap: "mor",
  mentionoverlapratio: "mor",
  zeros: "zero",
  alszeros: "zero",
  zeroanaphora: "zero",
};

/** The explanation page id for a metric name, or null when there is no page for it. */
function metricPageId(metric: string): LeaderboardMetric | null {
  if (isLeaderboardMetric(metric)) return metric;
  const folded = metric.toLowerCase().replace(/[\s_-]/g, "");
  if (isLeaderboardMetric(folded)) return folded;
  return Object.hasOwn(METRIC_ALIASES, folded) ? METRIC_ALIASES[folded] : null;
}

/**
 * The explanation page of a metric.
 *
 * @param metric a leaderboard metric id (`muc`, `bcub`, …, `conll`) or another common name of
 *   one (`b3`, `blanc_coref`, `als_zeros`, …)
 * @returns `/metrics/<id>`, or `/metrics` (the list of all metrics) for an unknown name
 */
export function metricHref(metric: string): string {
  const id = metricPageId(metric);
  return id ? `/metrics/${id}` : "/metrics";
}

/**
 * What a leaderboard page's address says (`leaderboardHref`): every field optional, and only
 * those given (non-empty, or true) are written, in this order: `metric`, `variant`, `track`,
 * `dataset`, `rankDataset`, `all`, `rp`, `ci`, `team`, `cursor`.
 */
export interface LeaderboardLinkState {
  /** the ranking metric (absent: the task's primary metric) */
  metric?: LeaderboardMetric | null;
  /** a secondary variant id of the task's evaluation profile (absent: the primary setting) */
  variant?: string | null;
  /** a track id (absent: the phase's first track) */
  track?: string | null;
  /** a dataset's own board (absent: the phase-level board) */
  dataset?: string | null;
  /** the dataset ranking the phase-level board (absent: the macro-average) */
  rankDataset?: string | null;
  /** every run instead of one per team */
  all?: boolean;
  /** recall and precision next to each F1 */
  rp?: boolean;
  /** the 95 % intervals of the ranking metric */
  ci?: boolean;
  /** the team-name filter */
  team?: string | null;
  /** the opaque paging cursor: the page starts after it (absent: the first page) */
  cursor?: string | null;
}

/**
 * A phase's leaderboard page, `/tasks/<slug>/phases/<phaseId>/leaderboard?…`, for a board state
 * (see {@link LeaderboardLinkState}; booleans are written `=1`).
 *
 * @example leaderboardHref("litbank", "p1", { metric: "muc", rp: true }) // "/tasks/litbank/phases/p1/leaderboard?metric=muc&rp=1"
 */
export function leaderboardHref(slug: string, phaseId: string, state: LeaderboardLinkState = {}): string {
  return withQuery(`${phaseHref(slug, phaseId)}/leaderboard`, leaderboardParams(state));
}

/**
 * The query parameters of a board state, as {@link leaderboardHref} writes them (also the
 * hidden fields of a GET form keeping the state).
 */
export function leaderboardParams(state: LeaderboardLinkState): URLSearchParams {
  const params = new URLSearchParams();
  const text = (name: string, value: string | null | undefined) => {
    if (value) params.set(name, value);
  };
  const flag = (name: string, value: boolean | undefined) => {
    if (value) params.set(name, "1");
  };
  text("metric", state.metric);
  text("variant", state.variant);
  text("track", state.track);
  text("dataset", state.dataset);
  text("rankDataset", state.rankDataset);
  flag("all", state.all);
  flag("rp", state.rp);
  flag("ci", state.ci);
  text("team", state.team);
  text("cursor", state.cursor);
  return params;
}

/**
 * The parameters of a leaderboard API address (`leaderboardApiHref`); only those given are
 * written, in this order: `metric`, `variant`, `track`, `dataset`, `rankDataset`, `allRuns`,
 * `team`, `significance`, `intervals`, `limit`, `cursor`, `format`.
 */
export interface LeaderboardApiParams {
  metric?: string | null;
  variant?: string | null;
  track?: string | null;
  dataset?: string | null;
  rankDataset?: string | null;
  allRuns?: boolean;
  team?: string | null;
  significance?: boolean;
  intervals?: boolean;
  /** page size (a whole number) */
  limit?: number | null;
  cursor?: string | null;
  /** `json` is the API's default and is not written */
  format?: "json" | "csv";
}

/**
 * The leaderboard API, `/api/v1/phases/<phaseId>/leaderboard?…` (JSON, or the CSV export with
 * `format: "csv"`).
 *
 * @example leaderboardApiHref("p1", { metric: "conll", format: "csv" }) // "/api/v1/phases/p1/leaderboard?metric=conll&format=csv"
 */
export function leaderboardApiHref(phaseId: string, params: LeaderboardApiParams = {}): string {
  const query = new URLSearchParams();
  const text = (name: string, value: string | null | undefined) => {
    if (value) query.set(name, value);
  };
  const flag = (name: string, value: boolean | undefined) => {
    if (value) query.set(name, "1");
  };
  text("metric", params.metric);
  text("variant", params.variant);
  text("track", params.track);
  text("dataset", params.dataset);
  text("rankDataset", params.rankDataset);
  flag("allRuns", params.allRuns);
  text("team", params.team);
  flag("significance", params.significance);
  flag("intervals", params.intervals);
  if (params.limit !== null && params.limit !== undefined) query.set("limit", String(params.limit));
  text("cursor", params.cursor);
  if (params.format === "csv") query.set("format", "csv");
  return withQuery(`/api/v1/phases/${segment(phaseId)}/leaderboard`, query);
}
