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
 *
 * Datasets (issue 10 §1, §4, `datasets.ts`): on a phase with several datasets the Score rows
 * the board ranks on are the macro-average over the datasets that have an active gold key (a
 * dataset a run left out counts 0; their counts are null), and every row also carries each
 * dataset's primary CoNLL F1 from the DatasetScore rows (`LeaderboardRow.datasets`). The board
 * can be ranked by one dataset (`rankDataset`: its primary or variant score on the chosen
 * metric, 0 for a run that left it out), and each dataset has its own board (`dataset`): the
 * same table read from that dataset's DatasetScore rows, every metric and variant included. A
 * phase with one dataset has exactly the board, JSON and CSV it had before datasets existed.
 *
 * Run controls (issue 11 §3, §4, `run-controls.ts`), applied here for every board: a run its
 * team withdrew (`withdrawnAt`) is on no board at all. A disqualified run (`disqualifiedAt`,
 * with its public reason) is set apart before selection and ranking ({@link rankBoardRuns}): it
 * takes no rank, counts for no tie, and is never its team's selected run (under BEST the team's
 * next best run counts, under LATEST its next latest). It is still listed, unranked, where it
 * would be listed if nothing were disqualified (every disqualified run with `allRuns`), in board
 * order by its value, with `disqualified: {reason, at}` for the page to strike it through.
 *
 * Leaderboard policy per phase (issue 11 §2), decided here for every board and everything built
 * from one (page, JSON, CSV, significance, charts), with the helpers of `lib/permissions.ts`:
 * - Timing (`phase.leaderboardTiming`): "live" shows runs as they are scored. "after_close":
 *   until the phase closes, a non-organizer sees only their own team's runs and the baselines
 *   (reference rows), none of them ranked (ranks appear when the phase closes), and an
 *   anonymous viewer sees no run at all; after the close the board is as "live". "frozen":
 *   runs made at or after `frozenAt` are scored but on no board of a non-organizer (their own
 *   team's included; the team still sees them on its run pages).
 * - Hidden runs (`hiddenAt`, set by organizers): on no board of a non-organizer.
 * - Organizers see every run (but withdrawn ones): a hidden run is listed unranked and set
 *   apart as a disqualified one is (`hidden: true`), a run after the freeze is ranked with the
 *   others and marked (`afterFreeze: true`).
 * - Which runs count (`phase.selectionRule`): BEST, LATEST, or TEAM_SELECTED: the best of the
 *   team's runs marked final (`finalSelectedAt`) among the runs on the viewer's board, else its
 *   latest run there; rows say which (`selection`, see `ranking.ts`).
 * - The viewer's own team's rows (non-baseline runs of a team the viewer belongs to) carry
 *   `own: true`, for the page to highlight them.
 * - `final: true` (organizers only) is the board everyone will see once the phase has closed
 *   and the freeze is lifted; see {@link getLeaderboard}.
 */
import { z } from "zod";
import { csvText, type CsvCell } from "../http/csv";
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { taskEvaluationProfile, type EvaluationProfileName, type RunEvaluation } from "../tasks/evaluation";
import { boardHiddenUntilClose, leaderboardVisibleTo, madeAfterFreeze, taskStanding, type Viewer } from "../permissions";
import type { LeaderboardTiming } from "../validations/task";
import { COUNT_METRIC_NAMES, DEFAULT_PRIMARY_METRIC, isLeaderboardMetric, type CountMetricName, type LeaderboardMetric } from "../validations/metrics";
import { leaderboardQuerySchema, leaderboardVariantSchema } from "../validations/leaderboard";
import { MAX_LEADERBOARD_LIMIT, MAX_TEAM_FILTER } from "../validations/leaderboard-query";
import { trackRefSchema } from "../validations/track";
import { parseInput } from "../validations/parse";
import { listDatasets, type DatasetView } from "../tasks/datasets";
import { defaultDb, type Db, type Prisma, type SelectionRule } from "../db";
import { loadPhase } from "../tasks/phases";
import { cachedBoardPart, boardVersion } from "./cache";
import { rankBoard, type BoardRankingQuery, type RankedBoardPage } from "./board-ranking";
import { TIE_POLICY, type RunSelection } from "./ranking";
import { BLANC_COREF, BLANC_NONCOREF, goldZerosByDataset, macroScoresToJson, scoresToJson, storedMetricNames, type BoardMetricsJson, type CountsJson, type MetricsJson, type ScoreRowLike } from "./scores";
import type { BoardSignificance } from "./significance";
import { findTrack, listTracks, type TrackView } from "../tasks/tracks";

export type { BoardCountScore, BoardMetricsJson } from "./scores";

/** A dataset of a board's phase. */
export interface BoardDataset {
  id: string;
  /** e.g. `en_gum` */
  name: string;
  /** e.g. `en`; "" when not given */
  language: string;
  /** it has an active gold key, so it counts in the macro-average (else runs are not scored on it yet) */
  scored: boolean;
}

/** A run on one dataset, as a row of the macro-averaged board shows it. */
export interface RowDataset {
  /** the run has no file for the dataset: it counts 0 (`conllF1` 0 when the dataset is scored) */
  missing: boolean;
  /** the dataset's gold key version the run's scores on it come from; null when not scored on it */
  goldVersion: number | null;
  /**
   * the run's CoNLL F1 on the dataset in the board's setting (the primary one, or
   * `Leaderboard.variant`), a fraction; null when it has none in that setting
   */
  conllF1: number | null;
}

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
  /** the gold version of a one-dataset phase; on a dataset's board, that dataset's; null on a macro-averaged board */
  goldVersion: number | null;
  scorerVersion: string | null;
  /**
   * every stored metric of the primary setting, whatever the board is ranked by: fractions and
   * exact counts (the CLI JSON shape); on a phase with several datasets the macro-average
   * (counts null), on a dataset's board that dataset's scores. (The JSON's and the CSV's
   * metrics are those of the board's setting instead: {@link settingScores}.)
   */
  scores: BoardMetricsJson;
  /**
   * Each secondary variant's stored metrics, by variant id, same shape as `scores`; a variant
   * the run has no Score rows for is absent (e.g. a run scored before the task had it).
   */
  variants: Record<string, BoardMetricsJson>;
  /** on a dataset's board: the run left that dataset out (no scores, value 0); else false */
  missing: boolean;
  /** on the macro-averaged board of a phase with several datasets: each dataset, by name; else `{}` */
  datasets: Record<string, RowDataset>;
  /**
   * the organizers' public disqualification (reason and time): the row is unranked and shown
   * struck through; null (every row of `getLeaderboard` has the field) or absent: not disqualified
   */
  disqualified?: { reason: string; at: Date } | null;
  /**
   * TEAM_SELECTED, one run per team: `final` (the best of the runs the team marked as final)
   * or `latest-fallback` (the team marked none: its latest run counts); null otherwise (every
   * row of `getLeaderboard` has the field)
   */
  selection?: RunSelection;
  /** a run of the viewer's own team (never a baseline; false on a final board) */
  own?: boolean;
  /** organizers only (not on a final board): an organizer hid the run; it is unranked and on no one else's board */
  hidden?: boolean;
  /** organizers only (not on a final board): the run was made at or after the phase's freeze; no one else sees it on a board */
  afterFreeze?: boolean;
}

/** The phase's leaderboard policy, and what it does to this board for this viewer. */
export interface BoardPolicy {
  /** the phase's timing: "live", "after_close" or "frozen" */
  timing: LeaderboardTiming;
  /** when the phase closes (an "after_close" board opens then) */
  closesAt: Date;
  /** a frozen phase's freeze, else null */
  frozenAt: Date | null;
  /** TEAM_SELECTED: how many runs a team may mark as final */
  finalRunLimit: number;
  /** the board shows only the viewer's own team's runs and the baselines, unranked (after_close, before the close, non-organizers) */
  ownTeamOnly: boolean;
  /** runs made at or after `frozenAt` are left out of this board (frozen, non-organizers) */
  freezeApplied: boolean;
  /** the viewer organizes the task (not a final board): hidden and after-freeze runs are listed, marked */
  organizerView: boolean;
  /** the final board (`getLeaderboard`'s `final` option) */
  final: boolean;
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

/**
 * Whether the gold has zeros (empty nodes) that the zero score counts (issue 24 §1): where it has
 * none, the `zero` metric is 0 of 0, meaningless, and pages show "n/a" instead of its column.
 * Read from the stored scores of the runs scored against the active gold keys (`goldZerosByDataset`
 * in `scores.ts`: the zero score's recall denominator, the key's zero anaphors), so it is the
 * same for every page, setting and ranking of the phase's boards.
 */
export interface BoardZeros {
  /**
   * this board's gold: on a dataset's board that dataset's, else the phase's datasets with an
   * active gold key together: true when one of them has zeros; false when each is known to
   * have none; null when it is not known (no run scored against a key yet, the zero score not
   * computed: gold that is not CorefUD CoNLL-U or a profile without it, or a viewer who sees no
   * run of a board hidden until the close)
   */
  inGold: boolean | null;
  /** each dataset of the phase by name (one on a phase with one dataset): true, false or null as `inGold`, for that dataset's active key */
  datasets: Record<string, boolean | null>;
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
  /** the phase's datasets in order (one for a phase with one dataset) */
  datasets: BoardDataset[];
  /** the dataset whose own board this is (`?dataset=`), or null for the phase-level board */
  dataset: BoardDataset | null;
  /** the name of the dataset the phase-level board is ranked by (`?rankDataset=`), or null */
  rankDataset: string | null;
  /**
   * whether the gold has zeros the zero score counts (hide the `zero` column when `inGold` is
   * false); every board of {@link getLeaderboard} has it (optional only for boards built by hand)
   */
  zeros?: BoardZeros;
  allRuns: boolean;
  tiePolicy: string;
  /** the phase's timing and selection policy as applied to this board */
  policy: BoardPolicy;
  /** this page's rows, in board order (every row when no `limit` was asked) */
  rows: LeaderboardRow[];
  /** where `rows` are on the board: see {@link BoardPage} */
  page: BoardPage;
  generatedAt: Date;
}

/** Which part of a board a {@link Leaderboard}'s rows are (server-side paging). */
export interface BoardPage {
  /** the rows the board lists (after the `team` filter), on every page together */
  total: number;
  /** 0-based place of the page's first row among those `total` rows */
  offset: number;
  /** the page size asked for, or null: every row from the cursor on */
  limit: number | null;
  /** the cursor the page starts after (null: the first page) */
  cursor: string | null;
  /** the cursor of the next page; null on the last page */
  nextCursor: string | null;
  /** the team-name filter (case-insensitive part of the name), or null; ranks stay those of the whole board */
  team: string | null;
  /** a digest of the whole board (every page; see `RankedBoardPage.version`), "" when the viewer sees no run */
  version: string;
}


/** Groups Score rows by variant (`""` = primary) and turns each group into scores with `toJson`. */
function scoresBySetting<S extends ScoreRowLike & { variant: string }, J>(rows: readonly S[], toJson: (rows: S[]) => J): { primary: J; variants: Record<string, J> } {
  const groups = new Map<string, S[]>();
  for (const row of rows) {
    const group = groups.get(row.variant);
    if (group) group.push(row);
    else groups.set(row.variant, [row]);
  }
  const variants: Record<string, J> = {};
  for (const [variant, group] of groups) if (variant !== "") variants[variant] = toJson(group);
  return { primary: toJson(groups.get("") ?? []), variants };
}

/**
 * A row's scores in the board's setting: its primary scores (`row.scores`) on a board ranked by
 * the primary setting, else those of the variant ranking the board (`row.variants[variant]`),
 * `{}` when the run has no scores under that variant (it was scored before the task had it; its
 * `value` is null). What the JSON's `metrics` and the CSV's metric columns hold.
 *
 * @param row a board row
 * @param variant the board's `variant` (null: the primary setting)
 */
export function settingScores(row: Pick<LeaderboardRow, "scores" | "variants">, variant: string | null): BoardMetricsJson {
  return variant === null ? row.scores : (row.variants[variant] ?? {});
}

/**
 * A board's {@link BoardZeros}: each dataset's fact, and `inGold` for the board's dataset, or
 * over the scored datasets (true when one has zeros, false when every one is known to have
 * none, else null).
 *
 * @param datasets the phase's datasets
 * @param dataset the dataset whose board this is, or null
 * @param known by dataset id, as `goldZerosByDataset` gives them (absent: not known)
 * @param withheld the viewer sees no run of the board (hidden until the close): nothing is known
 */
function boardZeros(datasets: readonly BoardDataset[], dataset: BoardDataset | null, known: ReadonlyMap<string, boolean>, withheld: boolean): BoardZeros {
  const of = (d: BoardDataset): boolean | null => (withheld ? null : (known.get(d.id) ?? null));
  const perDataset = Object.fromEntries(datasets.map((d) => [d.name, of(d)]));
  if (dataset) return { inGold: of(dataset), datasets: perDataset };
  const facts = datasets.filter((d) => d.scored).map(of);
  const inGold = facts.includes(true) ? true : facts.length > 0 && facts.every((f) => f === false) ? false : null;
  return { inGold, datasets: perDataset };
}

/** A `dataset` or `rankDataset` query value: a dataset's name or id, absent/empty → null. */
const datasetRefSchema = z
  .string()
  .trim()
  .max(200, { error: "at most 200 characters" })
  .nullish()
  .transform((v) => (v ? v : null));


/** Paging of a board: `limit` (1–`MAX_LEADERBOARD_LIMIT`, absent: every row), `cursor`, `team` (absent/empty → null). */
const boardPageSchema = z.object({
  limit: z.coerce
    .number()
    .int({ error: "a whole number" })
    .min(1, { error: "at least 1" })
    .max(MAX_LEADERBOARD_LIMIT, { error: `at most ${MAX_LEADERBOARD_LIMIT}` })
    .optional(),
  cursor: z
    .string()
    .max(300, { error: "at most 300 characters" })
    .nullish()
    .transform((v) => (v ? v : null)),
  team: z
    .string()
    .trim()
    .max(MAX_TEAM_FILTER, { error: `at most ${MAX_TEAM_FILTER} characters` })
    .nullish()
    .transform((v) => (v ? v : null)),
});

/** `"a", "b" and "c"`: the choices of a dataset error. */
function datasetChoices(datasets: readonly Pick<BoardDataset, "name">[]): string {
  return datasets.map((d) => JSON.stringify(d.name)).join(", ");
}

/**
 * The dataset a reference names among a phase's datasets: an id, else the exact name, else the
 * name in any case when only one matches.
 *
 * @param datasets the phase's datasets
 * @param ref a dataset name or id (null: none named)
 * @param field the query field, for the error (`dataset` or `rankDataset`)
 * @returns the dataset, or null when `ref` is null
 * @throws ValidationError (422, field `field`) when `ref` names none of them; the message lists the names
 */
export function findBoardDataset<D extends Pick<BoardDataset, "id" | "name">>(datasets: readonly D[], ref: string | null, field = "dataset"): D | null {
  if (ref === null) return null;
  const folded = datasets.filter((d) => d.name.toLowerCase() === ref.toLowerCase());
  const found = datasets.find((d) => d.id === ref.toLowerCase()) ?? datasets.find((d) => d.name === ref) ?? (folded.length === 1 ? folded[0] : undefined);
  if (!found) throw ValidationError.field(field, `No dataset "${ref}" in this phase; choose one of ${datasetChoices(datasets)} (by name).`);
  return found;
}

/** A stored `submissions.evaluation`'s datasets, when it records them. */
function evaluationDatasets(evaluation: unknown): NonNullable<RunEvaluation["datasets"]> {
  const datasets = (evaluation as Partial<RunEvaluation> | null)?.datasets;
  return Array.isArray(datasets) ? datasets : [];
}

/**
 * The stored rows a board's page shows of its runs: names, links, scoring facts, flags, files,
 * and the Score rows (primary setting and the profile's variants) or, on a dataset's board or a
 * phase with several datasets, the DatasetScore rows `datasetScoreWhere` selects.
 */
function loadBoardRuns(db: Db, ids: string[], dataset: BoardDataset | null, variantIds: readonly string[], datasetScoreWhere: Prisma.DatasetScoreWhereInput | null) {
  return db.submission.findMany({
    where: { id: { in: ids } },
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
      evaluation: true,
      disqualifiedAt: true,
      disqualifiedReason: true,
      hiddenAt: true,
      // The primary setting ("") and the profile's variants; rows of variants the profile no
      // longer lists are not loaded. A dataset's board reads DatasetScore rows instead.
      scores: dataset ? false : { where: { variant: { in: ["", ...variantIds] } } },
      datasetScores: datasetScoreWhere ? { where: datasetScoreWhere } : false,
      files: { select: { datasetId: true, goldKey: { select: { version: true } } } },
    },
  });
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
 *   first track in the phase's order); `dataset`, the dataset whose own board to show (its
 *   name or id: that dataset's scores, every metric and variant; absent: the phase-level
 *   board); `rankDataset`, on the phase-level board, the dataset to rank by (its name or id:
 *   the run's score on it in the chosen setting and metric, 0 for a run that left it out). On
 *   a phase with one dataset, naming that dataset in either is the phase-level board itself.
 *   `final: true` (organizers only) gives the final board, as everyone will see it once the
 *   phase has closed and the freeze is lifted, for the published final results: the timing
 *   rules are lifted (every team's runs, before and after the freeze, ranked), hidden and
 *   withdrawn runs are left out, disqualified runs are listed struck through and unranked,
 *   and no row carries an organizer-only marker (`hidden`, `afterFreeze` false) or an `own`
 *   flag (false). `now` is the moment the timing rules are read at (default: now).
 *   `reader: true` (for the worker, never from a request) gives the board of a signed-in
 *   reader who neither organizes the task nor is in a team, without the visibility check
 *   (`viewer` is then ignored).
 *   Paging (server-side, `board-ranking.ts`): `limit` rows (1–`MAX_LEADERBOARD_LIMIT`; absent: every
 *   row) after `cursor` (a page's `nextCursor`), among the rows whose team name contains
 *   `team` (case-insensitive; ranks stay those of the whole board).
 *   See the module comment for the timing, hidden runs and TEAM_SELECTED.
 * @returns the page's rows in board order (each with its primary and variant scores, and on a phase
 *   with several datasets each dataset's CoNLL F1, `selection`, `own`, and for organizers
 *   `hidden` and `afterFreeze`), the task's evaluation profile, the tie policy, the
 *   board's {@link BoardPolicy} and the {@link BoardPage}
 * @throws NotFoundError (404) for an unknown phase, and for a phase of a draft task the viewer
 *   does not organize; ForbiddenError (403) for `final` asked by anyone but the task's
 *   organizers (site admins included); UnauthorizedError (401) for an anonymous
 *   viewer of a non-public board; ForbiddenError (403) for a signed-in viewer who may not
 *   see it; ValidationError (422) for an unknown metric, or a variant that is not one of the
 *   profile's (field `variant`, the message names the allowed ids), or a track that is not
 *   one of the phase's (field `track`, the message names the choices; any track on a phase
 *   without tracks), or a dataset that is not one of the phase's (field `dataset` or
 *   `rankDataset`, the message names the datasets), or `rankDataset` naming another dataset
 *   than `dataset` (field `rankDataset`), or a bad `limit`, a damaged `cursor` or a `team`
 *   over 100 characters (fields `limit`, `cursor`, `team`)
 */
export async function getLeaderboard(
  phaseId: string,
  viewer: Viewer,
  options: {
    metric?: string | null;
    variant?: string | null;
    allRuns?: boolean | string | null;
    track?: string | null;
    dataset?: string | null;
    rankDataset?: string | null;
    final?: boolean;
    now?: Date;
    limit?: number | string | null;
    cursor?: string | null;
    team?: string | null;
    reader?: boolean;
  } = {},
): Promise<Leaderboard> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  // `reader`: the board of a reader who neither organizes the task nor is in a team (for the worker).
  const reader = options.reader === true;
  const standing = await taskStanding(reader ? null : viewer, phase.taskId, db, phase.task);
  if (standing.hiddenDraft) throw new NotFoundError("No such phase.");
  const final = options.final === true;
  if (final && !standing.isOrganizer) throw new ForbiddenError("Only the organizers of this task can see its final board before the results are published.");
  if (!reader && !(await leaderboardVisibleTo(standing, phase.leaderboardVisibility))) {
    const who = phase.leaderboardVisibility === "ORGANIZERS" ? "the task's organizers" : "participants of the task (teams that have submitted) and its organizers";
    if (!viewer) throw new UnauthorizedError(`This leaderboard is visible only to ${who}. Please sign in.`);
    throw new ForbiddenError(`This leaderboard is visible only to ${who}.`);
  }
  const profile = taskEvaluationProfile(phase.task);
  const variantIds = profile.variants.map((v) => v.id);
  const query = parseInput(
    leaderboardQuerySchema.extend({
      variant: leaderboardVariantSchema(variantIds),
      track: trackRefSchema,
      dataset: datasetRefSchema,
      rankDataset: datasetRefSchema,
      ...boardPageSchema.shape,
    }),
    {
      limit: options.limit ?? undefined,
      cursor: options.cursor ?? undefined,
      team: options.team ?? undefined,
      metric: options.metric ?? undefined,
      variant: options.variant ?? undefined,
      allRuns: options.allRuns ?? undefined,
      track: options.track ?? undefined,
      dataset: options.dataset ?? undefined,
      rankDataset: options.rankDataset ?? undefined,
    },
    "leaderboard query",
  );
  const metric = query.metric ?? (isLeaderboardMetric(phase.task.primaryMetric) ? phase.task.primaryMetric : DEFAULT_PRIMARY_METRIC);
  // The phase's board version: what a board shows is kept per version (`board-cache.ts`).
  const version = await boardVersion(db, phase.id);
  const facts = await cachedBoardPart(JSON.stringify(["phase", phase.id, version]), async () => ({
    tracks: (await listTracks(phase.id, db)).map(({ id, name, description }): BoardTrack => ({ id, name, description })),
    datasets: await listDatasets(phase.id, db),
    scoredIds: (await db.goldKey.findMany({ where: { phaseId: phase.id, active: true }, select: { datasetId: true } })).map((g) => g.datasetId),
    zeros: [...(await goldZerosByDataset(db, phase.id))],
  }));
  const tracks: BoardTrack[] = facts.tracks;
  const track = findTrack(tracks, query.track) ?? tracks[0] ?? null;

  const phaseDatasets: DatasetView[] = facts.datasets;
  const scoredIds = new Set(facts.scoredIds);
  const datasets: BoardDataset[] = phaseDatasets.map((d) => ({ id: d.id, name: d.name, language: d.language, scored: scoredIds.has(d.id) }));
  const multi = datasets.length > 1;
  const named = findBoardDataset(datasets, query.dataset);
  const namedRank = findBoardDataset(datasets, query.rankDataset, "rankDataset");
  // On a phase with one dataset, that dataset's board (and ranking) is the phase's board.
  const dataset = multi ? named : null;
  const rankedOn = multi ? namedRank : null;
  if (dataset && rankedOn && rankedOn.id !== dataset.id) {
    throw ValidationError.field("rankDataset", `The board of the ${dataset.name} dataset is ranked by that dataset; leave out rankDataset (it ranks the macro-averaged board).`);
  }
  const rankDataset = dataset ? null : rankedOn;
  const setting = query.variant ?? "";

  // The phase's timing and hidden runs, for this viewer (see the module comment).
  const now = options.now ?? new Date();
  const organizerView = standing.isOrganizer && !final;
  const ownTeamOnly = !standing.isOrganizer && !final && boardHiddenUntilClose(phase, now);
  const freezeApplied = !standing.isOrganizer && !final && phase.leaderboardTiming === "frozen" && phase.frozenAt !== null;
  const viewerTeamIds = viewer && !final && !reader ? (await db.teamMember.findMany({ where: { userId: viewer.userId }, select: { teamId: true } })).map((m) => m.teamId) : [];
  const policy: BoardPolicy = {
    timing: phase.leaderboardTiming as LeaderboardTiming,
    closesAt: phase.closesAt,
    frozenAt: phase.frozenAt,
    finalRunLimit: phase.finalRunLimit,
    ownTeamOnly,
    freezeApplied,
    organizerView,
    final,
  };

  // DatasetScore rows: a dataset's board reads all of its rows (the profile's settings); the
  // macro-averaged board of a phase with several datasets reads each dataset's CoNLL F1 in the
  // board's setting (the per-dataset columns follow `?variant=`, as the macro value does).
  const datasetScoreWhere = dataset ? { datasetId: dataset.id, variant: { in: ["", ...variantIds] } } : multi ? { variant: setting, metric: "conll" } : null;
  // Selection, ranking and the page in SQL (`board-ranking.ts`); then the page's runs, whole.
  const rankedDataset = dataset ?? rankDataset;
  // Hidden until the close, an anonymous viewer sees no run at all.
  const anonymousHidden = ownTeamOnly && !viewer;
  const rankingQuery: BoardRankingQuery = {
    phaseId,
    setting,
    metric,
    datasetId: rankedDataset?.id ?? null,
    rule: phase.selectionRule,
    allRuns: query.allRuns,
    filters: {
      // A hidden run is on the organizers' board only (and not on the final one).
      organizerView,
      // After the freeze: later runs are on the organizers' board only.
      madeBefore: freezeApplied ? phase.frozenAt : null,
      // A track's board: its runs and the baselines without a track.
      trackId: track?.id ?? null,
      // Hidden until the close: the viewer's own team's runs and the baselines; nothing for anonymous viewers.
      onlyTeams: ownTeamOnly ? viewerTeamIds : null,
    },
    page: { limit: query.limit ?? null, cursor: query.cursor, team: query.team },
  };
  // The page's ranking and its runs' stored rows, kept per board version (`board-cache.ts`).
  const { ranking, submissions } = anonymousHidden
    ? { ranking: { rows: [], total: 0, offset: 0, nextCursor: null, version: "" } as RankedBoardPage, submissions: [] }
    : await cachedBoardPart(JSON.stringify(["board", version, rankingQuery, dataset?.id ?? null, variantIds, multi]), async () => {
        const ranked = await rankBoard(db, rankingQuery);
        const details = ranked.rows.length === 0 ? [] : await loadBoardRuns(db, ranked.rows.map((r) => r.submissionId), dataset, variantIds, datasetScoreWhere);
        return { ranking: ranked, submissions: details };
      });
  // The page's rows, shaped once per board version and everything else they are made of
  // (the viewer's teams included): a view of an unchanged board reuses them. They are shared,
  // so nothing downstream may change them.
  const rowsKey = JSON.stringify([
    "rows",
    version,
    rankingQuery,
    dataset?.id ?? null,
    variantIds,
    datasets,
    ownTeamOnly,
    organizerView,
    final,
    viewerTeamIds,
    phase.leaderboardTiming,
    phase.frozenAt,
  ]);
  const rows: LeaderboardRow[] = anonymousHidden ? [] : await cachedBoardPart(rowsKey, async () => shapeRows());
  function shapeRows(): LeaderboardRow[] {
    const pageRows = ranking.rows;
    const byId = new Map(submissions.map((s) => [s.id, s]));
    return pageRows.map((ranked) => {
      const s = byId.get(ranked.submissionId);
      if (!s) throw new Error(`run ${ranked.submissionId} left the board while it was read; reload`);
      const files = new Map(s.files.map((f) => [f.datasetId, f]));
      const recorded = evaluationDatasets(s.evaluation);
      const goldVersionOn = (d: BoardDataset): number | null =>
        recorded.find((r) => r.id === d.id)?.goldVersion ?? files.get(d.id)?.goldKey?.version ?? (multi ? null : s.goldVersion);
      const rowsOn = (d: BoardDataset) => (s.datasetScores ?? []).filter((r) => r.datasetId === d.id);
      const common = {
        // Hidden until the close: ranks appear when the phase closes.
        rank: ownTeamOnly ? null : ranked.rank,
        value: ranked.value,
        selection: ranked.selection,
        submissionId: s.id,
        team: { id: s.teamId, name: s.team.name },
        systemName: s.systemName,
        submittedAt: s.createdAt,
        isBaseline: s.isBaseline,
        track: s.track,
        paperUrl: s.paperUrl,
        codeUrl: s.codeUrl,
        scorerVersion: s.scorerVersion,
        disqualified: s.disqualifiedAt && s.disqualifiedReason !== null ? { reason: s.disqualifiedReason, at: s.disqualifiedAt } : null,
        own: !final && !s.isBaseline && viewerTeamIds.includes(s.teamId),
        hidden: organizerView && s.hiddenAt !== null,
        afterFreeze: organizerView && madeAfterFreeze(phase, s.createdAt),
      };
      if (dataset) {
        const { primary, variants } = scoresBySetting(rowsOn(dataset), scoresToJson);
        return { ...common, goldVersion: goldVersionOn(dataset), scores: primary, variants, missing: !files.has(dataset.id), datasets: {} };
      }
      const { primary, variants } = scoresBySetting(s.scores ?? [], multi ? macroScoresToJson : scoresToJson);
      const rowDatasets: Record<string, RowDataset> = {};
      if (multi) {
        for (const d of datasets) {
          const missing = !files.has(d.id);
          const conll = rowsOn(d).find((r) => r.variant === setting && r.metric === "conll");
          rowDatasets[d.name] = { missing, goldVersion: missing ? null : goldVersionOn(d), conllF1: conll?.f1 ?? (missing && d.scored ? 0 : null) };
        }
      }
      return { ...common, goldVersion: multi ? null : s.goldVersion, scores: primary, variants, missing: false, datasets: rowDatasets };
    });
  }
  const page: BoardPage = {
    total: ranking.total,
    offset: ranking.offset,
    limit: query.limit ?? null,
    cursor: query.cursor,
    nextCursor: ranking.nextCursor,
    team: query.team,
    version: ranking.version,
  };
  return {
    task: { id: phase.task.id, slug: phase.task.slug, title: phase.task.title, primaryMetric: phase.task.primaryMetric },
    phase: { id: phase.id, name: phase.name, displayTimeZone: phase.displayTimeZone, selectionRule: phase.selectionRule },
    evaluation: { profile: profile.name, label: profile.label, variants: profile.variants.map((v) => ({ id: v.id, label: v.label })) },
    metric,
    variant: query.variant,
    tracks,
    track,
    datasets,
    dataset,
    rankDataset: rankDataset?.name ?? null,
    zeros: boardZeros(datasets, dataset, new Map(facts.zeros), anonymousHidden),
    allRuns: query.allRuns,
    tiePolicy: TIE_POLICY,
    policy,
    rows,
    page,
    generatedAt: now,
  };
}

/**
 * A leaderboard as the JSON API sends it (`GET /api/v1/phases/{id}/leaderboard`): the board
 * with each row's scores in the board's setting under `metrics` ({@link settingScores}): the
 * primary setting's when `variant` is null, else the scores of the variant `variant` names (the
 * same CLI JSON shape; `{}` for a run without scores under it), so that `value` is always
 * `metrics[metric].f1` of the ranked setting (on a board ranked by a dataset, `value` is that
 * dataset's). The top-level `variant` says which setting `metrics` holds; each row's `variants`
 * still has every secondary variant's scores by id, and the primary scores of a board ranked by a
 * variant are on the primary board. A phase with one dataset gets exactly the shape it
 * had before datasets existed (no dataset fields). A phase with several datasets adds
 * `datasets` ([{id, name, language, scored}] in the phase's order), `dataset` (this dataset's
 * board, or null) and `rankDataset` (the name ranking the phase-level board, or null); on the
 * phase-level board each row has `datasets: {<name>: {missing, goldVersion, conllF1}}`, on a
 * dataset's board each row has `missing`. Every row has `disqualified`: null, or `{reason, at}`
 * for a run the organizers disqualified (its `rank` is null), and `selection` (`"final"`,
 * `"latest-fallback"` or null, see {@link LeaderboardRow}). Every row of a board that is not
 * final has `own` (a run of the viewer's team); rows of the organizers' board also have
 * `hidden` and `afterFreeze`. `policy` is the board's {@link BoardPolicy}.
 *
 * `zeros: {inGold}` (every board) says whether the gold has zeros (empty nodes) that the `zero`
 * metric counts ({@link BoardZeros}): `inGold` true, false (the gold has none: every run's
 * `zero` score is 0 of 0 and means nothing; show "n/a" rather than its numbers) or null (not
 * known: no run scored against the active gold key yet, no zero score computed, as for gold
 * that is not CorefUD CoNLL-U, or an anonymous viewer of a board hidden until the close). On a phase with several datasets it also has `datasets:
 * {<name>: true | false | null}`, each dataset's own fact, and `inGold` is that of the board's
 * dataset on a dataset's board, else true when a dataset with an active gold key has zeros,
 * false when each is known to have none.
 *
 * @param board from {@link getLeaderboard}
 * @param significance `boardSignificance(board)` to add `significance: {metric, samples, seed,
 *   level}` and each row's `significance` (null for rows without), or absent
 * @returns a plain object for `JSON.stringify`
 */
export function leaderboardJson(board: Leaderboard, significance?: BoardSignificance | null): Record<string, unknown> {
  const { rows, datasets, dataset, rankDataset, zeros, ...rest } = board;
  const multi = datasets.length > 1;
  const marks = significance ? (({ rows: r, ...facts }) => ({ rows: r, facts }))(significance) : null;
  return {
    ...rest,
    ...(multi ? { datasets, dataset, rankDataset } : {}),
    zeros: multi ? { inGold: zeros?.inGold ?? null, datasets: zeros?.datasets ?? {} } : { inGold: zeros?.inGold ?? null },
    ...(marks ? { significance: marks.facts } : {}),
    rows: rows.map(({ scores, missing, datasets: perDataset, disqualified, selection, own, hidden, afterFreeze, ...row }) => ({
      ...row,
      disqualified: disqualified ? { reason: disqualified.reason, at: disqualified.at } : null,
      selection: selection ?? null,
      ...(board.policy?.final ? {} : { own: own === true }),
      ...(board.policy?.organizerView ? { hidden: hidden === true, afterFreeze: afterFreeze === true } : {}),
      metrics: settingScores({ scores, variants: row.variants }, board.variant),
      ...(multi && dataset ? { missing } : {}),
      ...(multi && !dataset ? { datasets: perDataset } : {}),
      ...(marks ? { significance: marks.rows[row.submissionId] ?? null } : {}),
    })),
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
 * - `conll_f1`;
 * - `disqualified`: the organizers' public reason for a disqualified run (its `rank` is empty),
 *   empty for every other run. (It closes this list rather than the whole row so that `track`
 *   stays the last column of every board.)
 * These are the scores of the board's setting, as the JSON's `metrics` ({@link settingScores}):
 * the primary setting's, or on a board ranked by a variant (`variant`, e.g. `partial`) that
 * variant's (every cell empty for a run without scores under it). A board of a task whose evaluation profile has
 * secondary variants (e.g. `crac`: partial, exact, singletons) has, after them, one
 * `<variantId>_conll_f1` column per variant in the profile's order (e.g. `partial_conll_f1`):
 * the run's CoNLL F1 under that variant ({@link leaderboardCsvColumns}); a task without
 * variants has exactly the columns above. A phase with several datasets adds its dataset
 * columns after the variants' ({@link leaderboardCsvColumns}). A TEAM_SELECTED board with one
 * run per team adds `selection` (`final`, or `latest-fallback` for a team that marked no final
 * run; empty for baselines), and the organizers' board adds `hidden` and `after_freeze`
 * (true/false), after those. The last column of every board is `track`: the
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
  "disqualified",
];

/** What decides a board's CSV columns beyond {@link LEADERBOARD_CSV_COLUMNS}, and which scores fill them. */
export interface CsvLayout {
  /** the variant whose scores fill the metric columns (the board's `variant`); null or absent: the primary setting */
  variant?: string | null;
  /** the evaluation profile's variant ids, in order (one `<id>_conll_f1` column each) */
  variantIds: readonly string[];
  /** whether the `track` column is written (every board of `getLeaderboard` has it) */
  track: boolean;
  /** the dataset names of a phase-level board of a phase with several datasets (two columns each); else empty */
  datasetNames: readonly string[];
  /** a dataset's board of a phase with several datasets: a `missing` column */
  datasetBoard: boolean;
  /** a TEAM_SELECTED board with one run per team: a `selection` column (absent: none) */
  selection?: boolean;
  /** the organizers' board: `hidden` and `after_freeze` columns (absent: none) */
  markers?: boolean;
}

/**
 * The CSV columns of a board: {@link LEADERBOARD_CSV_COLUMNS}, then `<id>_conll_f1` for each
 * of the evaluation profile's variants, in order; then, on the phase-level board of a phase
 * with several datasets, `dataset_<name>_conll_f1` (the run's primary CoNLL F1 on the dataset;
 * 0 for a dataset it left out) and `dataset_<name>_missing` (true/false) for each dataset in
 * the phase's order, or, on a dataset's board, `missing` (true when the run left the dataset
 * out); then `selection` (TEAM_SELECTED boards with one run per team), then `hidden` and
 * `after_freeze` (the organizers' board); then `track`.
 *
 * @param variantIds the variant ids (`Leaderboard.evaluation.variants`), e.g. `["partial", "exact", "singletons"]`
 * @param track whether the `track` column is written (default true: every board of `getLeaderboard`)
 * @param datasets `datasetNames` and `datasetBoard` of {@link CsvLayout} (default: none, a
 *   phase with one dataset), and its optional `selection` and `markers`
 */
export function leaderboardCsvColumns(
  variantIds: readonly string[],
  track = true,
  datasets: Pick<CsvLayout, "datasetNames" | "datasetBoard" | "selection" | "markers"> = { datasetNames: [], datasetBoard: false },
): string[] {
  return [
    ...LEADERBOARD_CSV_COLUMNS,
    ...variantIds.map((id) => `${id}_conll_f1`),
    ...datasets.datasetNames.flatMap((name) => [`dataset_${name}_conll_f1`, `dataset_${name}_missing`]),
    ...(datasets.datasetBoard ? ["missing"] : []),
    ...(datasets.selection ? ["selection"] : []),
    ...(datasets.markers ? ["hidden", "after_freeze"] : []),
    ...(track ? ["track"] : []),
  ];
}

function linkCells(c: CountsJson | undefined): (number | null)[] {
  return LINK_FIELDS.map((f) => c?.[f] ?? null);
}

/** One CSV record of a row, in {@link leaderboardCsvColumns} order. */
function csvRecord(row: LeaderboardRow, layout: CsvLayout): CsvCell[] {
  const s = settingScores(row, layout.variant ?? null);
  return [
    row.rank,
    row.team.name,
    row.systemName,
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
    row.disqualified ? row.disqualified.reason : null,
    ...layout.variantIds.map((id) => row.variants[id]?.conll?.f1 ?? null),
    ...layout.datasetNames.flatMap((name) => {
      const d = row.datasets[name];
      return [d?.conllF1 ?? null, d ? String(d.missing) : null];
    }),
    ...(layout.datasetBoard ? [String(row.missing)] : []),
    ...(layout.selection ? [row.selection ?? null] : []),
    ...(layout.markers ? [String(row.hidden === true), String(row.afterFreeze === true)] : []),
    ...(layout.track ? [row.track ? row.track.name : null] : []),
  ];
}

/**
 * The leaderboard as CSV ({@link csvText}: RFC 4180, header row, `\r\n` line ends, text cells
 * that start like a spreadsheet formula prefixed with `'`), columns as in
 * {@link LEADERBOARD_CSV_COLUMNS} plus one per variant, the dataset columns of a phase with
 * several datasets, and `track` ({@link leaderboardCsvColumns}). On a phase with several
 * datasets the score columns of the phase-level board hold the macro-average (count cells
 * empty), and a dataset's board holds that dataset's scores. The metric columns hold the
 * scores of the board's setting (`variant`; see {@link LEADERBOARD_CSV_COLUMNS}).
 *
 * @param board a leaderboard from {@link getLeaderboard} (already authorized); without
 *   `variant` (or null), the metric columns hold the primary setting's scores; without
 *   `evaluation`, no variant columns are written, without `tracks`, no `track` column (every
 *   board of `getLeaderboard` has it, `[]` for a phase without tracks), and without
 *   `datasets`, no dataset columns; with `phase.selectionRule` TEAM_SELECTED and `allRuns`
 *   false, a `selection` column; with `policy.organizerView`, `hidden` and `after_freeze`
 * @returns the CSV text
 */
export function leaderboardCsv(
  board: Pick<Leaderboard, "rows"> & {
    variant?: string | null;
    evaluation?: Pick<BoardEvaluation, "variants">;
    tracks?: readonly BoardTrack[];
    datasets?: readonly Pick<BoardDataset, "name">[];
    dataset?: Pick<BoardDataset, "name"> | null;
    phase?: Pick<Leaderboard["phase"], "selectionRule">;
    allRuns?: boolean;
    policy?: Pick<BoardPolicy, "organizerView">;
  },
): string {
  const multi = (board.datasets?.length ?? 0) > 1;
  const layout: CsvLayout = {
    variant: board.variant ?? null,
    variantIds: (board.evaluation?.variants ?? []).map((v) => v.id),
    track: board.tracks !== undefined,
    datasetNames: multi && !board.dataset ? board.datasets!.map((d) => d.name) : [],
    datasetBoard: multi && !!board.dataset,
    selection: board.phase?.selectionRule === "TEAM_SELECTED" && board.allRuns !== true,
    markers: board.policy?.organizerView === true,
  };
  return csvText([leaderboardCsvColumns(layout.variantIds, layout.track, layout), ...board.rows.map((row) => csvRecord(row, layout))]);
}

/**
 * The whole board as CSV, in chunks (for streaming): the first chunk is the header and the
 * first {@link MAX_LEADERBOARD_LIMIT} rows, each later chunk the next page's rows (keyset paging, so
 * a run scored meanwhile does not repeat or skip rows before it). Columns as {@link leaderboardCsv}.
 *
 * @param phaseId, viewer, options as for {@link getLeaderboard} (without paging; `team` filters)
 * @returns an async generator of `{board, text}`: the page's board (for the file name) and its CSV text
 * @throws (from the first `next()`) whatever {@link getLeaderboard} throws
 */
export async function* leaderboardCsvChunks(
  phaseId: string,
  viewer: Viewer,
  options: Omit<NonNullable<Parameters<typeof getLeaderboard>[2]>, "limit" | "cursor"> = {},
): AsyncGenerator<{ board: Leaderboard; text: string }, void, undefined> {
  let cursor: string | null = null;
  let first = true;
  do {
    const board = await getLeaderboard(phaseId, viewer, { ...options, limit: MAX_LEADERBOARD_LIMIT, cursor });
    const csv = leaderboardCsv(board);
    // Column names hold no line break: the header is the first line.
    yield { board, text: first ? csv : csv.slice(csv.indexOf("\r\n") + 2) };
    first = false;
    cursor = board.page.nextCursor;
  } while (cursor !== null);
}
