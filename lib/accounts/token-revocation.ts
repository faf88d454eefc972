/**
 * Revoking every API token of an account, as part of an account-recovery step: "Sign out
 * everywhere" (`signOutEverywhere` in `lib/accounts/account.ts`), a password change
 * (`changePassword` in `lib/accounts/users.ts`) and a password reset (`resetPassword` in
 * `lib/accounts/password-reset.ts`). Each calls {@link revokeAllApiTokens} inside the same
 * transaction that ends the account's sessions, so that either both happen or neither does.
 *
 * Kept apart from `./api-tokens.ts` so that `lib/accounts/users.ts` can use it without an import
 * cycle (`./api-tokens.ts` imports `UserInputError` from there).
 */
import { recordAudit } from "../audit";
import { lockKey, type Tx } from "../db";

/** The advisory-lock key that serializes creating and bulk-revoking one account's tokens. */
export function apiTokenLockKey(userId: string): string {
  return `api-tokens:${userId}`;
}

/** Why tokens were revoked, as recorded in the `user.api_token_revoke` audit event. */
export type TokenRevocationReason = "owner" | "sign_out_everywhere" | "password_change" | "password_reset";

/**
 * Revokes every active API token of `userId` (sets `revokedAt`; rows stay, listed as revoked on
 * the account page) and, when there was at least one, records `user.api_token_revoke` with the
 * token ids and the reason.
 *
 * @param tx the transaction that also ends the account's sessions
 * @param input the account, the acting user (the account itself), the reason, and the time
 * @returns the ids of the tokens revoked now (empty when none was active)
 */
export async function revokeAllApiTokens(
  tx: Tx,
  input: { userId: string; actorId: string | null; reason: Exclude<TokenRevocationReason, "owner">; now?: Date },
): Promise<string[]> {
  const now = input.now ?? new Date();
  await lockKey(tx, apiTokenLockKey(input.userId));
  const active = await tx.apiToken.findMany({ where: { userId: input.userId, revokedAt: null }, select: { id: true }, orderBy: { id: "asc" } });
  if (active.length === 0) return [];
  const ids = active.map((t) => t.id);
  await tx.apiToken.updateMany({ where: { id: { in: ids }, revokedAt: null }, data: { revokedAt: now } });
  await recordAudit(tx, {
    actorId: input.actorId,
    action: "user.api_token_revoke",
    targetType: "user",
    targetId: input.userId,
    data: { tokenIds: ids, reason: input.reason },
  });
  return ids;
}
