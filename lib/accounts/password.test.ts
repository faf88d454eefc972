import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it, vi } from "vitest";

// Count (and optionally hold) the native argon2 calls, to check the hashing-slot cap.
const native = vi.hoisted(() => ({ inFlight: 0, maxInFlight: 0, gate: null as null | Promise<void> }));
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const real = await importOriginal<typeof import("@node-rs/argon2")>();
  const tracked =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      native.inFlight++;
      native.maxInFlight = Math.max(native.maxInFlight, native.inFlight);
      try {
        if (native.gate) await native.gate;
        return await fn(...args);
      } finally {
        native.inFlight--;
      }
    };
  return { ...real, hash: tracked(real.hash), verify: tracked(real.verify) };
});

const { MAX_PASSWORD_BYTES, MAX_WAITING_CHECKS, argon2Parameters, burnPasswordCheck, hashPassword, needsRehash, passwordHashConcurrency, verifyPassword } =
  await import("./password");
const { RateLimitedError } = await import("../errors");

afterEach(() => {
  delete process.env.PASSWORD_HASH_CONCURRENCY;
  native.maxInFlight = 0;
  native.gate = null;
});

describe("hashPassword and verifyPassword (argon2id)", () => {
  it("makes an argon2id PHC string with the test parameters, different each time", async () => {
    expect(process.env.NODE_ENV).toBe("test");
    expect(argon2Parameters()).toEqual({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("correct horse");
  });

  it("accepts the right password only", async () => {
    const stored = await hashPassword("correct horse battery");
    await expect(verifyPassword("correct horse battery", stored)).resolves.toBe(true);
    await expect(verifyPassword("correct horse batter", stored)).resolves.toBe(false);
    await expect(verifyPassword("", stored)).resolves.toBe(false);
  });

  it("reads the whole password: no 72-byte cut as with bcrypt", async () => {
    const long = "x".repeat(100);
    const stored = await hashPassword(long);
    await expect(verifyPassword(long, stored)).resolves.toBe(true);
    await expect(verifyPassword(`${long.slice(0, 99)}y`, stored)).resolves.toBe(false);
    expect(MAX_PASSWORD_BYTES).toBe(1024);
  });

  it("verifies hashes made with other argon2 parameters (they carry their own)", async () => {
    const { hash } = await import("@node-rs/argon2");
    const stored = await hash("an older password", { memoryCost: 2048, timeCost: 2, parallelism: 1 });
    await expect(verifyPassword("an older password", stored)).resolves.toBe(true);
    expect(needsRehash(stored)).toBe(true);
  });

  it("still accepts bcrypt hashes from before argon2, and says they need a rehash", async () => {
    const stored = await bcrypt.hash("legacy password", 4);
    expect(stored).toMatch(/^\$2b\$04\$/);
    await expect(verifyPassword("legacy password", stored)).resolves.toBe(true);
    await expect(verifyPassword("legacy passwore", stored)).resolves.toBe(false);
    expect(needsRehash(stored)).toBe(true);
    expect(needsRehash(await hashPassword("fresh"))).toBe(false);
  });

  it("treats malformed or unknown hashes as a mismatch", async () => {
    for (const stored of ["", "plaintext", "$argon2id$v=19$m=1024,t=1,p=1$broken", "$2b$10$short", "$scrypt$whatever"]) {
      await expect(verifyPassword("anything", stored)).resolves.toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });

  it("burns an argon2 check for accounts that do not exist", async () => {
    native.maxInFlight = 0;
    await burnPasswordCheck("some password");
    expect(native.maxInFlight).toBe(1);
  });
});

describe("the hashing-slot cap", () => {
  it("defaults to half the cores (at least 1) and honours PASSWORD_HASH_CONCURRENCY", async () => {
    const { availableParallelism } = await import("node:os");
    expect(passwordHashConcurrency()).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
    process.env.PASSWORD_HASH_CONCURRENCY = "3";
    expect(passwordHashConcurrency()).toBe(3);
    process.env.PASSWORD_HASH_CONCURRENCY = "0";
    expect(passwordHashConcurrency()).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
  });

  it("runs at most PASSWORD_HASH_CONCURRENCY hashes at once; the others wait their turn", async () => {
    process.env.PASSWORD_HASH_CONCURRENCY = "2";
    const stored = await hashPassword("pw-1234567890");
    native.maxInFlight = 0;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => verifyPassword(i % 2 ? "pw-1234567890" : "wrong", stored)));
    expect(native.maxInFlight).toBe(2);
    expect(results.filter(Boolean)).toHaveLength(6);
  });

  it(`refuses a check when ${MAX_WAITING_CHECKS} already wait, with a retry time`, async () => {
    process.env.PASSWORD_HASH_CONCURRENCY = "1";
    const stored = await hashPassword("pw-1234567890");
    let open!: () => void;
    native.gate = new Promise<void>((resolve) => (open = resolve));
    const queued = Array.from({ length: 1 + MAX_WAITING_CHECKS }, () => verifyPassword("pw-1234567890", stored));
    const refused = await verifyPassword("pw-1234567890", stored).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as InstanceType<typeof RateLimitedError>).httpStatus).toBe(429);
    expect((refused as InstanceType<typeof RateLimitedError>).details).toMatchObject({ retryAfterSeconds: 10 });
    open();
    expect(await Promise.all(queued)).toEqual(Array(1 + MAX_WAITING_CHECKS).fill(true));
    expect(native.maxInFlight).toBe(1);
    // The slots are all free again.
    await expect(verifyPassword("pw-1234567890", stored)).resolves.toBe(true);
  });
});
