/**
 * Submission limits per team per phase: per day and in total.
 *
 * - A day is a UTC calendar day: the daily count resets at 00:00 UTC (pages show that time
 *   in UTC and in the reader's zone).
 * - Counted: every submission of the team in the phase, in any status, except baselines and
 *   FAILED submissions whose error stage is `platform` (platform failures never use quota).
 * - A submission counts for the UTC day of its `createdAt`.
 * - Tracks (issue 10 §5, `tracks.ts`): a track with a limit of its own (`dailyLimit` or
 *   `totalLimit` set; the other may be null = no limit) has its own quota, which counts only
 *   the team's runs in that track. Every other run of the team in the phase (runs in tracks
 *   without limits of their own, and runs without a track) shares the phase's limits, as in a
 *   phase without tracks. Which tracks have their own limits is read at the moment of counting.
 */
import { QuotaExceededError, UnauthorizedError } from "../errors";
import type { Viewer } from "../permissions";
import { ErrorStage } from "../submission-states";
import { formatUtc } from "../validations/time";
import { defaultDb, type Db, type Phase, type Prisma } from "../db";
import { loadPhase, hasOwnLimits, listTracks, type TrackView } from "../tasks";
import { listTeamsOf, pickTaskTeam, taskTeamOf } from "../teams";

/** A team's use of a phase's limits at one moment. Remaining counts are null without a limit. */
export interface QuotaStatus {
  usedToday: number;
  dailyLimit: number | null;
  remainingToday: number | null;
  usedTotal: number;
  totalLimit: number | null;
  remainingTotal: number | null;
  /** when the daily count resets: the next 00:00 UTC after `now` */
  resetsAt: Date;
  /** the track whose own limits these are, or null for the phase's limits (shared by the runs outside such tracks) */
  track: { id: string; name: string } | null;
}

/** 00:00 UTC of the UTC day containing `now`. */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** 00:00 UTC of the UTC day after the one containing `now`. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(utcDayStart(now).getTime() + 24 * 3600 * 1000);
}

/**
 * Prisma filter for the submissions that count against a team's quota in a phase: not
 * baselines, and not FAILED at stage `platform` (see the module comment).
 *
 * @param scope which runs of the phase: all (absent), the runs in one track (`trackId`: a
 *   track with its own limits), or the runs outside the given tracks (`exceptTrackIds`: the
 *   phase's shared quota, without the tracks that have their own limits; runs without a track
 *   included)
 * @returns a `where` for `submission.count` / `findMany`
 */
export function countedSubmissions(
  teamId: string,
  phaseId: string,
  scope: { trackId: string } | { exceptTrackIds: readonly string[] } | null = null,
): Prisma.SubmissionWhereInput {
  const where: Prisma.SubmissionWhereInput = {
    teamId,
    phaseId,
    isBaseline: false,
    OR: [{ status: { not: "FAILED" } }, { errorStage: null }, { errorStage: { not: ErrorStage.platform } }],
  };
  if (scope && "trackId" in scope) return { ...where, trackId: scope.trackId };
  if (scope && scope.exceptTrackIds.length > 0) return { ...where, AND: [{ OR: [{ trackId: null }, { trackId: { notIn: [...scope.exceptTrackIds] } }] }] };
  return where;
}

/**
 * A team's quota in a phase at `now`, for a run in `track`: the track's own quota when it has
 * limits of its own, else the phase's shared quota (see the module comment).
 *
 * @param teamId the team
 * @param phaseId the phase (its limits are read; pass `phase` to skip that query)
 * @param now the moment (default: now); the day is its UTC day
 * @param db client or transaction (use the transaction that holds the quota lock)
 * @param track the run's track (its limits as given are used), or null/absent for a run
 *   without a track (the phase's shared quota)
 * @throws NotFoundError (404) for an unknown phase
 */
export async function quotaStatus(
  teamId: string,
  phaseId: string,
  now: Date = new Date(),
  db: Db = defaultDb(),
  phase?: Pick<Phase, "dailyLimit" | "totalLimit">,
  track?: Pick<TrackView, "id" | "name" | "dailyLimit" | "totalLimit"> | null,
): Promise<QuotaStatus> {
  if (track && hasOwnLimits(track)) {
    return counted(countedSubmissions(teamId, phaseId, { trackId: track.id }), track, now, db, { id: track.id, name: track.name });
  }
  const limits = phase ?? (await loadPhase(phaseId, db));
  const own = await db.track.findMany({ where: { phaseId, OR: [{ dailyLimit: { not: null } }, { totalLimit: { not: null } }] }, select: { id: true } });
  return counted(countedSubmissions(teamId, phaseId, { exceptTrackIds: own.map((t) => t.id) }), limits, now, db, null);
}

/** Counts the runs `where` selects, today and in total, against `limits`. */
async function counted(
  where: Prisma.SubmissionWhereInput,
  limits: Pick<Phase, "dailyLimit" | "totalLimit">,
  now: Date,
  db: Db,
  track: QuotaStatus["track"],
): Promise<QuotaStatus> {
  const [usedTotal, usedToday] = await Promise.all([
    db.submission.count({ where }),
    db.submission.count({ where: { AND: [where, { createdAt: { gte: utcDayStart(now), lt: nextUtcMidnight(now) } }] } }),
  ]);
  return quotaOf(limits, usedToday, usedTotal, now, track);
}

/** The quota for given limits and use counts at `now` (no query). */
function quotaOf(limits: Pick<Phase, "dailyLimit" | "totalLimit">, usedToday: number, usedTotal: number, now: Date, track: QuotaStatus["track"] = null): QuotaStatus {
  const remaining = (limit: number | null, used: number) => (limit === null ? null : Math.max(0, limit - used));
  return {
    usedToday,
    dailyLimit: limits.dailyLimit,
    remainingToday: remaining(limits.dailyLimit, usedToday),
    usedTotal,
    totalLimit: limits.totalLimit,
    remainingTotal: remaining(limits.totalLimit, usedTotal),
    resetsAt: nextUtcMidnight(now),
    track,
  };
}

/**
 * Throws when one more submission would go over a limit (the total limit is checked first:
 * waiting for tomorrow does not help with it).
 *
 * @param status the team's current quota (a track's own quota names the track in the message)
 * @param teamName and `phaseName` for the message
 * @throws QuotaExceededError (429)
 */
export function assertQuotaLeft(status: QuotaStatus, teamName: string, phaseName: string): void {
  const where = status.track ? `the "${status.track.name}" track of the ${phaseName} phase` : `the ${phaseName} phase`;
  if (status.remainingTotal === 0) {
    throw new QuotaExceededError(
      `Team "${teamName}" has used all ${status.totalLimit} submissions allowed in ${where}.`,
      { limit: "total" },
    );
  }
  if (status.remainingToday === 0) {
    throw new QuotaExceededError(
      `Team "${teamName}" has used its ${status.dailyLimit} submissions for today in ${where}. ` +
        `Daily limits reset at 00:00 UTC; the next submission is possible from ${formatUtc(status.resetsAt)}.`,
      { limit: "daily", resetsAt: status.resetsAt.toISOString() },
    );
  }
}

/** What the submit page shows about limits. */
export interface ViewerQuota {
  /** the viewer's teams (a chooser offers them only when `mustChooseTeam`) */
  teams: { id: string; name: string }[];
  /** the team that would submit; null when the viewer is in no team (a personal team is created on first submission) or must choose */
  team: { id: string; name: string } | null;
  /** true when `team` is the one recorded for the viewer in the task: no other team can be chosen (organizers can change it) */
  fixed: boolean;
  /** true when the viewer is in several teams, has no team recorded in the task, and named none */
  mustChooseTeam: boolean;
  /**
   * the phase's shared quota of `team` (zero use when a personal team would be created); null
   * when a team must be chosen
   */
  quota: QuotaStatus | null;
  /**
   * when some track of the phase has limits of its own: one entry per track in the phase's
   * order, with the quota a run in it uses (`ownLimits`: the track's own, else the phase's
   * shared one, equal to `quota`); null otherwise, and when a team must be chosen
   */
  tracks: TrackQuota[] | null;
}

/** The quota a run in one track uses. */
export interface TrackQuota {
  track: { id: string; name: string };
  /** true when the track has limits of its own (else `quota` is the phase's shared quota) */
  ownLimits: boolean;
  quota: QuotaStatus;
}

/**
 * The viewer's quota in a phase for the submit page. Resolves the team as a non-baseline
 * submission does (the team recorded for the viewer in the task first; see `pickTaskTeam`),
 * without creating or recording anything.
 *
 * @param teamRef a team id or name, as in the submission's `team` field
 * @returns the team, the phase's shared quota and, when some track has limits of its own,
 *   the quota per track (`ViewerQuota`)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase;
 *   ForbiddenError (403) when `teamRef` names a team the viewer is not in, or another team
 *   than the one recorded for them in the task
 */
export async function quotaForViewer(viewer: Viewer, phaseId: string, teamRef?: string | null, now: Date = new Date()): Promise<ViewerQuota> {
  if (!viewer) throw new UnauthorizedError("Please sign in to submit.");
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const teams = (await listTeamsOf(viewer.userId, db)).map((t) => ({ id: t.id, name: t.name }));
  const recorded = await taskTeamOf(phase.taskId, viewer.userId, db);
  if (!recorded && !teamRef && teams.length > 1) return { teams, team: null, fixed: false, mustChooseTeam: true, quota: null, tracks: null };
  const team = pickTaskTeam(recorded?.team ?? null, teams, teamRef);
  // No team yet: the personal team created on the first submission starts with zero use.
  const status = (track: TrackView | null) =>
    team ? quotaStatus(team.id, phaseId, now, db, phase, track) : Promise.resolve(track && hasOwnLimits(track) ? quotaOf(track, 0, 0, now, { id: track.id, name: track.name }) : quotaOf(phase, 0, 0, now));
  const quota = await status(null);
  const phaseTracks = await listTracks(phase.id, db);
  const tracks = phaseTracks.some(hasOwnLimits)
    ? await Promise.all(
        phaseTracks.map(async (t) => ({ track: { id: t.id, name: t.name }, ownLimits: hasOwnLimits(t), quota: hasOwnLimits(t) ? await status(t) : quota })),
      )
    : null;
  return { teams, team, fixed: recorded !== null, mustChooseTeam: false, quota, tracks };
}
