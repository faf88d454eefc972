/**
 * Team invitation links (issue 11 §4, issue 23 F4): an owner of a team makes a link that lets
 * whoever opens it, signed in, join the team; the link can be revoked.
 *
 * The contract:
 * - **Who.** Only the team's OWNERs may make and revoke links (a MEMBER gets a 403); any
 *   member may list them. Site admins and task organizers have no say over teams. Anyone
 *   else gets the 404 of a team that does not exist (a team's existence is not secret, but
 *   its links are).
 * - **Token.** 32 random bytes in base64url (43 characters); only its sha256 (lower-case hex)
 *   is stored. The link `${NEXTAUTH_URL}/invite/team/<token>` is returned once, at creation
 *   (like an API token): it cannot be shown again, only revoked and replaced.
 * - **Validity.** {@link TEAM_INVITATION_TTL_MS} (14 days) from creation, until revoked or
 *   used up. A link lets one person join unless its owner chose more when making it
 *   (`maxUses`, 1–{@link MAX_INVITATION_USES}); `uses` counts the people who joined through it.
 *   At most {@link MAX_ACTIVE_TEAM_INVITATIONS} working links per team.
 * - **Joining** ({@link acceptTeamInvitation}) follows `joinTeam`'s rules: the user becomes a
 *   MEMBER; a user already in the team changes nothing (and is told so; `uses` is not
 *   counted). There is no team size limit. The join code keeps working beside the links.
 * - **Errors.** An unknown token is a 404; a revoked, expired or used-up link is a 410
 *   ({@link GoneError}) that says which.
 * - **Audit.** `team.invitation_create`, `team.invitation_revoke` (targetType "team", data
 *   `{invitationId}`), and `team.join` with data `{via: "invitation", invitationId}`.
 */
import { randomBytes } from "node:crypto";
import { loadEnv } from "../env";
import { ConflictError, GoneError, NotFoundError } from "../errors";
import { requireSignedIn, type Viewer } from "../permissions";
import { parseInput } from "../validations/parse";
import { createTeamInvitationSchema, MAX_INVITATION_USES } from "../validations/team";
import { sha256Hex } from "../storage";
import { recordAudit } from "../audit";
import { defaultDb, isUuid, lockKey, type Db } from "../db";
import { assertTeamOwner } from "./membership";

export { MAX_INVITATION_USES };

/** How long a team invitation link works: 14 days, in milliseconds. */
export const TEAM_INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** Most working (not revoked, not expired) links one team may have at a time. */
export const MAX_ACTIVE_TEAM_INVITATIONS = 20;

/** Most links {@link listTeamInvitations} returns (newest first). */
export const MAX_LISTED_TEAM_INVITATIONS = 100;

/** A token as made here and by the other invitation and account links: 43 base64url characters. */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;


/** A new link token and the sha256 that is stored. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: sha256Hex(token) };
}

/** `${NEXTAUTH_URL}` without a trailing slash, followed by `path`. */
export function siteUrl(path: string): string {
  return `${loadEnv().NEXTAUTH_URL.replace(/\/+$/, "")}${path}`;
}

/** The state of a link at a given time. */
export type TeamInvitationStatus = "active" | "expired" | "revoked" | "used";

/** A team's invitation link as its members see it in the list (never the token). */
export interface TeamInvitationView {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** how many people joined through it */
  uses: number;
  /** how many people may join through it (1 = single-use) */
  maxUses: number;
  /** who made it ("deleted user" once their account is gone), or null when unknown */
  createdBy: { id: string; name: string } | null;
  status: TeamInvitationStatus;
}

/** What {@link createTeamInvitation} returns: the link, shown once. */
export interface CreatedTeamInvitation {
  /** `${NEXTAUTH_URL}/invite/team/<token>`: show it now; it cannot be recovered */
  url: string;
  invitation: TeamInvitationView;
}

const VIEW_SELECT = {
  id: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  uses: true,
  maxUses: true,
  createdBy: { select: { id: true, name: true } },
} as const;

function statusOf(row: { revokedAt: Date | null; expiresAt: Date; uses: number; maxUses: number }, now: Date): TeamInvitationStatus {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt.getTime() <= now.getTime()) return "expired";
  return row.uses >= row.maxUses ? "used" : "active";
}

function toView(row: { id: string; createdAt: Date; expiresAt: Date; revokedAt: Date | null; uses: number; maxUses: number; createdBy: { id: string; name: string } | null }, now: Date): TeamInvitationView {
  return { ...row, status: statusOf(row, now) };
}

/** @throws NotFoundError (404) unless the user is a member of the team (malformed ids alike) */
async function assertMember(userId: string, teamId: string, db: Db): Promise<void> {
  const member = isUuid(teamId) ? await db.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { userId: true } }) : null;
  if (!member) throw new NotFoundError("No such team among yours.");
}

/**
 * Makes an invitation link for a team (owners only). Audited as `team.invitation_create`
 * with `{invitationId, expiresAt, maxUses}`.
 *
 * @param actor the viewer
 * @param teamId the team
 * @param now the current time (tests)
 * @param options `maxUses`: how many people may join through the link (1–{@link MAX_INVITATION_USES},
 *   default 1; a form's string is accepted)
 * @returns the link (only here) and its listing
 * @throws UnauthorizedError (401) when anonymous; ValidationError (422) for a bad `maxUses`;
 *   NotFoundError (404) when the team does not exist or the viewer is not a member;
 *   ForbiddenError (403) when the viewer is a MEMBER, not an owner; ConflictError (409) when
 *   the team already has {@link MAX_ACTIVE_TEAM_INVITATIONS} working links
 */
export async function createTeamInvitation(actor: Viewer, teamId: string, now: Date = new Date(), options: { maxUses?: unknown } = {}): Promise<CreatedTeamInvitation> {
  const viewer = requireSignedIn(actor, "Please sign in to invite people to your team.");
  const db = defaultDb();
  await assertTeamOwner(viewer.userId, teamId, "create invitation links", db);
  const { maxUses } = parseInput(createTeamInvitationSchema, { teamId, maxUses: options.maxUses }, "invitation link");
  const { token, tokenHash } = newLinkToken();
  const row = await db.$transaction(async (tx) => {
    await lockKey(tx, `team-invitations:${teamId}`);
    const active = await tx.teamInvitation.count({ where: { teamId, revokedAt: null, expiresAt: { gt: now }, uses: { lt: tx.teamInvitation.fields.maxUses } } });
    if (active >= MAX_ACTIVE_TEAM_INVITATIONS) {
      throw new ConflictError(`This team already has ${MAX_ACTIVE_TEAM_INVITATIONS} working invitation links; revoke one first.`);
    }
    const created = await tx.teamInvitation.create({
      data: { teamId, tokenHash, createdById: viewer.userId, createdAt: now, expiresAt: new Date(now.getTime() + TEAM_INVITATION_TTL_MS), maxUses },
      select: VIEW_SELECT,
    });
    await recordAudit(tx, {
      actorId: viewer.userId,
      action: "team.invitation_create",
      targetType: "team",
      targetId: teamId,
      data: { invitationId: created.id, expiresAt: created.expiresAt, maxUses },
    });
    return created;
  });
  return { url: siteUrl(`/invite/team/${token}`), invitation: toView(row, now) };
}

/**
 * A team's invitation links, newest first (members only): working, expired and revoked ones,
 * with their use counts. Never the tokens.
 *
 * @param now the current time (tests), for each link's status
 * @returns at most {@link MAX_LISTED_TEAM_INVITATIONS} links
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the team does not
 *   exist or the viewer is not a member
 */
export async function listTeamInvitations(actor: Viewer, teamId: string, now: Date = new Date()): Promise<TeamInvitationView[]> {
  const viewer = requireSignedIn(actor, "Please sign in to see your team's invitation links.");
  const db = defaultDb();
  await assertMember(viewer.userId, teamId, db);
  const rows = await db.teamInvitation.findMany({
    where: { teamId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: MAX_LISTED_TEAM_INVITATIONS,
    select: VIEW_SELECT,
  });
  return rows.map((r) => toView(r, now));
}

/**
 * Revokes one of a team's invitation links (owners only): it stops working at once, for
 * good. Audited as `team.invitation_revoke`.
 *
 * @returns the link as listed after the change
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the team does not
 *   exist, the viewer is not a member, or the team has no link with this id; ForbiddenError
 *   (403) when the viewer is a MEMBER, not an owner; ConflictError (409) when the link was
 *   already revoked
 */
export async function revokeTeamInvitation(actor: Viewer, teamId: string, invitationId: string, now: Date = new Date()): Promise<TeamInvitationView> {
  const viewer = requireSignedIn(actor, "Please sign in to manage your team's invitation links.");
  const db = defaultDb();
  await assertTeamOwner(viewer.userId, teamId, "revoke invitation links", db);
  const found = isUuid(invitationId) ? await db.teamInvitation.findFirst({ where: { id: invitationId, teamId }, select: { id: true } }) : null;
  if (!found) throw new NotFoundError("This team has no such invitation link.");
  return db.$transaction(async (tx) => {
    const { count } = await tx.teamInvitation.updateMany({ where: { id: found.id, revokedAt: null }, data: { revokedAt: now } });
    if (count !== 1) throw new ConflictError("This invitation link was already revoked.");
    await recordAudit(tx, { actorId: viewer.userId, action: "team.invitation_revoke", targetType: "team", targetId: teamId, data: { invitationId: found.id } });
    return toView(await tx.teamInvitation.findUniqueOrThrow({ where: { id: found.id }, select: VIEW_SELECT }), now);
  });
}

/** What the invitation page shows about a team link (anyone holding the link may see it). */
export interface TeamInvitationPreview {
  team: { id: string; name: string; memberCount: number };
  invitedBy: { name: string } | null;
  expiresAt: Date;
  status: TeamInvitationStatus;
  /** whether the viewer is already a member (false when anonymous) */
  alreadyMember: boolean;
}

/** The stored link for a token, or null (a malformed token is unknown). */
async function findByToken(token: string, db: Db) {
  if (typeof token !== "string" || !LINK_TOKEN_PATTERN.test(token)) return null;
  return db.teamInvitation.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: {
      id: true,
      teamId: true,
      expiresAt: true,
      revokedAt: true,
      uses: true,
      maxUses: true,
      createdBy: { select: { name: true } },
      team: { select: { id: true, name: true, _count: { select: { members: true } } } },
    },
  });
}

const UNKNOWN_LINK = "This team invitation link is unknown. Check that you copied all of it, or ask the team for a new one.";
const REVOKED_LINK = "This team invitation link was revoked by the team. Ask a member for a new one.";
const EXPIRED_LINK = "This team invitation link has expired. Ask a member of the team for a new one.";
const USED_LINK = "This team invitation link has already been used as many times as it allows. Ask an owner of the team for a new one.";

/**
 * What an invitation link leads to, for its page. Reading it uses nothing up.
 *
 * @param viewer the viewer (anonymous viewers see the team's name too: they hold the link)
 * @param token the link's token, as given
 * @param now the current time (tests)
 * @returns the team, who made the link, its expiry and status, and whether the viewer is in the team
 * @throws NotFoundError (404) for an unknown (or malformed) token
 */
export async function previewTeamInvitation(viewer: Viewer, token: string, now: Date = new Date()): Promise<TeamInvitationPreview> {
  const db = defaultDb();
  const row = await findByToken(token, db);
  if (!row) throw new NotFoundError(UNKNOWN_LINK);
  const alreadyMember = viewer !== null && (await db.teamMember.findUnique({ where: { teamId_userId: { teamId: row.teamId, userId: viewer.userId } }, select: { userId: true } })) !== null;
  return {
    team: { id: row.team.id, name: row.team.name, memberCount: row.team._count.members },
    invitedBy: row.createdBy,
    expiresAt: row.expiresAt,
    status: statusOf(row, now),
    alreadyMember,
  };
}

/** What {@link acceptTeamInvitation} did. */
export interface TeamInvitationAcceptance {
  team: { id: string; name: string };
  /** false when the viewer already was a member (nothing changed) */
  joined: boolean;
  /** a sentence for the viewer: "You joined …" or "You are already a member of …" */
  message: string;
}

/**
 * Joins the team of an invitation link, as a MEMBER (the rules of `joinTeam`). A member
 * already in the team changes nothing and is told so. Counts the link's `uses`; audited as
 * `team.join` with `{via: "invitation", invitationId}`.
 *
 * @param viewer the signed-in user
 * @param token the link's token
 * @param now the current time (tests)
 * @returns the team, whether the viewer joined now, and a sentence saying so
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown token;
 *   GoneError (410) for a revoked, expired or used-up link (the message says which)
 */
export async function acceptTeamInvitation(viewer: Viewer, token: string, now: Date = new Date()): Promise<TeamInvitationAcceptance> {
  const user = requireSignedIn(viewer, "Please sign in (or sign up) to join this team.");
  const db = defaultDb();
  const row = await findByToken(token, db);
  if (!row) throw new NotFoundError(UNKNOWN_LINK);
  const team = { id: row.team.id, name: row.team.name };
  return db.$transaction(async (tx) => {
    await lockKey(tx, `team-join:${team.id}:${user.userId}`);
    const current = await tx.teamInvitation.findUniqueOrThrow({ where: { id: row.id }, select: { revokedAt: true, expiresAt: true, uses: true, maxUses: true } });
    const existing = await tx.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId: user.userId } }, select: { userId: true } });
    const status = statusOf(current, now);
    if (status === "revoked") throw new GoneError(REVOKED_LINK);
    if (status === "expired") throw new GoneError(EXPIRED_LINK);
    if (existing) return { team, joined: false, message: `You are already a member of “${team.name}”.` };
    if (status === "used") throw new GoneError(USED_LINK);
    // Counted only while the link still works: a revocation or another join racing this one
    // (the row lock of the UPDATE orders them) wins or loses as a whole.
    const counted = await tx.teamInvitation.updateMany({
      where: { id: row.id, revokedAt: null, expiresAt: { gt: now }, uses: { lt: tx.teamInvitation.fields.maxUses } },
      data: { uses: { increment: 1 } },
    });
    if (counted.count !== 1) {
      const after = await tx.teamInvitation.findUniqueOrThrow({ where: { id: row.id }, select: { revokedAt: true } });
      throw new GoneError(after.revokedAt ? REVOKED_LINK : USED_LINK);
    }
    await tx.teamMember.create({ data: { teamId: team.id, userId: user.userId, role: "MEMBER" } });
    await recordAudit(tx, { actorId: user.userId, action: "team.join", targetType: "team", targetId: team.id, data: { via: "invitation", invitationId: row.id } });
    return { team, joined: true, message: `You joined “${team.name}”.` };
  });
}
