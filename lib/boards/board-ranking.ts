/**
 * A leaderboard's selection and ranking in one SQL query (issue 12 §1): which runs a board lists
 * (the best, latest or team-selected run per team, or every run), their competition ranks, and
 * one page of them in board order, with a keyset cursor. The database does the per-team
 * selection (window functions over the phase's runs, the ranking value read through the
 * `scores (phase_id, variant, metric, f1 DESC)` index or `dataset_scores`), so a board of 10,000
 * runs costs one query and the page's ≤ 50 runs are then loaded whole.
 *
 * The rules are those of `ranking.ts` (`rankRuns`, the executable specification; DB tests check
 * this query against it on random boards) with the leaderboard's runs set apart
 * (`leaderboard.ts`): a disqualified run (and, on the organizers' board, a hidden one) takes no
 * part in selection and ranking; it is listed, unranked, where the selection over all runs
 * would list it. In short:
 * - value: the Score row (phase level) or DatasetScore row (one dataset; 0 when the run has no
 *   file for it) of the chosen metric in the chosen setting; null when there is none;
 * - per team (baselines are never selected, always listed, never ranked): BEST = highest value,
 *   then earlier submission (a run with a value before one without); LATEST = latest
 *   submission (then larger id); TEAM_SELECTED = BEST among the runs the team marked final,
 *   or LATEST when it marked none;
 * - order: value descending (none last), then `created_at`, then `id` ascending;
 * - rank: 1 + the number of ranked rows with a strictly higher value (ties share a rank).
 */
import { ValidationError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import type { Db, SelectionRule } from "../db";
import type { RunSelection } from "./ranking";

/** What a board ranks and lists, as `getLeaderboard` decided it. */
export interface BoardRankingQuery {
  phaseId: string;
  /** "" for the primary setting, else a variant id */
  setting: string;
  /** the Score/DatasetScore metric name the board ranks by (e.g. `conll`, `muc`) */
  metric: string;
  /** rank on one dataset (its DatasetScore rows; 0 without a file for it), or null for the phase level */
  datasetId: string | null;
  rule: SelectionRule;
  allRuns: boolean;
  /** filters of the viewer's board (see `getLeaderboard`) */
  filters: {
    /** hidden runs are listed (set apart); else left out */
    organizerView: boolean;
    /** only runs made before this moment (a frozen board for non-organizers), or null */
    madeBefore: Date | null;
    /** a track's board: its runs and the baselines without a track; null: every run */
    trackId: string | null;
    /** only baselines and these teams' runs (hidden until the close), or null: every team */
    onlyTeams: readonly string[] | null;
  };
  /** the page: size (null: every row), the cursor to start after, a team-name filter */
  page: { limit: number | null; cursor: string | null; team: string | null };
}

/** One listed row: the run and where it is on the board. */
export interface RankedBoardRow {
  submissionId: string;
  value: number | null;
  /** competition rank; null for baselines, runs without a value and runs set apart */
  rank: number | null;
  selection: RunSelection;
}

/** One page of a board's listed rows. */
export interface RankedBoardPage {
  rows: RankedBoardRow[];
  /** listed rows after the team filter, on every page */
  total: number;
  /** 0-based place of the first row of `rows` */
  offset: number;
  /** cursor after the last row of `rows`, or null when no row follows */
  nextCursor: string | null;
  /**
   * A digest of the whole board, whatever the page and the team filter: its listed runs in
   * order with their ranks, selection, whether set apart, and when each was scored. It changes
   * whenever anything a board's significance depends on does (`board-significance.ts`).
   */
  version: string;
}

/** The version of a board that lists no run (md5 of the empty string, as the query computes it). */
const EMPTY_BOARD_VERSION = "d41d8cd98f00b204e9800998ecf8427e";

/** A decoded cursor: the board-order key of the last row of the previous page. */
interface Cursor {
  value: number | null;
  at: Date;
  id: string;
}

/** The cursor of a row: its board-order key, as base64url JSON `[value, epoch ms, id]`. */
function encodeCursor(row: { value: number | null; created_at: Date; id: string }): string {
  return Buffer.from(JSON.stringify([row.value, row.created_at.getTime(), row.id])).toString("base64url");
}

/**
 * Reads a cursor from a query.
 *
 * @throws ValidationError (422, field `cursor`) for anything `encodeCursor` did not write
 */
function decodeCursor(cursor: string): Cursor {
  const bad = () => ValidationError.field("cursor", "This page link is damaged or out of date; start again from the first page.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw bad();
  const [value, at, id] = parsed;
  if (!(value === null || (typeof value === "number" && Number.isFinite(value))) || typeof at !== "number" || !Number.isFinite(at)) throw bad();
  if (typeof id !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) throw bad();
  return { value, at: new Date(at), id };
}

/** A row of the board query ({@link boardRows}). */
interface BoardRowRecord {
  id: string;
  value: number | null;
  created_at: Date;
  rank: number | null;
  selection: string | null;
  total: number;
  pos: number;
  version: string;
}

/** The conditions on the runs a board may list: the phase's scored public runs not withdrawn, and the viewer's filters. */
function boardConditions(q: BoardRankingQuery): Prisma.Sql[] {
  const f = q.filters;
  const where: Prisma.Sql[] = [
    Prisma.sql`s.phase_id = ${q.phaseId}::uuid`,
    Prisma.sql`s.status = 'SCORED'`,
    Prisma.sql`s.visibility = 'PUBLIC'`,
    Prisma.sql`s.withdrawn_at IS NULL`,
  ];
  if (!f.organizerView) where.push(Prisma.sql`s.hidden_at IS NULL`);
  if (f.madeBefore) where.push(Prisma.sql`s.created_at < ${f.madeBefore}`);
  if (f.trackId) where.push(Prisma.sql`(s.track_id = ${f.trackId}::uuid OR (s.track_id IS NULL AND s.is_baseline))`);
  if (f.onlyTeams) {
    const teams = f.onlyTeams.length > 0 ? Prisma.sql`s.team_id IN (${Prisma.join(f.onlyTeams.map((t) => Prisma.sql`${t}::uuid`))})` : Prisma.sql`false`;
    where.push(Prisma.sql`(s.is_baseline OR ${teams})`);
  }
  return where;
}

/**
 * The ranking value of a run (`value`) and the join it needs (`scoreJoin`): the phase-level Score
 * row of the metric in the setting, or on one dataset its DatasetScore row (0 without a file for it).
 */
function rankingValue(q: BoardRankingQuery): { value: Prisma.Sql; scoreJoin: Prisma.Sql } {
  const value = q.datasetId
    ? Prisma.sql`CASE WHEN NOT EXISTS (SELECT 1 FROM submission_files sf WHERE sf.submission_id = s.id AND sf.dataset_id = ${q.datasetId}::uuid) THEN 0::float8
        ELSE (SELECT ds.f1 FROM dataset_scores ds WHERE ds.submission_id = s.id AND ds.dataset_id = ${q.datasetId}::uuid AND ds.variant = ${q.setting} AND ds.metric = ${q.metric}) END`
    : Prisma.sql`sc.f1`;
  const scoreJoin = q.datasetId
    ? Prisma.empty
    : Prisma.sql`LEFT JOIN scores sc ON sc.phase_id = s.phase_id AND sc.submission_id = s.id AND sc.variant = ${q.setting} AND sc.metric = ${q.metric}`;
  return { value, scoreJoin };
}

/** The rows after the cursor in board order (value descending, none last, then `created_at`, `id`); every row without one. */
function afterCursor(cursor: Cursor | null): Prisma.Sql {
  return !cursor
    ? Prisma.sql`true`
    : cursor.value === null
      ? Prisma.sql`(o.value IS NULL AND (o.created_at, o.id) > (${cursor.at}, ${cursor.id}::uuid))`
      : Prisma.sql`(o.value IS NULL OR o.value < ${cursor.value}::float8 OR (o.value = ${cursor.value}::float8 AND (o.created_at, o.id) > (${cursor.at}, ${cursor.id}::uuid)))`;
}

/**
 * The board query: selection, ranking, the team filter and the page after the cursor, each row
 * with its rank, selection, the listed total, its place and the board's version (one more row
 * than the page's size, to tell whether a page follows).
 */
async function boardRows(db: Db, q: BoardRankingQuery, cursor: Cursor | null): Promise<BoardRowRecord[]> {
  const f = q.filters;
  const where = boardConditions(q);
  const { value, scoreJoin } = rankingValue(q);
  const teamSelected = q.rule === "TEAM_SELECTED";
  const latest = q.rule === "LATEST";
  const after = afterCursor(cursor);
  const teamFilter = q.page.team ? Prisma.sql`strpos(lower(t.name), lower(${q.page.team})) > 0` : Prisma.sql`true`;
  const limit = q.page.limit === null ? Prisma.empty : Prisma.sql`LIMIT ${q.page.limit + 1}`;

  // Two selection passes: `q_*` over the runs not set apart (they are ranked), `a_*` over all
  // runs (a run set apart is listed where this pass would list it). In each, `best` says
  // whether the team's pick is BEST-like (value first) or LATEST-like (latest first).
  return db.$queryRaw<BoardRowRecord[]>`
    WITH base AS (
      SELECT s.id, s.team_id, s.created_at, s.is_baseline, s.final_selected_at IS NOT NULL AS final_selected, s.scored_at,
             ((s.disqualified_at IS NOT NULL AND s.disqualified_reason IS NOT NULL) OR (${f.organizerView} AND s.hidden_at IS NOT NULL)) AS apart,
             ${value} AS value
        FROM submissions s ${scoreJoin}
       WHERE ${Prisma.join(where, " AND ")}
    ),
    marked AS (
      SELECT b.*,
             coalesce(bool_or(b.final_selected AND NOT b.is_baseline AND NOT b.apart) OVER (PARTITION BY b.team_id), false) AS q_marked,
             coalesce(bool_or(b.final_selected AND NOT b.is_baseline) OVER (PARTITION BY b.team_id), false) AS a_marked
        FROM base b
    ),
    flags AS (
      SELECT m.*,
             (NOT ${teamSelected} OR NOT m.q_marked OR m.final_selected) AS q_eligible,
             (NOT ${teamSelected} OR NOT m.a_marked OR m.final_selected) AS a_eligible,
             (CASE WHEN ${teamSelected} THEN m.q_marked ELSE NOT ${latest} END) AS q_best,
             (CASE WHEN ${teamSelected} THEN m.a_marked ELSE NOT ${latest} END) AS a_best
        FROM marked m
    ),
    picks AS (
      SELECT fl.*,
             CASE WHEN NOT fl.apart AND NOT fl.is_baseline AND fl.q_eligible THEN row_number() OVER (
               PARTITION BY fl.team_id, (NOT fl.apart AND NOT fl.is_baseline AND fl.q_eligible)
               ORDER BY CASE WHEN fl.q_best THEN fl.value IS NULL END, CASE WHEN fl.q_best THEN fl.value END DESC,
                        CASE WHEN fl.q_best THEN fl.created_at END, CASE WHEN fl.q_best THEN fl.id END,
                        CASE WHEN NOT fl.q_best THEN fl.created_at END DESC, CASE WHEN NOT fl.q_best THEN fl.id END DESC) END AS q_pick,
             CASE WHEN NOT fl.is_baseline AND fl.a_eligible THEN row_number() OVER (
               PARTITION BY fl.team_id, (NOT fl.is_baseline AND fl.a_eligible)
               ORDER BY CASE WHEN fl.a_best THEN fl.value IS NULL END, CASE WHEN fl.a_best THEN fl.value END DESC,
                        CASE WHEN fl.a_best THEN fl.created_at END, CASE WHEN fl.a_best THEN fl.id END,
                        CASE WHEN NOT fl.a_best THEN fl.created_at END DESC, CASE WHEN NOT fl.a_best THEN fl.id END DESC) END AS a_pick
        FROM flags fl
    ),
    listed AS (
      SELECT p.*,
             (NOT p.apart AND NOT p.is_baseline AND p.value IS NOT NULL) AS rankable,
             CASE WHEN ${teamSelected} AND NOT ${q.allRuns} AND NOT p.is_baseline
                  THEN CASE WHEN (CASE WHEN p.apart THEN p.a_marked ELSE p.q_marked END) THEN 'final' ELSE 'latest-fallback' END END AS selection
        FROM picks p
       WHERE p.is_baseline OR ${q.allRuns} OR (NOT p.apart AND p.q_pick = 1) OR (p.apart AND p.a_pick = 1)
    ),
    ranked AS (
      SELECT l.*, CASE WHEN l.rankable THEN rank() OVER (PARTITION BY l.rankable ORDER BY l.value DESC) END AS rank
        FROM listed l
    ),
    ordered AS (
      SELECT r.id, r.value, r.created_at, r.rank, r.selection,
             count(*) OVER () AS total,
             row_number() OVER (ORDER BY r.value DESC NULLS LAST, r.created_at, r.id) AS pos
        FROM ranked r JOIN teams t ON t.id = r.team_id
       WHERE ${teamFilter}
    )
    SELECT o.id::text AS id, o.value, o.created_at, o.rank::int AS rank, o.selection, o.total::int AS total, o.pos::int AS pos,
           (SELECT md5(coalesce(string_agg(concat_ws(':', v.id, v.apart, v.rank, v.selection, extract(epoch FROM v.scored_at)), ','
                                           ORDER BY v.value DESC NULLS LAST, v.created_at, v.id), '')) FROM ranked v) AS version
      FROM ordered o
     WHERE ${after}
     ORDER BY o.pos
     ${limit}`;
}

/**
 * Selects, ranks and pages a board in one query (see the module comment for the rules).
 *
 * @param db client or transaction
 * @param q the board: phase, setting, metric, dataset, rule, filters and page
 * @returns the page's rows in board order with rank, value and selection, the total number of
 *   listed rows (after the team filter), the page's offset and the next page's cursor
 * @throws ValidationError (422, field `cursor`) for a damaged cursor
 */
export async function rankBoard(db: Db, q: BoardRankingQuery): Promise<RankedBoardPage> {
  const cursor = q.page.cursor ? decodeCursor(q.page.cursor) : null;
  const rows = await boardRows(db, q, cursor);
  const more = q.page.limit !== null && rows.length > q.page.limit;
  const pageRows = more ? rows.slice(0, q.page.limit!) : rows;
  let total = rows[0]?.total ?? 0;
  let version = rows[0]?.version ?? EMPTY_BOARD_VERSION;
  if (rows.length === 0 && (cursor || q.page.team)) {
    // Nothing on this page (past the end, or no team matches): the board's version from its
    // first page, and past the end the number of rows the filter lists.
    const first = (team: string | null) => rankBoard(db, { ...q, page: { limit: 1, cursor: null, team } });
    const whole = await first(null);
    version = whole.version;
    total = !cursor ? 0 : q.page.team ? (await first(q.page.team)).total : whole.total;
  }
  return {
    version,
    rows: pageRows.map((r) => ({ submissionId: r.id, value: r.value, rank: r.rank, selection: r.selection as RunSelection })),
    total,
    offset: pageRows.length > 0 ? pageRows[0].pos - 1 : total,
    nextCursor: more ? encodeCursor(pageRows[pageRows.length - 1]) : null,
  };
}
