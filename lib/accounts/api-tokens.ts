/**
 * Personal API tokens for the `/api/v1` routes and scripts.
 *
 * - A token is `cfb_` followed by 32 random bytes in base64url (43 characters).
 * - Only its sha256 (lower-case hex) is stored; the plaintext is returned once, at creation.
 * - A revoked token stops working at once. Revocation is permanent; a revoked token stays listed
 *   to its owner (as revoked, with its last use), so that after an incident they can see what
 *   existed and when it was last used.
 * - Who may create one: {@link createApiToken} itself asks for no password; it is the
 *   operator's primitive (`scripts/admin.ts create-token`, seeds, tests). A signed-in user
 *   creates tokens through `createOwnApiToken` (`lib/accounts/account.ts`), which first checks
 *   the current password, so a stolen session cookie alone cannot mint a token.
 * - Every active token of an account is revoked by "Sign out everywhere", a password change and
 *   a password reset (`./token-revocation.ts`).
 * - Creation and revocation are audited (`user.api_token_create`, `user.api_token_revoke`).
 */
import { randomBytes } from "node:crypto";
import { getPrisma } from "../db/client";
import { sha256Hex } from "../storage";
import { tokenNameSchema } from "./schemas";
import { recordAudit } from "../audit";
import { isUuid, lockKey } from "../db";
import { UserInputError, type PublicUser } from "./users";
import { apiTokenLockKey } from "./token-revocation";

/** Prefix of every token, so leaked tokens are easy to recognize (and to scan for). */
export const TOKEN_PREFIX = "cfb_";
/** Most active (unrevoked) tokens one user may hold. */
export const MAX_ACTIVE_TOKENS = 50;
/** `lastUsedAt` is written at most this often per token, to keep reads cheap. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const TOKEN_PATTERN = /^cfb_[A-Za-z0-9_-]{43}$/;

/** A token as listed to its owner: never the hash or the plaintext. */
export interface ApiTokenInfo {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Result of {@link createApiToken}. */
export interface CreatedApiToken {
  /** The plaintext token. Show it once; it cannot be recovered. */
  token: string;
  info: ApiTokenInfo;
}

const infoFields = { id: true, name: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

/**
 * Creates a token for `userId`, without asking for a password: the operator's primitive (admin
 * CLI, seeds, tests). Requests made with a user's session go through `createOwnApiToken`
 * (`lib/accounts/account.ts`), which checks the password first. Audited as
 * `user.api_token_create` (actor `actorId`: null for the CLI).
 *
 * @param userId the owner
 * @param name a label, 1–100 characters
 * @param options `actorId` for the audit event (default null, the operator), `via` recorded
 *   with it (default "cli")
 * @returns the plaintext token (only here) and its listing
 * @throws UserInputError (422, field `name`) for a bad name or when the user already has
 *   {@link MAX_ACTIVE_TOKENS} active tokens
 */
export async function createApiToken(
  userId: string,
  name: string,
  options: { actorId?: string | null; via?: "account" | "cli" } = {},
): Promise<CreatedApiToken> {
  const parsed = parseTokenName(name);
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const info = await getPrisma().$transaction(async (tx) => {
    await lockKey(tx, apiTokenLockKey(userId));
    const active = await tx.apiToken.count({ where: { userId, revokedAt: null } });
    if (active >= MAX_ACTIVE_TOKENS) {
      throw new UserInputError({ name: `You already have ${MAX_ACTIVE_TOKENS} active tokens; revoke one first.` });
    }
    const created = await tx.apiToken.create({ data: { userId, name: parsed, tokenHash: sha256Hex(token) }, select: infoFields });
    await recordAudit(tx, {
      actorId: options.actorId ?? null,
      action: "user.api_token_create",
      targetType: "user",
      targetId: userId,
      data: { tokenId: created.id, name: created.name, via: options.via ?? "cli" },
    });
    return created;
  });
  return { token, info };
}

/**
 * Checks a token name (trimmed, 1–100 characters, no control characters).
 *
 * @returns the name as stored
 * @throws UserInputError (422, field `name`) when it is not acceptable
 */
export function parseTokenName(name: unknown): string {
  const parsed = tokenNameSchema.safeParse(name);
  if (!parsed.success) throw new UserInputError({ name: parsed.error.issues[0]!.message });
  return parsed.data;
}

/**
 * The user's tokens, newest first, revoked ones included.
 *
 * @returns name, dates and id of each token; never the hash
 */
export async function listApiTokens(userId: string): Promise<ApiTokenInfo[]> {
  return getPrisma().apiToken.findMany({ where: { userId }, select: infoFields, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
}

/**
 * Revokes one of the user's tokens. Audited as `user.api_token_revoke` (reason "owner") when
 * it was revoked now.
 *
 * @returns true when it was revoked now; false when there is no such active token owned by
 *   `userId` (another user's token is never touched)
 */
export async function revokeApiToken(userId: string, tokenId: string, now: Date = new Date()): Promise<boolean> {
  if (!isUuid(tokenId) || !isUuid(userId)) return false;
  return getPrisma().$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({ where: { id: tokenId, userId, revokedAt: null }, data: { revokedAt: now } });
    if (count !== 1) return false;
    await recordAudit(tx, { actorId: userId, action: "user.api_token_revoke", targetType: "user", targetId: userId, data: { tokenIds: [tokenId], reason: "owner" } });
    return true;
  });
}

/**
 * Whether `userId` owns the token `tokenId` (revoked or not).
 *
 * @returns false for a malformed id, an unknown token or another user's
 */
export async function ownsApiToken(userId: string, tokenId: string): Promise<boolean> {
  if (!isUuid(tokenId) || !isUuid(userId)) return false;
  return (await getPrisma().apiToken.count({ where: { id: tokenId, userId } })) === 1;
}

/**
 * Authenticates an `Authorization` header value of the form `Bearer cfb_…`.
 * Records the use in `lastUsedAt` (at most once per {@link LAST_USED_RESOLUTION_MS}).
 *
 * @param authorization the header value (null/undefined when absent)
 * @returns the token's owner, or null for a missing, malformed, unknown or revoked token (or a deleted owner)
 */
export async function authenticateBearer(authorization: string | null | undefined): Promise<PublicUser | null> {
  const token = parseBearer(authorization);
  if (!token) return null;
  const prisma = getPrisma();
  const row = await prisma.apiToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: { id: true, revokedAt: true, lastUsedAt: true, user: { select: { id: true, email: true, name: true, role: true, deletedAt: true } } },
  });
  // Deleting an account deletes its tokens; a deleted owner is refused all the same.
  if (!row || row.revokedAt || row.user.deletedAt) return null;
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await prisma.apiToken.updateMany({ where: { id: row.id, revokedAt: null }, data: { lastUsedAt: now } });
  }
  const { deletedAt: _deleted, ...user } = row.user;
  return user;
}

/**
 * Extracts the token from `Bearer <token>` (scheme case-insensitive).
 *
 * @returns the token when the header is well-formed and the token has the Corefboard shape; else null
 */
export function parseBearer(authorization: string | null | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  if (!match || !TOKEN_PATTERN.test(match[1]!)) return null;
  return match[1]!;
}
