/**
 * Account changes by their owner (issue 11 §5): changing the email address with a
 * confirmation mail, and deleting the account.
 *
 * Email change:
 * - {@link requestEmailChange} needs the current password (argon2 verify, counted against the
 *   account like a sign-in attempt, as `changePassword` in `./users.ts` does). It refuses an
 *   address another account uses with a clear 422: sign-up already tells anyone whether an
 *   address is registered, so hiding it here would protect nothing, and a person changing
 *   their address needs to know why it fails.
 * - The token: 32 random bytes in base64url; only its sha256 is stored (`email_change_tokens`),
 *   for {@link EMAIL_CHANGE_TOKEN_TTL_MS} (one hour); one use. A new request ends the
 *   account's earlier unused tokens. At most {@link EMAIL_CHANGE_MAILS_PER_HOUR} requests an
 *   hour per account (each mails an address the requester chose; 429 over it).
 * - The link, `${NEXTAUTH_URL}/account/confirm-email?token=…`, goes to the NEW address (proving
 *   it is the user's); a notice without a link goes to the OLD one (so that its owner learns of
 *   a change they did not make). Mail goes through `lib/accounts/mail.ts`.
 * - {@link confirmEmailChange}: the token must be unused and unexpired and the address still
 *   free; the email changes, the session version is bumped (every session ends; the user signs
 *   in with the new address), the account's other email-change tokens end, and
 *   `user.email_change` is audited. Opening the page does not confirm: a button does, so that
 *   mail scanners that follow links change nothing.
 *
 * Deletion ({@link deleteAccount}):
 * - Needs the password. Refused (409) while the user is the only organizer of a task that is
 *   not archived, naming those tasks: someone must keep them (invite a co-organizer or archive
 *   the task first). Site admins, who manage every task, do not count as its organizers here.
 * - In one transaction: team memberships end (the OWNER of a team with other members hands
 *   ownership to its longest-standing other member; a team left without members keeps its
 *   runs); the task-team records (`task_participants`) go (runs carry their team themselves);
 *   API tokens, password-reset and email-change tokens, and organizer rows are deleted; the
 *   user row stays (runs, gold keys and audit events point at it) with the name "deleted
 *   user", the address `deleted-<id>@deleted.invalid` (unique, undeliverable: `.invalid` is
 *   reserved), no password, the USER role, `deletedAt` set and the session version bumped.
 *   Audited as `user.delete` (no personal data in the event).
 * - Afterwards the account cannot sign in (`verifyCredentials`), its sessions and tokens are
 *   refused (`getSessionUser`, `authenticateBearer`), and every page that names a run's
 *   submitter shows "deleted user".
 *
 * API tokens and recovery (issue 23 F5):
 * - {@link createOwnApiToken} needs the current password (the same check as above, counted
 *   against the account like a sign-in attempt and locked out with it), so a stolen session
 *   cookie alone cannot mint a token that outlives the session. The admin CLI uses
 *   `createApiToken` directly and asks for none.
 * - {@link revokeOwnApiToken} revokes one of the signed-in user's tokens; another user's (or an
 *   unknown) token id is a 404.
 * - {@link signOutEverywhere} ends every session and revokes every API token of the account in
 *   one transaction; a password change (`changePassword`, `./users.ts`) and a password reset
 *   (`resetPassword`, `./password-reset.ts`) do the same. Ordinary sign-out ends the sessions
 *   only.
 */
import { z } from "zod";
import { createApiToken, ownsApiToken, parseTokenName, revokeApiToken, type CreatedApiToken } from "./api-tokens";
import { MAX_PASSWORD_BYTES, verifyPassword } from "./password";
import { revokeAllApiTokens } from "./token-revocation";
import { emailSchema, fieldErrors } from "./schemas";
import { ConflictError, NotFoundError, RateLimitedError, ServiceBusyError, ValidationError } from "../errors";
import { sendMail } from "./mail";
import { requireSignedIn, type Viewer } from "../permissions";
import { consumeRateLimit, formatRetryTime } from "../rate-limit";
import { sha256Hex } from "../storage";
import { recordAudit } from "../audit";
import { defaultDb, isUniqueViolation, lockKey } from "../db";
import { LINK_TOKEN_PATTERN, newLinkToken, siteUrl } from "../teams";
import { UserInputError } from "./users";

/** How long an email-change confirmation link works: one hour, in milliseconds. */
export const EMAIL_CHANGE_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Email-change requests one account may make per hour. */
export const EMAIL_CHANGE_MAILS_PER_HOUR = 3;

/** The name a deleted account shows under. */
export const DELETED_USER_NAME = "deleted user";

/** What a person sees for a confirmation link that is unknown, used or expired. */
export const INVALID_EMAIL_CHANGE_LINK = "This confirmation link is invalid, already used or expired; ask for a new one on your account page.";

/** The address a deleted account gets: unique and undeliverable. */
export function deletedEmailFor(userId: string): string {
  return `deleted-${userId}@deleted.invalid`;
}

/**
 * The confirmation link is unknown, used or expired: a {@link ValidationError} (422) on the
 * `token` field with the message {@link INVALID_EMAIL_CHANGE_LINK}.
 */
export class InvalidEmailChangeLinkError extends ValidationError {
  constructor() {
    super(INVALID_EMAIL_CHANGE_LINK, { fieldErrors: [{ path: "token", message: INVALID_EMAIL_CHANGE_LINK }] });
  }
}

/** The signed-in, not deleted account with its password hash. */
async function loadAccount(viewer: Viewer, message: string): Promise<{ id: string; email: string; passwordHash: string | null }> {
  const user = requireSignedIn(viewer, message);
  const row = await defaultDb().user.findUnique({ where: { id: user.userId }, select: { id: true, email: true, passwordHash: true, deletedAt: true } });
  if (!row || row.deletedAt) throw new NotFoundError("This account no longer exists.");
  return row;
}

/**
 * Checks the account's password, counted against its address like a sign-in attempt (given
 * back when right).
 *
 * @throws UserInputError (422, field `password`) when missing or wrong, or the account has no
 *   password; RateLimitedError (429) when the address's attempts are used up
 */
async function checkPassword(account: { email: string; passwordHash: string | null }, password: string): Promise<void> {
  if (typeof password !== "string" || password.length === 0) throw new UserInputError({ password: "Enter your current password." });
  if (!account.passwordHash) {
    throw new UserInputError({ password: "This account has no password yet; set one with “Forgot your password?” on the sign-in page first." });
  }
  if (Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES) throw new UserInputError({ password: "That is not your current password." });
  const attempt = await consumeRateLimit("sign-in-account", account.email);
  let right: boolean;
  try {
    right = await verifyPassword(password, account.passwordHash);
  } catch (error) {
    await attempt.refund(); // not checked: not a failure
    throw error;
  }
  if (!right) throw new UserInputError({ password: "That is not your current password." });
  await attempt.refund();
}

/**
 * Asks to change the signed-in user's email address: checks the password and the address,
 * stores a confirmation token, mails the link to the new address and a notice to the old
 * one. Nothing changes until the link is confirmed. Audited as `user.email_change_request`.
 *
 * @param viewer the signed-in user
 * @param newEmail the new address, as typed (trimmed and lower-cased here)
 * @param password the current password
 * @param now the current time (tests)
 * @returns the new address and when the link stops working
 * @throws UnauthorizedError (401) when anonymous; UserInputError (422) on `newEmail`
 *   (malformed, the current address, or used by another account) or `password` (missing or
 *   wrong); RateLimitedError (429) after too many wrong passwords or more than
 *   {@link EMAIL_CHANGE_MAILS_PER_HOUR} requests in an hour; ServiceBusyError (503) when the
 *   confirmation mail could not be sent (the link is then not usable: try again)
 */
export async function requestEmailChange(viewer: Viewer, newEmail: string, password: string, now: Date = new Date()): Promise<{ newEmail: string; expiresAt: Date }> {
  const account = await loadAccount(viewer, "Please sign in to change your email address.");
  const parsed = z.object({ newEmail: emailSchema }).safeParse({ newEmail });
  if (!parsed.success) throw new UserInputError(fieldErrors(parsed.error));
  const address = parsed.data.newEmail;
  if (address === account.email) throw new UserInputError({ newEmail: "That is already your email address." });
  await checkPassword(account, password);
  const db = defaultDb();
  if (await db.user.findUnique({ where: { email: address }, select: { id: true } })) {
    throw new UserInputError({ newEmail: "An account with this email address already exists." });
  }

  const { token, tokenHash } = newLinkToken();
  const expiresAt = new Date(now.getTime() + EMAIL_CHANGE_TOKEN_TTL_MS);
  const tokenId = await db.$transaction(async (tx) => {
    await lockKey(tx, `email-change:${account.id}`);
    const hourAgo = new Date(now.getTime() - 60 * 60 * 1000);
    const recent = await tx.emailChangeToken.findMany({ where: { userId: account.id, createdAt: { gt: hourAgo } }, orderBy: { createdAt: "asc" }, select: { createdAt: true } });
    if (recent.length >= EMAIL_CHANGE_MAILS_PER_HOUR) {
      const retryAt = new Date(recent[0]!.createdAt.getTime() + 60 * 60 * 1000);
      throw new RateLimitedError(`You asked to change your email address ${EMAIL_CHANGE_MAILS_PER_HOUR} times in the last hour. Try again at ${formatRetryTime(retryAt, now)}.`, {
        retryAt: retryAt.toISOString(),
        retryAfterSeconds: Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)),
      });
    }
    await tx.emailChangeToken.updateMany({ where: { userId: account.id, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
    const row = await tx.emailChangeToken.create({ data: { userId: account.id, newEmail: address, tokenHash, expiresAt, createdAt: now }, select: { id: true } });
    await recordAudit(tx, { actorId: account.id, action: "user.email_change_request", targetType: "user", targetId: account.id, data: { tokenId: row.id, expiresAt } });
    return row.id;
  });

  const url = siteUrl(`/account/confirm-email?token=${token}`);
  try {
    await sendMail({ to: address, subject: "Confirm your new Corefboard email address", text: confirmMailText(account.email, address, url), links: [url] });
  } catch (error) {
    console.error(`email change: could not mail the confirmation link of user ${account.id}: ${error instanceof Error ? error.message : String(error)}`);
    await db.emailChangeToken.updateMany({ where: { id: tokenId, usedAt: null }, data: { expiresAt: now } });
    throw new ServiceBusyError("We could not send the confirmation mail right now. Please try again in a few minutes.", { retryAfterSeconds: 60 });
  }
  void sendMail({ to: account.email, subject: "Your Corefboard email address is being changed", text: noticeMailText(address) }).catch((error: unknown) => {
    console.error(`email change: could not send the notice to the old address of user ${account.id}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return { newEmail: address, expiresAt };
}

/** The body of the confirmation mail (to the new address). */
function confirmMailText(oldEmail: string, newEmail: string, url: string): string {
  return [
    `Someone (we hope you) asked to change the email address of the Corefboard account ${oldEmail} to ${newEmail}.`,
    "",
    "Open this link within one hour and confirm; the link works once:",
    url,
    "",
    "If you did not ask, ignore this mail: nothing changes.",
    "",
  ].join("\n");
}

/** The body of the notice to the old address (no link). */
function noticeMailText(newEmail: string): string {
  return [
    `Someone signed in to your Corefboard account asked to change its email address to ${newEmail}.`,
    "The change happens only when the link we mailed to that address is opened and confirmed, within one hour.",
    "",
    "If this was not you, change your password now and use “Sign out everywhere” on your account page.",
    "",
  ].join("\n");
}

/** The stored token for `token` when it is known, unused and unexpired at `now`; else null. */
async function findUsableToken(token: string, now: Date): Promise<{ id: string; userId: string; newEmail: string } | null> {
  if (typeof token !== "string" || !LINK_TOKEN_PATTERN.test(token)) return null;
  const row = await defaultDb().emailChangeToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: { id: true, userId: true, newEmail: true, usedAt: true, expiresAt: true, user: { select: { deletedAt: true } } },
  });
  if (!row || row.usedAt || row.user.deletedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  return { id: row.id, userId: row.userId, newEmail: row.newEmail };
}

/**
 * What a confirmation link would change, for its page. Reading it uses nothing up.
 *
 * @returns the new address, or null when the link is unknown, used or expired
 */
export async function describeEmailChange(token: string, now: Date = new Date()): Promise<{ newEmail: string } | null> {
  const found = await findUsableToken(token, now);
  return found && { newEmail: found.newEmail };
}

/**
 * Confirms an email change with the link's token: the account's address becomes the new one,
 * every session of the account ends (session version bumped), the token is used up and the
 * account's other email-change tokens end. Audited as `user.email_change`. Needs no session:
 * the token proves the mail was read.
 *
 * @param token the link's token
 * @param now the current time (tests)
 * @returns the account's id and its new address (to sign in with)
 * @throws InvalidEmailChangeLinkError (422) when the token is unknown, used or expired;
 *   ConflictError (409) when another account took the address meanwhile (nothing changes)
 */
export async function confirmEmailChange(token: string, now: Date = new Date()): Promise<{ userId: string; email: string }> {
  const found = await findUsableToken(token, now);
  if (!found) throw new InvalidEmailChangeLinkError();
  const taken = () => new ConflictError(`The address ${found.newEmail} is now used by another account, so your address was not changed.`);
  try {
    return await defaultDb().$transaction(async (tx) => {
      const claimed = await tx.emailChangeToken.updateMany({ where: { id: found.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
      if (claimed.count !== 1) throw new InvalidEmailChangeLinkError();
      const other = await tx.user.findUnique({ where: { email: found.newEmail }, select: { id: true } });
      if (other) throw taken();
      const before = await tx.user.findUniqueOrThrow({ where: { id: found.userId }, select: { email: true } });
      const updated = await tx.user.update({
        where: { id: found.userId },
        data: { email: found.newEmail, sessionVersion: { increment: 1 } },
        select: { id: true, email: true },
      });
      await tx.emailChangeToken.updateMany({ where: { userId: found.userId, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
      await recordAudit(tx, {
        actorId: found.userId,
        action: "user.email_change",
        targetType: "user",
        targetId: found.userId,
        data: { tokenId: found.id, from: before.email, to: found.newEmail },
      });
      return { userId: updated.id, email: updated.email };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** A task that blocks a deletion: the user is its only organizer and it is not archived. */
export interface SoleOrganizedTask {
  id: string;
  slug: string;
  title: string;
}

/**
 * The tasks that would be left without an organizer if the user left: those they organize
 * alone that are not archived.
 *
 * @param userId the user
 * @returns the tasks (id, slug, title), by title
 */
export async function soleOrganizedTasks(userId: string): Promise<SoleOrganizedTask[]> {
  return defaultDb().task.findMany({
    where: { status: { not: "ARCHIVED" }, organizers: { some: { userId }, every: { userId } } },
    orderBy: [{ title: "asc" }, { id: "asc" }],
    select: { id: true, slug: true, title: true },
  });
}

/**
 * Deletes the signed-in user's account (see the module header for what happens). Audited as
 * `user.delete`.
 *
 * @param viewer the signed-in user
 * @param password the current password
 * @param now the current time (tests)
 * @returns the teams whose ownership passed to another member: `{teamId, teamName, newOwnerId}`
 * @throws UnauthorizedError (401) when anonymous; UserInputError (422, field `password`)
 *   when missing or wrong; RateLimitedError (429) after too many wrong passwords;
 *   ConflictError (409) "You are the only organizer of …" listing the tasks (in `details.tasks`)
 */
export async function deleteAccount(viewer: Viewer, password: string, now: Date = new Date()): Promise<{ ownershipPassed: { teamId: string; teamName: string; newOwnerId: string }[] }> {
  const account = await loadAccount(viewer, "Please sign in to delete your account.");
  await checkPassword(account, password);
  const userId = account.id;
  return defaultDb().$transaction(async (tx) => {
    await lockKey(tx, `account-delete:${userId}`);
    const blocking = await tx.task.findMany({
      where: { status: { not: "ARCHIVED" }, organizers: { some: { userId }, every: { userId } } },
      orderBy: [{ title: "asc" }, { id: "asc" }],
      select: { id: true, slug: true, title: true },
    });
    if (blocking.length > 0) {
      const names = blocking.map((t) => `“${t.title}” (/tasks/${t.slug})`).join(", ");
      throw new ConflictError(
        `You are the only organizer of ${blocking.length === 1 ? "this task" : "these tasks"}: ${names}. Invite a co-organizer or archive ${blocking.length === 1 ? "it" : "them"} before deleting your account.`,
        { tasks: blocking },
      );
    }

    const memberships = await tx.teamMember.findMany({ where: { userId }, select: { teamId: true, role: true, team: { select: { name: true } } } });
    const ownershipPassed: { teamId: string; teamName: string; newOwnerId: string }[] = [];
    for (const m of memberships) {
      if (m.role !== "OWNER") continue;
      const hasOtherOwner = await tx.teamMember.findFirst({ where: { teamId: m.teamId, role: "OWNER", userId: { not: userId } }, select: { userId: true } });
      if (hasOtherOwner) continue;
      const successor = await tx.teamMember.findFirst({
        where: { teamId: m.teamId, userId: { not: userId } },
        orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
        select: { userId: true },
      });
      if (!successor) continue;
      await tx.teamMember.update({ where: { teamId_userId: { teamId: m.teamId, userId: successor.userId } }, data: { role: "OWNER" } });
      ownershipPassed.push({ teamId: m.teamId, teamName: m.team.name, newOwnerId: successor.userId });
    }
    await tx.teamMember.deleteMany({ where: { userId } });
    const participations = await tx.taskParticipant.deleteMany({ where: { userId } });
    const apiTokens = await tx.apiToken.deleteMany({ where: { userId } });
    await tx.passwordResetToken.deleteMany({ where: { userId } });
    await tx.emailChangeToken.deleteMany({ where: { userId } });
    const organizing = await tx.taskOrganizer.findMany({ where: { userId }, select: { taskId: true } });
    await tx.taskOrganizer.deleteMany({ where: { userId } });
    await tx.user.update({
      where: { id: userId },
      data: {
        name: DELETED_USER_NAME,
        email: deletedEmailFor(userId),
        passwordHash: null,
        role: "USER",
        deletedAt: now,
        sessionVersion: { increment: 1 },
      },
    });
    await recordAudit(tx, {
      actorId: userId,
      action: "user.delete",
      targetType: "user",
      targetId: userId,
      data: {
        teamsLeft: memberships.map((m) => m.teamId),
        ownershipPassed: ownershipPassed.map(({ teamId, newOwnerId }) => ({ teamId, newOwnerId })),
        organizerOf: organizing.map((o) => o.taskId),
        taskTeamRecords: participations.count,
        apiTokensDeleted: apiTokens.count,
      },
    });
    return { ownershipPassed };
  });
}

/**
 * Creates an API token for the signed-in user after checking their current password (see the
 * module header). A wrong password counts against the account like a failed sign-in. Audited
 * as `user.api_token_create` (via "account").
 *
 * @param viewer the signed-in user
 * @param input `name` (1–100 characters) and `password` (the current password)
 * @returns the plaintext token (shown once) and its listing
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the account is gone;
 *   UserInputError (422) on `name` (bad, or the most active tokens, `MAX_ACTIVE_TOKENS`, already) or
 *   `password` (missing or wrong; no token is made); RateLimitedError (429) after too many
 *   wrong passwords (the sign-in lockout of the address)
 */
export async function createOwnApiToken(viewer: Viewer, input: { name: unknown; password: unknown }): Promise<CreatedApiToken> {
  const account = await loadAccount(viewer, "Please sign in to create an API token.");
  const name = parseTokenName(input.name);
  await checkPassword(account, typeof input.password === "string" ? input.password : "");
  return createApiToken(account.id, name, { actorId: account.id, via: "account" });
}

/**
 * Revokes one of the signed-in user's API tokens. Revoking an already revoked token of one's
 * own changes nothing. Audited as `user.api_token_revoke` (reason "owner").
 *
 * @param viewer the signed-in user
 * @param tokenId the token's id
 * @returns true when it was revoked now, false when it already was
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) for an unknown or
 *   malformed id or another user's token (which is not touched)
 */
export async function revokeOwnApiToken(viewer: Viewer, tokenId: unknown): Promise<boolean> {
  const user = requireSignedIn(viewer, "Please sign in to revoke an API token.");
  const id = typeof tokenId === "string" ? tokenId : "";
  if (await revokeApiToken(user.userId, id)) return true;
  if (await ownsApiToken(user.userId, id)) return false;
  throw new NotFoundError("There is no such API token.");
}

/**
 * "Sign out everywhere": in one transaction, ends every session of the signed-in user (the
 * session version moves on, this browser's too) and revokes every API token of the account
 * (audited as `user.api_token_revoke`, reason "sign_out_everywhere", when there was one).
 *
 * @param viewer the signed-in user
 * @param now the current time (tests)
 * @returns the ids of the tokens revoked
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the account is gone
 */
export async function signOutEverywhere(viewer: Viewer, now: Date = new Date()): Promise<{ revokedTokenIds: string[] }> {
  const user = requireSignedIn(viewer, "Please sign in to sign out everywhere.");
  return defaultDb().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: user.userId, deletedAt: null }, data: { sessionVersion: { increment: 1 } } });
    if (count !== 1) throw new NotFoundError("This account no longer exists.");
    const revokedTokenIds = await revokeAllApiTokens(tx, { userId: user.userId, actorId: user.userId, reason: "sign_out_everywhere", now });
    return { revokedTokenIds };
  });
}
