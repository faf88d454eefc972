/**
 * A team's progress in a phase: its SCORED runs in submission order (runs the team withdrew
 * left every board and chart, so they are not points here either), each valued by the
 * task's primary metric F1 (the value the leaderboard ranks by), for the progress chart. The
 * F1 is read from the run's phase-level Score row, so a phase with several datasets gives the
 * macro-average (`macroScoreRows`, lib/boards/scores.ts).
 *
 * Visibility follows `submissionAccess` (lib/permissions.ts): the team's members and the
 * task's organizers see every run of the team; anyone else only PUBLIC runs, and only when
 * the phase's leaderboard is visible to them. When an outsider would see nothing (hidden
 * board, or no public scored run) the answer is the same 404 as for an unknown team, so that
 * private runs stay unknown.
 *
 * The leaderboard policy (issue 11 §2, as `getLeaderboard` applies it): before an
 * "after_close" phase closes, only the team's members and the organizers see its progress
 * (anyone else: 404); runs an organizer hid and runs made at or after a frozen phase's
 * `frozenAt` are points for the organizers only (marked `hidden` / `afterFreeze`), not for
 * the team's members nor anyone else.
 */
import { NotFoundError } from "../errors";
import { boardHiddenUntilClose, isTeamMember, leaderboardVisibleTo, madeAfterFreeze, taskStanding, type Viewer } from "../permissions";
import { DEFAULT_PRIMARY_METRIC, isLeaderboardMetric, type LeaderboardMetric } from "../validations/metrics";
import { defaultDb, isUuid, type SubmissionVisibility } from "../db";
import { loadPhase } from "../tasks";
import { rankingValueOfRows } from "../boards";

/** Most runs a progress answer holds (the latest ones); quotas keep real teams far below it. */
export const MAX_PROGRESS_POINTS = 1000;

/** One scored run of the team. */
export interface ProgressPoint {
  id: string;
  systemName: string;
  submittedAt: Date;
  /** the primary metric's F1, a fraction in [0, 1] */
  value: number;
  isBaseline: boolean;
  /** PRIVATE runs are only ever returned to the team and the organizers */
  visibility: SubmissionVisibility;
  /** organizers only: an organizer hid the run from the boards (always false for others, who do not get such runs) */
  hidden: boolean;
  /** organizers only: made at or after the phase's freeze (always false for others, who do not get such runs) */
  afterFreeze: boolean;
}

/** A team's progress in a phase, from {@link getTeamProgress}. */
export interface TeamProgress {
  phase: { id: string; name: string; displayTimeZone: string };
  task: { slug: string; title: string; primaryMetric: string };
  team: { id: string; name: string };
  /** the metric the points are valued by: the task's primary metric (conll when it is not a known metric) */
  metric: LeaderboardMetric;
  /** oldest first */
  points: ProgressPoint[];
  /** the viewer is a member of the team */
  viewerIsTeamMember: boolean;
  /** the viewer organizes the task (or is a site admin) */
  viewerIsOrganizer: boolean;
}

/**
 * The team's SCORED runs in the phase that the viewer may see, not withdrawn, oldest first (ties by id),
 * each with the primary metric's F1. Runs without a score for that metric are left out.
 *
 * @param viewer the viewer (null = anonymous)
 * @param phaseId the phase (any string: a malformed id is a 404 like an unknown one)
 * @param teamId the team (likewise)
 * @param now the moment the phase's timing is read at (default: now)
 * @throws NotFoundError (404) for an unknown phase or team, or a phase of a draft task the
 *   viewer does not organize; for a viewer outside the team and the organizers when the
 *   phase's leaderboard is hidden from them, hidden until the phase closes, or none of the
 *   team's scored runs in the phase is shown to them
 */
export async function getTeamProgress(viewer: Viewer, phaseId: string, teamId: string, now: Date = new Date()): Promise<TeamProgress> {
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const team = isUuid(teamId) ? await db.team.findUnique({ where: { id: teamId }, select: { id: true, name: true } }) : null;
  if (!team) throw new NotFoundError("No such team.");

  // The same rules as `submissionAccess`, decided once for all the team's runs in the phase.
  const standing = await taskStanding(viewer, phase.taskId, db);
  if (standing.hiddenDraft) throw new NotFoundError("No such phase.");
  const member = viewer !== null && (await isTeamMember(viewer.userId, team.id, db));
  const insider = member || standing.isOrganizer;
  if (!insider && (boardHiddenUntilClose(phase, now) || !(await leaderboardVisibleTo(standing, phase.leaderboardVisibility)))) {
    throw new NotFoundError("No such team in this phase.");
  }
  // Hidden runs and runs after the freeze: organizers only (as on the boards).
  const frozenAt = !standing.isOrganizer && phase.leaderboardTiming === "frozen" ? phase.frozenAt : null;

  const metric = isLeaderboardMetric(phase.task.primaryMetric) ? phase.task.primaryMetric : DEFAULT_PRIMARY_METRIC;
  const rows = await db.submission.findMany({
    where: {
      phaseId: phase.id,
      teamId: team.id,
      status: "SCORED",
      withdrawnAt: null,
      ...(insider ? {} : { visibility: "PUBLIC" as const }),
      ...(standing.isOrganizer ? {} : { hiddenAt: null }),
      ...(frozenAt ? { createdAt: { lt: frozenAt } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: MAX_PROGRESS_POINTS,
    select: {
      id: true,
      systemName: true,
      createdAt: true,
      isBaseline: true,
      visibility: true,
      hiddenAt: true,
      scores: { where: { variant: "", metric } },
    },
  });
  const points: ProgressPoint[] = [];
  for (const s of rows.reverse()) {
    const value = rankingValueOfRows(s.scores, metric);
    if (value === null) continue;
    points.push({
      id: s.id,
      systemName: s.systemName,
      submittedAt: s.createdAt,
      value,
      isBaseline: s.isBaseline,
      visibility: s.visibility,
      hidden: s.hiddenAt !== null,
      afterFreeze: madeAfterFreeze(phase, s.createdAt),
    });
  }
  if (!insider && points.length === 0) throw new NotFoundError("No such team in this phase.");

  return {
    phase: { id: phase.id, name: phase.name, displayTimeZone: phase.displayTimeZone },
    task: { slug: phase.task.slug, title: phase.task.title, primaryMetric: phase.task.primaryMetric },
    team,
    metric,
    points,
    viewerIsTeamMember: member,
    viewerIsOrganizer: standing.isOrganizer,
  };
}
