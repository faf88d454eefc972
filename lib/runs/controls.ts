/**
 * Run controls (issue 11 §3, §4): a team withdraws its own run, and a task's organizers
 * disqualify a run with a public reason (and reinstate it).
 *
 * Withdraw (`withdrawSubmission`): members of the run's team only (an organizer who is not in
 * the team cannot do it for them), never a baseline, only before the phase closes
 * (`closesAt`), once. It sets `submissions.withdrawn_at`. A withdrawn run:
 * - leaves every board (`getLeaderboard`: the phase board, dataset and track boards, the JSON
 *   and CSV exports, the significance markers and the charts built from the board), the
 *   team's progress chart (`progress.ts`) and the lists of runs others can compare with;
 * - still counts against the team's quota (`quota.ts` counts every run; nothing is refunded);
 * - is still shown, marked "withdrawn", to the task's organizers (manage page, run page, API)
 *   and to its own team (run page, API);
 * - is a 404 for everybody else, as an unknown run is: it left the board, and its page must not
 *   keep showing what the team took back (`getSubmissionForViewer`).
 * A disqualified run cannot be withdrawn: the organizers' public reason stays on the board.
 *
 * Disqualify (`disqualifySubmission`): the task's organizers (and site admins) only, with a
 * reason of 1–500 characters that everyone who sees the board reads. It sets
 * `disqualified_at`, `disqualified_reason` and `disqualified_by_id`; disqualifying a run again
 * replaces the reason; a withdrawn run cannot be disqualified (it is on no board). On the board the run stays listed, struck through with the reason, and
 * unranked: it takes no rank, counts for no tie and no significance marker, and is never its
 * team's selected run (the team's next run by the selection rule counts instead; see
 * `getLeaderboard`). `requalifySubmission` clears the three columns.
 *
 * Hide (`hideSubmission`, `unhideSubmission`): the task's organizers (and site admins) only,
 * baselines included. It sets `hidden_at` and `hidden_by_id`: the run leaves the boards for
 * everyone but its team and the organizers (`shownToOthers` in lib/permissions.ts), who still see
 * it, marked hidden; unhiding clears both. Unlike a withdrawal it is the organizers' and can be
 * undone; unlike a disqualification it says nothing publicly.
 *
 * Re-score (`rescoreSubmission`, `rescorePhase`): the task's organizers (and site admins) only.
 * The runs go back to QUEUED with every dataset's stored `gold_key_id` cleared, so the worker
 * scores every dataset again (`requeueSubmissions` in lib/submission-states.ts) and replaces the
 * old scores, which stay shown until then; they are enqueued after commit (the reconciler covers
 * a failed enqueue). One run that is QUEUED or SCORING already is a 409; the whole phase takes
 * every run whatever its status (a running job loses its claim and writes nothing). Both need
 * the phase to have an active gold key (409 otherwise: nothing could score them).
 *
 * Every change is written in one transaction with its audit event (`submission.withdraw`,
 * `submission.disqualify`, `submission.requalify`, `submission.hide`, `submission.unhide`,
 * `submission.rescore`, `phase.rescore` with the count); the conditional updates make a second,
 * concurrent change a 409 rather than a second event.
 */
import { assertCanChangeTask, assertTaskWritable, loadManagedPhase } from "../tasks";
import { assertMayActForTeam } from "../teams";
import { z } from "zod";
import { ConflictError, ForbiddenError, NotFoundError, PhaseClosedError } from "../errors";
import { canManageTask, PHASE_VISIBILITY_SELECT, requireSignedIn, submissionAccess, SUBMISSION_VISIBILITY_SELECT, type Viewer } from "../permissions";
import { formatUtc } from "../validations/time";
import { parseInput } from "../validations/parse";
import { enqueueAfterCommit } from "../queue";
import { requeueSubmissions } from "../submission-states";
import { recordAudit } from "../audit";
import { defaultDb, isUuid, type Db } from "../db";

/** Longest disqualification reason, in characters (after trimming). */
export const DISQUALIFY_REASON_MAX = 500;

/** A disqualification reason: trimmed, 1–{@link DISQUALIFY_REASON_MAX} characters. */
export const disqualifyReasonSchema = z.object({
  reason: z
    .string({ error: "Give the reason for the disqualification; it is shown on the leaderboard." })
    .trim()
    .min(1, { error: "Give the reason for the disqualification; it is shown on the leaderboard." })
    .max(DISQUALIFY_REASON_MAX, { error: `The reason can be at most ${DISQUALIFY_REASON_MAX} characters long.` }),
});

/** A run's withdrawal and disqualification state, as the controls answer it. */
export interface RunControlState {
  id: string;
  /** when the team withdrew the run, or null */
  withdrawnAt: Date | null;
  /** the public disqualification (reason and time), or null */
  disqualified: { reason: string; at: Date } | null;
}

/** The submission fields the controls read. */
const RUN_SELECT = {
  id: true,
  ...SUBMISSION_VISIBILITY_SELECT,
  systemName: true,
  isBaseline: true,
  status: true,
  disqualifiedAt: true,
  disqualifiedReason: true,
  phase: { select: { ...PHASE_VISIBILITY_SELECT, id: true, name: true, opensAt: true } },
} as const;

/**
 * Loads a run for a control, as the viewer may see it: a withdrawn run only for its team and
 * the task's organizers (as `getSubmissionForViewer`).
 *
 * @throws NotFoundError (404) when it does not exist or the viewer may not see it (the same answer)
 */
async function loadRun(viewer: Viewer, id: string, db: Db) {
  const run = isUuid(id) ? await db.submission.findUnique({ where: { id }, select: RUN_SELECT }) : null;
  const access = run ? await submissionAccess(viewer, run, db) : null;
  if (!run || !access?.visible || (run.withdrawnAt !== null && !access.isTeamMember && !access.isOrganizer)) throw new NotFoundError("No such submission.");
  return { run, access };
}

/** The state answered after a change. */
function stateOf(row: { id: string; withdrawnAt: Date | null; disqualifiedAt: Date | null; disqualifiedReason: string | null }): RunControlState {
  return {
    id: row.id,
    withdrawnAt: row.withdrawnAt,
    disqualified: row.disqualifiedAt && row.disqualifiedReason !== null ? { reason: row.disqualifiedReason, at: row.disqualifiedAt } : null,
  };
}

const STATE_SELECT = { id: true, withdrawnAt: true, disqualifiedAt: true, disqualifiedReason: true } as const;

/** A run's hidden state, as the hide controls answer it. */
export interface RunHiddenState {
  id: string;
  /** when an organizer hid the run, or null */
  hiddenAt: Date | null;
}

/**
 * Withdraws a run for its team (see the module comment for what that changes).
 *
 * @param viewer the caller; must be a member of the run's team
 * @param id the submission id (a malformed id is a 404 like an unknown one)
 * @param options `now` (default: the current time), for tests
 * @returns the run's new state (`withdrawnAt` set)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the run does not
 *   exist or the viewer may not see it; ForbiddenError (403) for a viewer outside the run's
 *   team (organizers included) and for a baseline; PhaseClosedError (409) once the phase has
 *   closed (the message gives the closing time in UTC); ConflictError (409) when the run was
 *   already withdrawn or is disqualified
 */
export async function withdrawSubmission(viewer: Viewer, id: string, options: { now?: Date } = {}): Promise<RunControlState> {
  const user = requireSignedIn(viewer, "Please sign in (or use an API token) to withdraw a run.");
  const now = options.now ?? new Date();
  const db = defaultDb();
  const { run, access } = await loadRun(user, id, db);
  if (!access.isTeamMember) throw new ForbiddenError("Only members of the run's team can withdraw it.");
  await assertMayActForTeam(user.userId, run.phase.taskId, run.teamId, "withdraw runs", db);
  if (run.isBaseline) throw new ForbiddenError("Baselines are reference points set by the organizers; they cannot be withdrawn.");
  if (run.withdrawnAt) throw new ConflictError(`This run was already withdrawn on ${formatUtc(run.withdrawnAt)}.`);
  if (run.disqualifiedAt) throw new ConflictError("This run was disqualified by the organizers; a disqualified run cannot be withdrawn.");
  if (now.getTime() >= run.phase.closesAt.getTime()) {
    throw new PhaseClosedError(`The ${run.phase.name} phase closed on ${formatUtc(run.phase.closesAt)}; its runs can no longer be withdrawn.`, {
      opensAt: run.phase.opensAt.toISOString(),
      closesAt: run.phase.closesAt.toISOString(),
    });
  }
  return db.$transaction(async (tx) => {
    // Conditional: of two concurrent withdrawals, one updates the row and the other is a 409.
    const { count } = await tx.submission.updateMany({ where: { id: run.id, withdrawnAt: null, disqualifiedAt: null }, data: { withdrawnAt: now } });
    if (count === 0) throw new ConflictError("This run was withdrawn or disqualified meanwhile; reload the page.");
    await recordAudit(tx, {
      actorId: user.userId,
      action: "submission.withdraw",
      targetType: "submission",
      targetId: run.id,
      data: { phaseId: run.phase.id, teamId: run.teamId, systemName: run.systemName, withdrawnAt: now },
    });
    return stateOf(await tx.submission.findUniqueOrThrow({ where: { id: run.id }, select: STATE_SELECT }));
  });
}

/**
 * Loads a run for an organizer's control.
 *
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the run does not
 *   exist or the viewer may not see it; ForbiddenError (403) when the viewer may see it but
 *   does not organize its task; ConflictError (409) when the task is archived (read-only)
 */
async function loadRunForOrganizer(viewer: Viewer, id: string, db: Db, what = "disqualify or reinstate a run") {
  const user = requireSignedIn(viewer, "Please sign in as an organizer of this task.");
  const { run } = await loadRun(user, id, db);
  if (!(await canManageTask(user, run.phase.taskId, db))) throw new ForbiddenError(`Only the organizers of this task can ${what}.`);
  await assertCanChangeTask(user, run.phase.taskId, db, what);
  return { user, run };
}

/**
 * Disqualifies a run with a public reason (again: replaces the reason). See the module comment.
 *
 * @param viewer the caller; must organize the run's task (or be a site admin)
 * @param id the submission id (a malformed id is a 404 like an unknown one)
 * @param reason the public reason: a string, trimmed, 1–500 characters
 * @param options `now` (default: the current time), for tests
 * @returns the run's new state (`disqualified` set)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the run does not
 *   exist or the viewer may not see it; ForbiddenError (403) for a viewer who does not
 *   organize the task; ValidationError (422, field `reason`) for a missing, empty or too long reason
 */
export async function disqualifySubmission(viewer: Viewer, id: string, reason: unknown, options: { now?: Date } = {}): Promise<RunControlState> {
  const db = defaultDb();
  const { user, run } = await loadRunForOrganizer(viewer, id, db);
  if (run.withdrawnAt) throw new ConflictError("This run was withdrawn by its team and is on no leaderboard; there is nothing to disqualify.");
  const input = parseInput(disqualifyReasonSchema, { reason }, "disqualification");
  const now = options.now ?? new Date();
  return db.$transaction(async (tx) => {
    const row = await tx.submission.update({
      where: { id: run.id },
      data: { disqualifiedAt: now, disqualifiedReason: input.reason, disqualifiedById: user.userId },
      select: STATE_SELECT,
    });
    await recordAudit(tx, {
      actorId: user.userId,
      action: "submission.disqualify",
      targetType: "submission",
      targetId: run.id,
      data: {
        phaseId: run.phase.id,
        teamId: run.teamId,
        systemName: run.systemName,
        reason: input.reason,
        ...(run.disqualifiedReason !== null ? { previousReason: run.disqualifiedReason } : {}),
      },
    });
    return stateOf(row);
  });
}

/**
 * Reinstates a disqualified run: it is ranked again as any run.
 *
 * @param viewer the caller; must organize the run's task (or be a site admin)
 * @param id the submission id (a malformed id is a 404 like an unknown one)
 * @returns the run's new state (`disqualified` null)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the run does not
 *   exist or the viewer may not see it; ForbiddenError (403) for a viewer who does not
 *   organize the task; ConflictError (409) when the run is not disqualified
 */
export async function requalifySubmission(viewer: Viewer, id: string): Promise<RunControlState> {
  const db = defaultDb();
  const { user, run } = await loadRunForOrganizer(viewer, id, db);
  if (!run.disqualifiedAt) throw new ConflictError("This run is not disqualified.");
  return db.$transaction(async (tx) => {
    const { count } = await tx.submission.updateMany({
      where: { id: run.id, disqualifiedAt: { not: null } },
      data: { disqualifiedAt: null, disqualifiedReason: null, disqualifiedById: null },
    });
    if (count === 0) throw new ConflictError("This run is not disqualified.");
    await recordAudit(tx, {
      actorId: user.userId,
      action: "submission.requalify",
      targetType: "submission",
      targetId: run.id,
      data: { phaseId: run.phase.id, teamId: run.teamId, systemName: run.systemName, reason: run.disqualifiedReason },
    });
    return stateOf(await tx.submission.findUniqueOrThrow({ where: { id: run.id }, select: STATE_SELECT }));
  });
}

/**
 * Hides a run from the boards (see the module comment): its team and the organizers still see
 * it. Baselines can be hidden too.
 *
 * @param viewer the caller; must organize the run's task (or be a site admin)
 * @param id the submission id (a malformed id is a 404 like an unknown one)
 * @param options `now` (default: the current time), for tests
 * @returns `{id, hiddenAt}` with `hiddenAt` set
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the run does not
 *   exist or the viewer may not see it; ForbiddenError (403) for a viewer who does not
 *   organize the task; ConflictError (409) when the run is hidden already
 */
export async function hideSubmission(viewer: Viewer, id: string, options: { now?: Date } = {}): Promise<RunHiddenState> {
  const db = defaultDb();
  const { user, run } = await loadRunForOrganizer(viewer, id, db, "hide a run");
  if (run.hiddenAt) throw new ConflictError(`This run was already hidden on ${formatUtc(run.hiddenAt)}.`);
  const now = options.now ?? new Date();
  return db.$transaction(async (tx) => {
    const { count } = await tx.submission.updateMany({ where: { id: run.id, hiddenAt: null }, data: { hiddenAt: now, hiddenById: user.userId } });
    if (count === 0) throw new ConflictError("This run was hidden meanwhile; reload the page.");
    await recordAudit(tx, {
      actorId: user.userId,
      action: "submission.hide",
      targetType: "submission",
      targetId: run.id,
      data: { phaseId: run.phase.id, teamId: run.teamId, systemName: run.systemName, hiddenAt: now },
    });
    return { id: run.id, hiddenAt: now };
  });
}

/**
 * Shows a hidden run on the boards again (as any run, by the phase's rules).
 *
 * @param viewer the caller; must organize the run's task (or be a site admin)
 * @param id the submission id (a malformed id is a 404 like an unknown one)
 * @returns `{id, hiddenAt: null}`
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the run does not
 *   exist or the viewer may not see it; ForbiddenError (403) for a viewer who does not
 *   organize the task; ConflictError (409) when the run is not hidden
 */
export async function unhideSubmission(viewer: Viewer, id: string): Promise<RunHiddenState> {
  const db = defaultDb();
  const { user, run } = await loadRunForOrganizer(viewer, id, db, "unhide a run");
  if (!run.hiddenAt) throw new ConflictError("This run is not hidden.");
  return db.$transaction(async (tx) => {
    const { count } = await tx.submission.updateMany({ where: { id: run.id, hiddenAt: { not: null } }, data: { hiddenAt: null, hiddenById: null } });
    if (count === 0) throw new ConflictError("This run is not hidden.");
    await recordAudit(tx, {
      actorId: user.userId,
      action: "submission.unhide",
      targetType: "submission",
      targetId: run.id,
      data: { phaseId: run.phase.id, teamId: run.teamId, systemName: run.systemName, hiddenAt: run.hiddenAt },
    });
    return { id: run.id, hiddenAt: null };
  });
}

/**
 * @throws ConflictError (409) when the phase has no active gold key (nothing could score its runs)
 */
async function assertPhaseHasGold(phaseId: string, db: Db): Promise<void> {
  const gold = await db.goldKey.findFirst({ where: { phaseId, active: true }, select: { id: true } });
  if (!gold) throw new ConflictError("This phase has no gold key yet: its runs are scored once one is uploaded.");
}

/** What a re-score did. */
export interface RescoreResult {
  /** the re-queued runs' ids, oldest first */
  ids: string[];
  /** how many runs were re-queued */
  requeued: number;
}

/**
 * Scores one run again from scratch: QUEUED, attempts 0, error cleared, every dataset's stored
 * `gold_key_id` cleared (the worker scores every dataset again); enqueued after commit. The old
 * scores stay until the new ones replace them.
 *
 * @param viewer the caller; must organize the run's task (or be a site admin)
 * @param id the submission id (a malformed id is a 404 like an unknown one)
 * @returns `{ids: [id], requeued: 1}`
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the run does not
 *   exist or the viewer may not see it; ForbiddenError (403) for a viewer who does not
 *   organize the task; ConflictError (409) when the run is QUEUED or SCORING already, or the
 *   phase has no active gold key
 */
export async function rescoreSubmission(viewer: Viewer, id: string): Promise<RescoreResult> {
  const db = defaultDb();
  const { user, run } = await loadRunForOrganizer(viewer, id, db, "re-score a run");
  const busy = () => new ConflictError(`This run is ${run.status === "SCORING" ? "being scored" : "waiting to be scored"} already; it gets the current gold key and settings when it is scored.`);
  if (run.status === "QUEUED" || run.status === "SCORING") throw busy();
  await assertPhaseHasGold(run.phase.id, db);
  const ids = await db.$transaction(async (tx) => {
    // Conditional: a run that became QUEUED or SCORING meanwhile is not taken from its job.
    const requeued = await requeueSubmissions(tx, { id: run.id, status: { notIn: ["QUEUED", "SCORING"] } });
    if (requeued.length === 0) throw new ConflictError("This run was re-queued or started scoring meanwhile; reload the page.");
    await recordAudit(tx, {
      actorId: user.userId,
      action: "submission.rescore",
      targetType: "submission",
      targetId: run.id,
      data: { phaseId: run.phase.id, teamId: run.teamId, systemName: run.systemName, previousStatus: run.status },
    });
    return requeued;
  });
  await enqueueAfterCommit(ids, `re-score of run ${run.id}`);
  return { ids, requeued: ids.length };
}

/**
 * Scores every run of a phase again from scratch, whatever its status (baselines, withdrawn,
 * hidden and disqualified runs included): as {@link rescoreSubmission} for each; a job running
 * on one of them loses its claim and writes nothing. One `phase.rescore` audit event with the
 * count.
 *
 * @param viewer the caller; must organize the phase's task (or be a site admin)
 * @param phaseId the phase
 * @returns the re-queued ids (oldest first) and their count (0 for a phase without runs: then
 *   nothing is audited)
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown phase and
 *   for a viewer who does not organize its task; ConflictError (409) when the phase has no
 *   active gold key
 */
export async function rescorePhase(viewer: Viewer, phaseId: string): Promise<RescoreResult> {
  const db = defaultDb();
  const { user, phase } = await loadManagedPhase(viewer, phaseId, db);
  assertTaskWritable(phase.task, "re-score its runs");
  await assertPhaseHasGold(phase.id, db);
  const ids = await db.$transaction(async (tx) => {
    const requeued = await requeueSubmissions(tx, { phaseId: phase.id });
    if (requeued.length > 0) {
      await recordAudit(tx, {
        actorId: user.userId,
        action: "phase.rescore",
        targetType: "phase",
        targetId: phase.id,
        data: { taskId: phase.taskId, name: phase.name, count: requeued.length },
      });
    }
    return requeued;
  });
  await enqueueAfterCommit(ids, `re-score of phase ${phase.id}`);
  return { ids, requeued: ids.length };
}
