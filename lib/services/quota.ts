/**
 * Submission limits per team per phase: per day and in total.
 *
 * - A day is a UTC calendar day: the daily count resets at 00:00 UTC (pages show that time
 *   in UTC and in the reader's zone).
 * - Counted: every submission of the team in the phase, in any status, except baselines and
 *   FAILED submissions whose error stage is `platform` (platform failures never use quota).
 * - A submission counts for the UTC day of its `createdAt`.
 */
import { QuotaExceededError, UnauthorizedError } from "../errors";
import type { Viewer } from "../permissions";
import { ErrorStage } from "../submission-states";
import { formatUtc } from "../validations/time";
import { defaultDb, type Db, type Phase, type Prisma } from "./db";
import { loadPhase } from "./phases";
import { listTeamsOf, pickTaskTeam, taskTeamOf } from "./teams";

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
 * @returns a `where` for `submission.count` / `findMany`
 */
export function countedSubmissions(teamId: string, phaseId: string): Prisma.SubmissionWhereInput {
  return {
    teamId,
    phaseId,
    isBaseline: false,
    OR: [{ status: { not: "FAILED" } }, { errorStage: null }, { errorStage: { not: ErrorStage.platform } }],
  };
}

/**
 * A team's quota in a phase at `now`.
 *
 * @param teamId the team
 * @param phaseId the phase (its limits are read; pass `phase` to skip that query)
 * @param now the moment (default: now); the day is its UTC day
 * @param db client or transaction (use the transaction that holds the quota lock)
 * @throws NotFoundError (404) for an unknown phase
 */
export async function quotaStatus(
  teamId: string,
  phaseId: string,
  now: Date = new Date(),
  db: Db = defaultDb(),
  phase?: Pick<Phase, "dailyLimit" | "totalLimit">,
): Promise<QuotaStatus> {
  const limits = phase ?? (await loadPhase(phaseId, db));
  const where = countedSubmissions(teamId, phaseId);
  const [usedTotal, usedToday] = await Promise.all([
    db.submission.count({ where }),
    db.submission.count({ where: { ...where, createdAt: { gte: utcDayStart(now), lt: nextUtcMidnight(now) } } }),
  ]);
  return quotaOf(limits, usedToday, usedTotal, now);
}

/** The quota for given limits and use counts at `now` (no query). */
function quotaOf(limits: Pick<Phase, "dailyLimit" | "totalLimit">, usedToday: number, usedTotal: number, now: Date): QuotaStatus {
  const remaining = (limit: number | null, used: number) => (limit === null ? null : Math.max(0, limit - used));
  return {
    usedToday,
    dailyLimit: limits.dailyLimit,
    remainingToday: remaining(limits.dailyLimit, usedToday),
    usedTotal,
    totalLimit: limits.totalLimit,
    remainingTotal: remaining(limits.totalLimit, usedTotal),
    resetsAt: nextUtcMidnight(now),
  };
}

/**
 * Throws when one more submission would go over a limit (the total limit is checked first:
 * waiting for tomorrow does not help with it).
 *
 * @param status the team's current quota
 * @param teamName and `phaseName` for the message
 * @throws QuotaExceededError (429)
 */
export function assertQuotaLeft(status: QuotaStatus, teamName: string, phaseName: string): void {
  if (status.remainingTotal === 0) {
    throw new QuotaExceededError(
      `Team "${teamName}" has used all ${status.totalLimit} submissions allowed in the ${phaseName} phase.`,
      { limit: "total" },
    );
  }
  if (status.remainingToday === 0) {
    throw new QuotaExceededError(
      `Team "${teamName}" has used its ${status.dailyLimit} submissions for today in the ${phaseName} phase. ` +
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
  /** the quota of `team` (zero use when a personal team would be created); null when a team must be chosen */
  quota: QuotaStatus | null;
}

/**
 * The viewer's quota in a phase for the submit page. Resolves the team as a non-baseline
 * submission does (the team recorded for the viewer in the task first; see `pickTaskTeam`),
 * without creating or recording anything.
 *
 * @param teamRef a team id or name, as in the submission's `team` field
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
  if (!recorded && !teamRef && teams.length > 1) return { teams, team: null, fixed: false, mustChooseTeam: true, quota: null };
  const team = pickTaskTeam(recorded?.team ?? null, teams, teamRef);
  // No team yet: the personal team created on the first submission starts with zero use.
  const quota = team ? await quotaStatus(team.id, phaseId, now, db, phase) : quotaOf(phase, 0, 0, now);
  return { teams, team, fixed: recorded !== null, mustChooseTeam: false, quota };
}
