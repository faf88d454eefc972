/**
 * Who may see and do what. Every service calls these; pages and routes may call them to
 * decide what to show, but the services enforce them again.
 *
 * Rules:
 * - Site admins (role ADMIN) count as organizers of every task.
 * - Leaderboard visibility per phase: PUBLIC (anyone, signed in or not); PARTICIPANTS
 *   (signed-in organizers, and members of a team with at least one submission in any phase
 *   of the task); ORGANIZERS (organizers only).
 * - A submission is visible to its team's members and the task's organizers; to others only
 *   when it is PUBLIC and they may see its phase's leaderboard.
 * - Gold keys (even their metadata) are visible to the task's organizers only.
 */
import { ForbiddenError, UnauthorizedError } from "./errors";
import { defaultDb, type Db, type LeaderboardVisibility, type SubmissionVisibility } from "./services/db";

/** The person making a request: a signed-in user with their site role, or null (anonymous). */
export type Viewer = { userId: string; role: "ADMIN" | "USER" } | null;

/** A signed-in viewer. */
export type SignedInViewer = NonNullable<Viewer>;

/** The fields of a phase that visibility rules need. */
export interface PhaseVisibilityFacts {
  taskId: string;
  leaderboardVisibility: LeaderboardVisibility;
}

/** The fields of a submission that visibility rules need. */
export interface SubmissionVisibilityFacts {
  teamId: string;
  visibility: SubmissionVisibility;
  phase: PhaseVisibilityFacts;
}

/** True when the viewer is a signed-in site admin (from the session's role). */
export function isSiteAdmin(viewer: Viewer): viewer is SignedInViewer & { role: "ADMIN" } {
  return viewer?.role === "ADMIN";
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
 * Throws unless the viewer may manage the task.
 *
 * @throws UnauthorizedError (401) for anonymous viewers; ForbiddenError (403) otherwise
 */
export async function assertCanManageTask(viewer: Viewer, taskId: string, db: Db = defaultDb()): Promise<SignedInViewer> {
  if (!viewer) throw new UnauthorizedError("Please sign in as an organizer of this task.");
  if (!(await canManageTask(viewer, taskId, db))) throw new ForbiddenError("Only the organizers of this task can do this.");
  return viewer;
}

/**
 * Whether a user is a participant of a task: a member of a team that has at least one
 * submission (any status, any phase) in it.
 */
export async function isTaskParticipant(userId: string, taskId: string, db: Db = defaultDb()): Promise<boolean> {
  const hit = await db.submission.findFirst({
    where: { phase: { taskId }, team: { members: { some: { userId } } } },
    select: { id: true },
  });
  return hit !== null;
}

/** Whether a user belongs to a team. */
export async function isTeamMember(userId: string, teamId: string, db: Db = defaultDb()): Promise<boolean> {
  const row = await db.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { userId: true } });
  return row !== null;
}

/**
 * Whether the viewer may see a phase's leaderboard, per its visibility (see the module comment).
 *
 * @param phase the phase's task id and leaderboard visibility
 */
export async function canViewLeaderboard(viewer: Viewer, phase: PhaseVisibilityFacts, db: Db = defaultDb()): Promise<boolean> {
  switch (phase.leaderboardVisibility) {
    case "PUBLIC":
      return true;
    case "PARTICIPANTS":
      if (!viewer) return false;
      return (await canManageTask(viewer, phase.taskId, db)) || (await isTaskParticipant(viewer.userId, phase.taskId, db));
    case "ORGANIZERS":
      return canManageTask(viewer, phase.taskId, db);
  }
}

/**
 * Whether the viewer may see a submission (its page, status, scores).
 *
 * @returns true for members of the submitting team and the task's organizers; for anyone else
 *   only when the submission is PUBLIC and its phase's leaderboard is visible to them
 */
export async function canViewSubmission(viewer: Viewer, submission: SubmissionVisibilityFacts, db: Db = defaultDb()): Promise<boolean> {
  if (viewer && (await isTeamMember(viewer.userId, submission.teamId, db))) return true;
  if (await canManageTask(viewer, submission.phase.taskId, db)) return true;
  return submission.visibility === "PUBLIC" && (await canViewLeaderboard(viewer, submission.phase, db));
}

/** Whether the viewer may see a task's gold keys (content or metadata): organizers only. */
export async function canViewGold(viewer: Viewer, taskId: string, db: Db = defaultDb()): Promise<boolean> {
  return canManageTask(viewer, taskId, db);
}

/**
 * Throws unless someone is signed in.
 *
 * @throws UnauthorizedError (401)
 */
export function requireSignedIn(viewer: Viewer, message = "Please sign in first."): SignedInViewer {
  if (!viewer) throw new UnauthorizedError(message);
  return viewer;
}
