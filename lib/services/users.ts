/**
 * User accounts: sign-up, password checks, and account creation for the admin CLI.
 *
 * Emails are stored lower-cased; every lookup normalizes first. Passwords are bcrypt-hashed
 * (`lib/auth/password.ts`) and never leave this module.
 */
import { getPrisma } from "../db/client";
import { ValidationError } from "../errors";
import { UserRole } from "../generated/prisma/enums";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../auth/password";
import { credentialsSchema, emailSchema, fieldErrors, nameSchema, newPasswordSchema, signUpSchema } from "../auth/schemas";
import { z } from "zod";
import { isUniqueViolation, isUuid } from "./db";

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
 */
export class EmailTakenError extends ValidationError {
  readonly fields = { email: EMAIL_TAKEN };
  constructor(readonly email: string) {
    super(`An account with the email address ${email} already exists.`, { fieldErrors: [{ path: "email", message: EMAIL_TAKEN }] });
  }
}

const publicFields = { id: true, email: true, name: true, role: true } as const;

/**
 * Registers a new user with the USER role.
 *
 * @param email normalized (trimmed, lower-cased) before storing
 * @param name display name, 1–100 characters
 * @param password at least 10 characters
 * @returns the new user
 * @throws UserInputError when a field is invalid; EmailTakenError when the email is registered
 */
export async function signUp(email: string, name: string, password: string): Promise<PublicUser> {
  const parsed = signUpSchema.safeParse({ email, name, password });
  if (!parsed.success) throw new UserInputError(fieldErrors(parsed.error));
  return insertUser(parsed.data.email, parsed.data.name, parsed.data.password, UserRole.USER);
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
 * Creates an account on an operator's behalf (admin CLI), optionally with the ADMIN role.
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
  return insertUser(email, name, password, input.admin ? UserRole.ADMIN : UserRole.USER);
}

async function insertUser(email: string, name: string, password: string, role: UserRole): Promise<PublicUser> {
  const prisma = getPrisma();
  if (await prisma.user.findUnique({ where: { email }, select: { id: true } })) throw new EmailTakenError(email);
  const passwordHash = await hashPassword(password);
  try {
    return await prisma.user.create({ data: { email, name, passwordHash, role }, select: publicFields });
  } catch (error) {
    // Lost a race with a concurrent sign-up for the same address.
    if (isUniqueViolation(error)) throw new EmailTakenError(email);
    throw error;
  }
}

/**
 * Checks an email and password. Takes about as long whether or not the account exists.
 *
 * @returns the user when the password is right; null otherwise (unknown email, wrong
 *   password, account without a password, or malformed input)
 */
export async function verifyCredentials(email: string, password: string): Promise<PublicUser | null> {
  const parsed = credentialsSchema.safeParse({ email, password });
  if (!parsed.success) {
    await burnPasswordCheck(typeof password === "string" ? password.slice(0, 1024) : "");
    return null;
  }
  const row = await getPrisma().user.findUnique({
    where: { email: parsed.data.email },
    select: { ...publicFields, passwordHash: true },
  });
  if (!row?.passwordHash) {
    await burnPasswordCheck(parsed.data.password);
    return null;
  }
  if (!(await verifyPassword(parsed.data.password, row.passwordHash))) return null;
  const { passwordHash: _omit, ...user } = row;
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
