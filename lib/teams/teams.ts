/**
 * Teams: creation, join codes, membership, and which team a submission is made for.
 *
 * Join codes are not stored: a team's code is derived from its id with HMAC-SHA256 keyed by
 * NEXTAUTH_SECRET, so only members (who are shown it) can pass it on, and rotating the
 * secret invalidates every code. Looking a code up checks it against every team (one HMAC
 * per team, about a microsecond each).
 *
 * One team per user per task (the CoNLL and CRAC shared tasks' norm, and what makes the
 * per-team quotas mean something): a user's first non-baseline submission in a task records
 * its team in `task_participants` ({@link claimTaskTeam}, inside the submission's
 * transaction); every later submission by that user in any phase of the task is made for
 * that team ({@link pickTaskTeam}). Only an organizer can change or clear the record
 * ({@link setParticipantTeam}, audited). Baselines (organizers' reference runs) neither
 * need nor create a record.
 *
 * Team creation, by hand or as a personal team at a first submission, is rate-limited per
 * user (`consumeRateLimit("team-create", …)` in lib/rate-limit.ts, 429 when over).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { loadEnv } from "../env";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { assertCanManageTask, requireConfirmedEmail, type Viewer } from "../permissions";
import { consumeRateLimit } from "../rate-limit";
import { parseInput } from "../validations/parse";
import { joinCodeSchema, teamNameSchema } from "../validations/team";
import { recordAudit } from "../audit";
import { defaultDb, isUniqueViolation, isUuid, lockKey, type Db, type Team, type Tx } from "../db";

/** A team as listed for one of its members. */
export interface TeamSummary {
  id: string;
  name: string;
  /** the listing user's role in the team */
  role: "OWNER" | "MEMBER";
  memberCount: number;
  createdAt: Date;
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** A user's teams in the order every list uses: oldest membership first. */
const MEMBERSHIP_ORDER = [{ createdAt: "asc" as const }, { teamId: "asc" as const }];

/**
 * The join code of a team: 16 base32 characters (80 bits) of HMAC-SHA256(secret, team id).
 *
 * @param teamId the team's id
 * @param secret defaults to NEXTAUTH_SECRET from the environment
 * @returns the canonical code (upper case, no separators); show it with {@link formatJoinCode}
 */
export function joinCodeFor(teamId: string, secret: string = loadEnv().NEXTAUTH_SECRET): string {
  const mac = createHmac("sha256", secret).update(`corefboard-team-join:${teamId}`).digest();
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of mac.subarray(0, 10)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

/**
 * A canonical join code in groups of four, for display.
 *
 * @param code e.g. "ABCDEFGHIJKLMNOP" (from {@link joinCodeFor})
 * @returns e.g. "ABCD-EFGH-IJKL-MNOP"
 */
export function formatJoinCode(code: string): string {
  return code.match(/.{1,4}/g)?.join("-") ?? code;
}

/**
 * Creates a team; the creator becomes its OWNER.
 *
 * @param userId the creator
 * @param name 2–64 characters, unique among teams (case-insensitively)
 * @returns the new team as listed for its creator
 * @throws RateLimitedError (429) when the user created too many teams lately (checked
 *   first: every attempt counts); ValidationError (422) for a bad or taken name
 */
export async function createTeam(userId: string, name: string): Promise<TeamSummary> {
  await requireConfirmedEmail(userId);
  await consumeRateLimit("team-create", userId);
  const teamName = parseInput(teamNameSchema, name, "team name");
  const db = defaultDb();
  if (await teamNameTaken(teamName, db)) throw nameTaken(teamName);
  try {
    return await db.$transaction(async (tx) => {
      const team = await tx.team.create({ data: { name: teamName, members: { create: { userId, role: "OWNER" } } } });
      await recordAudit(tx, { actorId: userId, action: "team.create", targetType: "team", targetId: team.id, data: { name: teamName } });
      return { id: team.id, name: team.name, role: "OWNER" as const, memberCount: 1, createdAt: team.createdAt };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(teamName);
    throw error;
  }
}

function nameTaken(name: string): ValidationError {
  return ValidationError.field("name", `A team named "${name}" already exists. Please choose another name.`);
}

async function teamNameTaken(name: string, db: Db): Promise<boolean> {
  return (await db.team.findFirst({ where: { name: { equals: name, mode: "insensitive" } }, select: { id: true } })) !== null;
}

/**
 * The join code of a team, for one of its owners to pass on (like invitation links, which
 * only owners make: a MEMBER cannot let others in).
 *
 * @returns the formatted code ("ABCD-EFGH-IJKL-MNOP")
 * @throws NotFoundError (404) when the team does not exist or the user is not a member;
 *   ForbiddenError (403) when the user is a MEMBER, not an owner
 */
export async function getJoinCode(userId: string, teamId: string): Promise<string> {
  const member = await defaultDb().teamMember.findUnique({ where: { teamId_userId: { teamId, userId } } });
  if (!member) throw new NotFoundError("No such team among yours.");
  if (member.role !== "OWNER") throw new ForbiddenError("Only the team's owners can see its join code.");
  return formatJoinCode(joinCodeFor(teamId));
}

/**
 * Joins the team whose join code this is, as a MEMBER. Joining a team one is already in
 * changes nothing.
 *
 * @param code as typed (case, spaces and hyphens ignored)
 * @returns the team as listed for the user
 * @throws ValidationError (422) for a malformed code; NotFoundError (404) when no team has it
 */
export async function joinTeam(userId: string, code: string): Promise<TeamSummary> {
  const wanted = Buffer.from(parseInput(joinCodeSchema, code, "join code"));
  const db = defaultDb();
  const secret = loadEnv().NEXTAUTH_SECRET;
  const teams = await db.team.findMany({ select: { id: true } });
  const match = teams.find((t) => timingSafeEqual(Buffer.from(joinCodeFor(t.id, secret)), wanted));
  if (!match) throw new NotFoundError("No team has this join code. Please check it with a member of the team.");
  await db.$transaction(async (tx) => {
    const existing = await tx.teamMember.findUnique({ where: { teamId_userId: { teamId: match.id, userId } } });
    if (existing) return;
    await tx.teamMember.create({ data: { teamId: match.id, userId, role: "MEMBER" } });
    await recordAudit(tx, { actorId: userId, action: "team.join", targetType: "team", targetId: match.id });
  });
  const summary = (await listTeamsOf(userId)).find((t) => t.id === match.id);
  if (!summary) throw new Error("joinTeam: membership vanished");
  return summary;
}

/**
 * The teams a user belongs to, oldest membership first.
 *
 * @returns id, name, the user's role, member count and creation time of each team
 */
export async function listTeamsOf(userId: string, db: Db = defaultDb()): Promise<TeamSummary[]> {
  const rows = await db.teamMember.findMany({
    where: { userId },
    orderBy: MEMBERSHIP_ORDER,
    select: { role: true, team: { select: { id: true, name: true, createdAt: true, _count: { select: { members: true } } } } },
  });
  return rows.map((r) => ({ id: r.team.id, name: r.team.name, role: r.role, memberCount: r.team._count.members, createdAt: r.team.createdAt }));
}

/**
 * The user's personal team: when they are in no team, creates a one-person team named after
 * them (with a short id suffix if the name is taken) and makes them its OWNER. Safe against
 * concurrent calls for the same user (they serialize on a lock; the later one finds the team).
 *
 * @returns the new team, or, when the user already is in a team, the first one they joined
 * @throws NotFoundError (404) for an unknown user; RateLimitedError (429) when a team is to
 *   be created and the user created too many teams lately (as {@link createTeam})
 */
export async function ensurePersonalTeam(userId: string): Promise<Team> {
  const db = defaultDb();
  const user = await db.user.findUnique({ where: { id: userId }, select: { name: true } });
  if (!user) throw new NotFoundError("No such user.");
  const existing = await db.teamMember.findFirst({ where: { userId }, orderBy: MEMBERSHIP_ORDER, select: { team: true } });
  if (existing) return existing.team;
  await consumeRateLimit("team-create", userId);
  const base = personalTeamName(user.name);
  const candidates = [base, `${base} (${userId.slice(0, 8)})`, `${base} (${userId.replace(/-/g, "")})`];
  for (const name of candidates) {
    try {
      return await db.$transaction(async (tx) => {
        await lockKey(tx, `personal-team:${userId}`);
        const first = await tx.teamMember.findFirst({ where: { userId }, orderBy: MEMBERSHIP_ORDER, select: { team: true } });
        if (first) return first.team;
        if (await teamNameTaken(name, tx)) throw new NameTakenSignal();
        const team = await tx.team.create({ data: { name, members: { create: { userId, role: "OWNER" } } } });
        await recordAudit(tx, { actorId: userId, action: "team.create", targetType: "team", targetId: team.id, data: { name, personal: true } });
        return team;
      });
    } catch (error) {
      if (!(error instanceof NameTakenSignal) && !isUniqueViolation(error)) throw error;
    }
  }
  throw new Error("ensurePersonalTeam: no free team name");
}

class NameTakenSignal extends Error {}

/** A valid team name from a user's display name (cut to 50 characters, padded if too short). */
function personalTeamName(userName: string): string {
  const cleaned = userName.replace(/[\p{Cc}\p{Cf}]/gu, "").trim().slice(0, 50).trim();
  return cleaned.length >= 2 ? cleaned : `Team ${cleaned || "member"}`.trim();
}

/**
 * Which existing team a submission is made for, without creating anything.
 *
 * @param userId the submitter
 * @param teamRef a team id or name (names compare case-insensitively), or null/undefined
 * @param db client or transaction (default: the shared client)
 * @returns the named team; with no name: the user's only team, or null when they are in
 *   no team (the caller then uses {@link ensurePersonalTeam})
 * @throws as {@link pickSubmittingTeam}
 */
export async function findSubmittingTeam(userId: string, teamRef?: string | null, db: Db = defaultDb()): Promise<Team | null> {
  const rows = await db.teamMember.findMany({ where: { userId }, orderBy: MEMBERSHIP_ORDER, select: { team: true } });
  return pickSubmittingTeam(rows.map((r) => r.team), teamRef);
}

/**
 * The rule of {@link findSubmittingTeam}, on teams already loaded (no query).
 *
 * @param teams the user's teams, oldest membership first (as {@link listTeamsOf} gives them)
 * @param teamRef a team id or name (names compare case-insensitively), or null/undefined
 * @returns the named team; with no name: the only team, or null for none
 * @throws ForbiddenError (403) when no team in `teams` matches `teamRef` (named teams the
 *   user is not in, and teams that do not exist, alike); ValidationError (422, field `team`)
 *   when no team is named and there are several, listing them
 */
export function pickSubmittingTeam<T extends { id: string; name: string }>(teams: readonly T[], teamRef?: string | null): T | null {
  const ref = teamRef?.trim();
  if (ref) {
    const found = teams.find((t) => (isUuid(ref) && t.id === ref.toLowerCase()) || t.name.toLowerCase() === ref.toLowerCase());
    if (found) return found;
    const yours = teams.length > 0 ? ` Your teams: ${teams.map((t) => t.name).join(", ")}.` : " You are not in any team yet.";
    throw new ForbiddenError(`You are not a member of the team "${ref}".${yours}`);
  }
  if (teams.length === 0) return null;
  if (teams.length === 1) return teams[0];
  throw ValidationError.field(
    "team",
    `You are in ${teams.length} teams; please say which one this submission is for (field "team"): ${teams.map((t) => t.name).join(", ")}.`,
  );
}

/**
 * The team a submission is made for (see {@link findSubmittingTeam}), creating the user's
 * personal team when they are in none.
 *
 * @throws as {@link findSubmittingTeam}
 */
export async function resolveSubmittingTeam(userId: string, teamRef?: string | null): Promise<Team> {
  return (await findSubmittingTeam(userId, teamRef)) ?? ensurePersonalTeam(userId);
}

/** A team member as the teams page shows them. */
export interface TeamMemberView {
  userId: string;
  name: string;
  role: "OWNER" | "MEMBER";
}

/**
 * The members of each of the user's teams, owners first, then by joining time. Only teams
 * the user belongs to are read; nothing else about other users is exposed.
 *
 * @param userId the signed-in user
 * @returns members by team id (teams the user is not in are absent)
 */
export async function membersOfMyTeams(userId: string, db: Db = defaultDb()): Promise<Map<string, TeamMemberView[]>> {
  const rows = await db.teamMember.findMany({
    where: { team: { members: { some: { userId } } } },
    orderBy: [{ role: "asc" }, { createdAt: "asc" }],
    select: { teamId: true, role: true, user: { select: { id: true, name: true } } },
  });
  const byTeam = new Map<string, TeamMemberView[]>();
  for (const row of rows) {
    const list = byTeam.get(row.teamId) ?? [];
    list.push({ userId: row.user.id, name: row.user.name, role: row.role });
    byTeam.set(row.teamId, list);
  }
  return byTeam;
}

/** The team recorded for a user in a task (see the module comment), with when it was recorded. */
export interface TaskTeam {
  team: { id: string; name: string };
  /** when the record was made (the user's first run in the task, or an organizer's change) */
  since: Date;
}

/**
 * The team recorded for a user in a task, if any.
 *
 * @param taskId a task id (must be a UUID)
 * @param userId a user id (must be a UUID)
 * @param db client or transaction (default: the shared client)
 * @returns the team and the time of the record; null when the user has not submitted in the
 *   task yet (or an organizer cleared the record)
 */
export async function taskTeamOf(taskId: string, userId: string, db: Db = defaultDb()): Promise<TaskTeam | null> {
  const row = await db.taskParticipant.findUnique({
    where: { taskId_userId: { taskId, userId } },
    select: { createdAt: true, team: { select: { id: true, name: true } } },
  });
  return row && { team: row.team, since: row.createdAt };
}

/** True when `ref` names this team: its id (any case) or its name (case-insensitively). */
function namesTeam(team: { id: string; name: string }, ref: string): boolean {
  return (isUuid(ref) && team.id === ref.toLowerCase()) || team.name.toLowerCase() === ref.toLowerCase();
}

/** The 403 for a user who names another team than the one recorded for them in the task. */
function teamFixedError(teamName: string, what?: string, otherTeam?: string): ForbiddenError {
  const act = what && otherTeam ? `, so you cannot ${what} for team "${otherTeam}" here` : "";
  return new ForbiddenError(`You submit for team "${teamName}" in this task${act}; ask the organizers to change it.`);
}

/**
 * The rule of one team per user per task, for submitting and for acting: a user with a team
 * recorded in a task (their first run there fixed it, see {@link claimTaskTeam}) may submit,
 * withdraw runs and choose final runs in that task for that team only. Called by
 * {@link claimTaskTeam} (submissions) and by `assertMayActForTeam` (./team-membership.ts:
 * withdrawals, final runs).
 *
 * @param recorded the team recorded for the user in the task, or null (no record: any team of theirs)
 * @param team the team the user acts for
 * @param what what they want to do, e.g. "withdraw runs" (named in the message; without it,
 *   the submission's message)
 * @throws ForbiddenError (403) "You submit for team X in this task[, so you cannot … for team
 *   Y here]; ask the organizers to change it." when the recorded team is not `team`
 */
export function assertActingTeam(recorded: { id: string; name: string } | null, team: { id: string; name?: string }, what?: string): void {
  if (recorded && recorded.id !== team.id) throw teamFixedError(recorded.name, what, team.name);
}

/**
 * The rule of one team per user per task, on data already loaded (no query): which team a
 * non-baseline submission in the task is made for.
 *
 * @param recorded the team recorded for the user in the task ({@link taskTeamOf}), or null
 * @param teams the user's teams, oldest membership first (as {@link listTeamsOf} gives them)
 * @param teamRef a team id or name from the upload, or null/undefined
 * @returns with a record: that team (from `teams`); without one: as {@link pickSubmittingTeam}
 *   (the named team, the only team, or null when the user is in none)
 * @throws ForbiddenError (403) "You submit for team X in this task; ask the organizers to
 *   change it." when a record exists and `teamRef` names another team (or the user has left
 *   the recorded team); without a record, as {@link pickSubmittingTeam} (403 for a team the
 *   user is not in, 422 on field `team` when several teams and none named)
 */
export function pickTaskTeam<T extends { id: string; name: string }>(
  recorded: { id: string; name: string } | null,
  teams: readonly T[],
  teamRef?: string | null,
): T | null {
  if (!recorded) return pickSubmittingTeam(teams, teamRef);
  const ref = teamRef?.trim();
  if (ref && !namesTeam(recorded, ref)) throw teamFixedError(recorded.name);
  const team = teams.find((t) => t.id === recorded.id);
  if (!team) {
    throw new ForbiddenError(`You submit for team "${recorded.name}" in this task but are no longer one of its members; ask the organizers to change it.`);
  }
  return team;
}

/**
 * Records `team` as the user's team in the task, or checks it against the record: the
 * transactional half of one team per user per task, called by a non-baseline submission
 * inside its transaction before the quota lock. Holds an advisory lock on (task, user)
 * until the transaction ends, so two first submissions racing with different teams cannot
 * both record theirs: the later one sees the record and is refused.
 *
 * @param tx the submission's transaction
 * @param taskId the task
 * @param userId the submitter
 * @param team the team the submission is for (its upload context's choice, `pickTaskTeam`, or {@link ensurePersonalTeam})
 * @returns true when the record was created now (the user's first run in the task)
 * @throws ForbiddenError (403) when another team is recorded for the user in the task
 */
export async function claimTaskTeam(tx: Tx, taskId: string, userId: string, team: { id: string }): Promise<boolean> {
  await lockKey(tx, `task-participant:${taskId}:${userId}`);
  const recorded = await taskTeamOf(taskId, userId, tx);
  if (recorded) {
    assertActingTeam(recorded.team, team);
    return false;
  }
  await tx.taskParticipant.create({ data: { taskId, userId, teamId: team.id } });
  return true;
}

/** A participant of a task as its organizers see it on the manage page. */
export interface TaskParticipantView {
  user: { id: string; name: string };
  /** the team recorded for the user in the task */
  team: { id: string; name: string };
  since: Date;
  /** the user's teams, oldest membership first: the choices when an organizer changes the record */
  teams: { id: string; name: string }[];
}

/** Most participants {@link listTaskParticipants} returns. */
export const MAX_PARTICIPANTS = 2000;

/**
 * The users with a recorded team in a task, oldest record first (organizers only).
 *
 * @param actor the viewer
 * @param taskId the task (any string: a malformed id is a 404 like an unknown one)
 * @returns at most {@link MAX_PARTICIPANTS} {@link TaskParticipantView}s
 * @throws NotFoundError (404) for an unknown task; UnauthorizedError (401) when anonymous;
 *   ForbiddenError (403) unless the viewer organizes the task (or is a site admin)
 */
export async function listTaskParticipants(actor: Viewer, taskId: string): Promise<TaskParticipantView[]> {
  const db = defaultDb();
  await assertTaskExists(taskId, db);
  await assertCanManageTask(actor, taskId, db);
  const rows = await db.taskParticipant.findMany({
    where: { taskId },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    take: MAX_PARTICIPANTS,
    select: {
      createdAt: true,
      team: { select: { id: true, name: true } },
      user: {
        select: {
          id: true,
          name: true,
          memberships: { orderBy: MEMBERSHIP_ORDER, select: { team: { select: { id: true, name: true } } } },
        },
      },
    },
  });
  return rows.map((r) => ({
    user: { id: r.user.id, name: r.user.name },
    team: r.team,
    since: r.createdAt,
    teams: r.user.memberships.map((m) => m.team),
  }));
}

/**
 * Changes or clears the team recorded for a user in a task (organizers only). A cleared
 * record is made again by the user's next non-baseline submission, for the team it names
 * (or their only team). Writes `task.participant.update` with the old and new team; a
 * request that changes nothing writes nothing.
 *
 * @param actor the organizer
 * @param taskId the task
 * @param userId the participant
 * @param teamId the new team (the user must be one of its members), or null to clear the record
 * @returns the new record, or null when cleared
 * @throws UnauthorizedError (401) when anonymous; ForbiddenError (403) unless the actor
 *   organizes the task; NotFoundError (404) for an unknown task, user or team (malformed ids
 *   alike); ValidationError (422, field `teamId`) when the user is not a member of the team
 */
export async function setParticipantTeam(actor: Viewer, taskId: string, userId: string, teamId: string | null): Promise<TaskTeam | null> {
  const db = defaultDb();
  await assertTaskExists(taskId, db);
  const organizer = await assertCanManageTask(actor, taskId, db);
  const user = isUuid(userId) ? await db.user.findUnique({ where: { id: userId }, select: { id: true, name: true } }) : null;
  if (!user) throw new NotFoundError("No such user.");
  let team: { id: string; name: string } | null = null;
  if (teamId !== null) {
    team = isUuid(teamId) ? await db.team.findUnique({ where: { id: teamId }, select: { id: true, name: true } }) : null;
    if (!team) throw new NotFoundError("No such team.");
    const member = await db.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId } }, select: { userId: true } });
    if (!member) throw ValidationError.field("teamId", `${user.name} is not a member of the team "${team.name}"; they can join it with its join code first.`);
  }
  return db.$transaction(async (tx) => {
    await lockKey(tx, `task-participant:${taskId}:${userId}`);
    const before = await taskTeamOf(taskId, userId, tx);
    if ((before?.team.id ?? null) === (team?.id ?? null)) return before;
    let after: TaskTeam | null = null;
    if (team) {
      const row = await tx.taskParticipant.upsert({
        where: { taskId_userId: { taskId, userId } },
        create: { taskId, userId, teamId: team.id },
        update: { teamId: team.id, createdAt: new Date() },
        select: { createdAt: true },
      });
      after = { team, since: row.createdAt };
    } else {
      await tx.taskParticipant.delete({ where: { taskId_userId: { taskId, userId } } });
    }
    await recordAudit(tx, {
      actorId: organizer.userId,
      action: "task.participant.update",
      targetType: "task",
      targetId: taskId,
      data: { userId, from: before?.team ?? null, to: team },
    });
    return after;
  });
}

/**
 * The team recorded for a user in each task they submitted to, newest record first (for the
 * teams page). The user's own records only.
 *
 * @param userId the signed-in user
 * @returns per task: its slug and title, the team and the time of the record
 */
export async function listTaskTeamsOf(userId: string, db: Db = defaultDb()): Promise<(TaskTeam & { task: { id: string; slug: string; title: string } })[]> {
  const rows = await db.taskParticipant.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { taskId: "asc" }],
    select: { createdAt: true, team: { select: { id: true, name: true } }, task: { select: { id: true, slug: true, title: true } } },
  });
  return rows.map((r) => ({ task: r.task, team: r.team, since: r.createdAt }));
}

/** @throws NotFoundError (404) unless a task has this id */
async function assertTaskExists(taskId: string, db: Db): Promise<void> {
  const found = isUuid(taskId) && (await db.task.findUnique({ where: { id: taskId }, select: { id: true } }));
  if (!found) throw new NotFoundError("No such task.");
}
