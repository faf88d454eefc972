/**
 * Password hashing: argon2id through `@node-rs/argon2`, a native addon whose `hash` and
 * `verify` run on libuv's thread pool, never on the web server's event loop.
 *
 * - Parameters: OWASP's first argon2id configuration (Password Storage Cheat Sheet): 19 MiB
 *   of memory, 2 passes, 1 lane; about 30–60 ms per check on one core here. Under
 *   `NODE_ENV=test` 1 MiB and 1 pass, so that tests stay fast.
 * - Hashes are PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`), so each carries its
 *   own parameters and old hashes stay verifiable when the parameters change.
 * - bcrypt hashes (`$2a$`/`$2b$`/`$2y$`, made by `bcryptjs` before argon2) are still accepted;
 *   {@link needsRehash} says when the caller should store a fresh argon2id hash (done at the
 *   next successful sign-in by `lib/accounts/users.ts`).
 * - At most {@link passwordHashConcurrency} hashes or checks run at once per process
 *   (`PASSWORD_HASH_CONCURRENCY`, default half the cores, at least 1), so that a flood of
 *   sign-ins with made-up accounts and addresses can never take every core (or every thread
 *   of libuv's pool, which file reads share). Further checks wait in line; when
 *   {@link MAX_WAITING_CHECKS} already wait, the check is refused with a RateLimitedError (429).
 * - argon2 has no length limit (bcrypt read only 72 bytes); {@link MAX_PASSWORD_BYTES} only
 *   keeps absurd inputs out.
 */
import { availableParallelism } from "node:os";
import { hash as argon2Hash, parseOptions, verify as argon2Verify, type Algorithm, type Options } from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { RateLimitedError } from "../errors";

/** Longest accepted password, in UTF-8 bytes (new passwords and sign-in input alike). */
export const MAX_PASSWORD_BYTES = 1024;

/** `Algorithm.Argon2id` (a `const enum` in the package's types, so not importable as a value). */
const ARGON2ID = 2 as Algorithm;

/** The argon2id cost parameters in effect: memory in KiB, passes, lanes. */
export interface Argon2Parameters {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/**
 * The argon2id parameters for new hashes.
 *
 * @returns `{memoryCost: 19456, timeCost: 2, parallelism: 1}` (OWASP), or
 *   `{memoryCost: 1024, timeCost: 1, parallelism: 1}` under `NODE_ENV=test`
 */
export function argon2Parameters(): Argon2Parameters {
  return process.env.NODE_ENV === "test"
    ? { memoryCost: 1024, timeCost: 1, parallelism: 1 }
    : { memoryCost: 19456, timeCost: 2, parallelism: 1 };
}

function argon2Options(): Options {
  return { ...argon2Parameters(), algorithm: ARGON2ID };
}

const BCRYPT_PATTERN = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

/** Checks that may wait for a free hashing slot; one more is refused. */
export const MAX_WAITING_CHECKS = 100;

/**
 * How many password hashes or checks may run at once in this process.
 *
 * @returns `PASSWORD_HASH_CONCURRENCY` when it is a whole number in [1, 64]; else half the
 *   available cores, at least 1
 */
export function passwordHashConcurrency(): number {
  const configured = Number(process.env.PASSWORD_HASH_CONCURRENCY);
  if (process.env.PASSWORD_HASH_CONCURRENCY && Number.isInteger(configured) && configured >= 1 && configured <= 64) return configured;
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

/**
 * The slots' state, on `globalThis` so that every copy of this module in the process (Next
 * bundles route handlers and server actions separately) shares one cap.
 */
const slots = ((globalThis as unknown as { corefboardHashSlots?: { running: number; waiting: Array<() => void> } }).corefboardHashSlots ??= {
  running: 0,
  waiting: [],
});

/**
 * Runs `work` once a hashing slot is free (see the module header).
 *
 * @throws RateLimitedError (429) when {@link MAX_WAITING_CHECKS} checks already wait
 */
async function withHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (slots.running >= passwordHashConcurrency()) {
    if (slots.waiting.length >= MAX_WAITING_CHECKS) {
      const retryAt = new Date(Date.now() + 10_000);
      throw new RateLimitedError(`The server is busy checking passwords. Try again in a few seconds (at ${retryAt.toISOString().slice(11, 19)} UTC).`, {
        retryAt: retryAt.toISOString(),
        retryAfterSeconds: 10,
      });
    }
    await new Promise<void>((resolve) => slots.waiting.push(resolve));
  } else {
    slots.running++;
  }
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next in line, or free it.
    const next = slots.waiting.shift();
    if (next) next();
    else slots.running--;
  }
}

/**
 * Hashes a password for storage, off the event loop.
 *
 * @param password the plaintext (already validated)
 * @returns an argon2id PHC string (`$argon2id$v=19$m=…,t=…,p=…$…`)
 * @throws RateLimitedError (429) when too many checks already wait for a hashing slot
 */
export function hashPassword(password: string): Promise<string> {
  return withHashingSlot(() => argon2Hash(password, argon2Options()));
}

/**
 * Checks a password against a stored hash: argon2 (any variant and parameters the PHC string
 * names) or, for accounts from before argon2, bcrypt.
 *
 * @param password the plaintext to check
 * @param stored the stored hash
 * @returns true when they match; false for a mismatch or an unknown or malformed hash
 * @throws RateLimitedError (429) when too many checks already wait for a hashing slot
 */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return withHashingSlot(async () => {
    try {
      if (stored.startsWith("$argon2")) return await argon2Verify(stored, password);
      if (BCRYPT_PATTERN.test(stored)) return await bcrypt.compare(password, stored);
    } catch {
      // A malformed hash: treated as a mismatch.
    }
    return false;
  });
}

/**
 * Whether a stored hash should be replaced by a fresh one after a successful check: any
 * bcrypt hash, and argon2 hashes of another variant or with other parameters than
 * {@link argon2Parameters}.
 */
export function needsRehash(stored: string): boolean {
  if (!stored.startsWith("$argon2")) return true;
  try {
    const used = parseOptions(stored);
    const wanted = argon2Parameters();
    return (
      used.algorithm !== ARGON2ID ||
      used.memoryCost !== wanted.memoryCost ||
      used.timeCost !== wanted.timeCost ||
      used.parallelism !== wanted.parallelism
    );
  } catch {
    return true;
  }
}

let dummyHash: { key: string; hash: Promise<string> } | undefined;

/**
 * Spends about as long as a real password check (an argon2id check with the current
 * parameters), for accounts that do not exist or have no password, so that response times do
 * not reveal which emails are registered.
 *
 * @throws RateLimitedError (429) when too many checks already wait for a hashing slot
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  const key = JSON.stringify(argon2Parameters());
  if (dummyHash?.key !== key) dummyHash = { key, hash: argon2Hash("corefboard-no-such-account", argon2Options()) };
  await verifyPassword(password, await dummyHash.hash);
}
