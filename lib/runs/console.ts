/**
 * The organizer's console (issue 11 §3): the runs of a phase with filters and paging, the
 * teams of a task with their counts, and every run of a phase as one streamed `.tar.gz`.
 * Organizers of the task and site admins only; for anyone else signed in the phase (or task) is
 * a 404, as an unknown one, so that drafts stay unknown; anonymous callers get a 401.
 *
 * **Listing** ({@link listConsoleRuns}): newest first by (`created_at`, `id`), 50 per page
 * (offset paging over that stable order), filtered in SQL by status, team (id, or a
 * case-insensitive substring of its name) and a range of UTC dates; two queries per page (the
 * rows, the count) whatever the number of runs. The primary score is the Score row of the
 * task's primary metric in the primary setting (variant ""), the CoNLL F1 by default. Index
 * note: `submissions (phase_id, created_at DESC, id DESC)` would serve the order and the date
 * range directly (today the planner uses `(phase_id, team_id, created_at)` and sorts the
 * phase's rows, which stays fast at 10,000 runs); a trigram index on `teams.name` would only
 * matter with very many teams.
 *
 * **Archive** ({@link phaseRunsArchive}): a gzip-compressed tar of every run's files as
 * `<team>/<run id>-<system name>/<file name>` (names made safe by {@link archiveName}), then
 * `runs.csv`, one row per file: id, team, system, track, status, submitted (ISO 8601 UTC),
 * primary score, baseline, withdrawn, hidden, disqualified (the reason), path (in the archive),
 * sha256 and size (bytes) of the uncompressed file, written by `csvText` (`\n` line ends; a
 * text cell that starts like a spreadsheet formula, e.g. a team named `=HYPERLINK(…)`, gets a
 * leading apostrophe, the path cell too). It is produced as it is read: runs come
 * from the database in batches (keyset cursor, oldest first), each file is loaded and gunzipped
 * alone and written only when the reader has taken the previous one (tar-stream's entry
 * callback waits for the consumer), and the manifest is spooled to a temporary file, not kept
 * in memory. So memory holds about one file, whatever the number of runs.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream";
import { createGzip, type Gzip } from "node:zlib";
import * as tar from "tar-stream";
import { csvText } from "../http/csv";
import { NotFoundError, ValidationError, type FieldError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { canManageTask, requireSignedIn, type SignedInViewer, type Viewer } from "../permissions";
import { unpackFileAsync } from "../storage";
import { DEFAULT_PRIMARY_METRIC, isLeaderboardMetric } from "../validations/metrics";
import { defaultDb, isUuid, type Db, type SubmissionStatus } from "../db";
import { loadManagedPhase } from "../tasks";

/** Runs per page of {@link listConsoleRuns}. */
export const CONSOLE_PAGE_SIZE = 50;
/** Teams per page of {@link listTaskTeamStats}. */
export const TEAMS_PAGE_SIZE = 50;
/** The highest page number a query may ask for. */
const MAX_PAGE = 100_000;
/** The submission statuses, in the order the filter offers them. */
export const CONSOLE_RUN_STATUSES = ["QUEUED", "SCORING", "SCORED", "FAILED"] as const satisfies readonly SubmissionStatus[];

/** The metric whose F1 is a run's primary score: the task's primary metric, else the CoNLL F1. */
function primaryMetricOf(task: { primaryMetric: string }): string {
  return isLeaderboardMetric(task.primaryMetric) ? task.primaryMetric : DEFAULT_PRIMARY_METRIC;
}

/** Filters of {@link listConsoleRuns}, from {@link parseConsoleRunsQuery}; all optional but the page. */
export interface ConsoleRunFilters {
  status?: SubmissionStatus;
  /** a team id (exact) or a case-insensitive substring of the team's name */
  team?: string;
  /** runs submitted at or after this instant (UTC midnight of the `from` date) */
  from?: Date;
  /** runs submitted strictly before this instant (UTC midnight after the `to` date) */
  to?: Date;
  /** 1-based */
  page: number;
}

/** The raw query values of the submissions tab (page search params or API query string). */
export interface ConsoleRunsQueryInput {
  status?: string | null;
  team?: string | null;
  from?: string | null;
  to?: string | null;
  page?: string | null;
}

/** Trimmed text, or undefined when absent or blank. */
function text(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** A `YYYY-MM-DD` date as UTC midnight, or null when it is not a real date. */
function utcDate(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const when = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(when.getTime()) || when.toISOString().slice(0, 10) !== value ? null : when;
}

/** A 1-based page number from a query value (absent: 1), or null when it is not one. */
function pageNumber(value: string | undefined): number | null {
  if (value === undefined) return 1;
  if (!/^\d{1,6}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= MAX_PAGE ? n : null;
}

/**
 * Turns query values into {@link ConsoleRunFilters}: empty values are no filter; `status` is
 * one of {@link CONSOLE_RUN_STATUSES} (any case); `team` a team id or a part of its name (at
 * most 200 characters); `from` and `to` are UTC dates `YYYY-MM-DD`, both inclusive; `page` a
 * whole number from 1.
 *
 * @throws ValidationError (422) with one field error per bad value (`status`, `team`, `from`,
 *   `to`, `page`), and for `from` after `to`
 */
export function parseConsoleRunsQuery(input: ConsoleRunsQueryInput): ConsoleRunFilters {
  const errors: FieldError[] = [];
  const status = text(input.status)?.toUpperCase();
  if (status !== undefined && !(CONSOLE_RUN_STATUSES as readonly string[]).includes(status)) {
    errors.push({ path: "status", message: `Unknown status "${status.slice(0, 40).toLowerCase()}". Choose one of: ${CONSOLE_RUN_STATUSES.map((s) => s.toLowerCase()).join(", ")}.` });
  }
  const team = text(input.team);
  if (team !== undefined && (team.length > 200 || team.includes("\u0000"))) errors.push({ path: "team", message: "The team filter is a team id or a part of a team's name, at most 200 characters." });
  const dates: Partial<Record<"from" | "to", Date>> = {};
  for (const field of ["from", "to"] as const) {
    const value = text(input[field]);
    if (value === undefined) continue;
    const when = utcDate(value);
    if (when) dates[field] = when;
    else errors.push({ path: field, message: `"${value.slice(0, 40)}" is not a date. Use YYYY-MM-DD (UTC).` });
  }
  if (dates.from && dates.to && dates.from.getTime() > dates.to.getTime()) errors.push({ path: "from", message: "The start date must not be after the end date." });
  const page = pageNumber(text(input.page));
  if (page === null) errors.push({ path: "page", message: `The page must be a whole number from 1 to ${MAX_PAGE}.` });
  if (errors.length > 0) throw new ValidationError(errors[0].message, { fieldErrors: errors });
  // The end date includes its whole day.
  const to = dates.to ? new Date(dates.to.getTime() + 24 * 3600 * 1000) : undefined;
  return { status: status as SubmissionStatus | undefined, team, from: dates.from, to, page: page ?? 1 };
}

/** One run as the console lists it. */
export interface ConsoleRun {
  id: string;
  team: { id: string; name: string };
  systemName: string;
  track: { id: string; name: string } | null;
  status: SubmissionStatus;
  /** F1 (0..1) of the task's primary metric in the primary setting, null until scored */
  primaryScore: number | null;
  submittedAt: Date;
  /** how many scorer warnings the run has */
  warnings: number;
  isBaseline: boolean;
  visibility: "PUBLIC" | "PRIVATE";
  withdrawnAt: Date | null;
  hiddenAt: Date | null;
  disqualified: { reason: string; at: Date } | null;
  finalSelectedAt: Date | null;
  goldVersion: number | null;
  /** the error message of a FAILED run, else null */
  errorMessage: string | null;
}

/** A page of a phase's runs. */
export interface ConsoleRunsPage {
  phase: { id: string; name: string; taskId: string };
  /** the metric of `primaryScore` ("conll", "muc", …) */
  primaryMetric: string;
  runs: ConsoleRun[];
  page: number;
  pageSize: number;
  /** runs matching the filters */
  total: number;
  /** pages of the filtered runs (at least 1) */
  pages: number;
  /** runs of the phase per status, without the filters */
  byStatus: Record<SubmissionStatus, number>;
}

type RunRow = {
  id: string;
  system_name: string;
  status: SubmissionStatus;
  created_at: Date;
  is_baseline: boolean;
  visibility: "PUBLIC" | "PRIVATE";
  withdrawn_at: Date | null;
  hidden_at: Date | null;
  disqualified_at: Date | null;
  disqualified_reason: string | null;
  final_selected_at: Date | null;
  gold_version: number | null;
  error_message: string | null;
  warnings: number;
  team_id: string;
  team_name: string;
  track_id: string | null;
  track_name: string | null;
  primary_f1: number | null;
};

/** Escapes LIKE wildcards so that the text matches literally. */
function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The SQL conditions of the filters (on `s` submissions and `t` teams). */
function filterSql(phaseId: string, filters: ConsoleRunFilters): Prisma.Sql {
  const where: Prisma.Sql[] = [Prisma.sql`s.phase_id = ${phaseId}::uuid`];
  if (filters.status) where.push(Prisma.sql`s.status = ${filters.status}::submission_status`);
  if (filters.team) {
    where.push(isUuid(filters.team) ? Prisma.sql`s.team_id = ${filters.team.toLowerCase()}::uuid` : Prisma.sql`t.name ILIKE ${`%${likeLiteral(filters.team)}%`}`);
  }
  if (filters.from) where.push(Prisma.sql`s.created_at >= ${filters.from}`);
  if (filters.to) where.push(Prisma.sql`s.created_at < ${filters.to}`);
  return Prisma.join(where, " AND ");
}

/**
 * One page of a phase's runs for its organizers (see the module comment): team, system, track,
 * status, primary score, time, warnings count and flags, newest first.
 *
 * @param viewer who asks
 * @param phaseId the phase
 * @param filters from {@link parseConsoleRunsQuery} (default: page 1, no filter)
 * @param db client (default: the shared client)
 * @returns the page, the filtered total and page count, and the phase's runs per status
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase and
 *   for a viewer who does not organize its task
 */
export async function listConsoleRuns(viewer: Viewer, phaseId: string, filters: ConsoleRunFilters = { page: 1 }, db: Db = defaultDb()): Promise<ConsoleRunsPage> {
  const { phase } = await loadManagedPhase(viewer, phaseId, db);
  const metric = primaryMetricOf(phase.task);
  const where = filterSql(phase.id, filters);
  const offset = (filters.page - 1) * CONSOLE_PAGE_SIZE;
  const rows = await db.$queryRaw<RunRow[]>`
    SELECT s.id::text AS id, s.system_name, s.status::text AS status, s.created_at, s.is_baseline, s.visibility::text AS visibility,
           s.withdrawn_at, s.hidden_at, s.disqualified_at, s.disqualified_reason, s.final_selected_at, s.gold_version,
           CASE WHEN s.status = 'FAILED' THEN s.error_message END AS error_message,
           CASE WHEN jsonb_typeof(s.warnings) = 'array' THEN jsonb_array_length(s.warnings) ELSE 0 END::int AS warnings,
           t.id::text AS team_id, t.name AS team_name, tr.id::text AS track_id, tr.name AS track_name, sc.f1 AS primary_f1
      FROM submissions s
      JOIN teams t ON t.id = s.team_id
      LEFT JOIN tracks tr ON tr.id = s.track_id
      LEFT JOIN scores sc ON sc.submission_id = s.id AND sc.variant = '' AND sc.metric = ${metric}
     WHERE ${where}
     ORDER BY s.created_at DESC, s.id DESC
     LIMIT ${CONSOLE_PAGE_SIZE} OFFSET ${offset}`;
  const [{ n }] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM submissions s JOIN teams t ON t.id = s.team_id WHERE ${where}`;
  const counts = await db.submission.groupBy({ by: ["status"], where: { phaseId: phase.id }, _count: { _all: true } });
  const byStatus = Object.fromEntries(CONSOLE_RUN_STATUSES.map((s) => [s, 0])) as Record<SubmissionStatus, number>;
  for (const c of counts) byStatus[c.status] = c._count._all;
  return {
    phase: { id: phase.id, name: phase.name, taskId: phase.taskId },
    primaryMetric: metric,
    runs: rows.map((r) => ({
      id: r.id,
      team: { id: r.team_id, name: r.team_name },
      systemName: r.system_name,
      track: r.track_id !== null && r.track_name !== null ? { id: r.track_id, name: r.track_name } : null,
      status: r.status,
      primaryScore: r.primary_f1,
      submittedAt: r.created_at,
      warnings: r.warnings,
      isBaseline: r.is_baseline,
      visibility: r.visibility,
      withdrawnAt: r.withdrawn_at,
      hiddenAt: r.hidden_at,
      disqualified: r.disqualified_at && r.disqualified_reason !== null ? { reason: r.disqualified_reason, at: r.disqualified_at } : null,
      finalSelectedAt: r.final_selected_at,
      goldVersion: r.gold_version,
      errorMessage: r.error_message,
    })),
    page: filters.page,
    pageSize: CONSOLE_PAGE_SIZE,
    total: n,
    pages: Math.max(1, Math.ceil(n / CONSOLE_PAGE_SIZE)),
    byStatus,
  };
}

/** One team of a task as the console's teams tab lists it. */
export interface TaskTeamStats {
  id: string;
  name: string;
  /** members of the team (all of them, not only those who submitted) */
  members: number;
  /** the team's runs in the task, every phase, baselines included */
  runs: number;
  /** of which baselines */
  baselineRuns: number;
  /** the team's latest run in the task, or null (a team recorded for a participant without a run of its own) */
  lastRunAt: Date | null;
}

/** A page of a task's teams. */
export interface TaskTeamsPage {
  teams: TaskTeamStats[];
  page: number;
  pageSize: number;
  total: number;
  pages: number;
}

/**
 * The teams of a task for its organizers: every team with a run in the task or recorded for a
 * participant (`task_participants`), with its members count, runs in the task and last run
 * time; latest activity first (teams without runs last, by name), {@link TEAMS_PAGE_SIZE} per page.
 *
 * @param viewer who asks
 * @param taskId the task (a malformed id is a 404 like an unknown one)
 * @param page 1-based page number (default 1)
 * @param db client (default: the shared client)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown task and for
 *   a viewer who does not organize it; ValidationError (422, field `page`) for a bad page number
 */
export async function listTaskTeamStats(viewer: Viewer, taskId: string, page = 1, db: Db = defaultDb()): Promise<TaskTeamsPage> {
  const user = requireSignedIn(viewer, "Please sign in as an organizer of this task.");
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) throw ValidationError.field("page", `The page must be a whole number from 1 to ${MAX_PAGE}.`);
  const task = isUuid(taskId) ? await db.task.findUnique({ where: { id: taskId }, select: { id: true } }) : null;
  if (!task || !(await canManageTask(user, task.id, db))) throw new NotFoundError("No such task.");
  const teamsSql = Prisma.sql`
    WITH runs AS (
      SELECT s.team_id, count(*)::int AS runs, count(*) FILTER (WHERE s.is_baseline)::int AS baseline_runs, max(s.created_at) AS last_run
        FROM submissions s JOIN phases p ON p.id = s.phase_id
       WHERE p.task_id = ${task.id}::uuid
       GROUP BY s.team_id
    ), ids AS (
      SELECT team_id FROM runs UNION SELECT team_id FROM task_participants WHERE task_id = ${task.id}::uuid
    )`;
  const [{ n }] = await db.$queryRaw<{ n: number }[]>`${teamsSql} SELECT count(*)::int AS n FROM ids`;
  const rows = await db.$queryRaw<{ id: string; name: string; members: number; runs: number | null; baseline_runs: number | null; last_run: Date | null }[]>`
    ${teamsSql}
    SELECT t.id::text AS id, t.name, (SELECT count(*)::int FROM team_members m WHERE m.team_id = t.id) AS members,
           r.runs, r.baseline_runs, r.last_run
      FROM ids JOIN teams t ON t.id = ids.team_id LEFT JOIN runs r ON r.team_id = t.id
     ORDER BY r.last_run DESC NULLS LAST, t.name ASC, t.id ASC
     LIMIT ${TEAMS_PAGE_SIZE} OFFSET ${(page - 1) * TEAMS_PAGE_SIZE}`;
  return {
    teams: rows.map((r) => ({ id: r.id, name: r.name, members: r.members, runs: r.runs ?? 0, baselineRuns: r.baseline_runs ?? 0, lastRunAt: r.last_run })),
    page,
    pageSize: TEAMS_PAGE_SIZE,
    total: n,
    pages: Math.max(1, Math.ceil(n / TEAMS_PAGE_SIZE)),
  };
}

/**
 * A name made safe as one path segment of the archive: no slash or backslash, no control
 * characters, no ".." (each becomes "_"), trimmed, at most 100 characters; "_" when nothing is
 * left.
 *
 * @param name a team, system or file name
 */
export function archiveName(name: string): string {
  const safe = name
    .replace(/[\u0000-\u001f\u007f/\\]/g, "_")
    .replace(/\.\.+/g, "_")
    .trim()
    .slice(0, 100);
  return safe === "" || safe === "." ? "_" : safe;
}

/** The manifest's columns, in order. */
export const RUNS_MANIFEST_COLUMNS = [
  "id",
  "team",
  "system",
  "track",
  "status",
  "submitted",
  "primary_score",
  "baseline",
  "withdrawn",
  "hidden",
  "disqualified",
  "path",
  "sha256",
  "size",
] as const;

/** The streamed archive of a phase's runs. */
export interface RunsArchive {
  /** a download name, e.g. "my-task-test-runs.tar.gz" */
  fileName: string;
  /** the `.tar.gz` bytes, produced as they are read */
  stream: ReadableStream<Uint8Array>;
}

/** Options of {@link phaseRunsArchive}. */
export interface RunsArchiveOptions {
  /** runs read from the database per query (default 100) */
  batchSize?: number;
  /** called after each batch is read, with the number of runs in it (tests watch the streaming with it) */
  onBatch?: (runs: number) => void;
  /** called when producing the archive fails after the stream started (default: logs it) */
  onError?: (error: unknown) => void;
}

/** A run as the archive reads it. */
type ArchiveRun = {
  id: string;
  systemName: string;
  status: SubmissionStatus;
  createdAt: Date;
  isBaseline: boolean;
  withdrawnAt: Date | null;
  hiddenAt: Date | null;
  disqualifiedReason: string | null;
  disqualifiedAt: Date | null;
  team: { name: string };
  track: { name: string } | null;
  scores: { f1: number }[];
  files: { datasetId: string; fileName: string; sha256: string; size: number }[];
};

/** Writes one in-memory entry; resolves when the reader has taken it (backpressure). */
function writeEntry(pack: tar.Pack, header: Partial<tar.Header> & { name: string }, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry(header, body, (error) => (error ? reject(error) : resolve()));
  });
}

/** Writes a file from disk as one entry of `header.size` bytes, chunk by chunk; resolves when the reader has taken it. */
function writeFileEntry(pack: tar.Pack, header: Partial<tar.Header> & { name: string }, file: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const sink = pack.entry(header, (error) => (error ? reject(error) : resolve()));
    const drained = () =>
      new Promise<void>((go) => {
        const done = () => {
          sink.off("drain", done);
          sink.off("close", done);
          go();
        };
        sink.on("drain", done);
        sink.on("close", done);
      });
    (async () => {
      for await (const chunk of createReadStream(file)) {
        if (sink.destroyed) throw new Error("the archive stream was closed");
        if (!sink.write(chunk as Buffer)) await drained();
      }
      sink.end(undefined);
    })().catch((error: Error) => {
      sink.destroy(error);
      reject(error);
    });
  });
}

/**
 * Every run of a phase as one `.tar.gz` (see the module comment for the layout and the
 * manifest), for the task's organizers. Authorization happens before the stream is returned;
 * what fails afterwards (a database error, a damaged stored file) ends the stream with an error
 * and is logged. Cancelling the stream stops the production.
 *
 * @param viewer who asks
 * @param phaseId the phase
 * @param options batch size and hooks (tests)
 * @returns the download name and the stream
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase and
 *   for a viewer who does not organize its task
 */
export async function phaseRunsArchive(viewer: Viewer, phaseId: string, options: RunsArchiveOptions = {}): Promise<RunsArchive> {
  const db = defaultDb();
  const { phase } = await loadManagedPhase(viewer, phaseId, db);
  const onError = options.onError ?? ((error: unknown) => console.error(`runs archive of phase ${phase.id}: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`));

  const pack = tar.pack();
  const gzip = createGzip();
  pipeline(pack, gzip, () => {});
  const dir = await mkdtemp(path.join(tmpdir(), "corefboard-runs-"));
  void produceRunsArchive(pack, dir, { db, phaseId: phase.id, metric: primaryMetricOf(phase.task), batchSize: options.batchSize ?? 100, onBatch: options.onBatch }, onError);

  const fileName = `${archiveName(phase.task.slug)}-${archiveName(phase.name).replace(/\s+/g, "-")}-runs.tar.gz`;
  return { fileName, stream: archiveStream(pack, gzip) };
}

/** Where {@link produceRunsArchive} reads the runs from. */
interface RunsSource {
  db: Db;
  phaseId: string;
  /** the task's primary metric (the manifest's F1 column) */
  metric: string;
  /** runs per query */
  batchSize: number;
  /** called with each batch's size (tests) */
  onBatch?: (runs: number) => void;
}

/**
 * Writes the runs archive into `pack`: each run's files (batch by batch, in upload order),
 * then the manifest `runs.csv`, written meanwhile to a file in `dir`; finalizes the pack. A
 * failure destroys the pack (unless the reader already did) after `onError`; `dir` is removed
 * in every case.
 */
async function produceRunsArchive(pack: tar.Pack, dir: string, source: RunsSource, onError: (error: unknown) => void): Promise<void> {
  const manifestPath = path.join(dir, "runs.csv");
  const manifest = createWriteStream(manifestPath);
  const manifestClosed = once(manifest, "close");
  const writeManifest = async (line: string) => {
    if (!manifest.write(line)) await once(manifest, "drain");
  };
  try {
    await writeManifest(csvText([RUNS_MANIFEST_COLUMNS], "\n"));
    let cursor: { createdAt: Date; id: string } | null = null;
    for (;;) {
      const runs = await runsBatch(source, cursor);
      source.onBatch?.(runs.length);
      for (const run of runs) await writeRunEntries(pack, source.db, run, writeManifest);
      if (runs.length < source.batchSize) break;
      const last: ArchiveRun = runs[runs.length - 1];
      cursor = { createdAt: last.createdAt, id: last.id };
    }
    manifest.end();
    await manifestClosed;
    const { size } = await stat(manifestPath);
    await writeFileEntry(pack, { name: "runs.csv", size, mtime: new Date() }, manifestPath);
    pack.finalize();
  } catch (error) {
    manifest.destroy();
    if (!pack.destroyed) {
      onError(error);
      pack.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The next batch of a phase's runs after `cursor` (upload order: creation time, then id), with what the archive needs. */
function runsBatch(source: RunsSource, cursor: { createdAt: Date; id: string } | null): Promise<ArchiveRun[]> {
  return source.db.submission.findMany({
    where: {
      phaseId: source.phaseId,
      ...(cursor ? { OR: [{ createdAt: { gt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { gt: cursor.id } }] } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: source.batchSize,
    select: {
      id: true,
      systemName: true,
      status: true,
      createdAt: true,
      isBaseline: true,
      withdrawnAt: true,
      hiddenAt: true,
      disqualifiedReason: true,
      disqualifiedAt: true,
      team: { select: { name: true } },
      track: { select: { name: true } },
      scores: { where: { variant: "", metric: source.metric }, select: { f1: true } },
      files: { orderBy: [{ dataset: { position: "asc" } }, { fileName: "asc" }], select: { datasetId: true, fileName: true, sha256: true, size: true } },
    },
  });
}

/**
 * Writes a run's files into the archive under `<team>/<run id>-<system>/` (a file name met
 * twice is prefixed with its dataset's id), each read from the database and unpacked one
 * after the other, and one manifest line per file.
 */
async function writeRunEntries(pack: tar.Pack, db: Db, run: ArchiveRun, writeManifest: (line: string) => Promise<void>): Promise<void> {
  const folder = `${archiveName(run.team.name)}/${run.id}-${archiveName(run.systemName)}`;
  const used = new Set<string>();
  for (const file of run.files) {
    let name = archiveName(file.fileName);
    if (used.has(name)) name = `${file.datasetId}-${name}`;
    used.add(name);
    const stored = await db.submissionFile.findUniqueOrThrow({
      where: { submissionId_datasetId: { submissionId: run.id, datasetId: file.datasetId } },
      select: { gzip: true },
    });
    const body = await unpackFileAsync(stored.gzip, file.sha256);
    const entryPath = `${folder}/${name}`;
    await writeEntry(pack, { name: entryPath, size: body.byteLength, mtime: run.createdAt }, body);
    await writeManifest(csvText([manifestRow(run, entryPath, file)], "\n"));
  }
}

/** A run file's line of the manifest, in the order of `RUNS_MANIFEST_COLUMNS`. */
function manifestRow(run: ArchiveRun, entryPath: string, file: ArchiveRun["files"][number]): (string | number)[] {
  return [
    run.id,
    run.team.name,
    run.systemName,
    run.track?.name ?? "",
    run.status,
    run.createdAt.toISOString(),
    run.scores[0]?.f1 ?? "",
    run.isBaseline ? "yes" : "no",
    run.withdrawnAt ? "yes" : "no",
    run.hiddenAt ? "yes" : "no",
    run.disqualifiedAt ? (run.disqualifiedReason ?? "yes") : "",
    entryPath,
    file.sha256,
    file.size,
  ];
}

/** The gzip's output as a web stream, pulled chunk by chunk; cancelling it destroys the pack (production stops). */
function archiveStream(pack: tar.Pack, gzip: Gzip): ReadableStream<Uint8Array> {
  const chunks = gzip[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value as Buffer));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      pack.destroy();
      await chunks.return?.();
    },
  });
}
