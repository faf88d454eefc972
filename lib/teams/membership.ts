/**
 * Team membership changes (issue 23 F4): owners remove members and make other members owners,
 * members leave; and the rule that a user who submits for one team in a task cannot act for
 * another team there ({@link assertMayActForTeam}).
 *
 * The contract:
 * - **Remove** ({@link removeTeamMember}): owners only; an owner removes a MEMBER, or another
 *   OWNER (owners are peers). Removing oneself is leaving.
 * - **Leave** ({@link leaveTeam}): any member. The last owner of a team that has other members
 *   must first make one of them owner (409); the last member may leave, and the team stays,
 *   empty, with its runs.
 * - **Make owner** ({@link makeTeamOwner}): owners only; the member becomes OWNER beside them
 *   (to hand the team over, make someone owner, then leave).
 * - **Runs stay the team's.** Nothing here touches submissions, final runs or the task
 *   participation records (`task_participants`): a user who left keeps their record in a task
 *   (the organizers can change it), and cannot submit for the team any more.
 * - **Errors.** 401 anonymous; 422 malformed ids (zod); 404 when the viewer is not in the team
 *   (teams one is not in look like teams that do not exist) or the target is not a member;
 *   403 when a MEMBER tries an owner's step; 409 for the last-owner rule.
 * - **Audit.** `team.member_remove` {userId, role}, `team.leave` {role}, `team.owner_add`
 *   {userId}; targetType "team", in the change's transaction. Each change locks the team
 *   (`team-members:<id>`) so two owners leaving at once cannot leave the team ownerless.
 */
import { ConflictError, ForbiddenError, NotFoundError } from "../errors";
import { requireSignedIn, type SignedInViewer, type Viewer } from "../permissions";
import { parseInput } from "../validations/parse";
import { leaveTeamSchema, teamMemberChangeSchema } from "../validations/team";
import { recordAudit } from "../audit";
import { assertActingTeam } from "./teams";
import { defaultDb, isUuid, lockKey, type Db, type Tx } from "../db";

/** A team's member after a change, as the teams page lists them. */
export interface MembershipChange {
  teamId: string;
  userId: string;
  /** the member's role after the change, or null once they are out of the team */
  role: "OWNER" | "MEMBER" | null;
}

async function roleIn(tx: Db | Tx, teamId: string, userId: string): Promise<"OWNER" | "MEMBER" | null> {
  const row = await tx.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { role: true } });
  return row?.role ?? null;
}

/** The viewer's role in the team (locked), or the 404 of a team that is not theirs. */
async function lockedRole(tx: Tx, viewer: SignedInViewer, teamId: string): Promise<"OWNER" | "MEMBER"> {
  await lockKey(tx, `team-members:${teamId}`);
  const role = await roleIn(tx, teamId, viewer.userId);
  if (!role) throw new NotFoundError("No such team among yours.");
  return role;
}

/**
 * Removes a member from a team (owners only). The member's runs stay the team's.
 *
 * @param actor the viewer; must be an OWNER of the team
 * @param input `{teamId, userId}` (ids of the team and the member to remove)
 * @returns the change (`role: null`)
 * @throws UnauthorizedError (401) anonymous; ValidationError (422) malformed ids;
 *   NotFoundError (404) when the viewer is not in the team or the user is not a member;
 *   ForbiddenError (403) when the viewer is a MEMBER; ConflictError (409) when the viewer
 *   names themselves (use {@link leaveTeam})
 */
export async function removeTeamMember(actor: Viewer, input: unknown): Promise<MembershipChange> {
  const viewer = requireSignedIn(actor, "Please sign in to manage your team.");
  const { teamId, userId } = parseInput(teamMemberChangeSchema, input, "member change");
  return defaultDb().$transaction(async (tx) => {
    const myRole = await lockedRole(tx, viewer, teamId);
    if (myRole !== "OWNER") throw new ForbiddenError("Only the team's owners can remove members.");
    if (userId === viewer.userId) throw new ConflictError("To remove yourself, leave the team.");
    const role = await roleIn(tx, teamId, userId);
    if (!role) throw new NotFoundError("This user is not a member of the team.");
    await tx.teamMember.delete({ where: { teamId_userId: { teamId, userId } } });
    await recordAudit(tx, { actorId: viewer.userId, action: "team.member_remove", targetType: "team", targetId: teamId, data: { userId, role } });
    return { teamId, userId, role: null };
  });
}

/**
 * Leaves a team. The last owner cannot leave while others are in the team (make one of them
 * owner first); the last member can, and the team stays, empty, with its runs.
 *
 * @param actor the viewer; must be a member of the team
 * @param input `{teamId}`
 * @returns the change (`role: null`)
 * @throws UnauthorizedError (401) anonymous; ValidationError (422) a malformed id;
 *   NotFoundError (404) when the viewer is not in the team; ConflictError (409) for the last
 *   owner of a team with other members
 */
export async function leaveTeam(actor: Viewer, input: unknown): Promise<MembershipChange> {
  const viewer = requireSignedIn(actor, "Please sign in to leave a team.");
  const { teamId } = parseInput(leaveTeamSchema, input, "team");
  return defaultDb().$transaction(async (tx) => {
    const myRole = await lockedRole(tx, viewer, teamId);
    if (myRole === "OWNER") {
      const owners = await tx.teamMember.count({ where: { teamId, role: "OWNER" } });
      const members = await tx.teamMember.count({ where: { teamId } });
      if (owners === 1 && members > 1) {
        throw new ConflictError("You are the team's only owner: make another member owner before you leave.");
      }
    }
    await tx.teamMember.delete({ where: { teamId_userId: { teamId, userId: viewer.userId } } });
    await recordAudit(tx, { actorId: viewer.userId, action: "team.leave", targetType: "team", targetId: teamId, data: { role: myRole } });
    return { teamId, userId: viewer.userId, role: null };
  });
}

/**
 * Makes a member of the team an OWNER (owners only). A user who already is an owner changes
 * nothing and writes nothing.
 *
 * @param actor the viewer; must be an OWNER of the team
 * @param input `{teamId, userId}`
 * @returns the change (`role: "OWNER"`)
 * @throws UnauthorizedError (401) anonymous; ValidationError (422) malformed ids;
 *   NotFoundError (404) when the viewer is not in the team or the user is not a member;
 *   ForbiddenError (403) when the viewer is a MEMBER
 */
export async function makeTeamOwner(actor: Viewer, input: unknown): Promise<MembershipChange> {
  const viewer = requireSignedIn(actor, "Please sign in to manage your team.");
  const { teamId, userId } = parseInput(teamMemberChangeSchema, input, "member change");
  return defaultDb().$transaction(async (tx) => {
    const myRole = await lockedRole(tx, viewer, teamId);
    if (myRole !== "OWNER") throw new ForbiddenError("Only the team's owners can make a member owner.");
    const role = await roleIn(tx, teamId, userId);
    if (!role) throw new NotFoundError("This user is not a member of the team.");
    if (role === "OWNER") return { teamId, userId, role };
    await tx.teamMember.update({ where: { teamId_userId: { teamId, userId } }, data: { role: "OWNER" } });
    await recordAudit(tx, { actorId: viewer.userId, action: "team.owner_add", targetType: "team", targetId: teamId, data: { userId } });
    return { teamId, userId, role: "OWNER" };
  });
}

/**
 * Asserts that a user may owner-manage a team (create and revoke its invitation links).
 *
 * @throws NotFoundError (404) when the user is not in the team (malformed ids alike);
 *   ForbiddenError (403) when they are a MEMBER
 */
export async function assertTeamOwner(userId: string, teamId: string, what: string, db: Db = defaultDb()): Promise<void> {
  const role = isUuid(teamId) ? await roleIn(db, teamId, userId) : null;
  if (!role) throw new NotFoundError("No such team among yours.");
  if (role !== "OWNER") throw new ForbiddenError(`Only the team's owners can ${what}.`);
}

/**
 * One team per user per task, for acting: `assertActingTeam` (./teams.ts) with the record
 * read from the database. Called by withdrawing a run and choosing final runs; submitting
 * checks the same rule through `claimTaskTeam`/`pickTaskTeam`.
 *
 * @param userId the acting user
 * @param taskId the task of the run or phase
 * @param teamId the team acted for (the run's team)
 * @param what for the message, e.g. "withdraw runs"
 * @param db client or transaction (default: the shared client)
 * @throws ForbiddenError (403) naming the recorded team when it is not `team`
 */
export async function assertMayActForTeam(userId: string, taskId: string, teamId: string, what: string, db: Db | Tx = defaultDb()): Promise<void> {
  const row = await db.taskParticipant.findUnique({ where: { taskId_userId: { taskId, userId } }, select: { team: { select: { id: true, name: true } } } });
  if (!row || row.team.id === teamId) return;
  const team = await db.team.findUnique({ where: { id: teamId }, select: { id: true, name: true } });
  assertActingTeam(row.team, team ?? { id: teamId }, what);
}

/** One withdrawal or final-run choice on a team's run, as the teams page shows it. */
export interface TeamRunActionView {
  at: Date;
  /** who did it; null once their account is gone */
  actor: { id: string; name: string } | null;
  kind: "withdraw" | "final_select" | "final_unselect";
  run: { id: string; systemName: string; phaseName: string; task: { slug: string; title: string } };
}

/** Most entries {@link listTeamRunActions} returns (newest first). */
export const MAX_TEAM_RUN_ACTIONS = 50;

const RUN_ACTION_KINDS = { "submission.withdraw": "withdraw", "submission.final_select": "final_select", "submission.final_unselect": "final_unselect" } as const;

/**
 * Who withdrew which of the team's runs and who marked or unmarked its final runs, and when,
 * newest first (members only). Read from the audit log (`submission.withdraw`,
 * `submission.final_select`, `submission.final_unselect`) by the events' `teamId` column
 * (the run's team, set by recordAudit; migration 0013 filled it in for older events from
 * their data), so it covers every such change since those events were written, and its cost
 * follows the team's events (index `(team_id, at DESC, id)`), not the whole site's.
 *
 * @param actor the viewer; must be a member of the team
 * @param teamId the team
 * @param limit at most this many (default and ceiling {@link MAX_TEAM_RUN_ACTIONS})
 * @returns the entries; runs deleted since are left out
 * @throws UnauthorizedError (401) anonymous; NotFoundError (404) when the team does not exist
 *   or the viewer is not a member (malformed ids alike)
 */
export async function listTeamRunActions(actor: Viewer, teamId: string, limit: number = MAX_TEAM_RUN_ACTIONS): Promise<TeamRunActionView[]> {
  const viewer = requireSignedIn(actor, "Please sign in to see your team.");
  const db = defaultDb();
  if (!isUuid(teamId) || !(await roleIn(db, teamId, viewer.userId))) throw new NotFoundError("No such team among yours.");
  const events = await db.auditEvent.findMany({
    // By the indexed column (team_id, at DESC, id), not the data's teamId: Postgres walks the
    // team's own events newest first until it has `take` run actions, however big the site.
    where: { teamId, targetType: "submission", action: { in: Object.keys(RUN_ACTION_KINDS) } },
    orderBy: [{ at: "desc" }, { id: "asc" }],
    take: Math.max(1, Math.min(limit, MAX_TEAM_RUN_ACTIONS)),
    select: { at: true, action: true, targetId: true, actor: { select: { id: true, name: true } } },
  });
  const runs = await db.submission.findMany({
    where: { id: { in: [...new Set(events.map((e) => e.targetId))].filter(isUuid) }, teamId },
    select: { id: true, systemName: true, phase: { select: { name: true, task: { select: { slug: true, title: true } } } } },
  });
  const byId = new Map(runs.map((r) => [r.id, { id: r.id, systemName: r.systemName, phaseName: r.phase.name, task: r.phase.task }]));
  return events.flatMap((e) => {
    const run = byId.get(e.targetId);
    const kind = RUN_ACTION_KINDS[e.action as keyof typeof RUN_ACTION_KINDS];
    return run && kind ? [{ at: e.at, actor: e.actor, kind, run }] : [];
  });
}
