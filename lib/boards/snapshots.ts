/**
 * Final results (issue 11 §2): an organizer publishes a phase's final results as an immutable
 * snapshot, numbered 1, 2, … per phase, with a permalink
 * (`/tasks/<slug>/phases/<phaseId>/results/<number>`), the date, the gold versions and the
 * scorer version, and a CSV and a JSON export whose sha256 checksums are stored with them.
 *
 * This module reads and lists snapshots (the permalink page, the list, the task page's link);
 * the contract below is the whole feature's. The other parts: publishing and readiness in
 * `snapshot-publish.ts`, the changes between two snapshots in `snapshot-changes.ts`, the
 * downloads in `snapshot-files.ts`, the LaTeX and Markdown tables in `snapshot-tables.ts`, and
 * the stored shapes (JSON format, gold keys, boards and rows as stored) in `snapshot-format.ts`.
 *
 * Contract:
 * - **Publishing** ({@link publishSnapshot}): the task's organizers (and site admins) only, and
 *   only when the phase is ready ({@link snapshotReadiness}): the task is not a draft; the phase
 *   has closed (`closesAt` ≤ now: no run can arrive afterwards); no run of the phase (withdrawn
 *   ones aside) is QUEUED or SCORING; at least one dataset has an active gold key; and every run
 *   that would be on the board was scored by the current scorer version (else the snapshot's
 *   scorer version would not be true). Otherwise a 409 that lists every problem.
 * - **The boards** are the final ones (`getLeaderboard(…, { final: true })`, organizers only):
 *   the board as everyone sees it once the phase closed and any freeze is lifted (hidden and
 *   withdrawn runs out, disqualified runs listed unranked with their reason), ranked by the
 *   task's primary metric, one run per team by the phase's selection rule. A phase with tracks
 *   has one board per track (in the phase's order); a phase with several datasets has its
 *   macro-averaged board, which carries each dataset's CoNLL F1.
 * - **Stored once, never changed**: in one transaction the snapshot gets number = previous + 1
 *   (an advisory lock per phase serializes publishers; the unique index (phase, number) backs it
 *   up with a 409), the note, the changes against the previous snapshot
 *   ({@link snapshotChanges}), the gold keys used (`[{dataset, version, sha256, fileName}]`), the
 *   scorer version, the boards (`leaderboardJson` of each), the CSV and the JSON text with their
 *   sha256 (hex, over the exact UTF-8 bytes), and the audit event `snapshot.publish`. A database
 *   trigger refuses any UPDATE of this content (migration 0008), so a later gold change or
 *   re-score can only lead to a new snapshot, which says what changed.
 * - **Reading** ({@link listSnapshots}, {@link getSnapshot}, {@link getSnapshotFile}): whoever may
 *   see the phase's leaderboard by its audience (`leaderboardVisibility`: PUBLIC everyone,
 *   PARTICIPANTS signed-in participants and organizers, ORGANIZERS organizers); a draft task's
 *   snapshots are its organizers' only (404 for everyone else). Snapshots are public results even
 *   when the live board was hidden until the phase closed or frozen: that is their point.
 * - **Gold metadata stays the organizers'**: the exports and the public pages name each dataset's
 *   gold *version* only; the gold file's name and sha256 (stored in `gold`) are shown to the
 *   task's organizers only, as everywhere else (`canViewGold`).
 *
 * The JSON export (`application/json`, UTF-8, `JSON.stringify(document, null, 2)` plus a final
 * newline), format `corefboard-results-snapshot/1`:
 * ```
 * { "format": "corefboard-results-snapshot/1",
 *   "task": { "slug", "title" },
 *   "phase": { "id", "name", "closesAt" },                     // ISO 8601, UTC
 *   "snapshot": { "number", "createdAt", "note" },             // note: the organizer's markdown
 *   "gold": [ { "dataset", "version" } ],                      // active gold key per dataset, phase order
 *   "scorerVersion": "0.1.0",
 *   "evaluation": { "profile", "label", "variants": [ { "id", "label" } ] },
 *   "selectionRule": "BEST" | "LATEST" | "TEAM_SELECTED",
 *   "changes": [ { "kind", "text", … } ],                      // see SnapshotChange
 *   "boards": [ <leaderboardJson(board)> ] }                   // one per track, else one
 * ```
 * Each board is exactly what `GET /api/v1/phases/{id}/leaderboard` answers for it (rows with
 * rank, value, team, systemName, submissionId, submittedAt, metrics with exact counts, variants,
 * disqualified, …; see `leaderboardJson`).
 *
 * The CSV export (`text/csv`, UTF-8, RFC 4180 with `\r\n`): `leaderboardCsv` of the board (its
 * columns: `LEADERBOARD_CSV_COLUMNS`, variant and dataset columns, then `track`). A phase with
 * tracks gets ONE CSV: the boards' rows one after the other in the phase's track order, under
 * one header, and the `track` column names the board each row is on (for a run that is its own
 * track; a baseline without a track, a reference row on every track's board, is listed once per
 * track with that track's name), so that ranks read per track.
 *
 * **Disqualified runs come last** (issue 24 §2): in every table rendered from a snapshot, each
 * board's disqualified runs (unranked, with the organizers' reason) follow all its other rows
 * instead of standing where their score would put them: on the permalink page under a
 * "Disqualified" heading ({@link SnapshotBoard}`.disqualified`), in the CSV as the last rows of
 * their board (their `disqualified` column holds the reason; snapshots published before this
 * rule keep the CSV they were published with, byte for byte), and in the LaTeX and Markdown
 * tables as a block of their own under a "Disqualified" heading.
 *
 * The LaTeX and Markdown tables (`GET …/results/{n}/latex` and `…/markdown`; issue 24 §2,
 * `export.ts`) are not stored: they are generated on each request from the stored JSON
 * export ({@link snapshotLatex}, {@link snapshotMarkdown}), one table per board, and cite that
 * JSON's file name and sha256 (a `%` comment above each LaTeX table; the HTML comment above each
 * Markdown table and a line under the last one), so a table in a paper can be traced to the
 * published bytes.
 */
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../errors";
import { leaderboardVisibleTo, taskStanding, type Viewer } from "../permissions";
import { isLeaderboardMetric, type LeaderboardMetric } from "../validations/metrics";
import { defaultDb, type Db } from "../db";
import { loadPhase, type PhaseWithTask } from "../tasks";
import { partitionDisqualified } from "./export";
import type { SnapshotChange } from "./snapshot-changes";
import { asBoard, displayRow, type SnapshotGold } from "./snapshot-format";
import type { BoardDataset, BoardEvaluation, BoardTrack, LeaderboardRow } from "./types";

/** A gold key as a snapshot shows it: everyone sees the version; organizers also the file's name and sha256. */
export type SnapshotGoldView = Pick<SnapshotGold, "dataset" | "version"> & Partial<Pick<SnapshotGold, "sha256" | "fileName">>;

/**
 * A board of a snapshot, ready for `BoardTable` (dates as Dates, scores under `scores`): `rows`,
 * every row but the disqualified ones, in board order; `disqualified`, those, in board order,
 * for a table of their own below the ranking.
 */
export interface SnapshotBoard {
  /** the board's track, or null in a phase without tracks */
  track: BoardTrack | null;
  /** the ranking metric */
  metric: LeaderboardMetric;
  evaluation: BoardEvaluation;
  /** the phase's datasets when it has several (the rows carry each one's CoNLL F1); else [] */
  datasets: BoardDataset[];
  tiePolicy: string;
  selectionRule: string;
  /** the ranked runs, baselines and other rows that are not disqualified, in board order */
  rows: LeaderboardRow[];
  /** the disqualified runs (unranked, each with its reason), in board order; [] for none */
  disqualified: LeaderboardRow[];
}

/** Where a snapshot is read and downloaded (site-relative URLs). */
export interface SnapshotLinks {
  /** the permalink page */
  page: string;
  /** the CSV export (`GET /api/v1/phases/{phaseId}/results/{n}/csv`) */
  csv: string;
  /** the JSON export (`GET /api/v1/phases/{phaseId}/results/{n}`) */
  json: string;
  /** the LaTeX tables, generated from the JSON export (`GET /api/v1/phases/{phaseId}/results/{n}/latex`) */
  latex: string;
  /** the Markdown tables, generated from the JSON export (`GET /api/v1/phases/{phaseId}/results/{n}/markdown`) */
  markdown: string;
}

/**
 * The links of a snapshot.
 *
 * @param slug the task's slug
 * @param phaseId the phase's id
 * @param number the snapshot's number
 */
export function snapshotLinks(slug: string, phaseId: string, number: number): SnapshotLinks {
  const api = `/api/v1/phases/${encodeURIComponent(phaseId)}/results/${number}`;
  return { page: `${phaseResultsHref(slug, phaseId)}/${number}`, csv: `${api}/csv`, json: api, latex: `${api}/latex`, markdown: `${api}/markdown` };
}

/** The page listing a phase's snapshots: `/tasks/<slug>/phases/<phaseId>/results`. */
export function phaseResultsHref(slug: string, phaseId: string): string {
  return `/tasks/${encodeURIComponent(slug)}/phases/${encodeURIComponent(phaseId)}/results`;
}

/** A snapshot in a list. */
export interface SnapshotSummary {
  number: number;
  /** when it was published (UTC) */
  createdAt: Date;
  /** the organizer's note (markdown; "" for none) */
  note: string;
  /** what differs from the previous snapshot ("First published results." for the first) */
  changes: SnapshotChange[];
  /** sha256 (hex) of the CSV export's bytes */
  csvSha256: string;
  /** sha256 (hex) of the JSON export's bytes */
  jsonSha256: string;
  links: SnapshotLinks;
}

/** The task and phase a snapshot belongs to, for headings and links. */
export interface SnapshotContext {
  task: { id: string; slug: string; title: string };
  phase: { id: string; name: string; closesAt: Date; displayTimeZone: string; leaderboardVisibility: string };
  /** the viewer organizes the task (sees the gold file names and checksums, may publish) */
  isOrganizer: boolean;
  /** the page listing the phase's snapshots */
  resultsHref: string;
}

/** A phase's snapshots, newest first. */
export interface SnapshotList extends SnapshotContext {
  snapshots: SnapshotSummary[];
}

/** One snapshot as its permalink page shows it. */
export interface SnapshotView extends SnapshotContext, SnapshotSummary {
  /** the gold keys used, in dataset order (file name and sha256 for organizers only) */
  gold: SnapshotGoldView[];
  scorerVersion: string;
  /** the boards, one per track (one for a phase without tracks) */
  boards: SnapshotBoard[];
  /** the number of the phase's newest snapshot (this one's, when it is the newest) */
  latestNumber: number;
  /** sizes of the exports, in bytes */
  csvBytes: number;
  jsonBytes: number;
}

/** The columns of a {@link SnapshotSummary}. */
export const SUMMARY_SELECT = { number: true, createdAt: true, note: true, changes: true, csvSha256: true, jsonSha256: true } as const;

/** A stored snapshot row as a summary, with the links of the phase's task (`slug`). */
export function summaryOf(
  slug: string,
  phaseId: string,
  row: { number: number; createdAt: Date; note: string; changes: unknown; csvSha256: string; jsonSha256: string },
): SnapshotSummary {
  return {
    number: row.number,
    createdAt: row.createdAt,
    note: row.note,
    changes: Array.isArray(row.changes) ? (row.changes as SnapshotChange[]) : [],
    csvSha256: row.csvSha256,
    jsonSha256: row.jsonSha256,
    links: snapshotLinks(slug, phaseId, row.number),
  };
}

/** The phase's snapshots, newest first. */
export async function summaries(phase: PhaseWithTask, db: Db): Promise<SnapshotSummary[]> {
  const rows = await db.resultSnapshot.findMany({ where: { phaseId: phase.id }, orderBy: { number: "desc" }, select: SUMMARY_SELECT });
  return rows.map((row) => summaryOf(phase.task.slug, phase.id, row));
}

/**
 * The phase and the viewer's standing, when the viewer may read its snapshots.
 *
 * @throws NotFoundError (404) for an unknown or malformed phase id, and a draft task's phase for
 *   a non-organizer; UnauthorizedError (401) for an anonymous viewer of a non-public board;
 *   ForbiddenError (403) for a signed-in viewer outside the board's audience
 */
export async function readablePhase(viewer: Viewer, phaseId: string, db: Db): Promise<{ phase: PhaseWithTask; context: SnapshotContext }> {
  const phase = await loadPhase(phaseId, db);
  const standing = await taskStanding(viewer, phase.taskId, db);
  if (standing.hiddenDraft) throw new NotFoundError("No such phase.");
  if (!(await leaderboardVisibleTo(standing, phase.leaderboardVisibility))) {
    const who = phase.leaderboardVisibility === "ORGANIZERS" ? "the task's organizers" : "participants of the task (teams that have submitted) and its organizers";
    if (!viewer) throw new UnauthorizedError(`The results of this phase are visible only to ${who}. Please sign in.`);
    throw new ForbiddenError(`The results of this phase are visible only to ${who}.`);
  }
  return {
    phase,
    context: {
      task: { id: phase.task.id, slug: phase.task.slug, title: phase.task.title },
      phase: { id: phase.id, name: phase.name, closesAt: phase.closesAt, displayTimeZone: phase.displayTimeZone, leaderboardVisibility: phase.leaderboardVisibility },
      isOrganizer: standing.isOrganizer,
      resultsHref: phaseResultsHref(phase.task.slug, phase.id),
    },
  };
}

/**
 * A phase's snapshots as the viewer may see them, newest first.
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase (a malformed id is a 404 like an unknown one)
 * @returns the task, the phase, whether the viewer organizes the task, and the snapshots (maybe none)
 * @throws NotFoundError (404) for an unknown phase or a draft task's phase (non-organizers);
 *   UnauthorizedError (401) / ForbiddenError (403) for viewers outside the board's audience
 */
export async function listSnapshots(viewer: Viewer, phaseId: string): Promise<SnapshotList> {
  const db = defaultDb();
  const { phase, context } = await readablePhase(viewer, phaseId, db);
  return { ...context, snapshots: await summaries(phase, db) };
}

/**
 * The newest snapshot of a phase, for a link on the task page, or null when it has none or the
 * viewer may not see the phase's results (never throws for visibility).
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase
 * @returns `{number, createdAt, count, href, resultsHref}` (count: how many snapshots the phase
 *   has; href: the newest one's permalink; resultsHref: the list), or null
 */
export async function latestSnapshot(viewer: Viewer, phaseId: string): Promise<{ number: number; createdAt: Date; count: number; href: string; resultsHref: string } | null> {
  const db = defaultDb();
  let phase: PhaseWithTask;
  try {
    ({ phase } = await readablePhase(viewer, phaseId, db));
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof UnauthorizedError || error instanceof ForbiddenError) return null;
    throw error;
  }
  const latest = await db.resultSnapshot.findFirst({ where: { phaseId: phase.id }, orderBy: { number: "desc" }, select: { number: true, createdAt: true } });
  // Numbers run 1, 2, … without gaps (snapshots are never deleted), so the newest number is the count.
  return latest ? { ...latest, count: latest.number, href: snapshotLinks(phase.task.slug, phase.id, latest.number).page, resultsHref: phaseResultsHref(phase.task.slug, phase.id) } : null;
}

/**
 * A snapshot number from a URL: a whole number from 1 (no sign, no leading zero).
 *
 * @throws NotFoundError (404) for anything else
 */
export function parseSnapshotNumber(value: string | number): number {
  const text = String(value);
  if (!/^[1-9][0-9]{0,8}$/.test(text)) throw new NotFoundError("No such snapshot.");
  return Number(text);
}

/** A stored board as `BoardTable` takes it, its disqualified runs apart. */
function displayBoard(value: unknown): SnapshotBoard | null {
  const board = asBoard(value);
  if (!board) return null;
  const multi = (board.datasets?.length ?? 0) > 1;
  const { listed, disqualified } = partitionDisqualified(board.rows.map(displayRow));
  return {
    track: board.track,
    metric: isLeaderboardMetric(board.metric) ? board.metric : "conll",
    evaluation: board.evaluation,
    datasets: multi ? board.datasets! : [],
    tiePolicy: board.tiePolicy,
    selectionRule: board.phase?.selectionRule ?? "",
    rows: listed,
    disqualified,
  };
}

/**
 * One snapshot, for its permalink page.
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase (a malformed id is a 404 like an unknown one)
 * @param number the snapshot's number (a string from the URL, or a number)
 * @returns the snapshot with its boards, gold versions (file names and sha256 for organizers
 *   only), scorer version, note, changes, checksums and export sizes, and the phase's newest number
 * @throws NotFoundError (404) for an unknown phase or number, a malformed one, or a draft task's
 *   phase (non-organizers); UnauthorizedError (401) / ForbiddenError (403) for viewers outside the
 *   board's audience
 */
export async function getSnapshot(viewer: Viewer, phaseId: string, number: string | number): Promise<SnapshotView> {
  const db = defaultDb();
  const n = parseSnapshotNumber(number);
  const { phase, context } = await readablePhase(viewer, phaseId, db);
  const row = await db.resultSnapshot.findUnique({ where: { phaseId_number: { phaseId: phase.id, number: n } } });
  if (!row) throw new NotFoundError("No such snapshot.");
  const latest = await db.resultSnapshot.findFirst({ where: { phaseId: phase.id }, orderBy: { number: "desc" }, select: { number: true } });
  const gold = (Array.isArray(row.gold) ? (row.gold as unknown as SnapshotGold[]) : []).map(
    (g): SnapshotGoldView => (context.isOrganizer ? { dataset: g.dataset, version: g.version, fileName: g.fileName, sha256: g.sha256 } : { dataset: g.dataset, version: g.version }),
  );
  return {
    ...context,
    ...summaryOf(phase.task.slug, phase.id, row),
    gold,
    scorerVersion: row.scorerVersion,
    boards: (Array.isArray(row.board) ? row.board : []).map(displayBoard).filter((b): b is SnapshotBoard => b !== null),
    latestNumber: latest?.number ?? row.number,
    csvBytes: Buffer.byteLength(row.csv, "utf8"),
    jsonBytes: Buffer.byteLength(row.json, "utf8"),
  };
}
