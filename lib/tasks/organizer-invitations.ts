/**
 * Co-organizer invitations by email (issue 11 §1): an organizer of a task (or a site admin)
 * invites an email address; whoever signs in with that address and opens the mailed link may
 * accept and becomes an organizer of the task.
 *
 * The contract:
 * - **Who invites.** The task's organizers and site admins (`assertCanManageTask`), for a
 *   task of any status. The invited address need not have an account yet: the invitation page
 *   asks them to sign up (or sign in) and come back.
 * - **Token.** 32 random bytes in base64url; only its sha256 is stored. The link,
 *   `${NEXTAUTH_URL}/invite/organizer/<token>`, is mailed to the address (`lib/accounts/mail.ts`: SMTP,
 *   or the server log without `SMTP_URL`) and returned to the inviter once, so that a site
 *   without mail can pass it on by hand. It works only for the invited address, so the inviter
 *   seeing it gives nothing away.
 * - **Validity.** {@link ORGANIZER_INVITATION_TTL_MS}: 7 days, longer than the one hour of
 *   account links, because the invitee may first have to make an account and the link grants
 *   nothing without a sign-in with the invited address. One use. Inviting an address that
 *   already has a pending invitation to the task replaces it: same invitation, new token and
 *   expiry; the old link stops working (it is unknown from then on).
 * - **Accepting** ({@link acceptOrganizerInvitation}): the signed-in user's email must be the
 *   invited one (else 403 naming the masked address, `a***@example.org`); the link must be
 *   pending (unknown: 404; revoked, expired or used: 410). It adds a TaskOrganizer row and
 *   nothing else: never the ADMIN role. Organizer powers are per task; site-admin powers
 *   (creating tasks, managing every task) stay the admins'.
 * - **Audit** (targetType "task", targetId the task): `task.organizer.invite` (data
 *   `{invitationId, email, expiresAt, replaced}`), `task.organizer.invitation_revoke` and
 *   `task.organizer.accept` (data `{invitationId, email}`).
 */
import { z } from "zod";
import { emailSchema, fieldErrors, sendMail, UserInputError } from "../accounts";
import { ConflictError, ForbiddenError, GoneError, NotFoundError } from "../errors";
import { assertCanManageTask, requireSignedIn, type Viewer } from "../permissions";
import { sha256Hex } from "../storage";
import { SLUG_PATTERN } from "../validations/task";
import { recordAudit } from "../audit";
import { defaultDb, isUuid, lockKey, type Db } from "../db";
import { LINK_TOKEN_PATTERN, newLinkToken, siteUrl } from "../teams";

/** How long an organizer invitation works: 7 days, in milliseconds (see the module header). */
export const ORGANIZER_INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Most pending invitations {@link listOrganizerInvitations} returns. */
export const MAX_LISTED_ORGANIZER_INVITATIONS = 200;

/**
 * An address as shown to someone who may not know it in full: the first character of the
 * local part, "***", then the domain ("ada@example.org" → "a***@example.org").
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${email.charAt(0)}***${email.slice(at)}`;
}

/** A pending invitation as the task's organizers see it (never the token). */
export interface OrganizerInvitationView {
  id: string;
  email: string;
  invitedBy: { id: string; name: string } | null;
  createdAt: Date;
  expiresAt: Date;
  /** true once `expiresAt` has passed (it can no longer be accepted) */
  expired: boolean;
}

/** What {@link inviteOrganizer} returns. */
export interface CreatedOrganizerInvitation {
  invitation: OrganizerInvitationView;
  /** the link, also mailed to the address; shown to the inviter once */
  url: string;
  /** true when a pending invitation of the same address was replaced */
  replaced: boolean;
  /** false when the mail could not be sent (logged; the link above still works) */
  mailed: boolean;
}

const VIEW_SELECT = { id: true, email: true, createdAt: true, expiresAt: true, invitedBy: { select: { id: true, name: true } } } as const;

function toView(row: { id: string; email: string; createdAt: Date; expiresAt: Date; invitedBy: { id: string; name: string } | null }, now: Date): OrganizerInvitationView {
  return { ...row, expired: row.expiresAt.getTime() <= now.getTime() };
}

/** @throws NotFoundError (404) unless a task has this id */
async function findTask(taskId: string, db: Db): Promise<{ id: string; slug: string; title: string }> {
  const task = isUuid(taskId) ? await db.task.findUnique({ where: { id: taskId }, select: { id: true, slug: true, title: true } }) : null;
  if (!task) throw new NotFoundError("No such task.");
  return task;
}

/**
 * The id of the task with this slug, for the organizer-only API routes that name tasks by
 * slug: checks the viewer may manage it before the route reads a request body.
 *
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown slug;
 *   ForbiddenError (403) unless the viewer organizes the task or is a site admin
 */
export async function organizerTaskIdForSlug(viewer: Viewer, slug: string): Promise<string> {
  const signedIn = requireSignedIn(viewer, "Please sign in as an organizer of this task.");
  const db = defaultDb();
  const task = SLUG_PATTERN.test(slug) ? await db.task.findUnique({ where: { slug }, select: { id: true } }) : null;
  if (!task) throw new NotFoundError("No such task.");
  await assertCanManageTask(signedIn, task.id, db);
  return task.id;
}

/**
 * Invites an email address to co-organize a task (organizers and site admins), and mails it
 * the link. Re-inviting an address with a pending invitation replaces that invitation's token
 * and expiry. Audited as `task.organizer.invite`.
 *
 * @param actor the viewer
 * @param taskId the task
 * @param email the address, as typed (trimmed and lower-cased here)
 * @param now the current time (tests)
 * @returns the invitation, its link (once), whether it replaced one, and whether the mail went out
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown task;
 *   ForbiddenError (403) unless the viewer organizes the task or is a site admin;
 *   UserInputError (422, field `email`) for a malformed address; ConflictError (409) when the
 *   address belongs to an organizer of the task already
 */
export async function inviteOrganizer(actor: Viewer, taskId: string, email: string, now: Date = new Date()): Promise<CreatedOrganizerInvitation> {
  const db = defaultDb();
  const viewer = requireSignedIn(actor, "Please sign in as an organizer of this task.");
  const task = await findTask(taskId, db);
  await assertCanManageTask(viewer, task.id, db);
  const parsed = z.object({ email: emailSchema }).safeParse({ email });
  if (!parsed.success) throw new UserInputError(fieldErrors(parsed.error));
  const address = parsed.data.email;

  const { token, tokenHash } = newLinkToken();
  const expiresAt = new Date(now.getTime() + ORGANIZER_INVITATION_TTL_MS);
  const { row, replaced } = await db.$transaction(async (tx) => {
    await lockKey(tx, `organizer-invitation:${task.id}:${address}`);
    const organizer = await tx.taskOrganizer.findFirst({ where: { taskId: task.id, user: { email: address } }, select: { user: { select: { name: true } } } });
    if (organizer) throw new ConflictError(`${organizer.user.name} (${address}) is already an organizer of this task.`);
    const pending = await tx.organizerInvitation.findFirst({
      where: { taskId: task.id, email: address, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      orderBy: { createdAt: "desc" },
      select: { id: true },
    });
    const data = { tokenHash, invitedById: viewer.userId, createdAt: now, expiresAt };
    const saved = pending
      ? await tx.organizerInvitation.update({ where: { id: pending.id }, data, select: VIEW_SELECT })
      : await tx.organizerInvitation.create({ data: { ...data, taskId: task.id, email: address }, select: VIEW_SELECT });
    await recordAudit(tx, {
      actorId: viewer.userId,
      action: "task.organizer.invite",
      targetType: "task",
      targetId: task.id,
      data: { invitationId: saved.id, email: address, expiresAt, replaced: pending !== null },
    });
    return { row: saved, replaced: pending !== null };
  });

  const url = siteUrl(`/invite/organizer/${token}`);
  let mailed = true;
  try {
    await sendMail({
      to: address,
      subject: `You are invited to organize “${task.title}” on Corefboard`,
      text: invitationMailText(row.invitedBy?.name ?? "An organizer", task.title, url, expiresAt),
      links: [url],
    });
  } catch (error) {
    mailed = false;
    console.error(`organizer invitation: could not mail invitation ${row.id}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { invitation: toView(row, now), url, replaced, mailed };
}

/** The plain-text body of the invitation mail. */
function invitationMailText(inviter: string, title: string, url: string, expiresAt: Date): string {
  return [
    `${inviter} invites you to co-organize the shared task “${title}” on Corefboard.`,
    "",
    "Open this link, sign in (or create an account) with this email address, and accept:",
    url,
    "",
    `The link works once, until ${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "If you do not want to organize this task, ignore this mail.",
    "",
  ].join("\n");
}

/**
 * A task's pending invitations (not accepted, not revoked), newest first, expired ones
 * included and marked (organizers and site admins).
 *
 * @returns at most {@link MAX_LISTED_ORGANIZER_INVITATIONS} invitations
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown task;
 *   ForbiddenError (403) unless the viewer organizes the task or is a site admin
 */
export async function listOrganizerInvitations(actor: Viewer, taskId: string, now: Date = new Date()): Promise<OrganizerInvitationView[]> {
  const db = defaultDb();
  const viewer = requireSignedIn(actor, "Please sign in as an organizer of this task.");
  const task = await findTask(taskId, db);
  await assertCanManageTask(viewer, task.id, db);
  const rows = await db.organizerInvitation.findMany({
    where: { taskId: task.id, acceptedAt: null, revokedAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: MAX_LISTED_ORGANIZER_INVITATIONS,
    select: VIEW_SELECT,
  });
  return rows.map((r) => toView(r, now));
}

/**
 * Revokes a pending invitation (organizers and site admins): its link stops working.
 * Audited as `task.organizer.invitation_revoke`.
 *
 * @returns the invitation's id and email
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown task or
 *   an invitation of another task; ForbiddenError (403) unless the viewer organizes the task
 *   or is a site admin; ConflictError (409) when it was already revoked or accepted
 */
export async function revokeOrganizerInvitation(actor: Viewer, taskId: string, invitationId: string, now: Date = new Date()): Promise<{ id: string; email: string }> {
  const db = defaultDb();
  const viewer = requireSignedIn(actor, "Please sign in as an organizer of this task.");
  const task = await findTask(taskId, db);
  await assertCanManageTask(viewer, task.id, db);
  const found = isUuid(invitationId)
    ? await db.organizerInvitation.findFirst({ where: { id: invitationId, taskId: task.id }, select: { id: true, email: true, acceptedAt: true } })
    : null;
  if (!found) throw new NotFoundError("This task has no such invitation.");
  if (found.acceptedAt) throw new ConflictError(`The invitation of ${found.email} was already accepted; it cannot be revoked.`);
  return db.$transaction(async (tx) => {
    const { count } = await tx.organizerInvitation.updateMany({ where: { id: found.id, revokedAt: null, acceptedAt: null }, data: { revokedAt: now } });
    if (count !== 1) throw new ConflictError(`The invitation of ${found.email} was already revoked or accepted.`);
    await recordAudit(tx, {
      actorId: viewer.userId,
      action: "task.organizer.invitation_revoke",
      targetType: "task",
      targetId: task.id,
      data: { invitationId: found.id, email: found.email },
    });
    return { id: found.id, email: found.email };
  });
}

/** The state of an invitation at a given time. */
export type OrganizerInvitationStatus = "pending" | "expired" | "revoked" | "accepted";

/** What the invitation page shows (anyone holding the link may see it). */
export interface OrganizerInvitationPreview {
  task: { id: string; slug: string; title: string };
  invitedBy: { name: string } | null;
  /** the invited address, masked (`a***@example.org`) */
  maskedEmail: string;
  expiresAt: Date;
  status: OrganizerInvitationStatus;
  /** whether the signed-in viewer's email is the invited one (false when anonymous) */
  forViewer: boolean;
}

const UNKNOWN_INVITATION =
  "This invitation link is unknown: it may have been replaced by a newer invitation. Check your mail for the latest one, or ask the organizer to invite you again.";

function statusOf(row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date): OrganizerInvitationStatus {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "pending";
}

/** Why an invitation in this state cannot be accepted. */
function goneMessage(status: Exclude<OrganizerInvitationStatus, "pending">): string {
  switch (status) {
    case "accepted":
      return "This invitation was already accepted; it works once.";
    case "revoked":
      return "This invitation was revoked by the task's organizers.";
    case "expired":
      return "This invitation has expired. Ask the organizer to invite you again.";
  }
}

async function findByToken(token: string, db: Db) {
  if (typeof token !== "string" || !LINK_TOKEN_PATTERN.test(token)) return null;
  return db.organizerInvitation.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: {
      id: true,
      email: true,
      expiresAt: true,
      acceptedAt: true,
      revokedAt: true,
      invitedBy: { select: { name: true } },
      task: { select: { id: true, slug: true, title: true } },
    },
  });
}

/** The signed-in user's current email (null for an unknown or deleted account). */
async function emailOf(userId: string, db: Db): Promise<string | null> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, deletedAt: true } });
  return user && !user.deletedAt ? user.email : null;
}

/**
 * What an invitation link leads to, for its page. Reading it uses nothing up.
 *
 * @param viewer the viewer (anonymous viewers see the task and the masked address: they hold the link)
 * @param token the link's token, as given
 * @param now the current time (tests)
 * @returns the task, the inviter, the masked address, its expiry and status, and whether it is the viewer's
 * @throws NotFoundError (404) for an unknown (or malformed, or replaced) token
 */
export async function previewOrganizerInvitation(viewer: Viewer, token: string, now: Date = new Date()): Promise<OrganizerInvitationPreview> {
  const db = defaultDb();
  const row = await findByToken(token, db);
  if (!row) throw new NotFoundError(UNKNOWN_INVITATION);
  const email = viewer ? await emailOf(viewer.userId, db) : null;
  return {
    task: row.task,
    invitedBy: row.invitedBy,
    maskedEmail: maskEmail(row.email),
    expiresAt: row.expiresAt,
    status: statusOf(row, now),
    forViewer: email === row.email,
  };
}

/**
 * Accepts an invitation: the signed-in user becomes an organizer of the task (a TaskOrganizer
 * row; never the ADMIN role). The link is used up. A user who already organizes the task
 * (added meanwhile) uses it up without a second row. Audited as `task.organizer.accept`.
 *
 * @param viewer the signed-in user
 * @param token the link's token
 * @param now the current time (tests)
 * @returns the task (id, slug, title) and whether the user was added now
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown token;
 *   GoneError (410) when it was revoked, has expired or was already accepted;
 *   ForbiddenError (403) "This invitation was sent to a***@example.org; sign in with that
 *   address to accept it." when the viewer's email is another
 */
export async function acceptOrganizerInvitation(
  viewer: Viewer,
  token: string,
  now: Date = new Date(),
): Promise<{ task: { id: string; slug: string; title: string }; added: boolean }> {
  const user = requireSignedIn(viewer, "Please sign in with the invited email address to accept this invitation.");
  const db = defaultDb();
  const row = await findByToken(token, db);
  if (!row) throw new NotFoundError(UNKNOWN_INVITATION);
  const status = statusOf(row, now);
  if (status !== "pending") throw new GoneError(goneMessage(status));
  const email = await emailOf(user.userId, db);
  if (email !== row.email) {
    throw new ForbiddenError(`This invitation was sent to ${maskEmail(row.email)}; sign in with that address to accept it.`);
  }
  return db.$transaction(async (tx) => {
    // Claim the link: one use, even when two requests arrive at once.
    const claimed = await tx.organizerInvitation.updateMany({
      where: { id: row.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now, acceptedById: user.userId },
    });
    if (claimed.count !== 1) {
      const current = await tx.organizerInvitation.findUniqueOrThrow({ where: { id: row.id }, select: { acceptedAt: true, revokedAt: true, expiresAt: true } });
      const later = statusOf(current, now);
      throw new GoneError(goneMessage(later === "pending" ? "accepted" : later));
    }
    const existing = await tx.taskOrganizer.findUnique({ where: { taskId_userId: { taskId: row.task.id, userId: user.userId } }, select: { userId: true } });
    if (!existing) await tx.taskOrganizer.create({ data: { taskId: row.task.id, userId: user.userId } });
    await recordAudit(tx, {
      actorId: user.userId,
      action: "task.organizer.accept",
      targetType: "task",
      targetId: row.task.id,
      data: { invitationId: row.id, email: row.email },
    });
    return { task: row.task, added: !existing };
  });
}
