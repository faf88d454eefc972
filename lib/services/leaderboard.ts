/**
 * Leaderboards: the phase's SCORED, PUBLIC submissions, selected and ranked by
 * `rankRuns` (see `ranking.ts` for the rules), with every metric's exact counts, and a CSV
 * export of the same rows.
 *
 * A task's evaluation profile (`taskEvaluationProfile`, issue 10 §3) may list secondary
 * variants; the worker stores each run's primary scores as Score rows with `variant = ""` and
 * each variant's as rows with `variant = <id>`. Every row of a board carries both, and the
 * board can be ranked by a variant instead of the primary setting (issue 10 §4).
 *
 * Tracks (issue 10 §5, `tracks.ts`): a phase with tracks has one board per track. A track's
 * board holds the runs declared in that track, plus the baselines without a track (reference
 * rows on every track's board); runs without a track (made before the phase had tracks) are on
 * none. The selection rule and the ranks are computed within the track. A phase without
 * tracks has one board, as before.
 */
import { stringify } from "csv-stringify/sync";
import { ForbiddenError, UnauthorizedError } from "../errors";
import { taskEvaluationProfile, type EvaluationProfileName } from "../evaluation";
import { canViewLeaderboard, type Viewer } from "../permissions";
import { COUNT_METRIC_NAMES, DEFAULT_PRIMARY_METRIC, isLeaderboardMetric, type LeaderboardMetric } from "../validations/metrics";
import { leaderboardQuerySchema, leaderboardVariantSchema } from "../validations/leaderboard";
import { trackRefSchema } from "../validations/track";
import { parseInput } from "../validations/parse";
import { defaultDb, type SelectionRule } from "./db";
import { loadPhase } from "./phases";
import { rankRuns, TIE_POLICY, type Run } from "./ranking";
import { scoresToJson, type CountsJson, type MetricsJson, type ScoreRowLike } from "./scores";
import { findTrack, listTracks, type TrackView } from "./tracks";

/** One row of a leaderboard. */
export interface LeaderboardRow {
  /** competition rank; null for baselines and runs lacking the metric */
  rank: number | null;
  /** the ranking metric's F1 in the ranked setting (the primary one, or `Leaderboard.variant`) */
  value: number | null;
  team: { id: string; name: string };
  systemName: string;
  submissionId: string;
  submittedAt: Date;
  isBaseline: boolean;
  /** the run's track (null for a baseline without one, and in a phase without tracks) */
  track: { id: string; name: string } | null;
  paperUrl: string | null;
  codeUrl: string | null;
  goldVersion: number | null;
  scorerVersion: string | null;
  /** every stored metric of the primary setting: fractions and exact counts (the CLI JSON shape) */
  scores: MetricsJson;
  /**
   * Each secondary variant's stored metrics, by variant id, same shape as `scores`; a variant
   * the run has no Score rows for is absent (e.g. a run scored before the task had it).
   */
  variants: Record<string, MetricsJson>;
}

/** The task's evaluation profile as a board shows it. */
export interface BoardEvaluation {
  /** the profile name, e.g. `crac` */
  profile: EvaluationProfileName;
  /** for people, e.g. "CRAC (CorefUD scorer: head match, singletons excluded, dependent zeros)" */
  label: string;
  /** the secondary variants in the profile's order (empty for `conll2012` and custom profiles) */
  variants: { id: string; label: string }[];
}

/** A track as a board shows it. */
export type BoardTrack = Pick<TrackView, "id" | "name" | "description">;

/** A leaderboard as pages, the API and the CSV export use it. */
export interface Leaderboard {
  task: { id: string; slug: string; title: string; primaryMetric: string };
  phase: { id: string; name: string; displayTimeZone: string; selectionRule: SelectionRule };
  evaluation: BoardEvaluation;
  metric: LeaderboardMetric;
  /** the variant id the board is ranked by, or null for the profile's primary setting */
  variant: string | null;
  /** the phase's tracks in order (empty for a phase without tracks) */
  tracks: BoardTrack[];
  /** the track whose board this is, or null for a phase without tracks */
  track: BoardTrack | null;
  allRuns: boolean;
  tiePolicy: string;
  rows: LeaderboardRow[];
  generatedAt: Date;
}

type BoardRun = Run & Omit<LeaderboardRow, "rank" | "value">;

/** Groups Score rows by variant (`""` = primary) and turns each group into the score JSON. */
function scoresBySetting<S extends ScoreRowLike & { variant: string }>(rows: readonly S[]): { primary: MetricsJson; variants: Record<string, MetricsJson> } {
  const groups = new Map<string, S[]>();
  for (const row of rows) {
    const group = groups.get(row.variant);
    if (group) group.push(row);
    else groups.set(row.variant, [row]);
  }
  const variants: Record<string, MetricsJson> = {};
  for (const [variant, group] of groups) if (variant !== "") variants[variant] = scoresToJson(group);
  return { primary: scoresToJson(groups.get("") ?? []), variants };
}

/**
 * A phase's leaderboard as the viewer may see it.
 *
 * @param phaseId the phase
 * @param viewer the viewer (null = anonymous)
 * @param options `metric` to rank by (default: the task's primary metric, else conll);
 *   `variant` to rank by one of the secondary variants of the task's evaluation profile (its
 *   id, e.g. `partial`; absent, null or empty: the primary setting); `allRuns` to list every
 *   run instead of one per team (strings from a query are accepted); `track`, in a phase with
 *   tracks, the track whose board to show (its id, or its name; absent, null or empty: the
 *   first track in the phase's order)
 * @returns the rows in board order (each with its primary and variant scores), the task's
 *   evaluation profile and the tie policy
 * @throws NotFoundError (404) for an unknown phase; UnauthorizedError (401) for an anonymous
 *   viewer of a non-public board; ForbiddenError (403) for a signed-in viewer who may not
 *   see it; ValidationError (422) for an unknown metric, or a variant that is not one of the
 *   profile's (field `variant`, the message names the allowed ids), or a track that is not
 *   one of the phase's (field `track`, the message names the choices; any track on a phase
 *   without tracks)
 */
export async function getLeaderboard(
  phaseId: string,
  viewer: Viewer,
  options: { metric?: string | null; variant?: string | null; allRuns?: boolean | string | null; track?: string | null } = {},
): Promise<Leaderboard> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  if (!(await canViewLeaderboard(viewer, phase, db))) {
    const who = phase.leaderboardVisibility === "ORGANIZERS" ? "the task's organizers" : "participants of the task (teams that have submitted) and its organizers";
    if (!viewer) throw new UnauthorizedError(`This leaderboard is visible only to ${who}. Please sign in.`);
    throw new ForbiddenError(`This leaderboard is visible only to ${who}.`);
  }
  const profile = taskEvaluationProfile(phase.task);
  const variantIds = profile.variants.map((v) => v.id);
  const query = parseInput(
    leaderboardQuerySchema.extend({ variant: leaderboardVariantSchema(variantIds), track: trackRefSchema }),
    { metric: options.metric ?? undefined, variant: options.variant ?? undefined, allRuns: options.allRuns ?? undefined, track: options.track ?? undefined },
    "leaderboard query",
  );
  const metric = query.metric ?? (isLeaderboardMetric(phase.task.primaryMetric) ? phase.task.primaryMetric : DEFAULT_PRIMARY_METRIC);
  const tracks: BoardTrack[] = (await listTracks(phase.id, db)).map(({ id, name, description }) => ({ id, name, description }));
  const track = findTrack(tracks, query.track) ?? tracks[0] ?? null;

  const submissions = await db.submission.findMany({
    where: {
      phaseId,
      status: "SCORED",
      visibility: "PUBLIC",
      // A track's board: its runs and the baselines without a track.
      ...(track ? { OR: [{ trackId: track.id }, { trackId: null, isBaseline: true }] } : {}),
    },
    select: {
      id: true,
      teamId: true,
      team: { select: { name: true } },
      track: { select: { id: true, name: true } },
      systemName: true,
      createdAt: true,
      isBaseline: true,
      paperUrl: true,
      codeUrl: true,
      goldVersion: true,
      scorerVersion: true,
      // The primary setting ("") and the profile's variants; rows of variants the profile no
      // longer lists are not loaded.
      scores: { where: { variant: { in: ["", ...variantIds] } } },
    },
  });
  const runs: BoardRun[] = submissions.map((s) => {
    const { primary, variants } = scoresBySetting(s.scores);
    return {
      submissionId: s.id,
      teamId: s.teamId,
      team: { id: s.teamId, name: s.team.name },
      systemName: s.systemName,
      submittedAt: s.createdAt,
      isBaseline: s.isBaseline,
      track: s.track,
      paperUrl: s.paperUrl,
      codeUrl: s.codeUrl,
      goldVersion: s.goldVersion,
      scorerVersion: s.scorerVersion,
      scores: primary,
      variants,
    };
  });
  const rows = rankRuns(runs, metric, phase.selectionRule, query.allRuns, query.variant).map(({ teamId: _t, ...row }) => row);
  return {
    task: { id: phase.task.id, slug: phase.task.slug, title: phase.task.title, primaryMetric: phase.task.primaryMetric },
    phase: { id: phase.id, name: phase.name, displayTimeZone: phase.displayTimeZone, selectionRule: phase.selectionRule },
    evaluation: { profile: profile.name, label: profile.label, variants: profile.variants.map((v) => ({ id: v.id, label: v.label })) },
    metric,
    variant: query.variant,
    tracks,
    track,
    allRuns: query.allRuns,
    tiePolicy: TIE_POLICY,
    rows,
    generatedAt: new Date(),
  };
}

const COUNT_FIELDS = ["recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"] as const;
const LINK_FIELDS = ["recall_num", "recall_den", "precision_num", "precision_den"] as const;

/**
 * The CSV columns, in order:
 * - `rank` (empty for baselines and unranked runs), `team`, `system`, `submission_id`,
 *   `submitted_at` (ISO 8601, UTC), `is_baseline` (true/false), `gold_version`, `scorer_version`;
 * - for each count metric (`COUNT_METRIC_NAMES`: mentions, muc, bcub, ceafm, ceafe, lea, and the
 *   optional mcf, mor and zero, always present as columns): `<m>_recall`, `<m>_precision`,
 *   `<m>_f1` (fractions in [0, 1]), `<m>_recall_num`, `<m>_recall_den`, `<m>_precision_num`,
 *   `<m>_precision_den` (exact counts);
 * - `blanc_recall`, `blanc_precision`, `blanc_f1`, then `blanc_coref_*` and `blanc_noncoref_*`
 *   link counts (`recall_num`, `recall_den`, `precision_num`, `precision_den`);
 * - `conll_f1`.
 * These are the primary setting's scores. A board of a task whose evaluation profile has
 * secondary variants (e.g. `crac`: partial, exact, singletons) has, after them, one
 * `<variantId>_conll_f1` column per variant in the profile's order (e.g. `partial_conll_f1`):
 * the run's CoNLL F1 under that variant ({@link leaderboardCsvColumns}); a task without
 * variants has exactly the columns above. The last column of every board is `track`: the
 * run's track name (empty for a baseline without a track and in a phase without tracks;
 * {@link leaderboardCsvColumns}). `rank` follows the board's ranking (its metric and, when
 * ranked by a variant, that variant's scores, within the board's track).
 * Numbers are written with full precision (JavaScript's shortest round-trip form); a metric
 * the run lacks (or a variant it has no scores for) leaves its cells empty.
 */
export const LEADERBOARD_CSV_COLUMNS: readonly string[] = [
  "rank",
  "team",
  "system",
  "submission_id",
  "submitted_at",
  "is_baseline",
  "gold_version",
  "scorer_version",
  ...COUNT_METRIC_NAMES.flatMap((m) => COUNT_FIELDS.map((f) => `${m}_${f}`)),
  "blanc_recall",
  "blanc_precision",
  "blanc_f1",
  ...LINK_FIELDS.map((f) => `blanc_coref_${f}`),
  ...LINK_FIELDS.map((f) => `blanc_noncoref_${f}`),
  "conll_f1",
];

/**
 * The CSV columns of a board: {@link LEADERBOARD_CSV_COLUMNS}, then `<id>_conll_f1` for each
 * of the evaluation profile's variants, in order, then `track`.
 *
 * @param variantIds the variant ids (`Leaderboard.evaluation.variants`), e.g. `["partial", "exact", "singletons"]`
 * @param track whether the `track` column is written (default true: every board of `getLeaderboard`)
 */
export function leaderboardCsvColumns(variantIds: readonly string[], track = true): string[] {
  return [...LEADERBOARD_CSV_COLUMNS, ...variantIds.map((id) => `${id}_conll_f1`), ...(track ? ["track"] : [])];
}

/** Text cells starting like a spreadsheet formula get a leading apostrophe (CSV injection). */
function safeText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function linkCells(c: CountsJson | undefined): (number | null)[] {
  return LINK_FIELDS.map((f) => c?.[f] ?? null);
}

/** One CSV record of a row, in {@link leaderboardCsvColumns} order. */
function csvRecord(row: LeaderboardRow, variantIds: readonly string[], track: boolean): (string | number | null)[] {
  const s = row.scores;
  return [
    row.rank,
    safeText(row.team.name),
    safeText(row.systemName),
    row.submissionId,
    row.submittedAt.toISOString(),
    row.isBaseline ? "true" : "false",
    row.goldVersion,
    row.scorerVersion,
    ...COUNT_METRIC_NAMES.flatMap((m) => COUNT_FIELDS.map((f) => s[m]?.[f] ?? null)),
    s.blanc?.recall ?? null,
    s.blanc?.precision ?? null,
    s.blanc?.f1 ?? null,
    ...linkCells(s.blanc?.coref_links),
    ...linkCells(s.blanc?.noncoref_links),
    s.conll?.f1 ?? null,
    ...variantIds.map((id) => row.variants[id]?.conll?.f1 ?? null),
    ...(track ? [row.track ? safeText(row.track.name) : null] : []),
  ];
}

/**
 * The leaderboard as CSV (RFC 4180, header row, `\r\n` line ends), columns as in
 * {@link LEADERBOARD_CSV_COLUMNS} plus one per variant and `track` ({@link leaderboardCsvColumns}).
 *
 * @param board a leaderboard from {@link getLeaderboard} (already authorized); without
 *   `evaluation`, no variant columns are written, and without `tracks`, no `track` column
 *   (every board of `getLeaderboard` has it, `[]` for a phase without tracks)
 * @returns the CSV text
 */
export function leaderboardCsv(board: Pick<Leaderboard, "rows"> & { evaluation?: Pick<BoardEvaluation, "variants">; tracks?: readonly BoardTrack[] }): string {
  const variantIds = (board.evaluation?.variants ?? []).map((v) => v.id);
  const track = board.tracks !== undefined;
  return stringify([leaderboardCsvColumns(variantIds, track), ...board.rows.map((row) => csvRecord(row, variantIds, track))], {
    record_delimiter: "windows",
    cast: { number: (n) => String(n) },
  });
}
