/**
 * The lists of tasks a viewer sees: `GET /api/v1/tasks` and the home page
 * ({@link listTasksForViewer}), and the /tasks page's cards with their numbers
 * ({@link listTaskSummariesForViewer}). Published and archived tasks for everyone, anonymous
 * visitors included, plus the drafts the viewer organizes (site admins: every draft).
 */
import { formatDistanceStrict } from "date-fns/formatDistanceStrict";
import { isSiteAdmin, leaderboardVisibleTo, type Viewer } from "../permissions";
import { defaultDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { DEFAULT_PRIMARY_METRIC, isLeaderboardMetric, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";
import type { TaskStatus } from "./lifecycle";
import { isPhaseOpen } from "./phases";
import { PHASE_ORDER } from "./tasks";

/** One task in the list (`GET /api/v1/tasks`, the /tasks page). */
export interface TaskListItem {
  id: string;
  slug: string;
  title: string;
  /** DRAFT only in the lists of its organizers (and site admins) */
  status: TaskStatus;
  phases: { id: string; name: string; opensAt: Date; closesAt: Date; open: boolean }[];
}

/** List order of the states: drafts and published tasks first, archived ones after them. */
const STATUS_ORDER: Record<TaskStatus, number> = { DRAFT: 0, PUBLISHED: 0, ARCHIVED: 1 };

/**
 * The tasks the viewer may see, with their phases and status: published and archived tasks for
 * everyone (anonymous visitors included), plus the drafts the viewer organizes (site admins:
 * every draft). Newest first, archived tasks after all others.
 *
 * @param viewer the viewer (null = anonymous)
 * @param now the time for `open` (default: now)
 */
export async function listTasksForViewer(viewer: Viewer, now: Date = new Date()): Promise<TaskListItem[]> {
  const tasks = await defaultDb().task.findMany({
    where: visibleTasksWhere(viewer),
    orderBy: [{ createdAt: "desc" }, { slug: "asc" }],
    select: { id: true, slug: true, title: true, status: true, phases: { orderBy: PHASE_ORDER, select: { id: true, name: true, opensAt: true, closesAt: true } } },
  });
  // A stable sort keeps the newest-first order within each group.
  tasks.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  return tasks.map((t) => ({ ...t, phases: t.phases.map((p) => ({ ...p, open: isPhaseOpen(p, now) })) }));
}

/** The tasks a viewer may list: every task for site admins; else published and archived ones, and the drafts the viewer organizes. */
function visibleTasksWhere(viewer: Viewer): Prisma.TaskWhereInput {
  return isSiteAdmin(viewer)
    ? {}
    : { OR: [{ status: { in: ["PUBLISHED" as const, "ARCHIVED" as const] } }, ...(viewer ? [{ organizers: { some: { userId: viewer.userId } } }] : [])] };
}

/** The phase a task's card is about (`TaskSummary.current`): its state and the countdown to its next edge. */
export interface CurrentPhaseView {
  id: string;
  name: string;
  /** "open" (accepting runs), "upcoming" (not open yet) or "closed" */
  state: "open" | "upcoming" | "closed";
  /** the edge the countdown is about: the closing time of an open or closed phase, the opening time of an upcoming one (UTC) */
  at: Date;
  /** e.g. "closes in 3 days", "opens in 5 hours", "closed 2 months ago" (whole units, rounded down) */
  countdown: string;
}

/** One task in the /tasks page's list: a {@link TaskListItem} with its numbers. */
export interface TaskSummary extends TaskListItem {
  /** teams with at least one run in the task (any phase; baselines and withdrawn runs not counted) */
  teams: number;
  /** runs in the task (any phase, any status; baselines and withdrawn runs not counted) */
  runs: number;
  /** the phase the card is about: the open one closing first, else the next to open, else the last to close; null for a task without phases */
  current: CurrentPhaseView | null;
  /**
   * the best primary-metric score on the current phase's board as its readers see it (see
   * {@link listTaskSummariesForViewer}); null when the board has no ranked run yet, or the
   * viewer may not see it
   */
  topScore: { metric: LeaderboardMetric; label: string; value: number } | null;
}

/** The phase of a task's card: the open phase closing first, else the next to open, else the last to close. */
function currentPhaseOf<P extends { id: string; name: string; opensAt: Date; closesAt: Date }>(phases: readonly P[], now: Date): (P & { state: CurrentPhaseView["state"] }) | null {
  const t = now.getTime();
  const open = phases.filter((p) => isPhaseOpen(p, now)).sort((a, b) => a.closesAt.getTime() - b.closesAt.getTime());
  if (open[0]) return { ...open[0], state: "open" };
  const upcoming = phases.filter((p) => p.opensAt.getTime() > t).sort((a, b) => a.opensAt.getTime() - b.opensAt.getTime());
  if (upcoming[0]) return { ...upcoming[0], state: "upcoming" };
  const closed = [...phases].sort((a, b) => b.closesAt.getTime() - a.closesAt.getTime());
  return closed[0] ? { ...closed[0], state: "closed" } : null;
}

/** "closes in 3 days" / "opens in 5 hours" / "closed 2 months ago": whole units, rounded down (as the phase-date preview says it). */
function countdownText(state: CurrentPhaseView["state"], at: Date, now: Date): string {
  const verb = state === "open" ? "closes" : state === "upcoming" ? "opens" : "closed";
  if (at.getTime() === now.getTime()) return `${verb} now`;
  return `${verb} ${formatDistanceStrict(at, now, { addSuffix: true, roundingMethod: "floor" })}`;
}

/**
 * The tasks the viewer may see (as {@link listTasksForViewer}: same tasks, same order, same
 * phases), each with the numbers the /tasks page shows: how many teams and runs it has, the
 * phase the card is about with a countdown ("closes in 3 days"), and that phase's top score.
 *
 * The counts and the top scores come from SQL aggregates, one query each for all the tasks
 * listed (plus at most two for the viewer's organizer and participant standing), never one
 * query per task.
 *
 * The top score is the primary metric's best value among the runs ranked on the current
 * phase's board as its readers (not its organizers) see it: SCORED, PUBLIC, not baselines, not
 * withdrawn, hidden or disqualified, not made after a freeze, in a track when the phase has
 * tracks; with the phase's selection rule applied per team and track (BEST: the team's best;
 * LATEST: its latest; TEAM_SELECTED: the best of its runs marked final, else its latest), as
 * `ranking.ts` does. It is null when the viewer may not see that board (leaderboard visibility
 * PARTICIPANTS or ORGANIZERS, per {@link leaderboardVisibleTo}) and while an "after_close"
 * board stays hidden (until the phase closes).
 *
 * @param viewer the viewer (null = anonymous)
 * @param now the time for `open`, the current phase and the countdown (default: now)
 * @returns one {@link TaskSummary} per visible task, in {@link listTasksForViewer}'s order
 */
export async function listTaskSummariesForViewer(viewer: Viewer, now: Date = new Date()): Promise<TaskSummary[]> {
  const db = defaultDb();
  const tasks = await db.task.findMany({
    where: visibleTasksWhere(viewer),
    orderBy: [{ createdAt: "desc" }, { slug: "asc" }],
    select: {
      id: true,
      slug: true,
      title: true,
      status: true,
      primaryMetric: true,
      phases: { orderBy: PHASE_ORDER, select: { id: true, name: true, opensAt: true, closesAt: true, leaderboardVisibility: true, leaderboardTiming: true } },
    },
  });
  tasks.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  if (tasks.length === 0) return [];
  const taskIds = tasks.map((t) => t.id);

  // Who the viewer is in each task: organizer (site admins: everywhere) or participant.
  const organizing = new Set<string>(isSiteAdmin(viewer) ? taskIds : []);
  const participating = new Set<string>();
  if (viewer && !isSiteAdmin(viewer)) {
    for (const o of await db.taskOrganizer.findMany({ where: { userId: viewer.userId, taskId: { in: taskIds } }, select: { taskId: true } })) organizing.add(o.taskId);
    const rows = await db.$queryRaw<{ task_id: string }[]>`
      SELECT DISTINCT p.task_id::text AS task_id
        FROM submissions s
        JOIN phases p ON p.id = s.phase_id
        JOIN team_members m ON m.team_id = s.team_id
       WHERE m.user_id = ${viewer.userId}::uuid AND NOT s.is_baseline AND p.task_id = ANY(${taskIds}::uuid[])`;
    for (const r of rows) participating.add(r.task_id);
  }

  // Teams and runs per task: one aggregate over every listed task.
  const counts = new Map<string, { teams: number; runs: number }>();
  const countRows = await db.$queryRaw<{ task_id: string; teams: number; runs: number }[]>`
    SELECT p.task_id::text AS task_id, count(DISTINCT s.team_id)::int AS teams, count(*)::int AS runs
      FROM submissions s
      JOIN phases p ON p.id = s.phase_id
     WHERE p.task_id = ANY(${taskIds}::uuid[]) AND NOT s.is_baseline AND s.withdrawn_at IS NULL
     GROUP BY p.task_id`;
  for (const r of countRows) counts.set(r.task_id, { teams: r.teams, runs: r.runs });

  // The current phase of each task, and the ones whose board the viewer may see now.
  const current = new Map(tasks.map((t) => [t.id, currentPhaseOf(t.phases, now)]));
  const boardPhases: { phaseId: string; metric: LeaderboardMetric }[] = [];
  for (const t of tasks) {
    const phase = current.get(t.id);
    if (!phase) continue;
    const isOrganizer = organizing.has(t.id);
    const hiddenDraft = !isOrganizer && t.status === "DRAFT";
    const standing = { isOrganizer, hiddenDraft, isParticipant: async () => participating.has(t.id) };
    if (!(await leaderboardVisibleTo(standing, phase.leaderboardVisibility))) continue;
    if (phase.leaderboardTiming === "after_close" && now.getTime() < phase.closesAt.getTime()) continue;
    boardPhases.push({ phaseId: phase.id, metric: isLeaderboardMetric(t.primaryMetric) ? t.primaryMetric : DEFAULT_PRIMARY_METRIC });
  }
  const best = await topScores(boardPhases);

  return tasks.map((t) => {
    const phase = current.get(t.id) ?? null;
    const metric = isLeaderboardMetric(t.primaryMetric) ? t.primaryMetric : DEFAULT_PRIMARY_METRIC;
    const top = phase ? best.get(phase.id) : undefined;
    const at = phase ? (phase.state === "upcoming" ? phase.opensAt : phase.closesAt) : null;
    return {
      id: t.id,
      slug: t.slug,
      title: t.title,
      status: t.status,
      phases: t.phases.map((p) => ({ id: p.id, name: p.name, opensAt: p.opensAt, closesAt: p.closesAt, open: isPhaseOpen(p, now) })),
      teams: counts.get(t.id)?.teams ?? 0,
      runs: counts.get(t.id)?.runs ?? 0,
      current: phase && at ? { id: phase.id, name: phase.name, state: phase.state, at, countdown: countdownText(phase.state, at, now) } : null,
      topScore: top === undefined ? null : { metric, label: metric === "conll" ? `${METRIC_LABELS.conll} F1` : METRIC_LABELS[metric], value: top },
    };
  });
}

/**
 * The best primary score of each phase's board, as its readers see it (see
 * {@link listTaskSummariesForViewer}), in one query for all the phases: each team's counted run
 * per track under the phase's selection rule, then the best of those.
 *
 * @param phases the phases and the metric each ranks by (its task's primary metric)
 * @returns phase id → best value (a fraction); phases without a ranked run are absent
 */
async function topScores(phases: readonly { phaseId: string; metric: LeaderboardMetric }[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (phases.length === 0) return out;
  const ids = phases.map((p) => p.phaseId);
  const metrics = phases.map((p) => p.metric);
  const rows = await defaultDb().$queryRaw<{ phase_id: string; best: number | null }[]>`
    WITH boards AS (
      SELECT * FROM unnest(${ids}::uuid[], ${metrics}::text[]) AS b(phase_id, metric)
    ), eligible AS (
      SELECT s.phase_id, s.team_id, s.track_id, s.id, s.created_at, s.final_selected_at IS NOT NULL AS final, p.selection_rule::text AS rule, sc.f1
        FROM boards b
        JOIN phases p ON p.id = b.phase_id
        JOIN submissions s ON s.phase_id = b.phase_id
        LEFT JOIN scores sc ON sc.submission_id = s.id AND sc.phase_id = s.phase_id AND sc.variant = '' AND sc.metric = b.metric
       WHERE s.status = 'SCORED' AND s.visibility = 'PUBLIC' AND NOT s.is_baseline
         AND s.withdrawn_at IS NULL AND s.hidden_at IS NULL AND s.disqualified_at IS NULL
         AND NOT (p.leaderboard_timing = 'frozen' AND p.frozen_at IS NOT NULL AND s.created_at >= p.frozen_at)
         AND (s.track_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM tracks tr WHERE tr.phase_id = s.phase_id))
    ), marked AS (
      SELECT DISTINCT phase_id, team_id, track_id FROM eligible WHERE rule = 'TEAM_SELECTED' AND final
    ), candidates AS (
      -- TEAM_SELECTED: a team that marked runs as final chooses among those only.
      SELECT e.*, (m.team_id IS NOT NULL) AS chooses_final
        FROM eligible e
        LEFT JOIN marked m ON m.phase_id = e.phase_id AND m.team_id = e.team_id AND m.track_id IS NOT DISTINCT FROM e.track_id
       WHERE m.team_id IS NULL OR e.final
    ), counted AS (
      SELECT DISTINCT ON (phase_id, team_id, track_id) phase_id, f1
        FROM candidates
       ORDER BY phase_id, team_id, track_id,
                CASE WHEN rule = 'BEST' OR chooses_final THEN f1 END DESC NULLS LAST,
                created_at DESC, id DESC
    )
    SELECT phase_id::text AS phase_id, max(f1) AS best FROM counted GROUP BY phase_id`;
  for (const r of rows) if (r.best !== null) out.set(r.phase_id, r.best);
  return out;
}

