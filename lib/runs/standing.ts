/**
 * "Your standing" (issue 11 §4): where a team stands, for its own members.
 *
 * - {@link getTaskStanding}: on the task page, per phase of the task, for the viewer's team in
 *   it (`taskTeamOf`: the team recorded at the viewer's first run in the task): the team's
 *   best score so far on the task's primary metric (its scored runs, PRIVATE, hidden and
 *   after-freeze ones included: the team sees its own scores on its run pages; withdrawn and
 *   disqualified runs left out), the runs left today and in total (`quota.ts`: the phase's
 *   shared quota, and each track's own quota where a track has limits of its own), and the
 *   time left until the phase closes.
 * - {@link getRunRank}: on a run's page, the run's rank on the phase's default board (the
 *   task's primary metric, the primary setting, the run's track) as the viewer sees that
 *   board (`getLeaderboard`), or why it has none; {@link runRankSentence} says it in words.
 */
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../errors";
import { boardHiddenUntilClose, madeAfterFreeze, PHASE_VISIBILITY_SELECT, submissionAccess, SUBMISSION_VISIBILITY_SELECT, taskStanding, type Viewer } from "../permissions";
import { DEFAULT_PRIMARY_METRIC, isLeaderboardMetric, METRIC_LABELS, type LeaderboardMetric } from "../validations/metrics";
import { formatUtc } from "../validations/time";
import { defaultDb, isUuid, type SelectionRule } from "../db";
import { getLeaderboard, rankingValueOfRows } from "../boards";
import { quotaStatus, type QuotaStatus } from "./quota";
import { taskTeamOf } from "../teams";
import { hasOwnLimits, listTracks } from "../tasks";

/** A team's standing in one phase. */
export interface PhaseStanding {
  phase: { id: string; name: string; opensAt: Date; closesAt: Date; displayTimeZone: string; leaderboardTiming: string; selectionRule: SelectionRule };
  /** before `opensAt`, open, or at/after `closesAt` */
  state: "upcoming" | "open" | "closed";
  /** milliseconds until the phase closes (0 once closed) */
  timeLeftMs: number;
  /** the team's best scored run on the primary metric (a fraction), or null when it has none */
  best: { value: number; submissionId: string; systemName: string } | null;
  /** the phase's shared quota (the runs outside tracks with limits of their own) */
  quota: QuotaStatus;
  /** each track with limits of its own: its quota (`quota.track` names it) */
  trackQuotas: QuotaStatus[];
}

/** The viewer's team's standing in a task, from {@link getTaskStanding}. */
export interface TeamTaskStanding {
  team: { id: string; name: string };
  /** the task's primary metric, by which `best` is valued */
  metric: LeaderboardMetric;
  /** the task's phases in their order (opening time, then name) */
  phases: PhaseStanding[];
  /** the moment the standing was computed at */
  now: Date;
}

/**
 * The viewer's team's standing in a task (see the module comment).
 *
 * @param viewer the viewer (null = anonymous)
 * @param taskId the task
 * @param now the moment (default: now): the day of the daily quota, the time left
 * @returns null for anonymous viewers, for viewers without a team in the task (no run yet),
 *   and for an unknown task or a draft the viewer does not organize; else the standing
 */
export async function getTaskStanding(viewer: Viewer, taskId: string, now: Date = new Date()): Promise<TeamTaskStanding | null> {
  if (!viewer || !isUuid(taskId)) return null;
  const db = defaultDb();
  const standing = await taskStanding(viewer, taskId, db);
  if (standing.hiddenDraft) return null;
  const recorded = await taskTeamOf(taskId, viewer.userId, db);
  if (!recorded) return null;
  const task = await db.task.findUnique({
    where: { id: taskId },
    select: { primaryMetric: true, phases: { orderBy: [{ opensAt: "asc" }, { name: "asc" }] } },
  });
  if (!task) return null;
  const metric = isLeaderboardMetric(task.primaryMetric) ? task.primaryMetric : DEFAULT_PRIMARY_METRIC;
  const teamId = recorded.team.id;
  const phases: PhaseStanding[] = [];
  for (const phase of task.phases) {
    const runs = await db.submission.findMany({
      where: { phaseId: phase.id, teamId, isBaseline: false, status: "SCORED", withdrawnAt: null, disqualifiedAt: null },
      select: { id: true, systemName: true, createdAt: true, scores: { where: { variant: "", metric } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    let best: PhaseStanding["best"] = null;
    for (const run of runs) {
      const value = rankingValueOfRows(run.scores, metric);
      if (value !== null && (best === null || value > best.value)) best = { value, submissionId: run.id, systemName: run.systemName };
    }
    const quota = await quotaStatus(teamId, phase.id, now, db, phase);
    const trackQuotas: QuotaStatus[] = [];
    for (const track of (await listTracks(phase.id, db)).filter(hasOwnLimits)) trackQuotas.push(await quotaStatus(teamId, phase.id, now, db, phase, track));
    const state = now < phase.opensAt ? "upcoming" : now < phase.closesAt ? "open" : "closed";
    phases.push({
      phase: {
        id: phase.id,
        name: phase.name,
        opensAt: phase.opensAt,
        closesAt: phase.closesAt,
        displayTimeZone: phase.displayTimeZone,
        leaderboardTiming: phase.leaderboardTiming,
        selectionRule: phase.selectionRule,
      },
      state,
      timeLeftMs: Math.max(0, phase.closesAt.getTime() - now.getTime()),
      best,
      quota,
      trackQuotas,
    });
  }
  return { team: recorded.team, metric, phases, now };
}

/** Why a run has no rank on its phase's default board. */
export type UnrankedReason =
  | "baseline"
  | "not-scored"
  | "failed"
  | "withdrawn"
  | "private"
  | "disqualified"
  | "hidden"
  | "after-freeze"
  | "hidden-until-close"
  | "board-not-visible"
  | "no-track"
  | "no-value";

/** A run's rank on its phase's default board, from {@link getRunRank}. */
export type RunRank =
  | { kind: "ranked"; rank: number; of: number; metric: LeaderboardMetric; track: { id: string; name: string } | null }
  | {
      /** on the board but not its team's counted run: `counted` is the run that counts (null: none ranked) */
      kind: "not-counted";
      rule: SelectionRule;
      metric: LeaderboardMetric;
      counted: { submissionId: string; systemName: string; rank: number | null } | null;
      track: { id: string; name: string } | null;
    }
  | { kind: "unranked"; reason: UnrankedReason; metric: LeaderboardMetric; closesAt: Date; frozenAt: Date | null };

/**
 * A run's rank on its phase's default board as the viewer sees it (see the module comment), or
 * why it has none: a baseline; not scored yet, or failed; withdrawn; private; disqualified;
 * hidden by an organizer; made after the freeze (for non-organizers); the board hidden until the
 * phase closes (for non-organizers: ranks appear then); the board not visible to the viewer; a
 * run without a track in a phase with tracks; no score for the metric; or not its team's counted
 * run under the selection rule (then the counted run and its rank).
 *
 * @param viewer the viewer (null = anonymous)
 * @param submissionId the run
 * @param now the moment the phase's timing is read at (default: now)
 * @throws NotFoundError (404) when the run does not exist or the viewer may not see it
 */
export async function getRunRank(viewer: Viewer, submissionId: string, now: Date = new Date()): Promise<RunRank> {
  const db = defaultDb();
  const s = isUuid(submissionId)
    ? await db.submission.findUnique({
        where: { id: submissionId },
        select: {
          ...SUBMISSION_VISIBILITY_SELECT,
          id: true,
          status: true,
          isBaseline: true,
          disqualifiedAt: true,
          trackId: true,
          phase: { select: { ...PHASE_VISIBILITY_SELECT, id: true, task: { select: { primaryMetric: true } }, _count: { select: { tracks: true } } } },
        },
      })
    : null;
  const access = s ? await submissionAccess(viewer, s, db, now) : null;
  if (!s || !access?.visible || (s.withdrawnAt !== null && !access.isTeamMember && !access.isOrganizer)) throw new NotFoundError("No such submission.");
  const metric = isLeaderboardMetric(s.phase.task.primaryMetric) ? s.phase.task.primaryMetric : DEFAULT_PRIMARY_METRIC;
  const unranked = (reason: UnrankedReason): RunRank => ({ kind: "unranked", reason, metric, closesAt: s.phase.closesAt, frozenAt: s.phase.frozenAt });
  if (s.isBaseline) return unranked("baseline");
  if (s.withdrawnAt) return unranked("withdrawn");
  if (s.status === "FAILED") return unranked("failed");
  if (s.status !== "SCORED") return unranked("not-scored");
  if (s.visibility === "PRIVATE") return unranked("private");
  if (s.disqualifiedAt) return unranked("disqualified");
  if (s.hiddenAt) return unranked("hidden");
  if (!access.isOrganizer && madeAfterFreeze(s.phase, s.createdAt)) return unranked("after-freeze");
  if (!access.isOrganizer && boardHiddenUntilClose(s.phase, now)) return unranked("hidden-until-close");
  if (s.phase._count.tracks > 0 && s.trackId === null) return unranked("no-track");
  let board;
  try {
    board = await getLeaderboard(s.phase.id, viewer, { track: s.trackId, now });
  } catch (error) {
    if (error instanceof UnauthorizedError || error instanceof ForbiddenError) return unranked("board-not-visible");
    throw error;
  }
  const of = board.rows.filter((r) => r.rank !== null).length;
  const row = board.rows.find((r) => r.submissionId === s.id);
  if (row) return row.rank === null ? unranked("no-value") : { kind: "ranked", rank: row.rank, of, metric: board.metric, track: board.track && { id: board.track.id, name: board.track.name } };
  const counted = board.rows.find((r) => !r.isBaseline && r.team.id === s.teamId && !r.disqualified && !r.hidden);
  return {
    kind: "not-counted",
    rule: board.phase.selectionRule,
    metric: board.metric,
    counted: counted ? { submissionId: counted.submissionId, systemName: counted.systemName, rank: counted.rank } : null,
    track: board.track && { id: board.track.id, name: board.track.name },
  };
}

const COUNTED_BY: Record<SelectionRule, string> = {
  BEST: "its best run",
  LATEST: "its latest run",
  TEAM_SELECTED: "the best of its final runs (its latest run when it chose none)",
};

/**
 * A {@link RunRank} in words, for the run page: "Rank 3 of 12 by CoNLL F1.", or why the run
 * has none, e.g. "Not ranked: the team is represented by its best run, "sys-2" (rank 1)." or
 * "Ranks appear when the phase closes on 2026-12-01 14:00 UTC."
 *
 * @param rank from {@link getRunRank}
 */
export function runRankSentence(rank: RunRank): string {
  const by = `${METRIC_LABELS[rank.metric]} F1`;
  if (rank.kind === "ranked") return `Rank ${rank.rank} of ${rank.of} by ${by}${rank.track ? ` in the ${rank.track.name} track` : ""}.`;
  if (rank.kind === "not-counted") {
    const counted = rank.counted
      ? `, "${rank.counted.systemName}"${rank.counted.rank !== null ? ` (rank ${rank.counted.rank} by ${by})` : " (unranked)"}`
      : "";
    return `Not ranked: this is not the run that counts for its team. The team is represented by ${COUNTED_BY[rank.rule]}${counted}.`;
  }
  switch (rank.reason) {
    case "baseline":
      return "Baselines are reference points and take no rank.";
    case "not-scored":
      return "Not ranked yet: the run is not scored yet.";
    case "failed":
      return "Not ranked: the run failed to score.";
    case "withdrawn":
      return "Not ranked: the run was withdrawn and is on no leaderboard.";
    case "private":
      return "Not ranked: private runs are not on the leaderboard.";
    case "disqualified":
      return "Not ranked: the run was disqualified by the organizers.";
    case "hidden":
      return "Not ranked: the organizers hid this run from the leaderboard.";
    case "after-freeze":
      return `Not ranked: the leaderboard is frozen since ${rank.frozenAt ? formatUtc(rank.frozenAt) : "the freeze"}; this later run is scored but not shown.`;
    case "hidden-until-close":
      return `Ranks appear when the phase closes on ${formatUtc(rank.closesAt)}.`;
    case "board-not-visible":
      return "The leaderboard of this phase is not visible to you, so no rank is shown.";
    case "no-track":
      return "Not ranked: the run has no track, and each track of this phase is ranked separately.";
    case "no-value":
      return `Not ranked: the run has no ${by} score.`;
  }
}
