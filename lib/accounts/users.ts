/**
 * User accounts: sign-up (with e-mail confirmation, `./email-confirmation.ts`), sign-in checks, password changes, session revocation, and account
 * creation for the admin CLI.
 *
 * - Emails are stored lower-cased; every lookup normalizes first.
 * - Passwords are hashed with argon2id off the event loop (`lib/accounts/password.ts`) and never
 *   leave this module. A bcrypt hash from before argon2 is replaced at the next successful
 *   sign-in.
 * - Sign-in and password changes are rate limited per email (and sign-in per client
 *   address) BEFORE any hashing (`lib/rate-limit.ts`), so a flood is refused cheaply.
 * - Sessions: each user has a session version (`users.session_version`). A session token
 *   carries the version it was issued with and is accepted only while it is still the
 *   user's version ({@link getSessionUser}); sign-out, a password change and "sign out
 *   everywhere" bump it ({@link revokeSessions}), which ends every session of the user,
 *   copies of the cookie included. API tokens are separate: their owner revokes them one
 *   by one, and "sign out everywhere", a password change and a password reset revoke all.
 * - Deleted accounts (`users.deleted_at`, see `lib/accounts/account.ts`) keep their row (their
 *   runs stay with their teams, as "deleted user") but never sign in and have no session.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { getPrisma } from "../db/client";
import { ValidationError } from "../errors";
import { UserRole } from "../generated/prisma/enums";
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from "./password";
import {
  changePasswordSchema,
  credentialsSchema,
  emailSchema,
  fieldErrors,
  nameSchema,
  newPasswordSchema,
  signUpSchema,
} from "./schemas";
import { revokeAllApiTokens } from "./token-revocation";
import { consumeRateLimit, reserveSignInAttempt } from "../rate-limit";
import { SIGN_UP_REQUESTED, issueEmailConfirmation, mailEmailConfirmation, mailSignUpNotice } from "./email-confirmation";
import { z } from "zod";
import { isUniqueViolation, isUuid } from "../db";

export { UserRole };

/** What the rest of the application may know about a user (never the password hash). */
export interface PublicUser {
  id: string;
  email: string;
  name: string;
  role: UserRole;
}

/**
 * Input rejected by validation: a {@link ValidationError} (HTTP 422) whose message joins the
 * field messages, plus `fields`, the same problems as a map from field name to message (the
 * shape the sign-up and account forms show). Thrown by the account services
 * (`signUp`, `createUser`, `createApiToken`).
 */
export class UserInputError extends ValidationError {
  constructor(readonly fields: Record<string, string>) {
    super(Object.values(fields).join(" "), { fieldErrors: Object.entries(fields).map(([path, message]) => ({ path, message })) });
  }
}

const EMAIL_TAKEN = "An account with this email address already exists.";

/**
 * The email address already belongs to an account: a {@link ValidationError} (422) on the
 * `email` field whose message names the address, with `fields` as in {@link UserInputError}.
 * Not a UserInputError, so that callers can tell it apart (the admin CLI exits 1, not 2).
 * Thrown by {@link createUser} only: sign-up never tells whether an address is registered.
 */
export class EmailTakenError extends ValidationError {
  readonly fields = { email: EMAIL_TAKEN };
  constructor(readonly email: string) {
    super(`An account with the email address ${email} already exists.`, { fieldErrors: [{ path: "email", message: EMAIL_TAKEN }] });
  }
}

/** A user as a new session sees them: the public fields and the session version to carry. */
export interface SignedInUser extends PublicUser {
  /** `users.session_version` at sign-in; the session is valid while it is unchanged. */
  sessionVersion: number;
}

const publicFields = { id: true, email: true, name: true, role: true } as const;

/**
 * The least time the sign-up form takes to answer an accepted sign-up, in milliseconds: more
 * than a password hash and a new account's database writes take on a server that is not
 * overloaded (a few tens of milliseconds; 20–120 ms measured on a busy 2-core machine), so
 * that new and registered addresses answer alike. A person does not notice half a second.
 */
export const SIGN_UP_ANSWER_MIN_MS = 500;

/** Options of {@link signUp}. */
export interface SignUpOptions {
  /** the current time (tests); default now */
  now?: Date;
  /** answer an accepted sign-up no sooner than this many milliseconds after it began; default 0 */
  answerAfterMs?: number;
}

/**
 * Registers a new user with the USER role, unconfirmed, and mails a confirmation link
 * (`./email-confirmation.ts`); when the address already has an account, nothing changes and
 * its owner is mailed a notice (with a sign-in and a password-reset link) instead. The
 * answer is the same either way ({@link SIGN_UP_REQUESTED}), the password is hashed either
 * way, and the mail is sent in the background, so neither the answer nor its time says which
 * case happened (a new account costs a few database writes more: milliseconds, not the
 * hashing or mail time). Nobody is signed in.
 *
 * Limits, both taken after the fields are valid and before the password is hashed, and kept
 * whatever happens next (only a server error gives them back), so that they reveal nothing:
 * per email address (`sign-up-account`, RATE_LIMIT_SIGN_UP_ACCOUNT, default 5 an hour: no
 * flood of mails to one mailbox), then per client address (`sign-up-ip`, RATE_LIMIT_SIGN_UP_IP,
 * default 20 an hour: new accounts would otherwise be a way around every per-user rule).
 *
 * @param email normalized (trimmed, lower-cased) before storing
 * @param name display name, 1–100 characters
 * @param password at least 10 characters
 * @param address the client's address key (`clientAddress()` in `lib/rate-limit.ts`); null
 *   or omitted: no per-client-address limit (scripts)
 * @param options `now`: the current time (tests); `answerAfterMs`: answer an accepted sign-up
 *   no sooner than this many milliseconds after it began (the sign-up form passes
 *   {@link SIGN_UP_ANSWER_MIN_MS}), so that the database writes a new account costs do not
 *   show in the answer's time
 * @returns `{message: SIGN_UP_REQUESTED}`, the same for every accepted sign-up
 * @throws UserInputError (422) when a field is invalid; RateLimitedError (429, "Too many
 *   sign-up attempts for this email address. Try again at 14:05 (UTC).", or "… from your
 *   network address …") when a limit is used up
 */
export async function signUp(email: string, name: string, password: string, address?: string | null, options: SignUpOptions = {}): Promise<{ message: string }> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const parsed = signUpSchema.safeParse({ email, name, password });
  if (!parsed.success) throw new UserInputError(fieldErrors(parsed.error));
  // A refusal by either limit keeps the points taken: refused attempts count too.
  const perEmail = await consumeRateLimit("sign-up-account", parsed.data.email);
  const perAddress = address ? await consumeRateLimit("sign-up-ip", address) : null;
  try {
    const passwordHash = await hashPassword(parsed.data.password);
    const made = await insertUnconfirmedUser(parsed.data.email, parsed.data.name, passwordHash, now);
    const mail = made ? mailEmailConfirmation(parsed.data.email, made.url) : mailSignUpNotice(parsed.data.email);
    void mail.catch((error: unknown) => {
      console.error(`sign-up: could not send the ${made ? "confirmation" : "notice"} mail: ${error instanceof Error ? error.message : String(error)}`);
    });
  } catch (error) {
    // Not handled (database down, hashing slots full): not an attempt of the user's.
    await perAddress?.refund();
    await perEmail.refund();
    throw error;
  }
  const left = (options.answerAfterMs ?? 0) - (performance.now() - started);
  if (left > 0) await sleep(left);
  return { message: SIGN_UP_REQUESTED };
}

/**
 * Makes an unconfirmed account and its confirmation token in one transaction.
 *
 * @returns the confirmation link, or null when the address already has an account (also when
 *   a concurrent sign-up took it first)
 */
async function insertUnconfirmedUser(email: string, name: string, passwordHash: string, now: Date): Promise<{ url: string } | null> {
  const prisma = getPrisma();
  if (await prisma.user.findUnique({ where: { email }, select: { id: true } })) return null;
  try {
    return await prisma.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email, name, passwordHash, role: UserRole.USER, emailConfirmedAt: null }, select: { id: true } });
      return issueEmailConfirmation(tx, user.id, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Options for {@link createUser}. */
export interface CreateUserInput {
  email: string;
  password: string;
  /** Default: the part of the email before the "@". */
  name?: string;
  /** Default false. */
  admin?: boolean;
}

/**
 * Creates an account on an operator's behalf (admin CLI, seeds, tests), optionally with the
 * ADMIN role. The account is confirmed (`emailConfirmedAt` set): an operator vouches for it.
 *
 * @returns the new user
 * @throws UserInputError when a field is invalid; EmailTakenError when the email is registered
 */
export async function createUser(input: CreateUserInput): Promise<PublicUser> {
  const parsed = z
    .object({ email: emailSchema, password: newPasswordSchema, name: nameSchema.optional() })
    .safeParse({ email: input.email, password: input.password, name: input.name });
  if (!parsed.success) throw new UserInputError(fieldErrors(parsed.error));
  const { email, password } = parsed.data;
  const name = parsed.data.name ?? email.slice(0, email.indexOf("@"));
  const role = input.admin ? UserRole.ADMIN : UserRole.USER;
  const prisma = getPrisma();
  if (await prisma.user.findUnique({ where: { email }, select: { id: true } })) throw new EmailTakenError(email);
  const passwordHash = await hashPassword(password);
  try {
    // An operator made it: confirmed (no mail to confirm).
    return await prisma.user.create({ data: { email, name, passwordHash, role, emailConfirmedAt: new Date() }, select: publicFields });
  } catch (error) {
    // Lost a race with a concurrent sign-up for the same address.
    if (isUniqueViolation(error)) throw new EmailTakenError(email);
    throw error;
  }
}

/**
 * Checks an email and password for sign-in. Takes about as long whether or not the account
 * exists. The attempt is counted against the email and the client address before any
 * hashing, and given back when the password is right (only failures count). A bcrypt hash
 * is replaced by an argon2id one on success.
 *
 * @param email as typed (trimmed and lower-cased here)
 * @param password as typed
 * @param address the client's address key (`clientAddress()` in `lib/rate-limit.ts`); null
 *   or omitted: only the per-email limit applies
 * @returns the user and its session version when the password is right; null otherwise
 *   (unknown email, wrong password, account without a password, deleted account, or malformed input, which is
 *   refused without hashing and without counting)
 * @throws RateLimitedError (429, "Too many sign-in attempts … Try again at 14:05 (UTC).")
 *   when the email's or the address's attempts are used up, the password unchecked; also
 *   (from `lib/accounts/password.ts`) when too many password checks already wait. An attempt
 *   that could not be checked (that, or a database error, rethrown) does not count.
 */
export async function verifyCredentials(email: string, password: string, address: string | null = null): Promise<SignedInUser | null> {
  const parsed = credentialsSchema.safeParse({ email, password });
  if (!parsed.success) return null;
  const reservation = await reserveSignInAttempt(parsed.data.email, address);
  const prisma = getPrisma();
  let row: (PublicUser & { passwordHash: string | null; sessionVersion: number }) | null;
  let right: boolean;
  try {
    const found = await prisma.user.findUnique({
      where: { email: parsed.data.email },
      select: { ...publicFields, passwordHash: true, sessionVersion: true, deletedAt: true },
    });
    // A deleted account never signs in (its password is gone too; this holds even if one were set again).
    row = found && !found.deletedAt ? { id: found.id, email: found.email, name: found.name, role: found.role, passwordHash: found.passwordHash, sessionVersion: found.sessionVersion } : null;
    if (row?.passwordHash) {
      right = await verifyPassword(parsed.data.password, row.passwordHash);
    } else {
      await burnPasswordCheck(parsed.data.password);
      right = false;
    }
  } catch (error) {
    // Not checked (database down, hashing slots full): not a failure of the user's.
    await reservation.refund();
    throw error;
  }
  if (!right || !row?.passwordHash) return null;
  await reservation.refund();
  const { passwordHash, ...user } = row;
  if (needsRehash(passwordHash)) {
    try {
      // Only if the hash is still the one just checked (a concurrent password change wins).
      const fresh = await hashPassword(parsed.data.password);
      await prisma.user.updateMany({ where: { id: user.id, passwordHash }, data: { passwordHash: fresh } });
    } catch (error) {
      // The sign-in stands; the upgrade is tried again at the next one.
      console.warn(`sign-in: could not upgrade the password hash of user ${user.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return user;
}

/**
 * Changes the signed-in user's password, after checking the current one, and in the same
 * transaction ends all of the user's sessions (the caller signs the current browser in again
 * with the new password) and revokes all of their API tokens (audited as
 * `user.api_token_revoke`, reason "password_change", when there was one).
 * Counted against the user's email like a sign-in attempt (before any hashing; given back on
 * success).
 *
 * @param userId the signed-in user
 * @param input `currentPassword`, `newPassword`, `confirmPassword` as typed
 * @returns the user's new session version
 * @throws UserInputError (422) with fields `currentPassword` (missing or wrong, or the
 *   account is gone or has no password), `newPassword` (too short or long, or the same as
 *   the current one) or `confirmPassword` (does not match); RateLimitedError (429) when the
 *   email's attempts are used up (the current password is then not checked)
 */
export async function changePassword(
  userId: string,
  input: { currentPassword: string; newPassword: string; confirmPassword: string },
): Promise<number> {
  const parsed = changePasswordSchema.safeParse(input);
  if (!parsed.success) throw new UserInputError(fieldErrors(parsed.error));
  const prisma = getPrisma();
  const row = isUuid(userId)
    ? await prisma.user.findUnique({ where: { id: userId }, select: { email: true, passwordHash: true } })
    : null;
  if (!row?.passwordHash) throw new UserInputError({ currentPassword: "This account has no password to change." });
  const attempt = await consumeRateLimit("sign-in-account", row.email);
  let right: boolean;
  try {
    right = await verifyPassword(parsed.data.currentPassword, row.passwordHash);
  } catch (error) {
    await attempt.refund(); // not checked: not a failure
    throw error;
  }
  if (!right) throw new UserInputError({ currentPassword: "That is not your current password." });
  await attempt.refund();
  const passwordHash = await hashPassword(parsed.data.newPassword);
  return prisma.$transaction(async (tx) => {
    const updated = await tx.user.update({
      where: { id: userId },
      data: { passwordHash, sessionVersion: { increment: 1 } },
      select: { sessionVersion: true },
    });
    // A password change is a recovery step: the account's API tokens end with its sessions.
    await revokeAllApiTokens(tx, { userId, actorId: userId, reason: "password_change" });
    return updated.sessionVersion;
  });
}

/**
 * Ends every session of a user (ordinary sign-out): bumps the session version, so that
 * tokens carrying the old one are refused from the next request on. API tokens are not
 * affected; "Sign out everywhere" (`signOutEverywhere` in `./account.ts`) revokes them too.
 *
 * @param userId the user
 * @param onlyIfVersion bump only while the version is still this one (sign-out with a
 *   token: signing out with an already revoked token changes nothing)
 * @returns true when the version was bumped
 */
export async function revokeSessions(userId: string, onlyIfVersion?: number): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const { count } = await getPrisma().user.updateMany({
    where: { id: userId, ...(onlyIfVersion === undefined ? {} : { sessionVersion: onlyIfVersion }) },
    data: { sessionVersion: { increment: 1 } },
  });
  return count === 1;
}

/**
 * The user of a session token, re-read on every request: null when the account is gone or
 * deleted (`deletedAt` set, `lib/accounts/account.ts`), or the token's session version is no
 * longer the user's (signed out, password changed, email changed, signed out everywhere).
 *
 * @param userId the token's subject
 * @param sessionVersion the version the token carries (tokens issued before versions
 *   existed count as 0)
 * @returns the user's current public fields (fresh name and role), or null
 */
export async function getSessionUser(userId: string, sessionVersion: number): Promise<PublicUser | null> {
  if (!isUuid(userId) || !Number.isInteger(sessionVersion)) return null;
  const row = await getPrisma().user.findUnique({ where: { id: userId }, select: { ...publicFields, sessionVersion: true, deletedAt: true } });
  if (!row || row.deletedAt || row.sessionVersion !== sessionVersion) return null;
  const { sessionVersion: _version, deletedAt: _deleted, ...user } = row;
  return user;
}

/**
 * Looks a user up by id.
 *
 * @returns the user, or null when there is none (or the id is not a UUID)
 */
export async function getUserById(id: string): Promise<PublicUser | null> {
  if (!isUuid(id)) return null;
  return getPrisma().user.findUnique({ where: { id }, select: publicFields });
}

/**
 * Looks a user up by email (normalized first).
 *
 * @returns the user, or null when there is none
 */
export async function getUserByEmail(email: string): Promise<PublicUser | null> {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return null;
  return getPrisma().user.findUnique({ where: { email: parsed.data }, select: publicFields });
}
