/**
 * Leaderboards: the phase's SCORED, PUBLIC submissions, selected and ranked by
 * `rankRuns` (see `ranking.ts` for the rules), with every metric's exact counts; their JSON
 * answer ({@link leaderboardJson}). The board's types are in `types.ts`, its CSV export in
 * `leaderboard-csv.ts`.
 *
 * {@link getLeaderboard} goes in named steps: who may see which board ({@link authorizeBoard},
 * {@link parseBoardQuery}, {@link chooseBoard}); selection, the runs this viewer may see by the
 * phase's policy ({@link boardPolicy}, {@link boardSelection}); ranking, in SQL
 * ({@link rankedPage}); and shaping, the page's rows ({@link shapeRow}) and the board around them.
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
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { taskEvaluationProfile, type RunEvaluation, listDatasets, type DatasetView, loadPhase, type PhaseWithTask, findTrack, listTracks } from "../tasks";
import { boardHiddenUntilClose, leaderboardVisibleTo, madeAfterFreeze, taskStanding, type TaskStanding, type Viewer } from "../permissions";
import type { LeaderboardTiming } from "../validations/task";
import { DEFAULT_PRIMARY_METRIC, isLeaderboardMetric, type LeaderboardMetric } from "../validations/metrics";
import { leaderboardQuerySchema, leaderboardVariantSchema } from "../validations/leaderboard";
import { MAX_LEADERBOARD_LIMIT, MAX_TEAM_FILTER } from "../validations/leaderboard-query";
import { trackRefSchema } from "../validations/track";
import { parseInput } from "../validations/parse";
import { defaultDb, isUuid, type Db, type Prisma } from "../db";
import { cachedBoardPart, boardVersion } from "./cache";
import { rankBoard, type BoardRankingQuery, type RankedBoardPage } from "./board-ranking";
import { TIE_POLICY } from "./ranking";
import { goldZerosByDataset, macroScoresToJson, scoresToJson, type BoardMetricsJson, type ScoreRowLike } from "./scores";
import type { BoardDataset, BoardPage, BoardPolicy, BoardSignificance, BoardTrack, BoardZeros, Leaderboard, LeaderboardRow, RowDataset } from "./types";


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

/** The stored rows of one run of a board's page ({@link loadBoardRuns}). */
type BoardRun = Awaited<ReturnType<typeof loadBoardRuns>>[number];

/** What {@link getLeaderboard} takes besides the phase and the viewer (each option is described there). */
export interface LeaderboardOptions {
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
}

/** {@link getLeaderboard}'s options, parsed ({@link parseBoardQuery}). */
type BoardQuery = ReturnType<typeof parseBoardQuery>;

/**
 * The phase's board version, the phase with its task, and the viewer's standing on the task, when
 * the viewer may see the board asked for (the first step of {@link getLeaderboard}).
 *
 * The version is read first, and the phase with its task is kept per version (`cache.ts`):
 * changing a phase or its task moves the version (migration 0016), so an unchanged board's view
 * makes one index-only query where it made three. The version is read before the phase, so a
 * phase loaded on a miss is never older than the version it is kept under.
 *
 * @param reader the board of a reader who neither organizes the task nor is in a team (for the
 *   worker): the standing is an anonymous reader's, and the visibility is not checked
 * @param final the final board: the task's organizers only
 * @throws NotFoundError (404), ForbiddenError (403), UnauthorizedError (401) as {@link getLeaderboard}
 */
async function authorizeBoard(db: Db, phaseId: string, viewer: Viewer, reader: boolean, final: boolean): Promise<{ phase: PhaseWithTask; standing: TaskStanding; version: string }> {
  if (!isUuid(phaseId)) throw new NotFoundError("No such phase.");
  const version = await boardVersion(db, phaseId);
  // A failed load (an unknown phase) is not kept: cachedBoardPart keeps values only.
  const phase = await cachedBoardPart(JSON.stringify(["phaseWithTask", phaseId, version]), () => loadPhase(phaseId, db));
  const standing = await taskStanding(reader ? null : viewer, phase.taskId, db, phase.task);
  if (standing.hiddenDraft) throw new NotFoundError("No such phase.");
  if (final && !standing.isOrganizer) throw new ForbiddenError("Only the organizers of this task can see its final board before the results are published.");
  if (!reader && !(await leaderboardVisibleTo(standing, phase.leaderboardVisibility))) {
    const who = phase.leaderboardVisibility === "ORGANIZERS" ? "the task's organizers" : "participants of the task (teams that have submitted) and its organizers";
    if (!viewer) throw new UnauthorizedError(`This leaderboard is visible only to ${who}. Please sign in.`);
    throw new ForbiddenError(`This leaderboard is visible only to ${who}.`);
  }
  return { phase, standing, version };
}

/** The board query's schema, per list of variant ids: made once (zod's `extend` builds a schema, about 0.2 ms, on every board view otherwise). */
const boardQuerySchemas = new Map<string, ReturnType<typeof makeBoardQuerySchema>>();

/** The schema of {@link parseBoardQuery} for these variants. */
function makeBoardQuerySchema(variantIds: readonly string[]) {
  return leaderboardQuerySchema.extend({ variant: leaderboardVariantSchema(variantIds), track: trackRefSchema, dataset: datasetRefSchema, rankDataset: datasetRefSchema, ...boardPageSchema.shape });
}

/** {@link makeBoardQuerySchema}, kept per list of variant ids (the evaluation profiles' few lists; a bound against custom ones). */
function boardQuerySchema(variantIds: readonly string[]) {
  const key = JSON.stringify(variantIds);
  let schema = boardQuerySchemas.get(key);
  if (!schema) {
    if (boardQuerySchemas.size >= 64) boardQuerySchemas.clear();
    boardQuerySchemas.set(key, (schema = makeBoardQuerySchema(variantIds)));
  }
  return schema;
}

/**
 * {@link getLeaderboard}'s query options, parsed: `metric`, `variant` (one of `variantIds`, or
 * null), `allRuns`, `track`, `dataset`, `rankDataset` (references, not yet resolved), and the
 * paging (`limit`, `cursor`, `team`).
 *
 * @throws ValidationError (422) for each bad option, by field, as {@link getLeaderboard}
 */
function parseBoardQuery(options: LeaderboardOptions, variantIds: readonly string[]) {
  return parseInput(
    boardQuerySchema(variantIds),
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
}

/** A phase's facts every board of it reads ({@link phaseBoardFacts}). */
interface PhaseBoardFacts {
  /** the phase's tracks, in order */
  tracks: BoardTrack[];
  /** the phase's datasets, in order */
  datasets: DatasetView[];
  /** the datasets with an active gold key */
  scoredIds: string[];
  /** `goldZerosByDataset`'s facts, as entries (dataset id, the gold has zeros) */
  zeros: [string, boolean][];
}

/** The phase's tracks, datasets, scored datasets and zeros facts, kept per board version (`cache.ts`). */
function phaseBoardFacts(db: Db, phaseId: string, version: string): Promise<PhaseBoardFacts> {
  return cachedBoardPart(JSON.stringify(["phase", phaseId, version]), async () => ({
    tracks: (await listTracks(phaseId, db)).map(({ id, name, description }): BoardTrack => ({ id, name, description })),
    datasets: await listDatasets(phaseId, db),
    scoredIds: (await db.goldKey.findMany({ where: { phaseId, active: true }, select: { datasetId: true } })).map((g) => g.datasetId),
    zeros: [...(await goldZerosByDataset(db, phaseId))],
  }));
}

/** Which of the phase's boards the query names ({@link chooseBoard}). */
interface BoardChoice {
  tracks: BoardTrack[];
  /** the track whose board this is (the first one when none is named), or null for a phase without tracks */
  track: BoardTrack | null;
  datasets: BoardDataset[];
  /** the phase has several datasets */
  multi: boolean;
  /** the dataset whose own board this is, or null (always null on a phase with one dataset) */
  dataset: BoardDataset | null;
  /** the dataset ranking the phase-level board, or null */
  rankDataset: BoardDataset | null;
}

/**
 * The board the query names among the phase's: its track, and on a phase with several datasets
 * the dataset whose own board it is or the dataset ranking the phase-level board (on a phase
 * with one dataset, that dataset's board and ranking are the phase's board).
 *
 * @throws ValidationError (422) for a track, dataset or rankDataset that is not the phase's, and
 *   for `rankDataset` naming another dataset than `dataset` (field `rankDataset`)
 */
function chooseBoard(facts: PhaseBoardFacts, query: Pick<BoardQuery, "track" | "dataset" | "rankDataset">): BoardChoice {
  const tracks: BoardTrack[] = facts.tracks;
  const track = findTrack(tracks, query.track) ?? tracks[0] ?? null;
  const scoredIds = new Set(facts.scoredIds);
  const datasets: BoardDataset[] = facts.datasets.map((d) => ({ id: d.id, name: d.name, language: d.language, scored: scoredIds.has(d.id) }));
  const multi = datasets.length > 1;
  const named = findBoardDataset(datasets, query.dataset);
  const namedRank = findBoardDataset(datasets, query.rankDataset, "rankDataset");
  // On a phase with one dataset, that dataset's board (and ranking) is the phase's board.
  const dataset = multi ? named : null;
  const rankedOn = multi ? namedRank : null;
  if (dataset && rankedOn && rankedOn.id !== dataset.id) {
    throw ValidationError.field("rankDataset", `The board of the ${dataset.name} dataset is ranked by that dataset; leave out rankDataset (it ranks the macro-averaged board).`);
  }
  return { tracks, track, datasets, multi, dataset, rankDataset: dataset ? null : rankedOn };
}

/**
 * The phase's timing and hidden runs for this viewer (see the module comment): the board's
 * {@link BoardPolicy}, and the teams the viewer belongs to (none for a final board or the
 * worker's reader).
 */
async function boardPolicy(
  db: Db,
  phase: PhaseWithTask,
  standing: TaskStanding,
  viewer: Viewer,
  { final, reader, now }: { final: boolean; reader: boolean; now: Date },
): Promise<{ policy: BoardPolicy; viewerTeamIds: string[] }> {
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
  return { policy, viewerTeamIds };
}

/**
 * The selection of the board's runs, as `rankBoard` runs it in SQL (`board-ranking.ts`): the
 * ranked setting, metric and dataset, the phase's selection rule, the runs this viewer may see
 * on this board ({@link BoardPolicy}, the track), and the page.
 */
function boardSelection(
  phaseId: string,
  phase: PhaseWithTask,
  query: BoardQuery,
  metric: LeaderboardMetric,
  choice: BoardChoice,
  { policy, viewerTeamIds }: { policy: BoardPolicy; viewerTeamIds: string[] },
): BoardRankingQuery {
  const rankedDataset = choice.dataset ?? choice.rankDataset;
  return {
    phaseId,
    setting: query.variant ?? "",
    metric,
    datasetId: rankedDataset?.id ?? null,
    rule: phase.selectionRule,
    allRuns: query.allRuns,
    filters: {
      // A hidden run is on the organizers' board only (and not on the final one).
      organizerView: policy.organizerView,
      // After the freeze: later runs are on the organizers' board only.
      madeBefore: policy.freezeApplied ? phase.frozenAt : null,
      // A track's board: its runs and the baselines without a track.
      trackId: choice.track?.id ?? null,
      // Hidden until the close: the viewer's own team's runs and the baselines; nothing for anonymous viewers.
      onlyTeams: policy.ownTeamOnly ? viewerTeamIds : null,
    },
    page: { limit: query.limit ?? null, cursor: query.cursor, team: query.team },
  };
}

/**
 * The page's ranking (selection, ranking and the page in SQL, `board-ranking.ts`) and its runs'
 * stored rows, whole ({@link loadBoardRuns}), kept per board version (`cache.ts`).
 *
 * @param selection from {@link boardSelection}
 * @param variantIds the evaluation profile's variants, whose Score rows are read
 */
function rankedPage(
  db: Db,
  version: string,
  selection: BoardRankingQuery,
  choice: BoardChoice,
  variantIds: readonly string[],
): Promise<{ ranking: RankedBoardPage; submissions: BoardRun[] }> {
  const { dataset, multi } = choice;
  // DatasetScore rows: a dataset's board reads all of its rows (the profile's settings); the
  // macro-averaged board of a phase with several datasets reads each dataset's CoNLL F1 in the
  // board's setting (the per-dataset columns follow `?variant=`, as the macro value does).
  const datasetScoreWhere = dataset ? { datasetId: dataset.id, variant: { in: ["", ...variantIds] } } : multi ? { variant: selection.setting, metric: "conll" } : null;
  return cachedBoardPart(JSON.stringify(["board", version, selection, dataset?.id ?? null, variantIds, multi]), async () => {
    const ranked = await rankBoard(db, selection);
    const details = ranked.rows.length === 0 ? [] : await loadBoardRuns(db, ranked.rows.map((r) => r.submissionId), dataset, variantIds, datasetScoreWhere);
    return { ranking: ranked, submissions: details };
  });
}

/** What shapes a page's rows besides the ranking and the runs' stored rows ({@link shapeRows}). */
interface RowShaping {
  phase: PhaseWithTask;
  choice: BoardChoice;
  /** the ranked setting: a variant id, or "" for the primary setting */
  setting: string;
  policy: BoardPolicy;
  viewerTeamIds: readonly string[];
}

/**
 * One row of the board: the ranked run's rank (none on a board hidden until the close), value
 * and selection, its stored facts, the viewer's and organizers' marks, and its scores: on a
 * dataset's board that dataset's, else the primary and variant scores (the macro-average on a
 * phase with several datasets, with each dataset's CoNLL F1 in the board's setting).
 */
function shapeRow(ranked: RankedBoardPage["rows"][number], s: BoardRun, { phase, choice, setting, policy, viewerTeamIds }: RowShaping): LeaderboardRow {
  const { dataset, datasets, multi } = choice;
  const files = new Map(s.files.map((f) => [f.datasetId, f]));
  const recorded = evaluationDatasets(s.evaluation);
  const goldVersionOn = (d: BoardDataset): number | null =>
    recorded.find((r) => r.id === d.id)?.goldVersion ?? files.get(d.id)?.goldKey?.version ?? (multi ? null : s.goldVersion);
  const rowsOn = (d: BoardDataset) => (s.datasetScores ?? []).filter((r) => r.datasetId === d.id);
  const common = {
    // Hidden until the close: ranks appear when the phase closes.
    rank: policy.ownTeamOnly ? null : ranked.rank,
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
    own: !policy.final && !s.isBaseline && viewerTeamIds.includes(s.teamId),
    hidden: policy.organizerView && s.hiddenAt !== null,
    afterFreeze: policy.organizerView && madeAfterFreeze(phase, s.createdAt),
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
}

/**
 * The page's rows in board order ({@link shapeRow} of each ranked run).
 *
 * @throws Error when a ranked run has no stored rows (it left the board while it was read)
 */
function shapeRows(ranking: RankedBoardPage, submissions: readonly BoardRun[], shaping: RowShaping): LeaderboardRow[] {
  const byId = new Map(submissions.map((s) => [s.id, s]));
  return ranking.rows.map((ranked) => {
    const s = byId.get(ranked.submissionId);
    if (!s) throw new Error(`run ${ranked.submissionId} left the board while it was read; reload`);
    return shapeRow(ranked, s, shaping);
  });
}

/**
 * The page's rows, shaped once per board version and everything else they are made of (the
 * viewer's teams included): a view of an unchanged board reuses them. They are shared, so
 * nothing downstream may change them.
 */
function cachedRows(
  version: string,
  selection: BoardRankingQuery,
  variantIds: readonly string[],
  page: { ranking: RankedBoardPage; submissions: BoardRun[] },
  shaping: RowShaping,
): Promise<LeaderboardRow[]> {
  const { phase, choice, policy } = shaping;
  const rowsKey = JSON.stringify([
    "rows",
    version,
    selection,
    choice.dataset?.id ?? null,
    variantIds,
    choice.datasets,
    policy.ownTeamOnly,
    policy.organizerView,
    policy.final,
    shaping.viewerTeamIds,
    phase.leaderboardTiming,
    phase.frozenAt,
  ]);
  return cachedBoardPart(rowsKey, async () => shapeRows(page.ranking, page.submissions, shaping));
}

/** Where the page's rows are on the board ({@link BoardPage}). */
function boardPage(query: BoardQuery, ranking: RankedBoardPage): BoardPage {
  return {
    total: ranking.total,
    offset: ranking.offset,
    limit: query.limit ?? null,
    cursor: query.cursor,
    nextCursor: ranking.nextCursor,
    team: query.team,
    version: ranking.version,
  };
}

/** The empty page an anonymous viewer gets of a board hidden until the close. */
function noBoardPage(): { ranking: RankedBoardPage; submissions: BoardRun[] } {
  return { ranking: { rows: [], total: 0, offset: 0, nextCursor: null, version: "" }, submissions: [] };
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
export async function getLeaderboard(phaseId: string, viewer: Viewer, options: LeaderboardOptions = {}): Promise<Leaderboard> {
  const db = defaultDb();
  // `reader`: the board of a reader who neither organizes the task nor is in a team (for the worker).
  const reader = options.reader === true;
  const final = options.final === true;
  // The phase's board version: what a board shows is kept per version (`cache.ts`).
  const { phase, standing, version } = await authorizeBoard(db, phaseId, viewer, reader, final);
  const profile = taskEvaluationProfile(phase.task);
  const variantIds = profile.variants.map((v) => v.id);
  const query = parseBoardQuery(options, variantIds);
  const metric = query.metric ?? (isLeaderboardMetric(phase.task.primaryMetric) ? phase.task.primaryMetric : DEFAULT_PRIMARY_METRIC);
  const facts = await phaseBoardFacts(db, phase.id, version);
  const choice = chooseBoard(facts, query);

  // Selection: the runs this viewer may see on this board, by the phase's policy.
  const now = options.now ?? new Date();
  const viewed = await boardPolicy(db, phase, standing, viewer, { final, reader, now });
  const { policy } = viewed;
  const selection = boardSelection(phaseId, phase, query, metric, choice, viewed);
  // Ranking: the page in SQL, then its runs, whole. Hidden until the close, an anonymous viewer sees no run at all.
  const anonymousHidden = policy.ownTeamOnly && !viewer;
  const page = anonymousHidden ? noBoardPage() : await rankedPage(db, version, selection, choice, variantIds);
  // Shaping: the page's rows, then the board around them.
  const shaping: RowShaping = { phase, choice, setting: selection.setting, policy, viewerTeamIds: viewed.viewerTeamIds };
  const rows = anonymousHidden ? [] : await cachedRows(version, selection, variantIds, page, shaping);
  return {
    task: { id: phase.task.id, slug: phase.task.slug, title: phase.task.title, primaryMetric: phase.task.primaryMetric },
    phase: { id: phase.id, name: phase.name, displayTimeZone: phase.displayTimeZone, selectionRule: phase.selectionRule },
    evaluation: { profile: profile.name, label: profile.label, variants: profile.variants.map((v) => ({ id: v.id, label: v.label })) },
    metric,
    variant: query.variant,
    tracks: choice.tracks,
    track: choice.track,
    datasets: choice.datasets,
    dataset: choice.dataset,
    rankDataset: choice.rankDataset?.name ?? null,
    zeros: boardZeros(choice.datasets, choice.dataset, new Map(facts.zeros), anonymousHidden),
    allRuns: query.allRuns,
    tiePolicy: TIE_POLICY,
    policy,
    rows,
    page: boardPage(query, page.ranking),
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
