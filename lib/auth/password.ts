/**
 * Password hashing with bcrypt (the pure-JS `bcryptjs`, so no native build).
 *
 * The cost factor is `BCRYPT_COST` when set (4–15), else 10 under `NODE_ENV=test` (fast
 * tests) and 12 otherwise. bcrypt only reads the first 72 bytes of a password, so longer
 * passwords are refused by the validation in `lib/auth/schemas.ts` rather than silently cut.
 */
import bcrypt from "bcryptjs";

/** Longest password bcrypt takes into account, in UTF-8 bytes. */
export const MAX_PASSWORD_BYTES = 72;

/**
 * The bcrypt cost factor in effect.
 *
 * @returns `BCRYPT_COST` if it is a whole number in [4, 15], else 10 in tests and 12 elsewhere
 */
export function bcryptCost(): number {
  const configured = Number(process.env.BCRYPT_COST);
  if (process.env.BCRYPT_COST && Number.isInteger(configured) && configured >= 4 && configured <= 15) return configured;
  return process.env.NODE_ENV === "test" ? 10 : 12;
}

/**
 * Hashes a password for storage.
 *
 * @param password the plaintext (already validated)
 * @returns a bcrypt hash (`$2b$…`)
 */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, bcryptCost());
}

/**
 * Checks a password against a stored hash.
 *
 * @param password the plaintext to check
 * @param hash the stored bcrypt hash
 * @returns true when they match; false for a mismatch or a malformed hash
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends about as long as a real password check, for accounts that do not exist (or have no
 * password), so response times do not reveal which emails are registered.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= bcrypt.hash("corefboard-no-such-account", bcryptCost());
  await verifyPassword(password, await dummyHash);
}
