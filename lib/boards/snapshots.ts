/**
 * Final results (issue 11 §2): an organizer publishes a phase's final results as an immutable
 * snapshot, numbered 1, 2, … per phase, with a permalink
 * (`/tasks/<slug>/phases/<phaseId>/results/<number>`), the date, the gold versions and the
 * scorer version, and a CSV and a JSON export whose sha256 checksums are stored with them.
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
 * `board-export.ts`) are not stored: they are generated on each request from the stored JSON
 * export ({@link snapshotLatex}, {@link snapshotMarkdown}), one table per board, and cite that
 * JSON's file name and sha256 (a `%` comment above each LaTeX table; the HTML comment above each
 * Markdown table and a line under the last one), so a table in a paper can be traced to the
 * published bytes.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { etagFor, isNotModified, notModifiedResponse } from "../http/conditional-response";
import { SCORER_VERSION } from "../scorer/version";
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from "../errors";
import { leaderboardVisibleTo, taskStanding, type SignedInViewer, type TaskStanding, type Viewer } from "../permissions";
import { formatUtc } from "../validations/time";
import { isLeaderboardMetric, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";
import { parseInput } from "../validations/parse";
import { recordAudit } from "../audit/record";
import { defaultDb, isUniqueViolation, lockKey, type Db, type Prisma } from "../db";
import { getLeaderboard, leaderboardJson } from "./leaderboard";
import { leaderboardCsv } from "./leaderboard-csv";
import type { BoardMetricsJson } from "./scores";
import type { BoardDataset, BoardEvaluation, BoardTrack, Leaderboard, LeaderboardRow, RowDataset } from "./types";
import { cachedBoardPart } from "./cache";
import { boardLatex, boardMarkdown, markdownEscape, partitionDisqualified, type ExportBoard } from "./export";
import { loadPhase, type PhaseWithTask } from "../tasks/phases";
import { listTracks } from "../tasks/tracks";


/** The `format` of the JSON export. */
export const SNAPSHOT_JSON_FORMAT = "corefboard-results-snapshot/1";

/** Longest note, in characters (after trimming). */
export const SNAPSHOT_NOTE_MAX = 10_000;

/** The organizer's input: the note (markdown), optional. */
export const snapshotInputSchema = z.object({
  note: z
    .string({ error: "The note must be text." })
    .trim()
    .max(SNAPSHOT_NOTE_MAX, { error: `The note can be at most ${SNAPSHOT_NOTE_MAX.toLocaleString("en")} characters long.` })
    .default(""),
});

/** A gold key a snapshot's results come from, as stored (organizers see all of it). */
export interface SnapshotGold {
  /** the dataset's name, e.g. `main` or `en_gum` */
  dataset: string;
  /** the gold key's version (1, 2, …) */
  version: number;
  /** sha256 of the gold file (lower-case hex): organizers only */
  sha256: string;
  /** the gold file's name: organizers only */
  fileName: string;
}

/** A gold key as a snapshot shows it: everyone sees the version; organizers also the file's name and sha256. */
export type SnapshotGoldView = Pick<SnapshotGold, "dataset" | "version"> & Partial<Pick<SnapshotGold, "sha256" | "fileName">>;

/** A team or a run named by a change. */
interface ChangeRun {
  team: { id: string; name: string };
  systemName: string;
  submissionId: string;
}

/**
 * One thing that differs from the previous snapshot, with `text`, a short sentence for people.
 * `track` is the name of the track whose board it concerns (null in a phase without tracks);
 * values are fractions (the ranking metric's F1), null for none.
 */
export type SnapshotChange =
  | { kind: "first"; text: string }
  | { kind: "unchanged"; text: string }
  | { kind: "gold"; dataset: string; from: number | null; to: number | null; text: string }
  | { kind: "scorer"; from: string; to: string; text: string }
  | { kind: "metric"; from: string; to: string; text: string }
  | { kind: "track_added" | "track_removed"; track: string; text: string }
  | { kind: "team_added" | "team_removed"; track: string | null; team: { id: string; name: string }; rank: number | null; value: number | null; text: string }
  | {
      kind: "team_changed";
      track: string | null;
      team: { id: string; name: string };
      rank: { from: number | null; to: number | null };
      value: { from: number | null; to: number | null };
      text: string;
    }
  | ({ kind: "run_added" | "run_removed" | "run_reinstated"; track: string | null; text: string } & ChangeRun)
  | ({ kind: "run_disqualified"; track: string | null; reason: string; text: string } & ChangeRun);

/** A board row as stored (`leaderboardJson`'s row after a JSON round trip). */
interface StoredRow {
  rank: number | null;
  value: number | null;
  team: { id: string; name: string };
  systemName: string;
  submissionId: string;
  submittedAt: string;
  isBaseline: boolean;
  track: { id: string; name: string } | null;
  paperUrl: string | null;
  codeUrl: string | null;
  goldVersion: number | null;
  scorerVersion: string | null;
  metrics: BoardMetricsJson;
  variants: Record<string, BoardMetricsJson>;
  disqualified: { reason: string; at: string } | null;
  datasets?: Record<string, RowDataset>;
  missing?: boolean;
}

/** A board as stored (`leaderboardJson` after a JSON round trip); the fields this module reads. */
interface StoredBoard {
  task?: { slug: string; title: string };
  metric: string;
  /** the variant the board is ranked by (null: the primary setting; final boards are ranked by the primary setting) */
  variant?: string | null;
  evaluation: BoardEvaluation;
  tracks: BoardTrack[];
  track: BoardTrack | null;
  /** a phase with several datasets only (as `dataset` and `rankDataset`) */
  datasets?: BoardDataset[];
  dataset?: BoardDataset | null;
  rankDataset?: string | null;
  allRuns?: boolean;
  tiePolicy: string;
  phase: { selectionRule: string; name?: string };
  /** ISO 8601: the publication time */
  generatedAt?: string;
  rows: StoredRow[];
}

/** What {@link snapshotChanges} compares: one snapshot's gold, scorer version and boards. */
export interface SnapshotContent {
  number: number;
  gold: readonly Pick<SnapshotGold, "dataset" | "version">[];
  scorerVersion: string;
  /** the stored boards (`leaderboardJson` of each, as JSON) */
  boards: readonly unknown[];
}

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

/** What {@link getSnapshotFile} reads: the stored CSV or JSON, or the LaTeX or Markdown tables generated from the JSON. */
export type SnapshotFileKind = "csv" | "json" | "latex" | "markdown";

/** Per kind: the file name's extension and the content type. */
const FILE_KINDS: Readonly<Record<SnapshotFileKind, { extension: string; contentType: string }>> = {
  csv: { extension: "csv", contentType: "text/csv; charset=utf-8" },
  json: { extension: "json", contentType: "application/json; charset=utf-8" },
  latex: { extension: "tex", contentType: "text/x-tex; charset=utf-8" },
  markdown: { extension: "md", contentType: "text/markdown; charset=utf-8" },
};

/** A snapshot's export as a download answers it. */
export interface SnapshotFile {
  /** the text to send as UTF-8: the stored CSV or JSON exactly, or the tables generated from the stored JSON */
  body: string;
  /** sha256 (hex) of the body's UTF-8 bytes: as stored for the CSV and JSON, computed for the generated tables */
  sha256: string;
  /** `<task>-<phase>-results-<n>.csv`, `.json`, `.tex` or `.md`, ASCII */
  fileName: string;
  /** `text/csv`, `application/json`, `text/x-tex` or `text/markdown`, each `; charset=utf-8` */
  contentType: string;
  /** true when anyone may read it (PUBLIC board of a published task): it may be cached publicly */
  publicResults: boolean;
}

/**
 * The HTTP headers of a snapshot export's download: its content type, `Content-Disposition:
 * attachment` with its file name, `X-Content-SHA256` (the stored checksum), `ETag` (that
 * checksum, quoted), and `Cache-Control`: `public, max-age=31536000, immutable` for public
 * results (a snapshot never changes: a later correction is a new snapshot number), else
 * `private, no-store` (results for participants or organizers only must not sit in shared caches).
 *
 * @param file from {@link getSnapshotFile}
 */
export function snapshotDownloadHeaders(file: SnapshotFile): Record<string, string> {
  return {
    "Content-Type": file.contentType,
    "Content-Disposition": `attachment; filename="${file.fileName}"`,
    "X-Content-SHA256": file.sha256,
    ETag: etagFor(file.sha256),
    "Cache-Control": file.publicResults ? "public, max-age=31536000, immutable" : "private, no-store",
  };
}

/**
 * The answer to a snapshot export's download: 200 with the stored bytes and
 * {@link snapshotDownloadHeaders}, or `304 Not Modified` without a body when the request's
 * `If-None-Match` names the file's ETag (its sha256).
 *
 * @param request the download request (its validators are read)
 * @param file from {@link getSnapshotFile}
 */
export function snapshotDownloadResponse(request: Request, file: SnapshotFile): Response {
  const headers = snapshotDownloadHeaders(file);
  if (isNotModified(request, headers.ETag!)) return notModifiedResponse(headers);
  return new Response(new TextEncoder().encode(file.body), { status: 200, headers });
}

/** What {@link snapshotReadiness} answers the console. */
export interface SnapshotReadiness {
  /** true when {@link publishSnapshot} would publish now */
  ready: boolean;
  /** every reason it would refuse, as sentences (empty when ready) */
  problems: string[];
  /** the phase's snapshots so far, newest first */
  snapshots: SnapshotSummary[];
  /** the page listing the phase's snapshots */
  resultsHref: string;
}

/** sha256 of a text's UTF-8 bytes, lower-case hex. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** "3 runs" / "1 run". */
function runs(n: number): string {
  return `${n} run${n === 1 ? "" : "s"}`;
}

/**
 * The organizer check of publishing and readiness: anyone who does not organize a draft task,
 * anonymous callers included, 404 as for an unknown phase (the draft does not exist for them);
 * otherwise anonymous 401, another non-organizer 403.
 */
function assertOrganizer(viewer: Viewer, standing: TaskStanding): SignedInViewer {
  if (standing.hiddenDraft) throw new NotFoundError("No such phase.");
  if (!viewer) throw new UnauthorizedError("Please sign in as an organizer of this task.");
  if (!standing.isOrganizer) throw new ForbiddenError("Only the organizers of this task can publish its final results.");
  return viewer;
}

/** The active gold keys of a phase, in dataset order. */
async function activeGold(phaseId: string, db: Db): Promise<SnapshotGold[]> {
  const rows = await db.goldKey.findMany({
    where: { phaseId, active: true },
    orderBy: [{ dataset: { position: "asc" } }, { dataset: { name: "asc" } }],
    select: { version: true, sha256: true, fileName: true, dataset: { select: { name: true } } },
  });
  return rows.map((g) => ({ dataset: g.dataset.name, version: g.version, sha256: g.sha256, fileName: g.fileName }));
}

/**
 * Why the phase's final results cannot be published at `now` (empty: they can).
 *
 * @param phase the phase with its task
 * @param db client or transaction
 */
async function readinessProblems(phase: PhaseWithTask, db: Db, now: Date): Promise<string[]> {
  const problems: string[] = [];
  if (phase.task.status === "DRAFT") problems.push("The task is still a draft: publish the task before its final results.");
  if (now.getTime() < phase.closesAt.getTime()) {
    problems.push(
      `The ${phase.name} phase is still open (it closes on ${formatUtc(phase.closesAt)}): close it first, so that no run can arrive after the final results.`,
    );
  }
  const queued = await db.submission.count({ where: { phaseId: phase.id, status: "QUEUED", withdrawnAt: null } });
  const scoring = await db.submission.count({ where: { phaseId: phase.id, status: "SCORING", withdrawnAt: null } });
  if (queued + scoring > 0) {
    problems.push(
      `${runs(queued + scoring)} of the phase ${queued + scoring === 1 ? "is" : "are"} still being scored (${queued} queued, ${scoring} scoring): wait until ${queued + scoring === 1 ? "it is" : "they are"} done.`,
    );
  }
  const gold = await db.goldKey.count({ where: { phaseId: phase.id, active: true } });
  if (gold === 0) problems.push("No dataset of the phase has an active gold key: upload the gold first.");
  // Runs that would be on the board, scored by another scorer version than the one the snapshot names.
  const stale = await db.submission.findMany({
    where: {
      phaseId: phase.id,
      status: "SCORED",
      visibility: "PUBLIC",
      withdrawnAt: null,
      hiddenAt: null,
      AND: [{ scorerVersion: { not: null } }, { scorerVersion: { not: SCORER_VERSION } }],
    },
    select: { scorerVersion: true },
  });
  if (stale.length > 0) {
    const versions = [...new Set(stale.map((s) => s.scorerVersion))].sort().join(", ");
    problems.push(
      `${runs(stale.length)} ${stale.length === 1 ? "was" : "were"} scored by another scorer version (${versions}) than the current one (${SCORER_VERSION}): re-score the phase first, so that every result comes from the same scorer.`,
    );
  }
  return problems;
}

/** The columns of a {@link SnapshotSummary}. */
const SUMMARY_SELECT = { number: true, createdAt: true, note: true, changes: true, csvSha256: true, jsonSha256: true } as const;

/** A stored snapshot row as a summary, with the links of the phase's task (`slug`). */
function summaryOf(
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
async function summaries(phase: PhaseWithTask, db: Db): Promise<SnapshotSummary[]> {
  const rows = await db.resultSnapshot.findMany({ where: { phaseId: phase.id }, orderBy: { number: "desc" }, select: SUMMARY_SELECT });
  return rows.map((row) => summaryOf(phase.task.slug, phase.id, row));
}

/**
 * What stands between a phase and the publication of its final results, for the console.
 *
 * @param actor the caller; must organize the phase's task (or be a site admin)
 * @param phaseId the phase (a malformed id is a 404 like an unknown one)
 * @param now the time the phase's closing is judged at (default: now)
 * @returns `{ready, problems, snapshots}`: `problems` lists every reason `publishSnapshot` would
 *   refuse (task a draft, phase still open, runs queued or scoring with their count, no active
 *   gold key, runs scored by another scorer version), `snapshots` the phase's snapshots so far,
 *   newest first
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase, or
 *   a draft task's phase for a non-organizer; ForbiddenError (403) for a non-organizer
 */
export async function snapshotReadiness(actor: Viewer, phaseId: string, now: Date = new Date()): Promise<SnapshotReadiness> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  assertOrganizer(actor, await taskStanding(actor, phase.taskId, db));
  const problems = await readinessProblems(phase, db, now);
  return { ready: problems.length === 0, problems, snapshots: await summaries(phase, db), resultsHref: phaseResultsHref(phase.task.slug, phase.id) };
}

/**
 * The phase's final boards as the organizer sees them with `final: true`: one per track in the
 * phase's order, or the one board of a phase without tracks; `now` becomes their `generatedAt`.
 */
async function finalBoards(phaseId: string, organizer: SignedInViewer, db: Db, now: Date): Promise<Leaderboard[]> {
  const tracks = await listTracks(phaseId, db);
  if (tracks.length === 0) return [await getLeaderboard(phaseId, organizer, { final: true, now })];
  const boards: Leaderboard[] = [];
  for (const track of tracks) boards.push(await getLeaderboard(phaseId, organizer, { final: true, track: track.id, now }));
  return boards;
}

/**
 * The CSV of a snapshot's boards: `leaderboardCsv` of the one board, or, with tracks, of every
 * board's rows under one header with `track` naming the board each row is on (see the module
 * comment). Each board's disqualified runs are its last rows.
 *
 * @param boards the boards, in the phase's track order (at least one)
 * @returns the CSV text
 * @throws Error when `boards` is empty
 */
export function snapshotCsv(boards: readonly Leaderboard[]): string {
  const [first] = boards;
  if (!first) throw new Error("snapshotCsv: no board");
  const ordered = (b: Leaderboard) => {
    const { listed, disqualified } = partitionDisqualified(b.rows);
    return [...listed, ...disqualified];
  };
  if (boards.length === 1 && first.track === null) return leaderboardCsv({ ...first, rows: ordered(first) });
  const rows = boards.flatMap((b) => ordered(b).map((row) => ({ ...row, track: b.track ? { id: b.track.id, name: b.track.name } : row.track })));
  return leaderboardCsv({ ...first, rows });
}

/**
 * The JSON export's text (see the module comment for the document): serialized once, with a
 * 2-space indent and a final newline.
 */
function snapshotJson(doc: {
  phase: PhaseWithTask;
  number: number;
  createdAt: Date;
  note: string;
  gold: readonly SnapshotGold[];
  scorerVersion: string;
  evaluation: BoardEvaluation;
  changes: readonly SnapshotChange[];
  boards: readonly unknown[];
}): string {
  const document = {
    format: SNAPSHOT_JSON_FORMAT,
    task: { slug: doc.phase.task.slug, title: doc.phase.task.title },
    phase: { id: doc.phase.id, name: doc.phase.name, closesAt: doc.phase.closesAt },
    snapshot: { number: doc.number, createdAt: doc.createdAt, note: doc.note },
    gold: doc.gold.map((g) => ({ dataset: g.dataset, version: g.version })),
    scorerVersion: doc.scorerVersion,
    evaluation: doc.evaluation,
    selectionRule: doc.phase.selectionRule,
    changes: doc.changes,
    boards: doc.boards,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The gold keys as compared: the same datasets with the same versions and files. */
function sameGold(a: readonly SnapshotGold[], b: readonly SnapshotGold[]): boolean {
  return a.length === b.length && a.every((g, i) => g.dataset === b[i].dataset && g.version === b[i].version && g.sha256 === b[i].sha256);
}

/**
 * Publishes the phase's final results as a new snapshot (see the module comment).
 *
 * @param actor the caller; must organize the phase's task (or be a site admin)
 * @param phaseId the phase (a malformed id is a 404 like an unknown one)
 * @param input `note`: the organizer's note (markdown, trimmed, at most {@link SNAPSHOT_NOTE_MAX}
 *   characters; absent: none)
 * @param now the publication time (default: now), also the time the phase's closing is judged at
 * @returns the new snapshot's summary (its `number` makes the permalink)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase, or a
 *   draft task's phase for a non-organizer; ForbiddenError (403) for a non-organizer;
 *   ValidationError (422, field `note`) for a note that is not text or too long; ConflictError
 *   (409) when the phase is not ready (`details.problems` lists every reason: draft task, phase
 *   still open, runs queued or scoring, no active gold key, runs scored by another scorer
 *   version), when a gold key changed while the results were being prepared, or when another
 *   organizer published at the same moment
 */
export async function publishSnapshot(actor: Viewer, phaseId: string, input: { note?: unknown } = {}, now: Date = new Date()): Promise<SnapshotSummary> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const user = assertOrganizer(actor, await taskStanding(actor, phase.taskId, db));
  const { note } = parseInput(snapshotInputSchema, { note: input.note ?? undefined }, "note");
  const refuse = (problems: string[]) =>
    new ConflictError(`The final results of the ${phase.name} phase cannot be published yet. ${problems.join(" ")}`, { problems });
  const problems = await readinessProblems(phase, db, now);
  if (problems.length > 0) throw refuse(problems);

  const gold = await activeGold(phase.id, db);
  const boards = await finalBoards(phase.id, user, db, now);
  const storedBoards = JSON.parse(JSON.stringify(boards.map((b) => leaderboardJson(b)))) as Prisma.InputJsonValue[];
  const csv = snapshotCsv(boards);
  const csvSha256 = sha256Hex(csv);
  try {
    return await db.$transaction(async (tx) => {
      // One publisher per phase at a time: the number is the previous one + 1.
      await lockKey(tx, `snapshot:${phase.id}`);
      const current = await loadPhase(phase.id, tx);
      const late = await readinessProblems(current, tx, now);
      if (late.length > 0) throw refuse(late);
      if (!sameGold(gold, await activeGold(phase.id, tx))) {
        throw new ConflictError("A gold key of the phase changed while the final results were being prepared; publish again once its runs are scored.");
      }
      const previous = await tx.resultSnapshot.findFirst({
        where: { phaseId: phase.id },
        orderBy: { number: "desc" },
        select: { number: true, gold: true, scorerVersion: true, board: true },
      });
      const number = (previous?.number ?? 0) + 1;
      const changes = snapshotChanges(
        previous
          ? { number: previous.number, gold: previous.gold as unknown as SnapshotGold[], scorerVersion: previous.scorerVersion, boards: (previous.board ?? []) as unknown[] }
          : null,
        { number, gold, scorerVersion: SCORER_VERSION, boards: storedBoards },
      );
      const json = snapshotJson({ phase, number, createdAt: now, note, gold, scorerVersion: SCORER_VERSION, evaluation: boards[0].evaluation, changes, boards: storedBoards });
      const jsonSha256 = sha256Hex(json);
      const row = await tx.resultSnapshot.create({
        data: {
          phaseId: phase.id,
          number,
          createdById: user.userId,
          createdAt: now,
          note,
          changes: changes as unknown as Prisma.InputJsonValue,
          gold: gold as unknown as Prisma.InputJsonValue,
          scorerVersion: SCORER_VERSION,
          board: storedBoards,
          csv,
          csvSha256,
          json,
          jsonSha256,
        },
        select: SUMMARY_SELECT,
      });
      await recordAudit(tx, {
        actorId: user.userId,
        action: "snapshot.publish",
        targetType: "phase",
        targetId: phase.id,
        data: { taskId: phase.taskId, number, csvSha256, jsonSha256 },
      });
      return summaryOf(phase.task.slug, phase.id, row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError("Another organizer published final results of this phase at the same moment; reload the page to see them, then publish again if needed.");
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Changes between two snapshots

/** A ranking value for a sentence: `72.50` (percent, 2 decimals), or "no score". */
function percent(value: number | null): string {
  return value === null ? "no score" : (value * 100).toFixed(2);
}

/** "CoNLL F1": the ranking metric's name for sentences. */
function metricName(metric: string): string {
  return `${isLeaderboardMetric(metric) ? METRIC_LABELS[metric] : metric} F1`;
}

/** A stored board, as far as this module can read it (anything else counts as an empty board). */
function asBoard(value: unknown): StoredBoard | null {
  if (value === null || typeof value !== "object" || !Array.isArray((value as StoredBoard).rows)) return null;
  return value as StoredBoard;
}

/** A board's key across snapshots: its track's id ("" in a phase without tracks). */
function boardKey(board: StoredBoard): string {
  return board.track?.id ?? "";
}

/** Each team's standing on a board: its first listed run that is neither a baseline nor disqualified. */
function teamEntries(board: StoredBoard): Map<string, StoredRow> {
  const out = new Map<string, StoredRow>();
  for (const row of board.rows) if (!row.isBaseline && !row.disqualified && !out.has(row.team.id)) out.set(row.team.id, row);
  return out;
}

/** `Run "sys" of Team A`. */
function runName(row: ChangeRun): string {
  return `Run "${row.systemName}" of ${row.team.name}`;
}

/** The changes on one board (same track) between two snapshots. */
function boardChanges(before: StoredBoard, after: StoredBoard, metric: string): SnapshotChange[] {
  const track = after.track?.name ?? null;
  const where = track === null ? "" : ` (${track} track)`;
  const m = metricName(metric);
  const out: SnapshotChange[] = [];
  const teamsBefore = teamEntries(before);
  const teamsAfter = teamEntries(after);
  for (const [id, now] of teamsAfter) {
    const was = teamsBefore.get(id);
    const team = { id, name: now.team.name };
    if (!was) {
      out.push({ kind: "team_added", track, team, rank: now.rank, value: now.value, text: `${team.name}${where} is new on the board: rank ${now.rank ?? "none"}, ${m} ${percent(now.value)}.` });
      continue;
    }
    if (was.rank === now.rank && was.value === now.value) continue;
    const parts: string[] = [];
    if (was.rank !== now.rank) parts.push(`rank ${was.rank ?? "none"} → ${now.rank ?? "none"}`);
    if (was.value !== now.value) parts.push(`${m} ${percent(was.value)} → ${percent(now.value)}`);
    else parts.push(`${m} ${percent(now.value)} unchanged`);
    out.push({
      kind: "team_changed",
      track,
      team,
      rank: { from: was.rank, to: now.rank },
      value: { from: was.value, to: now.value },
      text: `${team.name}${where}: ${parts.join(", ")}.`,
    });
  }
  for (const [id, was] of teamsBefore) {
    if (teamsAfter.has(id)) continue;
    const team = { id, name: was.team.name };
    out.push({ kind: "team_removed", track, team, rank: was.rank, value: was.value, text: `${team.name}${where} is no longer on the board (was rank ${was.rank ?? "none"}, ${m} ${percent(was.value)}).` });
  }
  const runsBefore = new Map(before.rows.map((r) => [r.submissionId, r]));
  const runsAfter = new Map(after.rows.map((r) => [r.submissionId, r]));
  const run = (r: StoredRow): ChangeRun => ({ team: { id: r.team.id, name: r.team.name }, systemName: r.systemName, submissionId: r.submissionId });
  for (const [id, r] of runsAfter) {
    const was = runsBefore.get(id);
    if (!was) out.push({ kind: "run_added", track, ...run(r), text: `${runName(r)}${where} added.` });
    else if (r.disqualified && !was.disqualified) {
      out.push({ kind: "run_disqualified", track, reason: r.disqualified.reason, ...run(r), text: `${runName(r)}${where} disqualified: ${r.disqualified.reason}` });
    } else if (!r.disqualified && was.disqualified) out.push({ kind: "run_reinstated", track, ...run(r), text: `${runName(r)}${where} reinstated.` });
  }
  for (const [id, r] of runsBefore) if (!runsAfter.has(id)) out.push({ kind: "run_removed", track, ...run(r), text: `${runName(r)}${where} removed.` });
  return out;
}

/**
 * What differs between two snapshots of a phase: gold versions per dataset, the scorer version,
 * the ranking metric, tracks added or removed, and per board (track) the teams added, removed or
 * moved (rank and ranking value before → after; a team's standing is its first listed run that is
 * neither a baseline nor disqualified), the runs added or removed, disqualified or reinstated.
 *
 * @param previous the previous snapshot's content, or null for the first snapshot
 * @param next the new snapshot's content
 * @returns the changes, each with its sentence; `[{kind: "first"}]` ("First published results.")
 *   without a previous snapshot, `[{kind: "unchanged"}]` when nothing differs
 */
export function snapshotChanges(previous: SnapshotContent | null, next: SnapshotContent): SnapshotChange[] {
  if (!previous) return [{ kind: "first", text: "First published results." }];
  const out: SnapshotChange[] = [];
  const goldBefore = new Map(previous.gold.map((g) => [g.dataset, g.version]));
  const goldAfter = new Map(next.gold.map((g) => [g.dataset, g.version]));
  for (const dataset of new Set([...goldAfter.keys(), ...goldBefore.keys()])) {
    const from = goldBefore.get(dataset) ?? null;
    const to = goldAfter.get(dataset) ?? null;
    if (from === to) continue;
    const v = (n: number | null) => (n === null ? "none" : `v${n}`);
    out.push({ kind: "gold", dataset, from, to, text: `Gold key of ${dataset}: ${v(from)} → ${v(to)}.` });
  }
  if (previous.scorerVersion !== next.scorerVersion) {
    out.push({ kind: "scorer", from: previous.scorerVersion, to: next.scorerVersion, text: `Scorer version: ${previous.scorerVersion} → ${next.scorerVersion}.` });
  }
  const before = previous.boards.map(asBoard).filter((b): b is StoredBoard => b !== null);
  const after = next.boards.map(asBoard).filter((b): b is StoredBoard => b !== null);
  const metricBefore = before[0]?.metric;
  const metric = after[0]?.metric ?? metricBefore ?? "conll";
  if (metricBefore !== undefined && metricBefore !== metric) {
    out.push({ kind: "metric", from: metricBefore, to: metric, text: `Ranking metric: ${metricName(metricBefore)} → ${metricName(metric)}.` });
  }
  const beforeByKey = new Map(before.map((b) => [boardKey(b), b]));
  const afterKeys = new Set(after.map(boardKey));
  for (const board of after) {
    const was = beforeByKey.get(boardKey(board));
    if (was) out.push(...boardChanges(was, board, metric));
    else if (board.track) out.push({ kind: "track_added", track: board.track.name, text: `Track ${board.track.name} added.` });
  }
  for (const board of before) {
    if (!afterKeys.has(boardKey(board)) && board.track) out.push({ kind: "track_removed", track: board.track.name, text: `Track ${board.track.name} removed.` });
  }
  if (out.length === 0) {
    return [{ kind: "unchanged", text: `Nothing changed since snapshot #${previous.number}: the same ranking, gold versions and scorer version.` }];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * The phase and the viewer's standing, when the viewer may read its snapshots.
 *
 * @throws NotFoundError (404) for an unknown or malformed phase id, and a draft task's phase for
 *   a non-organizer; UnauthorizedError (401) for an anonymous viewer of a non-public board;
 *   ForbiddenError (403) for a signed-in viewer outside the board's audience
 */
async function readablePhase(viewer: Viewer, phaseId: string, db: Db): Promise<{ phase: PhaseWithTask; context: SnapshotContext }> {
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

/** A stored row as a board row (dates as Dates, scores under `scores`). */
function displayRow({ metrics, submittedAt, disqualified, datasets, missing, ...row }: StoredRow): LeaderboardRow {
  return {
    ...row,
    scores: metrics,
    submittedAt: new Date(submittedAt),
    disqualified: disqualified ? { reason: disqualified.reason, at: new Date(disqualified.at) } : null,
    datasets: datasets ?? {},
    missing: missing ?? false,
  };
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

/** A file-name part: lower-case ASCII letters and digits, runs of anything else as "-". */
function namePart(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "x";
}

/**
 * A snapshot's export: the stored CSV or JSON with its stored checksum, exactly as published, or
 * the LaTeX or Markdown tables generated from the stored JSON ({@link snapshotLatex},
 * {@link snapshotMarkdown}), which cite the JSON's file name and sha256. Who may read them is the
 * same for every kind.
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase (a malformed id is a 404 like an unknown one)
 * @param number the snapshot's number (a string from the URL, or a number)
 * @param kind `csv`, `json`, `latex` or `markdown`
 * @returns the body, its sha256, a download name `<task>-<phase>-results-<n>.<csv|json|tex|md>`,
 *   the content type, and whether the results are public (PUBLIC board of a published task)
 * @throws as {@link getSnapshot}
 */
export async function getSnapshotFile(viewer: Viewer, phaseId: string, number: string | number, kind: SnapshotFileKind): Promise<SnapshotFile> {
  const db = defaultDb();
  const n = parseSnapshotNumber(number);
  const { phase } = await readablePhase(viewer, phaseId, db);
  const where = { phaseId_number: { phaseId: phase.id, number: n } };
  const name = (extension: string) => `${namePart(phase.task.slug)}-${namePart(phase.name)}-results-${n}.${extension}`;
  const { extension, contentType } = FILE_KINDS[kind];
  const publicResults = phase.leaderboardVisibility === "PUBLIC" && phase.task.status !== "DRAFT";
  if (kind === "csv") {
    const row = await db.resultSnapshot.findUnique({ where, select: { csv: true, csvSha256: true } });
    if (!row) throw new NotFoundError("No such snapshot.");
    return { body: row.csv, sha256: row.csvSha256, fileName: name(extension), contentType, publicResults };
  }
  if (kind === "json") {
    const row = await db.resultSnapshot.findUnique({ where, select: { json: true, jsonSha256: true } });
    if (!row) throw new NotFoundError("No such snapshot.");
    return { body: row.json, sha256: row.jsonSha256, fileName: name(extension), contentType, publicResults };
  }
  const stored = await db.resultSnapshot.findUnique({ where, select: { jsonSha256: true } });
  if (!stored) throw new NotFoundError("No such snapshot.");
  const source = { fileName: name(FILE_KINDS.json.extension), sha256: stored.jsonSha256 };
  // The tables follow from the stored JSON (immutable) and the names they cite: kept by those,
  // so a snapshot's JSON is read and parsed once per process, not on every download.
  const table = await cachedBoardPart(`snapshot-table:${kind}:${source.fileName}:${source.sha256}`, async () => {
    const row = await db.resultSnapshot.findUniqueOrThrow({ where, select: { json: true } });
    const body = kind === "latex" ? snapshotLatex(row.json, source) : snapshotMarkdown(row.json, source);
    return { body, sha256: sha256Hex(body) };
  });
  return { ...table, fileName: name(extension), contentType, publicResults };
}

// ---------------------------------------------------------------------------------------------
// Tables for papers, from the stored JSON

/** The JSON export's document, as far as the tables read it (see the module comment). */
interface SnapshotDocument {
  task: { slug: string; title: string };
  phase: { name: string };
  snapshot: { number: number; createdAt: string };
  gold: { dataset: string; version: number }[];
  scorerVersion: string;
  boards: unknown[];
}

/** Where a table's numbers come from: the JSON export's download name and its sha256 (hex). */
export interface SnapshotTableSource {
  fileName: string;
  sha256: string;
}

/**
 * The JSON export's text as a document.
 *
 * @throws Error when the text is not a snapshot document (the stored JSON is damaged: HTTP 500)
 */
function parseSnapshotDocument(json: string): SnapshotDocument {
  const doc = JSON.parse(json) as Partial<SnapshotDocument> & { format?: unknown };
  if (doc?.format !== SNAPSHOT_JSON_FORMAT || !Array.isArray(doc.boards) || !doc.task || !doc.phase || !doc.snapshot) {
    throw new Error(`the stored JSON export is not a ${SNAPSHOT_JSON_FORMAT} document`);
  }
  return { ...doc, gold: Array.isArray(doc.gold) ? doc.gold : [], scorerVersion: String(doc.scorerVersion ?? "") } as SnapshotDocument;
}

/** A stored board as the table builders read it (`board-export.ts`). */
function exportBoard(value: unknown, doc: SnapshotDocument): ExportBoard | null {
  const board = asBoard(value);
  if (!board) return null;
  const multi = (board.datasets?.length ?? 0) > 1;
  return {
    task: { slug: board.task?.slug ?? doc.task.slug, title: board.task?.title ?? doc.task.title },
    phase: { name: board.phase?.name ?? doc.phase.name, selectionRule: board.phase?.selectionRule },
    evaluation: board.evaluation,
    metric: isLeaderboardMetric(board.metric) ? board.metric : "conll",
    variant: board.variant ?? null,
    track: board.track,
    datasets: multi ? board.datasets! : [],
    dataset: multi ? (board.dataset ?? null) : null,
    rankDataset: multi ? (board.rankDataset ?? null) : null,
    allRuns: board.allRuns === true,
    generatedAt: new Date(board.generatedAt ?? doc.snapshot.createdAt),
    rows: board.rows.map(displayRow),
  };
}

/** The snapshot's boards for the tables, and the comment lines each table gets. */
function tableBoards(json: string, source: SnapshotTableSource): { doc: SnapshotDocument; boards: ExportBoard[]; notes: string[] } {
  const doc = parseSnapshotDocument(json);
  const gold = doc.gold.map((g) => `${g.dataset} v${g.version}`).join(", ");
  const notes = [
    `Final results snapshot #${doc.snapshot.number}, published ${doc.snapshot.createdAt}; scorer version ${doc.scorerVersion}; gold keys: ${gold || "none"}`,
    `Source: ${source.fileName} (the snapshot's JSON export), sha256 ${source.sha256}`,
  ];
  const boards = doc.boards.map((b) => exportBoard(b, doc)).filter((b): b is ExportBoard => b !== null);
  return { doc, boards, notes };
}

/**
 * A snapshot's LaTeX tables (`boardLatex` of each board, with tracks one `tabular` per track in
 * the phase's order, separated by a blank line), generated from its stored JSON export: each
 * board's disqualified runs after its other rows under a "Disqualified" heading, and, in the `%`
 * comment lines above each table, besides the board's facts, the snapshot's number, publication
 * time, scorer version and gold versions, and the JSON export's file name and sha256.
 *
 * @param json the stored JSON export's text (format `corefboard-results-snapshot/1`)
 * @param source the JSON export's download name and its sha256 (hex), cited in the comments
 * @returns the LaTeX source (needs `\usepackage{booktabs}`), ending with a newline
 * @throws Error when `json` is not a snapshot document
 */
export function snapshotLatex(json: string, source: SnapshotTableSource): string {
  const { boards, notes } = tableBoards(json, source);
  return boards.map((board) => boardLatex(board, { disqualifiedApart: true, notes })).join("\n");
}

/**
 * A snapshot's Markdown tables (`boardMarkdown` of each board; with tracks, each under a
 * `### <track> track` heading, in the phase's order), generated from its stored JSON export: each
 * board's disqualified runs in a table of their own under "**Disqualified**", the snapshot's
 * facts and the JSON export's file name and sha256 in the HTML comment above each table, and
 * under the last one a line citing the snapshot and that sha256.
 *
 * @param json the stored JSON export's text (format `corefboard-results-snapshot/1`)
 * @param source the JSON export's download name and its sha256 (hex)
 * @returns the Markdown source, ending with a newline
 * @throws Error when `json` is not a snapshot document
 */
export function snapshotMarkdown(json: string, source: SnapshotTableSource): string {
  const { doc, boards, notes } = tableBoards(json, source);
  const parts = boards.map((board) => `${board.track ? `### ${markdownEscape(board.track.name)} track\n\n` : ""}${boardMarkdown(board, { disqualifiedApart: true, notes })}`);
  const cite =
    `Source: final results snapshot #${doc.snapshot.number} of ${markdownEscape(doc.task.title)} (${markdownEscape(doc.phase.name)} phase), ` +
    `published ${doc.snapshot.createdAt}: JSON export \`${source.fileName}\`, sha256 \`${source.sha256}\`.`;
  return `${[...parts, cite].join("\n")}\n`;
}
