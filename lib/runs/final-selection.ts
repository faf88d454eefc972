/**
 * Final runs (issue 11 §2, §4): on a phase whose selection rule is TEAM_SELECTED, each team
 * marks up to `phase.finalRunLimit` of its runs as final (`submissions.final_selected_at`); the
 * board ranks the best of them as the team's entry, or its latest run when it marked none
 * (`ranking.ts`, `getLeaderboard`).
 *
 * Rules of {@link setFinalSelection}, all checked here (the run page's action and
 * `POST`/`DELETE /api/v1/submissions/{id}/final` share them):
 * - members of the run's team only (an organizer outside the team cannot choose for it);
 * - the phase is TEAM_SELECTED, its task is not archived, and the phase has not closed
 *   (`closesAt`): the choice is frozen with the results;
 * - selecting: not a baseline, not withdrawn, not disqualified, not FAILED (a queued or
 *   scoring run may be chosen); at most `finalRunLimit` runs of the team are marked at once
 *   (a 409 names the limit and the runs already marked; unmark one first). Unmarking is
 *   allowed for any marked run (also a withdrawn or disqualified one, to free its place);
 * - idempotent: marking a marked run (or unmarking an unmarked one) changes nothing and
 *   records nothing;
 * - every change is written in one transaction with its audit event
 *   (`submission.final_select` / `submission.final_unselect`), under an advisory lock on
 *   (team, phase), so two concurrent selections cannot both pass the limit.
 */
import { ConflictError, ForbiddenError, NotFoundError, PhaseClosedError } from "../errors";
import { canManageTask, isTeamMember, PHASE_VISIBILITY_SELECT, requireSignedIn, submissionAccess, SUBMISSION_VISIBILITY_SELECT, type Viewer } from "../permissions";
import { formatUtc } from "../validations/time";
import { recordAudit } from "../audit";
import { defaultDb, isUuid, lockKey, type Db, type Prisma, type SelectionRule } from "../db";
import { loadPhase } from "../tasks";
import { assertMayActForTeam } from "../teams";

/** A run the team marked as final. */
export interface FinalRun {
  id: string;
  systemName: string;
  submittedAt: Date;
  /** when the team marked it */
  selectedAt: Date;
}

/** A team's final runs in a phase. */
export interface FinalSelection {
  phase: { id: string; name: string; selectionRule: SelectionRule; finalRunLimit: number; closesAt: Date };
  team: { id: string; name: string };
  /** the marked runs, in the order they were marked (withdrawn runs left out: they are on no board) */
  runs: FinalRun[];
  /** how many runs are marked (= `runs.length`) and the limit */
  count: number;
  limit: number;
  /** the team may still change its choice: TEAM_SELECTED, task not archived, phase not closed */
  open: boolean;
}

/** One run's final-selection state, for the run page's control. */
export interface RunFinalState {
  submissionId: string;
  /** the run is marked final */
  selected: boolean;
  /** the team's marked runs in the phase, and the limit */
  count: number;
  limit: number;
  /** the viewer may mark it now (member, phase open, run eligible, a place left) */
  canSelect: boolean;
  /** the viewer may unmark it now (member, phase open, run marked) */
  canUnselect: boolean;
  /** why it cannot be marked, for people (null when it can, or when it is marked) */
  reason: string | null;
  /** when the choice closes (the phase's `closesAt`) */
  closesAt: Date;
  /** the other marked runs, for the page to name them */
  others: FinalRun[];
}

/** The answer of {@link setFinalSelection}: the run's new state and the team's selection. */
export interface FinalSelectionChange {
  submissionId: string;
  /** when the run was marked final, or null */
  finalSelectedAt: Date | null;
  /** true when this call changed something (false: it already was so) */
  changed: boolean;
  selection: FinalSelection;
}

const RUN_SELECT = {
  id: true,
  ...SUBMISSION_VISIBILITY_SELECT,
  systemName: true,
  isBaseline: true,
  status: true,
  disqualifiedAt: true,
  finalSelectedAt: true,
  team: { select: { id: true, name: true } },
  phase: {
    select: {
      ...PHASE_VISIBILITY_SELECT,
      id: true,
      name: true,
      opensAt: true,
      selectionRule: true,
      finalRunLimit: true,
      task: { select: { status: true } },
    },
  },
} as const;

type LoadedRun = Prisma.SubmissionGetPayload<{ select: typeof RUN_SELECT }>;

/**
 * Loads a run as the viewer may see it (a withdrawn run only for its team and the organizers).
 *
 * @throws NotFoundError (404) when it does not exist or the viewer may not see it
 */
async function loadRun(viewer: Viewer, id: string, db: Db, now: Date) {
  const run = isUuid(id) ? await db.submission.findUnique({ where: { id }, select: RUN_SELECT }) : null;
  const access = run ? await submissionAccess(viewer, run, db, now) : null;
  if (!run || !access?.visible || (run.withdrawnAt !== null && !access.isTeamMember && !access.isOrganizer)) throw new NotFoundError("No such submission.");
  return { run, access };
}

/** Why the phase's final runs cannot change now, or null when they can. */
function closedReason(run: LoadedRun, now: Date): string | null {
  if (run.phase.selectionRule !== "TEAM_SELECTED") {
    const rule = run.phase.selectionRule === "BEST" ? "its best run" : "its latest run";
    return `In the ${run.phase.name} phase each team is represented by ${rule}; there are no final runs to choose.`;
  }
  if (run.phase.task.status === "ARCHIVED") return "This task is archived; its final runs can no longer change.";
  if (now.getTime() >= run.phase.closesAt.getTime()) return `The ${run.phase.name} phase closed on ${formatUtc(run.phase.closesAt)}; its final runs can no longer change.`;
  return null;
}

/** Why this run cannot be marked as final (apart from the phase and the limit), or null. */
function ineligibleReason(run: LoadedRun): string | null {
  if (run.isBaseline) return "Baselines are reference runs of the organizers; they cannot be a team's final run.";
  if (run.withdrawnAt) return "This run was withdrawn; a withdrawn run cannot be a final run.";
  if (run.disqualifiedAt) return "This run was disqualified by the organizers; it cannot be a final run.";
  if (run.status === "FAILED") return "This run failed to score; choose a run that has scores.";
  return null;
}

/** The team's marked runs in the phase (withdrawn ones left out), in the order they were marked. */
async function markedRuns(db: Db, phaseId: string, teamId: string): Promise<FinalRun[]> {
  const rows = await db.submission.findMany({
    where: { phaseId, teamId, finalSelectedAt: { not: null }, withdrawnAt: null, isBaseline: false },
    orderBy: [{ finalSelectedAt: "asc" }, { id: "asc" }],
    select: { id: true, systemName: true, createdAt: true, finalSelectedAt: true },
  });
  return rows.map((r) => ({ id: r.id, systemName: r.systemName, submittedAt: r.createdAt, selectedAt: r.finalSelectedAt! }));
}

/** `"a" (submitted …) and "b" (submitted …)`: runs named in a message. */
function runList(runs: readonly FinalRun[]): string {
  const named = runs.map((r) => `"${r.systemName}" (submitted ${formatUtc(r.submittedAt)})`);
  return named.length <= 1 ? (named[0] ?? "") : `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`;
}

/** The selection answer for a loaded run's team. */
function selectionOf(run: LoadedRun, runs: FinalRun[], now: Date): FinalSelection {
  return {
    phase: { id: run.phase.id, name: run.phase.name, selectionRule: run.phase.selectionRule, finalRunLimit: run.phase.finalRunLimit, closesAt: run.phase.closesAt },
    team: run.team,
    runs,
    count: runs.length,
    limit: run.phase.finalRunLimit,
    open: closedReason(run, now) === null,
  };
}

/**
 * Marks a run as one of its team's final runs, or unmarks it. See the module comment.
 *
 * @param viewer the caller; must be a member of the run's team
 * @param submissionId the run (a malformed id is a 404 like an unknown one)
 * @param selected true to mark it final, false to unmark it
 * @param now the moment (default: now), for the phase's closing time
 * @returns the run's `finalSelectedAt`, whether anything changed, and the team's selection
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the run does not
 *   exist or the viewer may not see it; ForbiddenError (403) for a viewer outside the run's
 *   team (organizers included) and, when marking, for a baseline; ConflictError (409) when
 *   the phase is not TEAM_SELECTED or its task is archived, when marking a withdrawn,
 *   disqualified or FAILED run, and when the team has already marked `finalRunLimit` runs
 *   (the message gives the limit and names the marked runs; `details.limit` and
 *   `details.selected` = [{id, systemName}]); PhaseClosedError (409) once the phase has closed
 */
export async function setFinalSelection(viewer: Viewer, submissionId: string, selected: boolean, now: Date = new Date()): Promise<FinalSelectionChange> {
  const user = requireSignedIn(viewer, "Please sign in (or use an API token) to choose your team's final runs.");
  const db = defaultDb();
  const { run, access } = await loadRun(user, submissionId, db, now);
  if (!access.isTeamMember) throw new ForbiddenError("Only members of the run's team can choose its final runs.");
  await assertMayActForTeam(user.userId, run.phase.taskId, run.teamId, "choose final runs", db);
  if (selected && run.isBaseline) throw new ForbiddenError("Baselines are reference runs of the organizers; they cannot be a team's final run.");
  const closed = closedReason(run, now);
  if (closed !== null) {
    if (run.phase.selectionRule === "TEAM_SELECTED" && run.phase.task.status !== "ARCHIVED") {
      throw new PhaseClosedError(closed, { opensAt: run.phase.opensAt.toISOString(), closesAt: run.phase.closesAt.toISOString() });
    }
    throw new ConflictError(closed);
  }
  if (selected) {
    const ineligible = ineligibleReason(run);
    if (ineligible !== null) throw new ConflictError(ineligible);
  }
  return db.$transaction(async (tx) => {
    await lockKey(tx, `final:${run.teamId}:${run.phase.id}`);
    const current = await tx.submission.findUniqueOrThrow({ where: { id: run.id }, select: { finalSelectedAt: true } });
    if ((current.finalSelectedAt !== null) === selected) {
      return { submissionId: run.id, finalSelectedAt: current.finalSelectedAt, changed: false, selection: selectionOf(run, await markedRuns(tx, run.phase.id, run.teamId), now) };
    }
    if (selected) {
      const marked = await markedRuns(tx, run.phase.id, run.teamId);
      if (marked.length >= run.phase.finalRunLimit) {
        const limit = run.phase.finalRunLimit;
        throw new ConflictError(
          `Your team may choose at most ${limit} final ${limit === 1 ? "run" : "runs"} in the ${run.phase.name} phase and has chosen ${runList(marked)}. Remove one of them from your final runs first.`,
          { limit, selected: marked.map((r) => ({ id: r.id, systemName: r.systemName })) },
        );
      }
    }
    const row = await tx.submission.update({ where: { id: run.id }, data: { finalSelectedAt: selected ? now : null }, select: { finalSelectedAt: true } });
    await recordAudit(tx, {
      actorId: user.userId,
      action: selected ? "submission.final_select" : "submission.final_unselect",
      targetType: "submission",
      targetId: run.id,
      data: { phaseId: run.phase.id, teamId: run.teamId, systemName: run.systemName },
    });
    return { submissionId: run.id, finalSelectedAt: row.finalSelectedAt, changed: true, selection: selectionOf(run, await markedRuns(tx, run.phase.id, run.teamId), now) };
  });
}

/**
 * A team's final runs in a phase.
 *
 * @param viewer a member of the team, or an organizer of the phase's task
 * @param phaseId the phase (a malformed id is a 404)
 * @param teamId the team (a malformed id is a 404)
 * @param now the moment (default: now), for `open`
 * @returns the marked runs (withdrawn ones left out), the count, the limit and whether the choice is still open
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase or
 *   team, and for a viewer who is neither in the team nor an organizer (the same answer)
 */
export async function listFinalSelection(viewer: Viewer, phaseId: string, teamId: string, now: Date = new Date()): Promise<FinalSelection> {
  const user = requireSignedIn(viewer, "Please sign in to see your team's final runs.");
  const db = defaultDb();
  const phase = await loadPhase(phaseId, db);
  const team = isUuid(teamId) ? await db.team.findUnique({ where: { id: teamId }, select: { id: true, name: true } }) : null;
  if (!team) throw new NotFoundError("No such team.");
  const member = await isTeamMember(user.userId, team.id, db);
  if (!member && !(await canManageTask(user, phase.taskId, db))) throw new NotFoundError("No such team.");
  const runs = await markedRuns(db, phase.id, team.id);
  const open = phase.selectionRule === "TEAM_SELECTED" && phase.task.status !== "ARCHIVED" && now.getTime() < phase.closesAt.getTime();
  return {
    phase: { id: phase.id, name: phase.name, selectionRule: phase.selectionRule, finalRunLimit: phase.finalRunLimit, closesAt: phase.closesAt },
    team,
    runs,
    count: runs.length,
    limit: phase.finalRunLimit,
    open,
  };
}

/**
 * One run's final-selection state for the run page's control: null unless the viewer is a
 * member of the run's team and its phase is TEAM_SELECTED (the control is the team's).
 *
 * @param viewer the viewer
 * @param submissionId the run
 * @param now the moment (default: now)
 * @returns the state (see {@link RunFinalState}), or null
 * @throws NotFoundError (404) when the run does not exist or the viewer may not see it
 */
export async function runFinalState(viewer: Viewer, submissionId: string, now: Date = new Date()): Promise<RunFinalState | null> {
  if (!viewer) return null;
  const db = defaultDb();
  const { run, access } = await loadRun(viewer, submissionId, db, now);
  if (!access.isTeamMember || run.phase.selectionRule !== "TEAM_SELECTED") return null;
  const marked = await markedRuns(db, run.phase.id, run.teamId);
  const selected = run.finalSelectedAt !== null;
  const closed = closedReason(run, now);
  const ineligible = ineligibleReason(run);
  const full = marked.length >= run.phase.finalRunLimit;
  const reason = selected ? null : (closed ?? ineligible ?? (full ? `Your team has chosen ${marked.length} of ${run.phase.finalRunLimit} final runs; remove one of them first.` : null));
  return {
    submissionId: run.id,
    selected,
    count: marked.length,
    limit: run.phase.finalRunLimit,
    canSelect: !selected && reason === null,
    canUnselect: selected && closed === null,
    reason,
    closesAt: run.phase.closesAt,
    others: marked.filter((r) => r.id !== run.id),
  };
}
