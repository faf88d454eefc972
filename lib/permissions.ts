/**
 * Who may see and do what. Every service calls these; pages and routes may call them to
 * decide what to show, but the services enforce them again.
 *
 * Rules:
 * - Site admins (role ADMIN) count as organizers of every task.
 * - Site admins and accounts with the site role ORGANIZER may create tasks
 *   ({@link canCreateTask}); the creator becomes an organizer of the task it creates. An
 *   ORGANIZER organizes those tasks (and any it is added to) only, not everyone's: it is not an
 *   admin. Site admins grant and revoke the role (lib/accounts/site-roles.ts).
 * - The task's teams are the teams with at least one non-baseline submission (any status,
 *   any phase) in the task; the task's participants are the members of those teams
 *   ({@link isTaskParticipant}). Baselines are the organizers' reference runs: they make no
 *   one a participant. Uploads refused at validation store nothing, so they do not either.
 * - A DRAFT task (tasks.status) and everything in it is seen by its organizers only: to anyone
 *   else it does not exist: every route and action answers them exactly what it answers for an
 *   unknown id (the same status and message; {@link assertCanManageTask}). PUBLISHED and ARCHIVED tasks follow the rules below.
 * - Leaderboard visibility per phase: PUBLIC (anyone, signed in or not); PARTICIPANTS
 *   (signed-in organizers and participants of the task); ORGANIZERS (organizers only).
 * - A submission is visible to its team's members and the task's organizers; to others only
 *   when it is PUBLIC, they may see its phase's leaderboard, and it is shown to others
 *   ({@link shownToOthers}): not withdrawn, not hidden by an organizer, not made at or after
 *   the phase's freeze, and not in a phase whose board is hidden until it closes.
 * - A run's error analysis (error counts per document, document views with the key's
 *   mentions and text) reveals the gold, so the phase's `participantAnalysis` decides who
 *   besides the organizers sees it among those who may see the run: NONE nobody; TEAMS
 *   signed-in participants of the task; PUBLIC everyone, anonymous readers included
 *   ({@link canViewErrorAnalysis}).
 * - Per-document scores (each document's counts: denominators are gold statistics, and
 *   every run probes the gold at least one bit per document) are shown to organizers; to
 *   whoever may see the run's error analysis; and to the run's own team, except on a phase
 *   whose leaderboard is hidden (ORGANIZERS) unless the phase's `teamDocumentScores` is on
 *   ({@link canViewDocumentScores}).
 * - Gold keys (even their metadata) are visible to the task's organizers only.
 * - An account that signed up itself may sign in at once, but submits runs and creates teams
 *   only once its e-mail address is confirmed ({@link requireConfirmedEmail}); accounts made by
 *   an operator are confirmed when made.
 *
 * A service that needs several answers about one viewer and one task in the same request
 * loads them once with {@link taskStanding} (or {@link submissionAccess}) instead of calling
 * the single checks again.
 */
import { ForbiddenError, NotFoundError, UnauthorizedError } from "./errors";
import type { LeaderboardTiming } from "./validations/task";
import type { ParticipantAnalysis } from "./generated/prisma/enums";
import { defaultDb, isUuid, type Db, type LeaderboardVisibility, type SubmissionVisibility, type UserRole } from "./db";

/**
 * The person making a request: a signed-in user with their site role, or null (anonymous).
 * The one definition of a viewer; `lib/auth/session.ts` builds it from the session or a token.
 */
export type Viewer = { userId: string; role: UserRole } | null;

/** A signed-in viewer. */
export type SignedInViewer = NonNullable<Viewer>;

/** The fields of a phase that visibility rules need. */
export interface PhaseVisibilityFacts {
  taskId: string;
  leaderboardVisibility: LeaderboardVisibility;
}

/** The fields of a phase that decide when its runs are shown to others. */
export interface PhaseTimingFacts {
  /** a {@link LeaderboardTiming} (a string as stored) */
  leaderboardTiming: string;
  frozenAt: Date | null;
  closesAt: Date;
}

/** The fields of a submission that visibility rules need. */
export interface SubmissionVisibilityFacts {
  teamId: string;
  visibility: SubmissionVisibility;
  /** when the run's team withdrew it (null: not withdrawn); a withdrawn run is seen by its team and the organizers only */
  withdrawnAt: Date | null;
  /** when an organizer hid the run (null: not hidden); seen by its team and the organizers only */
  hiddenAt: Date | null;
  createdAt: Date;
  /** an organizers' reference run: shown on every board, also before an after-close phase closes */
  isBaseline: boolean;
  phase: PhaseVisibilityFacts & PhaseTimingFacts;
}

/**
 * The Prisma `select` that loads {@link SubmissionVisibilityFacts} (spread it into a larger
 * select: `{ ...SUBMISSION_VISIBILITY_SELECT, phase: { select: { ...PHASE_VISIBILITY_SELECT, name: true } } }`).
 */
export const PHASE_VISIBILITY_SELECT = { taskId: true, leaderboardVisibility: true, leaderboardTiming: true, frozenAt: true, closesAt: true } as const;
/** See {@link PHASE_VISIBILITY_SELECT}. */
export const SUBMISSION_VISIBILITY_SELECT = {
  teamId: true,
  visibility: true,
  withdrawnAt: true,
  hiddenAt: true,
  createdAt: true,
  isBaseline: true,
  phase: { select: PHASE_VISIBILITY_SELECT },
} as const;

/**
 * Whether the phase's timing hides the board's other teams from non-organizers at `now`: an
 * "after_close" phase that has not closed yet.
 */
export function boardHiddenUntilClose(phase: PhaseTimingFacts, now: Date = new Date()): boolean {
  return phase.leaderboardTiming === "after_close" && now.getTime() < phase.closesAt.getTime();
}

/**
 * Whether a run made at `createdAt` falls after the phase's freeze (and so is shown only to its
 * team and the organizers): a "frozen" phase and createdAt ≥ frozenAt.
 */
export function madeAfterFreeze(phase: PhaseTimingFacts, createdAt: Date): boolean {
  return phase.leaderboardTiming === "frozen" && phase.frozenAt !== null && createdAt.getTime() >= phase.frozenAt.getTime();
}

/**
 * Whether a run may be shown to people outside its team and the organizers, as far as the run
 * itself and its phase's timing go (the leaderboard's visibility is checked separately):
 * PUBLIC, not withdrawn, not hidden by an organizer, not made after the phase's freeze, and not
 * in a phase hidden until it closes (before it closes) unless it is a baseline (the boards
 * show baselines as reference rows then too).
 *
 * @param now the time for the "after_close" rule (default: now)
 */
export function shownToOthers(submission: Omit<SubmissionVisibilityFacts, "teamId">, now: Date = new Date()): boolean {
  return (
    submission.visibility === "PUBLIC" &&
    submission.withdrawnAt === null &&
    submission.hiddenAt === null &&
    !madeAfterFreeze(submission.phase, submission.createdAt) &&
    (submission.isBaseline || !boardHiddenUntilClose(submission.phase, now))
  );
}

/**
 * True when the viewer is a signed-in site admin (the role comes from `lib/auth/session.ts`, which
 * re-reads it each request). Takes anything with a site role, or null for an anonymous viewer.
 */
export function isSiteAdmin<V extends { role: UserRole } | null>(viewer: V): viewer is V & { role: "ADMIN" } {
  return viewer?.role === "ADMIN";
}

/** The site roles that may create tasks ({@link canCreateTask}). */
export const TASK_CREATOR_ROLES: readonly UserRole[] = ["ADMIN", "ORGANIZER"];

/**
 * Whether the viewer may create tasks: a signed-in site admin or an account with the site role
 * ORGANIZER. Any user with a role may be passed (the role comes from `lib/auth/session.ts`, which
 * re-reads it each request, so a revoked role stops applying at the next request).
 *
 * @param viewer the viewer, or just their role (`{role}`); null for anonymous
 * @returns false for anonymous viewers and plain users (USER)
 */
export function canCreateTask(viewer: { role: UserRole } | null): boolean {
  return viewer !== null && TASK_CREATOR_ROLES.includes(viewer.role);
}

/**
 * Whether a user organizes a task. Site admins (role read from the database) organize every task.
 *
 * @param userId a user id
 * @param taskId a task id
 * @param db client or transaction (default: the shared client)
 * @returns true for a TaskOrganizer row or an ADMIN user; false otherwise, also for unknown ids
 */
export async function isTaskOrganizer(userId: string, taskId: string, db: Db = defaultDb()): Promise<boolean> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { role: true, organizing: { where: { taskId }, select: { taskId: true } } },
  });
  return user !== null && (user.role === "ADMIN" || user.organizing.length > 0);
}

/**
 * Whether the viewer may manage a task (edit it and its phases, upload gold, see all
 * submissions): site admins and the task's organizers.
 *
 * @returns false for anonymous viewers
 */
export async function canManageTask(viewer: Viewer, taskId: string, db: Db = defaultDb()): Promise<boolean> {
  if (!viewer) return false;
  if (isSiteAdmin(viewer)) return true;
  return isTaskOrganizer(viewer.userId, taskId, db);
}

/**
 * Throws unless the viewer may manage the task. A DRAFT task does not exist for anyone who may
 * not manage it, anonymous callers included: they get the 404 the caller answers for an unknown
 * id (`notFound`), never a 401 or 403 that would tell that the draft exists (issue 23 F7).
 *
 * @param notFound the message of the caller's own 404 for an unknown task, phase, … (default
 *   "No such task."), so that a hidden draft's answer is the unknown id's byte for byte
 * @throws NotFoundError (404) for an unknown task, and for a draft the viewer may not manage;
 *   UnauthorizedError (401) for anonymous viewers; ForbiddenError (403) otherwise
 */
export async function assertCanManageTask(viewer: Viewer, taskId: string, db: Db = defaultDb(), notFound = "No such task."): Promise<SignedInViewer> {
  if (viewer && (await canManageTask(viewer, taskId, db))) return viewer;
  const task = isUuid(taskId) ? await db.task.findUnique({ where: { id: taskId }, select: { status: true } }) : null;
  if (!task || task.status === "DRAFT") throw new NotFoundError(notFound);
  if (!viewer) throw new UnauthorizedError("Please sign in as an organizer of this task.");
  throw new ForbiddenError("Only the organizers of this task can do this.");
}

/**
 * Whether a user is a participant of a task: a member of one of the task's teams, i.e. of a
 * team that has at least one non-baseline submission (any status, any phase) in it. The
 * membership counts whoever submitted: a member who joined after the team's first run is a
 * participant too.
 *
 * @param userId a user id
 * @param taskId a task id
 * @param db client or transaction (default: the shared client)
 * @returns false also for unknown ids
 */
export async function isTaskParticipant(userId: string, taskId: string, db: Db = defaultDb()): Promise<boolean> {
  const hit = await db.submission.findFirst({
    where: { phase: { taskId }, isBaseline: false, team: { members: { some: { userId } } } },
    select: { id: true },
  });
  return hit !== null;
}

/**
 * Whether a user belongs to a team (any role).
 *
 * @param userId a user id
 * @param teamId a team id (must be a UUID: Postgres rejects anything else)
 * @param db client or transaction (default: the shared client)
 */
export async function isTeamMember(userId: string, teamId: string, db: Db = defaultDb()): Promise<boolean> {
  const row = await db.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { userId: true } });
  return row !== null;
}

/**
 * What the visibility rules need to know about one viewer in one task, loaded once per
 * request (see {@link taskStanding}).
 */
export interface TaskStanding {
  /** site admin or organizer of the task */
  isOrganizer: boolean;
  /** the task is a DRAFT (or does not exist) and the viewer does not organize it: it is hidden from them entirely */
  hiddenDraft: boolean;
  /**
   * Whether the viewer participates in the task ({@link isTaskParticipant}); false for
   * anonymous viewers. Read from the database on the first call only.
   */
  isParticipant(): Promise<boolean>;
}

/**
 * Loads a viewer's standing in a task: one query for the task's status and the organizer
 * check together; the participant check runs later, at most once, when a rule asks for it.
 *
 * @param viewer the viewer (null = anonymous)
 * @param taskId a task id
 * @param db client or transaction (default: the shared client)
 * @param known the task's status when the caller has just read the task: an anonymous viewer's
 *   standing then needs no query (a leaderboard view reads the phase with its task first)
 * @returns the standing, for {@link leaderboardVisibleTo}; an unknown task is a hidden draft
 */
export async function taskStanding(viewer: Viewer, taskId: string, db: Db = defaultDb(), known?: { status: string }): Promise<TaskStanding> {
  if (viewer === null && known !== undefined) {
    const hiddenDraft = known.status === "DRAFT";
    return { isOrganizer: false, hiddenDraft, isParticipant: () => Promise.resolve(false) };
  }
  const task = await db.task.findUnique({
    where: { id: taskId },
    select: { status: true, organizers: viewer && !isSiteAdmin(viewer) ? { where: { userId: viewer.userId }, select: { userId: true } } : false },
  });
  const isOrganizer = viewer !== null && task !== null && (isSiteAdmin(viewer) || (task.organizers?.length ?? 0) > 0);
  const hiddenDraft = !isOrganizer && (task === null || task.status === "DRAFT");
  let participant: Promise<boolean> | undefined;
  return {
    isOrganizer,
    hiddenDraft,
    isParticipant: () => (participant ??= viewer && !hiddenDraft ? isTaskParticipant(viewer.userId, taskId, db) : Promise.resolve(false)),
  };
}

/**
 * Whether a viewer with this standing may see a leaderboard of the given visibility (see
 * the module comment). Organizers see every board; nobody else sees a draft task's boards;
 * PUBLIC boards need no further query.
 *
 * @param standing from {@link taskStanding}, for the phase's task
 * @param visibility the phase's leaderboard visibility
 */
export async function leaderboardVisibleTo(standing: TaskStanding, visibility: LeaderboardVisibility): Promise<boolean> {
  if (standing.isOrganizer) return true;
  if (standing.hiddenDraft) return false;
  switch (visibility) {
    case "PUBLIC":
      return true;
    case "PARTICIPANTS":
      return standing.isParticipant();
    case "ORGANIZERS":
      return false;
  }
}

/**
 * Whether the viewer may see a phase's leaderboard, per its visibility (see the module comment).
 *
 * @param phase the phase's task id and leaderboard visibility
 * @returns per {@link leaderboardVisibleTo} (false for everyone but organizers in a draft task)
 */
export async function canViewLeaderboard(viewer: Viewer, phase: PhaseVisibilityFacts, db: Db = defaultDb()): Promise<boolean> {
  return leaderboardVisibleTo(await taskStanding(viewer, phase.taskId, db), phase.leaderboardVisibility);
}

/** A viewer's access to one submission, from {@link submissionAccess}. */
export interface SubmissionAccess {
  /** may see the submission at all (see {@link canViewSubmission}) */
  visible: boolean;
  /** member of the submitting team */
  isTeamMember: boolean;
  /** organizer of the submission's task (or site admin) */
  isOrganizer: boolean;
  /** participant of the submission's task ({@link isTaskParticipant}); read on the first call only, false for anonymous viewers */
  isParticipant(): Promise<boolean>;
}

/**
 * A viewer's access to a submission, with the two facts pages show (team member,
 * organizer), each read from the database once.
 *
 * @param viewer the viewer (null = anonymous)
 * @param submission the facts of {@link SUBMISSION_VISIBILITY_SELECT}
 * @param db client or transaction (default: the shared client)
 * @param now the time for the phase's timing rules (default: now)
 * @returns `{visible, isTeamMember, isOrganizer, isParticipant}`; `visible` is true for
 *   organizers; for team members unless the task is a draft; and for anyone else only when the
 *   run is {@link shownToOthers} and its phase's leaderboard is visible to them
 */
export async function submissionAccess(viewer: Viewer, submission: SubmissionVisibilityFacts, db: Db = defaultDb(), now: Date = new Date()): Promise<SubmissionAccess> {
  // One after the other, not in parallel: `db` may be an interactive transaction.
  const standing = await taskStanding(viewer, submission.phase.taskId, db);
  const member = viewer !== null && !standing.hiddenDraft && (await isTeamMember(viewer.userId, submission.teamId, db));
  const visible =
    member ||
    standing.isOrganizer ||
    (shownToOthers(submission, now) && (await leaderboardVisibleTo(standing, submission.phase.leaderboardVisibility)));
  return { visible, isTeamMember: member, isOrganizer: standing.isOrganizer, isParticipant: standing.isParticipant };
}

/**
 * Whether the viewer may see a submission (its page, status, scores).
 *
 * @returns true for members of the submitting team (outside drafts) and the task's organizers;
 *   for anyone else only when the run is {@link shownToOthers} and its phase's leaderboard is visible to them
 */
export async function canViewSubmission(viewer: Viewer, submission: SubmissionVisibilityFacts, db: Db = defaultDb()): Promise<boolean> {
  return (await submissionAccess(viewer, submission, db)).visible;
}

/** The phase settings that decide who sees a run's error analysis and per-document scores. */
export interface PhaseAnalysisFacts {
  leaderboardVisibility: LeaderboardVisibility;
  participantAnalysis: ParticipantAnalysis;
  teamDocumentScores: boolean;
}

/**
 * Whether a viewer may see a run's error analysis: its error counts per document and its
 * document views (the key's mentions and text next to the run's). See the module comment.
 *
 * @param access from {@link submissionAccess} for the run
 * @param phase the run's phase (`participantAnalysis`)
 * @returns true for organizers; for others who may see the run: never with NONE; with TEAMS
 *   when they participate in the task (signed in, member of one of the task's teams: one
 *   query at most); always with PUBLIC (anonymous readers included)
 */
export async function canViewErrorAnalysis(access: SubmissionAccess, phase: Pick<PhaseAnalysisFacts, "participantAnalysis">): Promise<boolean> {
  if (access.isOrganizer) return true;
  if (!access.visible) return false;
  switch (phase.participantAnalysis) {
    case "NONE":
      return false;
    case "TEAMS":
      return access.isParticipant();
    case "PUBLIC":
      return true;
  }
}

/**
 * Whether a viewer may see a run's per-document scores (each document's counts per metric,
 * and anything computed from them per document, such as per-document deltas between runs).
 * See the module comment.
 *
 * @param access from {@link submissionAccess} for the run
 * @param phase the run's phase
 * @returns true for organizers, and for whoever may see the run's error analysis
 *   ({@link canViewErrorAnalysis}, which shows more); for the run's own team unless the
 *   phase's leaderboard is ORGANIZERS-only and `teamDocumentScores` is off; false otherwise
 */
export async function canViewDocumentScores(access: SubmissionAccess, phase: PhaseAnalysisFacts): Promise<boolean> {
  if (access.isOrganizer) return true;
  if (!access.visible) return false;
  if (access.isTeamMember && (phase.leaderboardVisibility !== "ORGANIZERS" || phase.teamDocumentScores)) return true;
  return canViewErrorAnalysis(access, phase);
}

/**
 * Whether the viewer may see a task's gold keys (content or metadata): organizers only, the
 * same rule as {@link canManageTask}.
 */
export async function canViewGold(viewer: Viewer, taskId: string, db: Db = defaultDb()): Promise<boolean> {
  return canManageTask(viewer, taskId, db);
}

/**
 * Throws unless someone is signed in.
 *
 * @param message the 401's message (default "Please sign in first.")
 * @returns the same viewer, typed as signed in
 * @throws UnauthorizedError (401)
 */
export function requireSignedIn(viewer: Viewer, message = "Please sign in first."): SignedInViewer {
  if (!viewer) throw new UnauthorizedError(message);
  return viewer;
}

/** The refusal of {@link requireConfirmedEmail}. */
export const EMAIL_NOT_CONFIRMED =
  "Please confirm your e-mail address first: open the link in the mail we sent you when you signed up. No mail? Ask for a new link on your account page (/account).";

/**
 * The signed-in user has not confirmed their e-mail address yet: a {@link ForbiddenError}
 * (403) with the message {@link EMAIL_NOT_CONFIRMED} and, in its JSON body, `reason:
 * "email_not_confirmed"` and `resendAt: "/account"` (where a new link is asked for).
 */
export class EmailNotConfirmedError extends ForbiddenError {
  override readonly details = { reason: "email_not_confirmed", resendAt: "/account" };
  constructor() {
    super(EMAIL_NOT_CONFIRMED);
  }
}

/**
 * Throws unless the user's e-mail address is confirmed (`users.email_confirmed_at` set): the
 * one rule for what an unconfirmed account may not do yet (submit runs, create teams).
 * An unknown user passes (the caller's own lookups answer that).
 *
 * @param userId the signed-in user
 * @throws EmailNotConfirmedError (403, "Please confirm your e-mail address first: …")
 */
export async function requireConfirmedEmail(userId: string, db: Db = defaultDb()): Promise<void> {
  const row = await db.user.findUnique({ where: { id: userId }, select: { emailConfirmedAt: true } });
  if (row && row.emailConfirmedAt === null) throw new EmailNotConfirmedError();
}
