/**
 * Password reset by email ("Forgot your password?"), and reset links for the admin CLI.
 *
 * The contract:
 * - **One-time token.** A token is 32 random bytes in base64url (43 characters). Only its
 *   sha256 (lower-case hex) is stored, in `password_reset_tokens`, with `expires_at` one hour
 *   ({@link RESET_TOKEN_TTL_MS}) after it was made. The link is
 *   `${NEXTAUTH_URL}/reset-password?token=…`, sent through `lib/accounts/mail.ts` (SMTP, or the server
 *   log when `SMTP_URL` is unset). A token sets a password once; setting it marks it used and
 *   ends every other unused token of the account.
 * - **No account enumeration.** {@link requestPasswordReset} answers the same
 *   ({@link PASSWORD_RESET_REQUESTED}) whether or not an account uses the address, whether or
 *   not the account's own limit was reached, and whether or not the mail could be sent; the
 *   mail is sent in the background, so the answer does not wait for the SMTP server either.
 *   (An existing account still costs a few database writes more than an unknown address:
 *   milliseconds, not the hashing or mail time that would be easy to tell apart.)
 * - **Limits.** Per account: at most {@link RESET_MAILS_PER_HOUR} links an hour (counted from
 *   the tokens made in the last hour, links from the admin CLI included); a request over it
 *   sends nothing and answers the same, so the limit reveals nothing. Per client address:
 *   every request, for any address typed in, takes a point from the sign-in counter of the
 *   address (`sign-in-ip` in `lib/rate-limit.ts`, `RATE_LIMIT_SIGN_IN_IP`, 100 per 15 minutes
 *   by default): asking for reset links is a way of getting into accounts, like signing in.
 *   Over it, a RateLimitedError (429) says when to try again.
 * - **Accounts without a password** (e.g. the demo organizer, made without one) may reset:
 *   that is how such an account gets a password and can sign in. Only someone who reads the
 *   account's mail, or an operator with the admin CLI, gets the link.
 * - **Setting the password** ({@link resetPassword}) follows sign-up's rules
 *   (`newPasswordSchema`), stores an argon2id hash (`lib/accounts/password.ts`), bumps the user's
 *   session version (every session of the account ends, as with "sign out everywhere"),
 *   revokes every API token of the account in the same transaction (whoever had the account's
 *   sessions may have minted tokens), clears the account's failed sign-in counter and marks an
 *   unconfirmed address confirmed (the owner proved they read its mail).
 * - **Audit.** `user.password_reset_request` when a token is made for an account (never for
 *   unknown addresses; actor null, as nobody is signed in), `user.password_reset` when one is
 *   used (actor the account's user).
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { getPrisma } from "../db/client";
import { hashPassword } from "./password";
import { revokeAllApiTokens } from "./token-revocation";
import { emailSchema, fieldErrors, newPasswordSchema } from "./schemas";
import { loadEnv } from "../env";
import { NotFoundError, RateLimitedError, ValidationError } from "../errors";
import { sendMail } from "./mail";
import { consumeRateLimit, formatRetryTime, resetRateLimit } from "../rate-limit";
import { sha256Hex } from "../storage";
import { recordAudit } from "../audit";
import { lockKey, type Tx } from "../db";
import { UserInputError } from "./users";

/** How long a reset link works: one hour, in milliseconds. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Reset links one account gets per hour at most (further requests send nothing). */
export const RESET_MAILS_PER_HOUR = 3;

/** The one answer to every accepted reset request, whether or not the account exists. */
export const PASSWORD_RESET_REQUESTED =
  "If an account uses this email address, we have sent it a link to set a new password. The link works once, within one hour.";

/** What a person sees for a reset link that is unknown, used or expired. */
export const INVALID_RESET_LINK = "This reset link is invalid or has expired; ask for a new one.";

/** Subject of the reset mail. */
export const RESET_MAIL_SUBJECT = "Set a new Corefboard password";

/** A token as made here: 43 base64url characters (32 bytes). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The reset link is unknown, already used, or expired: a {@link ValidationError} (422) on the
 * `token` field with the message {@link INVALID_RESET_LINK}.
 */
export class InvalidResetLinkError extends ValidationError {
  constructor() {
    super(INVALID_RESET_LINK, { fieldErrors: [{ path: "token", message: INVALID_RESET_LINK }] });
  }
}

/** Options of {@link requestPasswordReset}. */
export interface RequestPasswordResetOptions {
  /** the current time (tests); default now */
  now?: Date;
  /** the client's address key (`clientAddress()` in `lib/rate-limit.ts`); null or omitted: no per-address limit */
  address?: string | null;
}

/**
 * Asks for a password-reset link for an email address (the "Forgot your password?" form).
 * When an account uses the address and has had fewer than {@link RESET_MAILS_PER_HOUR} links
 * in the last hour, a token is made and the link is mailed to the account (in the background;
 * a failed send is logged, not reported). See the module header for the rules.
 *
 * @param email as typed (trimmed and lower-cased here)
 * @returns `{message: PASSWORD_RESET_REQUESTED}`, the same for every well-formed address
 * @throws UserInputError (422, field `email`) when the text is no email address;
 *   RateLimitedError (429, "Too many password reset requests from your network address. Try
 *   again at 14:05 (UTC).") when the client's address used up its sign-in attempts
 */
export async function requestPasswordReset(email: string, options: RequestPasswordResetOptions = {}): Promise<{ message: string }> {
  const now = options.now ?? new Date();
  const parsed = z.object({ email: emailSchema }).safeParse({ email });
  if (!parsed.success) throw new UserInputError(fieldErrors(parsed.error));
  if (options.address) await countAddress(options.address);

  const prisma = getPrisma();
  // A deleted account (lib/accounts/account.ts) is as good as none.
  const user = await prisma.user.findFirst({ where: { email: parsed.data.email, deletedAt: null }, select: { id: true, email: true } });
  if (!user) return { message: PASSWORD_RESET_REQUESTED };

  const issued = await prisma.$transaction(async (tx) => {
    // One request at a time per account, so that concurrent requests cannot pass the limit.
    await lockKey(tx, `password-reset:${user.id}`);
    const recent = await tx.passwordResetToken.count({
      where: { userId: user.id, createdAt: { gt: new Date(now.getTime() - 60 * 60 * 1000) } },
    });
    if (recent >= RESET_MAILS_PER_HOUR) return null;
    return issueToken(tx, user.id, now, "web");
  });
  if (!issued) {
    console.warn(`password reset: user ${user.id} already had ${RESET_MAILS_PER_HOUR} reset links in the last hour; no mail sent`);
    return { message: PASSWORD_RESET_REQUESTED };
  }
  void sendMail({
    to: user.email,
    subject: RESET_MAIL_SUBJECT,
    text: resetMailText(issued.url),
    links: [issued.url],
  }).catch((error: unknown) => {
    console.error(`password reset: could not send the reset mail of user ${user.id}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return { message: PASSWORD_RESET_REQUESTED };
}

/** A reset link made by {@link createPasswordResetLink}. */
export interface PasswordResetLink {
  /** the account's (normalized) email address */
  email: string;
  /** `${NEXTAUTH_URL}/reset-password?token=…` */
  url: string;
  /** when the link stops working */
  expiresAt: Date;
}

/**
 * Makes a reset link for an account without mailing it (`npm run admin -- reset-link`, for
 * sites without SMTP). Not limited (an operator asks), but counted like a mailed link against
 * the account's hourly limit. Audited as `user.password_reset_request` with `via: "admin-cli"`.
 *
 * @param email the account's email address (any case)
 * @param options `now`: the current time (tests)
 * @returns the link, its expiry and the account's email
 * @throws UserInputError (422) when the text is no email address; NotFoundError (404) when no
 *   account uses the address
 */
export async function createPasswordResetLink(email: string, options: { now?: Date } = {}): Promise<PasswordResetLink> {
  const now = options.now ?? new Date();
  const parsed = z.object({ email: emailSchema }).safeParse({ email });
  if (!parsed.success) throw new UserInputError(fieldErrors(parsed.error));
  const prisma = getPrisma();
  const user = await prisma.user.findFirst({ where: { email: parsed.data.email, deletedAt: null }, select: { id: true, email: true } });
  if (!user) throw new NotFoundError(`No account uses the email address ${parsed.data.email}.`);
  const issued = await prisma.$transaction((tx) => issueToken(tx, user.id, now, "admin-cli"));
  return { email: user.email, url: issued.url, expiresAt: issued.expiresAt };
}

/**
 * Whether a reset link still works (the reset page shows the form, or says to ask for a new
 * link). Reading it uses nothing up.
 *
 * @param token the `token` of the link, as given (anything)
 * @param options `now`: the current time (tests)
 * @returns true when the token is known, unused and not expired
 */
export async function isPasswordResetTokenUsable(token: string, options: { now?: Date } = {}): Promise<boolean> {
  return (await findUsableToken(token, options.now ?? new Date())) !== null;
}

/** Options of {@link resetPassword}. */
export interface ResetPasswordOptions {
  /** the new password typed again; when given, it must equal `newPassword` */
  confirmPassword?: string;
  /** the current time (tests); default now */
  now?: Date;
}

/**
 * Sets a new password with a reset link's token. The token is used up, the account's other
 * unused tokens stop working, every session of the account ends (session version bumped) and
 * every API token of the account is revoked (audited as `user.api_token_revoke`, reason
 * "password_reset", when there was one).
 * Works for accounts without a password too (they get one).
 *
 * @param token the `token` of the link
 * @param newPassword the new password: sign-up's rules (at least 10 characters, at most 1024 bytes)
 * @returns the account's id and email (to sign in with)
 * @throws InvalidResetLinkError (422, "This reset link is invalid or has expired; ask for a
 *   new one.") when the token is unknown, used or expired, checked first; UserInputError (422)
 *   with field `newPassword` (too short or long) or `confirmPassword` (does not match)
 */
export async function resetPassword(token: string, newPassword: string, options: ResetPasswordOptions = {}): Promise<{ userId: string; email: string }> {
  const now = options.now ?? new Date();
  const found = await findUsableToken(token, now);
  if (!found) throw new InvalidResetLinkError();
  const parsed = newPasswordSchema.safeParse(newPassword);
  if (!parsed.success) throw new UserInputError({ newPassword: parsed.error.issues[0]!.message });
  if (options.confirmPassword !== undefined && options.confirmPassword !== newPassword) {
    throw new UserInputError({ confirmPassword: "The two new passwords do not match." });
  }
  const passwordHash = await hashPassword(parsed.data);
  const user = await getPrisma().$transaction(async (tx) => {
    // Claim the token: only one request can use it, even when two arrive at once.
    const claimed = await tx.passwordResetToken.updateMany({
      where: { id: found.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) throw new InvalidResetLinkError();
    const others = await tx.passwordResetToken.updateMany({
      where: { userId: found.userId, usedAt: null, expiresAt: { gt: now } },
      data: { expiresAt: now },
    });
    const before = await tx.user.findUniqueOrThrow({ where: { id: found.userId }, select: { passwordHash: true, emailConfirmedAt: true } });
    const updated = await tx.user.update({
      where: { id: found.userId },
      // The link was read from the account's mailbox: that confirms the address too (an
      // unconfirmed account someone else made with this address now belongs to its owner).
      data: { passwordHash, sessionVersion: { increment: 1 }, emailConfirmedAt: before.emailConfirmedAt ?? now },
      select: { id: true, email: true },
    });
    const apiTokensRevoked = await revokeAllApiTokens(tx, { userId: found.userId, actorId: found.userId, reason: "password_reset", now });
    await recordAudit(tx, {
      actorId: found.userId,
      action: "user.password_reset",
      targetType: "user",
      targetId: found.userId,
      data: { tokenId: found.id, otherTokensEnded: others.count, hadPassword: before.passwordHash !== null, apiTokensRevoked: apiTokensRevoked.length },
    });
    return updated;
  });
  try {
    await resetRateLimit("sign-in-account", user.email);
  } catch (error) {
    // The password is set; a locked sign-in counter only runs out on its own.
    console.warn(`password reset: could not clear the sign-in counter of user ${user.id}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { userId: user.id, email: user.email };
}

/** The plain-text body of the reset mail. */
function resetMailText(url: string): string {
  return [
    "Someone (we hope you) asked to set a new password for your Corefboard account.",
    "",
    "Open this link within one hour to choose it; the link works once:",
    url,
    "",
    "If you did not ask, ignore this mail: your password stays as it is.",
    "",
  ].join("\n");
}

/** The reset link for a token: `${NEXTAUTH_URL}/reset-password?token=…`. */
function resetLink(token: string): string {
  const base = loadEnv().NEXTAUTH_URL.replace(/\/+$/, "");
  return `${base}/reset-password?token=${token}`;
}

/** Makes and stores a token (its hash), audits it, and returns the link. */
async function issueToken(tx: Tx, userId: string, now: Date, via: "web" | "admin-cli"): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + RESET_TOKEN_TTL_MS);
  const row = await tx.passwordResetToken.create({
    data: { userId, tokenHash: sha256Hex(token), expiresAt, createdAt: now },
    select: { id: true },
  });
  await recordAudit(tx, {
    actorId: null,
    action: "user.password_reset_request",
    targetType: "user",
    targetId: userId,
    data: { tokenId: row.id, expiresAt, via },
  });
  return { url: resetLink(token), expiresAt };
}

/** The stored token for `token` when it is known, unused and not expired at `now`; else null. */
async function findUsableToken(token: string, now: Date): Promise<{ id: string; userId: string } | null> {
  if (typeof token !== "string" || !TOKEN_PATTERN.test(token)) return null;
  const row = await getPrisma().passwordResetToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: { id: true, userId: true, usedAt: true, expiresAt: true },
  });
  if (!row || row.usedAt !== null || row.expiresAt.getTime() <= now.getTime()) return null;
  return { id: row.id, userId: row.userId };
}

/** Counts one request against the client address's sign-in counter; refuses with a reset-specific message. */
async function countAddress(address: string): Promise<void> {
  try {
    await consumeRateLimit("sign-in-ip", address);
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    const details = error.details as { retryAt: string; retryAfterSeconds: number };
    throw new RateLimitedError(
      `Too many password reset requests from your network address. Try again at ${formatRetryTime(new Date(details.retryAt))}.`,
      details,
    );
  }
}
