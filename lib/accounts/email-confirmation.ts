/**
 * Confirming the e-mail address of an account that signed up itself (issue 23 F8).
 *
 * - Sign-up (`signUp` in `./users.ts`) makes the account unconfirmed (`users.email_confirmed_at`
 *   null) and mails a confirmation link ({@link issueEmailConfirmation},
 *   {@link mailEmailConfirmation}); a sign-up for an address that already has an account
 *   changes nothing and mails the owner a notice instead ({@link mailSignUpNotice}). Both
 *   answer the same ({@link SIGN_UP_REQUESTED}).
 * - An unconfirmed account may sign in, but not submit runs or create teams
 *   (`requireConfirmedEmail` in `lib/permissions.ts`, 403). Accounts made by an operator
 *   (`createUser`, the admin CLI, the seeds) are confirmed when made; the migration that
 *   brought the column (0012) marked every existing account confirmed.
 * - The token: 32 random bytes in base64url (`newLinkToken` of `./team-invitations.ts`, as
 *   the email-change and invitation links); only its sha256 is stored
 *   (`email_confirmation_tokens`), for {@link EMAIL_CONFIRMATION_TTL_MS} (24 hours); one use.
 *   The link is `${NEXTAUTH_URL}/confirm-account?token=…`, sent through `lib/accounts/mail.ts` (SMTP,
 *   or the server log and, in development and e2e, the `MAIL_OUTBOX_FILE`).
 * - {@link confirmEmailAddress}: the token must be unused and unexpired; the account is
 *   marked confirmed, the token used up and the account's other tokens ended; audited as
 *   `user.email_confirm`. Opening the page does not confirm: a button does, so that mail
 *   scanners that follow links change nothing. No session needed: the link proves the mail
 *   was read.
 * - A new link ({@link resendEmailConfirmation}, the account page's button): at most
 *   {@link CONFIRMATION_MAILS_PER_HOUR} links an hour per account, counted from the tokens
 *   made (the sign-up's included); over it, 429 "… Try again at …". A new link ends the
 *   earlier ones.
 */
import { ConflictError, NotFoundError, RateLimitedError, ServiceBusyError, ValidationError } from "../errors";
import { sendMail } from "./mail";
import { requireSignedIn, type Viewer } from "../permissions";
import { formatRetryTime } from "../rate-limit";
import { sha256Hex } from "../storage";
import { recordAudit } from "../audit";
import { defaultDb, lockKey, type Tx } from "../db";
import { LINK_TOKEN_PATTERN, newLinkToken, siteUrl } from "../teams";

/** How long a confirmation link works: 24 hours, in milliseconds. */
export const EMAIL_CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Confirmation links one account gets per hour at most (the sign-up's included). */
export const CONFIRMATION_MAILS_PER_HOUR = 3;

/** The one answer to every accepted sign-up, whether or not the address already has an account. */
export const SIGN_UP_REQUESTED =
  "Check your e-mail. We have sent a message to this address: open the link in it within 24 hours to confirm your account, then sign in. If the address already has an account, the message says so instead, and nothing was changed.";

/** What a person sees for a confirmation link that is unknown, used or expired. */
export const INVALID_CONFIRMATION_LINK =
  "This confirmation link is invalid, already used or expired. Sign in and ask for a new one on your account page.";

/** Subject of the confirmation mail. */
export const CONFIRMATION_MAIL_SUBJECT = "Confirm your Corefboard account";

/** Subject of the notice to an address that already has an account. */
export const SIGN_UP_NOTICE_SUBJECT = "Someone tried to sign up to Corefboard with your e-mail address";

/**
 * The confirmation link is unknown, used or expired: a {@link ValidationError} (422) on the
 * `token` field with the message {@link INVALID_CONFIRMATION_LINK}.
 */
export class InvalidConfirmationLinkError extends ValidationError {
  constructor() {
    super(INVALID_CONFIRMATION_LINK, { fieldErrors: [{ path: "token", message: INVALID_CONFIRMATION_LINK }] });
  }
}

/**
 * Makes and stores a confirmation token for an account (its sha256), ending the account's
 * earlier unused ones, inside the caller's transaction.
 *
 * @param tx the transaction (the sign-up's, or the resend's)
 * @param userId the account
 * @param now the current time
 * @returns the link (`${NEXTAUTH_URL}/confirm-account?token=…`) and when it stops working
 */
export async function issueEmailConfirmation(tx: Tx, userId: string, now: Date): Promise<{ url: string; expiresAt: Date }> {
  const { token, tokenHash } = newLinkToken();
  const expiresAt = new Date(now.getTime() + EMAIL_CONFIRMATION_TTL_MS);
  await tx.emailConfirmationToken.updateMany({ where: { userId, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
  await tx.emailConfirmationToken.create({ data: { userId, tokenHash, expiresAt, createdAt: now }, select: { id: true } });
  return { url: siteUrl(`/confirm-account?token=${token}`), expiresAt };
}

/**
 * Mails a confirmation link (see the module header).
 *
 * @throws whatever `sendMail` throws when the mail could not be sent
 */
export async function mailEmailConfirmation(to: string, url: string): Promise<void> {
  await sendMail({ to, subject: CONFIRMATION_MAIL_SUBJECT, text: confirmationMailText(url), links: [url] });
}

/**
 * Mails the owner of an address that already has an account that someone tried to sign up
 * with it, with a sign-in link and a password-reset link. Nothing about the account changes.
 *
 * @throws whatever `sendMail` throws when the mail could not be sent
 */
export async function mailSignUpNotice(to: string): Promise<void> {
  const signIn = siteUrl("/signin");
  const reset = siteUrl("/forgot-password");
  await sendMail({ to, subject: SIGN_UP_NOTICE_SUBJECT, text: noticeMailText(signIn, reset), links: [signIn, reset] });
}

/** The body of the confirmation mail. */
function confirmationMailText(url: string): string {
  return [
    "Someone (we hope you) created a Corefboard account with this e-mail address.",
    "",
    "Open this link within 24 hours and confirm; the link works once:",
    url,
    "",
    "Until then you can sign in, but not submit runs or create teams.",
    "If you did not sign up, ignore this mail: the account stays unconfirmed.",
    "",
  ].join("\n");
}

/** The body of the notice to an address that already has an account. */
function noticeMailText(signInUrl: string, resetUrl: string): string {
  return [
    "Someone (perhaps you) tried to create a Corefboard account with this e-mail address, which already has one.",
    "Nothing was changed: no new account was made, and your password stays as it is.",
    "",
    "To sign in to your account:",
    signInUrl,
    "",
    "Forgot your password? Ask for a link to set a new one:",
    resetUrl,
    "",
    "If this was not you, you can ignore this mail.",
    "",
  ].join("\n");
}

/** The stored token for `token` when it is known, unused and unexpired at `now` (account not deleted); else null. */
async function findUsableToken(token: string, now: Date): Promise<{ id: string; userId: string; email: string } | null> {
  if (typeof token !== "string" || !LINK_TOKEN_PATTERN.test(token)) return null;
  const row = await defaultDb().emailConfirmationToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: { id: true, userId: true, usedAt: true, expiresAt: true, user: { select: { email: true, deletedAt: true } } },
  });
  if (!row || row.usedAt || row.user.deletedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  return { id: row.id, userId: row.userId, email: row.user.email };
}

/**
 * What a confirmation link would confirm, for its page. Reading it uses nothing up.
 *
 * @param token the `token` of the link, as given (anything)
 * @returns the account's address, or null when the link is unknown, used or expired
 */
export async function describeEmailConfirmation(token: string, now: Date = new Date()): Promise<{ email: string } | null> {
  const found = await findUsableToken(token, now);
  return found && { email: found.email };
}

/**
 * Confirms an account's e-mail address with the link's token: the account is marked
 * confirmed (unless it already was), the token is used up and the account's other tokens
 * end. Audited as `user.email_confirm`. Needs no session.
 *
 * @param token the link's token
 * @param now the current time (tests)
 * @returns the account's id and address (to sign in with)
 * @throws InvalidConfirmationLinkError (422) when the token is unknown, used or expired
 */
export async function confirmEmailAddress(token: string, now: Date = new Date()): Promise<{ userId: string; email: string }> {
  const found = await findUsableToken(token, now);
  if (!found) throw new InvalidConfirmationLinkError();
  return defaultDb().$transaction(async (tx) => {
    // Claim the token: only one request can use it, even when two arrive at once.
    const claimed = await tx.emailConfirmationToken.updateMany({ where: { id: found.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (claimed.count !== 1) throw new InvalidConfirmationLinkError();
    await tx.emailConfirmationToken.updateMany({ where: { userId: found.userId, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
    const confirmed = await tx.user.updateMany({ where: { id: found.userId, emailConfirmedAt: null }, data: { emailConfirmedAt: now } });
    await recordAudit(tx, {
      actorId: found.userId,
      action: "user.email_confirm",
      targetType: "user",
      targetId: found.userId,
      data: { tokenId: found.id, alreadyConfirmed: confirmed.count === 0 },
    });
    return { userId: found.userId, email: found.email };
  });
}

/**
 * Whether the signed-in user's address still needs confirming, for the account page.
 *
 * @returns `{confirmed, email}`
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the account is gone
 */
export async function emailConfirmationState(viewer: Viewer): Promise<{ confirmed: boolean; email: string }> {
  const user = requireSignedIn(viewer);
  const row = await defaultDb().user.findUnique({ where: { id: user.userId }, select: { email: true, emailConfirmedAt: true, deletedAt: true } });
  if (!row || row.deletedAt) throw new NotFoundError("This account no longer exists.");
  return { confirmed: row.emailConfirmedAt !== null, email: row.email };
}

/**
 * Mails the signed-in user a new confirmation link (the account page's button). The earlier
 * links stop working.
 *
 * @param viewer the signed-in user
 * @param now the current time (tests)
 * @returns the address mailed and when the link stops working
 * @throws UnauthorizedError (401) when anonymous; NotFoundError (404) when the account is
 *   gone; ConflictError (409) when the address is already confirmed; RateLimitedError (429,
 *   "You asked for 3 confirmation links in the last hour. Try again at 14:05 (UTC).") over
 *   {@link CONFIRMATION_MAILS_PER_HOUR} links an hour; ServiceBusyError (503) when the mail
 *   could not be sent (the link is then ended: ask again)
 */
export async function resendEmailConfirmation(viewer: Viewer, now: Date = new Date()): Promise<{ email: string; expiresAt: Date }> {
  const state = await emailConfirmationState(viewer);
  const userId = viewer!.userId;
  if (state.confirmed) throw new ConflictError("Your e-mail address is already confirmed.");
  const db = defaultDb();
  const issued = await db.$transaction(async (tx) => {
    // One request at a time per account, so that concurrent requests cannot pass the limit.
    await lockKey(tx, `email-confirmation:${userId}`);
    const hourAgo = new Date(now.getTime() - 60 * 60 * 1000);
    const recent = await tx.emailConfirmationToken.findMany({ where: { userId, createdAt: { gt: hourAgo } }, orderBy: { createdAt: "asc" }, select: { createdAt: true } });
    if (recent.length >= CONFIRMATION_MAILS_PER_HOUR) {
      const retryAt = new Date(recent[0]!.createdAt.getTime() + 60 * 60 * 1000);
      throw new RateLimitedError(`You asked for ${CONFIRMATION_MAILS_PER_HOUR} confirmation links in the last hour. Try again at ${formatRetryTime(retryAt, now)}.`, {
        retryAt: retryAt.toISOString(),
        retryAfterSeconds: Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)),
      });
    }
    return issueEmailConfirmation(tx, userId, now);
  });
  try {
    await mailEmailConfirmation(state.email, issued.url);
  } catch (error) {
    console.error(`email confirmation: could not mail a new link to user ${userId}: ${error instanceof Error ? error.message : String(error)}`);
    await db.emailConfirmationToken.updateMany({ where: { userId, usedAt: null, expiresAt: issued.expiresAt }, data: { expiresAt: now } });
    throw new ServiceBusyError("We could not send the confirmation mail right now. Please try again in a few minutes.", { retryAfterSeconds: 60 });
  }
  return { email: state.email, expiresAt: issued.expiresAt };
}
