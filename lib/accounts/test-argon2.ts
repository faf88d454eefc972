/**
 * For tests only: a stand-in for `@node-rs/argon2` that counts the native password checks
 * (`argon2Calls.verify`), so that a test can show a flood is refused before any hashing, and
 * can hold every check until `argon2Calls.gate` resolves (to fill the hashing slots).
 *
 *   import { argon2Calls } from "./auth/test-argon2";
 *   vi.mock("@node-rs/argon2", async (importOriginal) => (await import("./auth/test-argon2")).countingArgon2(importOriginal));
 */
type Argon2 = typeof import("@node-rs/argon2");

/** Checks made so far, and an optional gate every check waits for. */
export const argon2Calls: { verify: number; gate: Promise<void> | null } = { verify: 0, gate: null };

/**
 * The real module with a counting (and gated) `verify`.
 *
 * @param importOriginal vitest's loader of the real module, as `vi.mock` passes it
 */
export async function countingArgon2(importOriginal: <T>() => Promise<T>): Promise<Argon2> {
  const real = await importOriginal<Argon2>();
  return {
    ...real,
    verify: async (...args: Parameters<Argon2["verify"]>) => {
      argon2Calls.verify++;
      if (argon2Calls.gate) await argon2Calls.gate;
      return real.verify(...args);
    },
  };
}
