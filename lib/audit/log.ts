/**
 * Reading the audit log of one task (issue 11 §3 "Audit"): who did what, when, and what it
 * changed, filterable by action, actor and date range, newest first with keyset paging.
 *
 * "The task's events" are the events whose target belongs to the task: the task itself, its
 * phases, and the tracks, datasets, gold keys and submissions of its phases. Team and account
 * events (`team.*`, `user.*`) are not any task's and are never listed. A deleted track or
 * dataset keeps its events: they are matched by the `taskId` their data records.
 */
import { NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { assertCanManageTask, type Viewer } from "../permissions";
import { SLUG_PATTERN } from "../validations/task";
import type { AuditAction } from "./record";
import { defaultDb, isUuid, type Db } from "../db";

/** Every action the services write, in the order the filter offers them. */
export const AUDIT_ACTIONS = [
  "task.create",
  "task.organizer.add",
  "task.evaluation.update",
  "task.analysis.update",
  "task.participant.update",
  "phase.create",
  "phase.update",
  "track.create",
  "track.update",
  "track.reorder",
  "track.delete",
  "dataset.create",
  "dataset.update",
  "dataset.delete",
  "gold.upload",
  "submission.create",
  "submission.withdraw",
  "submission.disqualify",
  "submission.requalify",
  "task.update",
  "task.publish",
  "task.archive",
  "task.unarchive",
  "phase.delete",
  "phase.rescore",
  "submission.hide",
  "submission.unhide",
  "submission.rescore",
  "submission.final_select",
  "submission.final_unselect",
  "snapshot.publish",
  "task.organizer.invite",
  "task.organizer.invitation_revoke",
  "task.organizer.accept",
  "team.create",
  "team.join",
  "team.member_remove",
  "team.leave",
  "team.owner_add",
  "user.password_reset_request",
  "user.password_reset",
  "team.invitation_create",
  "team.invitation_revoke",
  "user.email_change_request",
  "user.email_change",
  "user.email_confirm",
  "user.delete",
  "user.api_token_create",
  "user.api_token_revoke",
  "user.role_change",
] as const satisfies readonly AuditAction[];

// Fails to compile when an action is added to `AuditAction` but not to the list above.
type MissingAuditAction = Exclude<AuditAction, (typeof AUDIT_ACTIONS)[number]>;
const allActionsListed: [MissingAuditAction] extends [never] ? true : MissingAuditAction = true;
void allActionsListed;

/** The actions a task's events can have (team and account actions are never a task's), for the filter's choices. */
export const TASK_AUDIT_ACTIONS: readonly AuditAction[] = AUDIT_ACTIONS.filter((a) => !a.startsWith("team.") && !a.startsWith("user."));

/** The default page size of {@link listTaskAuditEvents}. */
export const AUDIT_PAGE_SIZE = 50;
/** The largest page size a caller may ask for. */
export const AUDIT_PAGE_SIZE_MAX = 200;

/** Filters of {@link listTaskAuditEvents}; all optional, combined with AND. */
export interface AuditFilters {
  /** exact action name; must be one of {@link AUDIT_ACTIONS} */
  action?: string;
  /** the actor's user id (exact) or a substring of their email (case-insensitive) */
  actor?: string;
  /** events at or after this instant */
  from?: Date;
  /** events strictly before this instant */
  to?: Date;
  /** the `next` cursor of the previous page: events strictly older than it */
  before?: string;
}

/** One audit event as the log shows it. */
export interface AuditEventView {
  id: string;
  /** null for system actions and for actors whose account was deleted */
  actor: { id: string; name: string; email: string } | null;
  action: string;
  /** the target's type ("task", "phase", "track", "dataset", "gold_key", "submission"), id and a readable label (null when unknown) */
  target: { type: string; id: string; label: string | null };
  at: Date;
  /** the stored facts of the event (what changed), as written by the service */
  data: unknown;
}

/** A page of events, newest first; `next` is the cursor of the following (older) page, or null on the last page. */
export interface AuditPage {
  events: AuditEventView[];
  next: string | null;
}

/** A cursor: the last event's time (ISO 8601, millisecond precision as stored) and id. */
function encodeCursor(at: Date, id: string): string {
  return `${at.toISOString()}_${id}`;
}

/** @throws ValidationError (422) for a cursor not made by {@link encodeCursor} */
function decodeCursor(cursor: string): { at: Date; id: string } {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f-]{36})$/i.exec(cursor);
  const at = match ? new Date(match[1]) : null;
  if (!match || !at || Number.isNaN(at.getTime()) || !isUuid(match[2])) {
    throw ValidationError.field("before", "The page cursor is not valid. Use the `next` value of the previous page.");
  }
  return { at, id: match[2].toLowerCase() };
}

/** Escapes LIKE wildcards so that the text matches literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

type Row = {
  id: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string;
  label: string | null;
  data: unknown;
  at: Date;
};

/**
 * One page of a task's audit events, newest first (by time, then id), for its organizers and
 * site admins. One SQL query: a UNION ALL of one branch per target type, each driven by the
 * task's rows of the target table and the `audit_events(target_type, target_id, at)` index.
 *
 * @param viewer who asks
 * @param taskSlug the task's slug
 * @param filters action, actor, date range (`from` inclusive, `to` exclusive) and page cursor
 * @param pageSize events per page, 1..{@link AUDIT_PAGE_SIZE_MAX} (default {@link AUDIT_PAGE_SIZE})
 * @returns the events (each with actor, action, target with label, time and data) and the next cursor
 * @throws UnauthorizedError (401) for anonymous viewers; NotFoundError (404) for an unknown
 *   task; ForbiddenError (403) for non-organizers; ValidationError (422) for an unknown
 *   action, a bad cursor, `from` after `to`, or a page size out of range
 */
export async function listTaskAuditEvents(viewer: Viewer, taskSlug: string, filters: AuditFilters = {}, pageSize = AUDIT_PAGE_SIZE, db: Db = defaultDb()): Promise<AuditPage> {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > AUDIT_PAGE_SIZE_MAX) {
    throw ValidationError.field("pageSize", `The page size must be a whole number from 1 to ${AUDIT_PAGE_SIZE_MAX}.`);
  }
  if (filters.action !== undefined && !(AUDIT_ACTIONS as readonly string[]).includes(filters.action)) {
    throw ValidationError.field("action", `Unknown action "${filters.action.slice(0, 60)}". Choose one of: ${AUDIT_ACTIONS.join(", ")}.`);
  }
  if (filters.from && filters.to && filters.from.getTime() > filters.to.getTime()) {
    throw ValidationError.field("from", "The start date must not be after the end date.");
  }
  const cursor = filters.before ? decodeCursor(filters.before) : null;
  // Anonymous callers are asked to sign in before learning whether the task exists.
  if (!viewer) throw new UnauthorizedError("Please sign in as an organizer of this task.");
  // A string that is not slug-shaped is no task (and may hold characters the database refuses, e.g. NUL).
  const task = SLUG_PATTERN.test(taskSlug) ? await db.task.findUnique({ where: { slug: taskSlug }, select: { id: true } }) : null;
  if (!task) throw new NotFoundError("No such task.");
  await assertCanManageTask(viewer, task.id, db);

  const taskId = task.id;
  const where: Prisma.Sql[] = [];
  if (filters.action) where.push(Prisma.sql`e.action = ${filters.action}`);
  const actor = filters.actor?.trim();
  if (actor) {
    where.push(
      isUuid(actor)
        ? Prisma.sql`e.actor_id = ${actor.toLowerCase()}::uuid`
        : Prisma.sql`u.email ILIKE ${`%${likeLiteral(actor)}%`}`,
    );
  }
  if (filters.from) where.push(Prisma.sql`e.at >= ${filters.from}`);
  if (filters.to) where.push(Prisma.sql`e.at < ${filters.to}`);
  if (cursor) where.push(Prisma.sql`(e.at, e.id) < (${cursor.at}, ${cursor.id}::uuid)`);
  const whereSql = where.length > 0 ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty;

  const rows = await db.$queryRaw<Row[]>`
    SELECT e.id::text AS id, e.actor_id::text AS actor_id, u.name AS actor_name, u.email AS actor_email,
           e.action, e.target_type, e.target_id, e.label, e.data, e.at
    FROM (
      SELECT a.*, t.title AS label FROM audit_events a
        JOIN tasks t ON t.id = ${taskId}::uuid
        WHERE a.target_type = 'task' AND a.target_id = ${taskId}
      UNION ALL
      SELECT a.*, p.name FROM phases p
        JOIN audit_events a ON a.target_type = 'phase' AND a.target_id = p.id::text
        WHERE p.task_id = ${taskId}::uuid
      UNION ALL
      SELECT a.*, tr.name FROM phases p JOIN tracks tr ON tr.phase_id = p.id
        JOIN audit_events a ON a.target_type = 'track' AND a.target_id = tr.id::text
        WHERE p.task_id = ${taskId}::uuid
      UNION ALL
      SELECT a.*, d.name FROM phases p JOIN datasets d ON d.phase_id = p.id
        JOIN audit_events a ON a.target_type = 'dataset' AND a.target_id = d.id::text
        WHERE p.task_id = ${taskId}::uuid
      UNION ALL
      SELECT a.*, d.name || ' v' || g.version FROM phases p JOIN gold_keys g ON g.phase_id = p.id
        JOIN datasets d ON d.id = g.dataset_id
        JOIN audit_events a ON a.target_type = 'gold_key' AND a.target_id = g.id::text
        WHERE p.task_id = ${taskId}::uuid
      UNION ALL
      SELECT a.*, s.system_name FROM phases p JOIN submissions s ON s.phase_id = p.id
        JOIN audit_events a ON a.target_type = 'submission' AND a.target_id = s.id::text
        WHERE p.task_id = ${taskId}::uuid
      UNION ALL
      -- deleted phases, tracks and datasets: their rows are gone, their events name the task
      SELECT a.*, a.data->>'name' FROM audit_events a
        WHERE a.target_type IN ('phase', 'track', 'dataset') AND a.data->>'taskId' = ${taskId}
          AND NOT EXISTS (SELECT 1 FROM phases x WHERE x.id::text = a.target_id)
          AND NOT EXISTS (SELECT 1 FROM tracks x WHERE x.id::text = a.target_id)
          AND NOT EXISTS (SELECT 1 FROM datasets x WHERE x.id::text = a.target_id)
    ) e
    LEFT JOIN users u ON u.id = e.actor_id
    ${whereSql}
    ORDER BY e.at DESC, e.id DESC
    LIMIT ${pageSize + 1}`;

  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  return {
    events: page.map((r) => ({
      id: r.id,
      actor: r.actor_id && r.actor_name !== null && r.actor_email !== null ? { id: r.actor_id, name: r.actor_name, email: r.actor_email } : null,
      action: r.action,
      target: { type: r.target_type, id: r.target_id, label: r.label },
      at: r.at,
      data: r.data,
    })),
    next: rows.length > pageSize && last ? encodeCursor(last.at, last.id) : null,
  };
}

/** The raw query values of the audit log (page search params or API query string). */
export interface AuditQueryInput {
  action?: string | null;
  actor?: string | null;
  from?: string | null;
  to?: string | null;
  before?: string | null;
}

/** Parses `YYYY-MM-DD` (UTC midnight; with `endOfDay`, the next midnight) or a full ISO 8601 time. */
function parseWhen(value: string, field: "from" | "to"): Date {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const when = dateOnly ? new Date(`${value}T00:00:00.000Z`) : /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value) ? new Date(value) : null;
  if (!when || Number.isNaN(when.getTime())) {
    throw ValidationError.field(field, `"${value.slice(0, 40)}" is not a date. Use YYYY-MM-DD (UTC) or an ISO 8601 time.`);
  }
  // A date-only end includes that whole day.
  if (dateOnly && field === "to") when.setUTCDate(when.getUTCDate() + 1);
  return when;
}

/**
 * Turns query values into {@link AuditFilters}: empty values are no filter; `from` and `to`
 * are `YYYY-MM-DD` (UTC; `to` includes that whole day) or ISO 8601 times.
 *
 * @throws ValidationError (422) for a date that does not parse
 */
export function parseAuditQuery(input: AuditQueryInput): AuditFilters {
  const text = (v: string | null | undefined) => (v === null || v === undefined || v.trim() === "" ? undefined : v.trim());
  const from = text(input.from);
  const to = text(input.to);
  return {
    action: text(input.action),
    actor: text(input.actor),
    from: from ? parseWhen(from, "from") : undefined,
    to: to ? parseWhen(to, "to") : undefined,
    before: text(input.before),
  };
}

/**
 * What an event's data says changed, as short lines for the log's table: for data with a
 * `changes` object of `{from, to}` pairs (the `*.update` events), "field: from → to" per
 * field; for data with top-level `from` and `to`, "from → to"; otherwise "key: value" per
 * key (ids of the task and phase left out). Values are shown as compact JSON, cut at 80
 * characters.
 *
 * @param data the stored JSON
 * @returns at most `max` lines (default 8), the last saying how many were left out
 */
export function describeAuditData(data: unknown, max = 8): string[] {
  const show = (value: unknown) => {
    const text = typeof value === "string" ? value : JSON.stringify(value) ?? "null";
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  };
  if (data === null || typeof data !== "object" || Array.isArray(data)) return data === undefined ? [] : [show(data)];
  const record = data as Record<string, unknown>;
  const lines: string[] = [];
  const changes = record.changes;
  const isPair = (v: unknown): v is { from: unknown; to: unknown } => v !== null && typeof v === "object" && "from" in v && "to" in v;
  if (changes && typeof changes === "object" && !Array.isArray(changes) && Object.values(changes).every(isPair)) {
    for (const [field, pair] of Object.entries(changes as Record<string, { from: unknown; to: unknown }>)) lines.push(`${field}: ${show(pair.from)} → ${show(pair.to)}`);
    for (const [key, value] of Object.entries(record)) if (key !== "changes" && key !== "taskId" && key !== "phaseId") lines.push(`${key}: ${show(value)}`);
  } else {
    if ("from" in record && "to" in record) lines.push(`${show(record.from)} → ${show(record.to)}`);
    for (const [key, value] of Object.entries(record)) {
      if (key === "taskId" || key === "phaseId" || (lines.length > 0 && (key === "from" || key === "to"))) continue;
      lines.push(`${key}: ${show(value)}`);
    }
  }
  return lines.length > max ? [...lines.slice(0, max - 1), `… ${lines.length - max + 1} more`] : lines;
}
