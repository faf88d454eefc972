/**
 * A leaderboard as CSV (the API's `?format=csv`, and the final results' CSV export): the
 * columns ({@link LEADERBOARD_CSV_COLUMNS}, {@link leaderboardCsvColumns}), one record per row
 * in the board's setting, and the whole board in chunks for streaming
 * ({@link leaderboardCsvChunks}).
 */
import { createHash } from "node:crypto";
import { defaultDb, type Db } from "../db";
import { csvText, type CsvCell } from "../http/csv";
import type { Viewer } from "../permissions";
import { COUNT_METRIC_NAMES } from "../validations/metrics";
import { MAX_LEADERBOARD_LIMIT } from "../validations/leaderboard-query";
import { boardVersion } from "./cache";
import { getLeaderboard, settingScores, type LeaderboardOptions } from "./leaderboard";
import type { CountsJson } from "./scores";
import type { BoardDataset, BoardEvaluation, BoardPolicy, BoardTrack, Leaderboard, LeaderboardRow } from "./types";

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
  options: Omit<LeaderboardOptions, "limit" | "cursor"> = {},
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

/**
 * The digest a whole board's CSV is tagged with (its `ETag`, issue 26 §1), known from its first
 * chunk, so that the CSV is still streamed and a matching `If-None-Match` is answered before any
 * later page is read: the phase's board version (triggers bump it whenever a run, a team's name,
 * a track, a dataset, a gold key, the phase itself or its task changes: `cache.ts`), the first chunk's board as
 * the viewer sees it (its settings-derived facts, columns and first rows; `generatedAt` left
 * out), and who asks (an answer with a viewer's own rows is theirs alone).
 *
 * @param board the first chunk's board ({@link leaderboardCsvChunks})
 * @param viewerId the caller's user id, or null for an anonymous caller
 * @param db the database the board version is read from (default: the site's)
 * @returns lower-case hex sha256
 */
export async function leaderboardCsvDigest(board: Leaderboard, viewerId: string | null, db: Db = defaultDb()): Promise<string> {
  const { generatedAt: _generatedAt, ...shown } = board;
  const version = await boardVersion(db, board.phase.id);
  return createHash("sha256").update(JSON.stringify(["csv", version, viewerId, shown]), "utf8").digest("hex");
}
