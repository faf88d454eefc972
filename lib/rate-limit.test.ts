import { afterEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "./db/test-db";
import { argon2Calls } from "./accounts/test-argon2";

// Count the native argon2 checks: a flood must be refused before hashing.
// (`gate`: hold every check until it resolves, to fill the hashing slots.)
vi.mock("@node-rs/argon2", async (importOriginal) => (await import("./accounts/test-argon2")).countingArgon2(importOriginal));

const {
  addressKey,
  clientAddress,
  consumeRateLimit,
  formatRetryTime,
  parseRateLimitRule,
  rateLimitRule,
  reserveSignInAttempt,
  resetRateLimit,
  signInRefusalDelayMs,
  trustProxyHops,
} = await import("./rate-limit");
const { RateLimitedError } = await import("./errors");
const { errorResponse } = await import("./http/api");
const { createUser, verifyCredentials } = await import("./accounts/users");

const db = useTestDatabase();
afterEach(() => {
  delete process.env.RATE_LIMIT_SIGN_IN_ACCOUNT;
  delete process.env.RATE_LIMIT_SIGN_IN_IP;
  delete process.env.RATE_LIMIT_TEAM_CREATE;
});

let n = 0;
const unique = (label: string) => `${label}-${++n}-${Math.random().toString(36).slice(2, 8)}`;

/** The stored counter of a key (key as stored: `<kind>:<key>`). */
async function counter(storedKey: string) {
  return db.prisma.rateLimit.findUnique({ where: { key: storedKey } });
}

async function refusal(promise: Promise<unknown>): Promise<InstanceType<typeof RateLimitedError>> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RateLimitedError);
  return error as InstanceType<typeof RateLimitedError>;
}

describe("rules", () => {
  it("parses <points>/<window>", () => {
    expect(parseRateLimitRule("10/15m")).toEqual({ points: 10, durationSeconds: 900 });
    expect(parseRateLimitRule(" 100 / 1h ")).toEqual({ points: 100, durationSeconds: 3600 });
    expect(parseRateLimitRule("10/1d")).toEqual({ points: 10, durationSeconds: 86400 });
    expect(parseRateLimitRule("3/30s")).toEqual({ points: 3, durationSeconds: 30 });
    for (const bad of ["", "10", "10/15", "0/15m", "10/0m", "-1/15m", "ten/15m", "10/15w", "1.5/15m"]) expect(parseRateLimitRule(bad)).toBeNull();
  });

  it("has the documented defaults, overridden by the environment", () => {
    expect(rateLimitRule("sign-in-account", {})).toEqual({ points: 10, durationSeconds: 900 });
    expect(rateLimitRule("sign-in-ip", {})).toEqual({ points: 100, durationSeconds: 900 });
    expect(rateLimitRule("team-create", {})).toEqual({ points: 10, durationSeconds: 86400 });
    expect(rateLimitRule("team-create", { RATE_LIMIT_TEAM_CREATE: "3/1h" })).toEqual({ points: 3, durationSeconds: 3600 });
    expect(rateLimitRule("team-create", { RATE_LIMIT_TEAM_CREATE: "" })).toEqual({ points: 10, durationSeconds: 86400 });
    expect(() => rateLimitRule("sign-in-ip", { RATE_LIMIT_SIGN_IN_IP: "lots" })).toThrow(/RATE_LIMIT_SIGN_IN_IP must look like "<points>\/<window>".*got "lots"/);
  });

  it("answers refused sign-ins after SIGN_IN_REFUSAL_DELAY_MS, 1 s by default", () => {
    expect(signInRefusalDelayMs({})).toBe(1000);
    expect(signInRefusalDelayMs({ SIGN_IN_REFUSAL_DELAY_MS: "0" })).toBe(0);
    expect(signInRefusalDelayMs({ SIGN_IN_REFUSAL_DELAY_MS: "250" })).toBe(250);
    expect(signInRefusalDelayMs({ SIGN_IN_REFUSAL_DELAY_MS: "-1" })).toBe(1000);
    expect(signInRefusalDelayMs({ SIGN_IN_REFUSAL_DELAY_MS: "soon" })).toBe(1000);
  });

  it("formats the retry time rounded up to the minute, with the date when it is another day", () => {
    const now = new Date("2026-05-01T14:00:00Z");
    expect(formatRetryTime(new Date("2026-05-01T14:04:10Z"), now)).toBe("14:05 (UTC)");
    expect(formatRetryTime(new Date("2026-05-01T14:05:00Z"), now)).toBe("14:05 (UTC)");
    expect(formatRetryTime(new Date("2026-05-01T23:59:30Z"), now)).toBe("2026-05-02 00:00 (UTC)");
    expect(formatRetryTime(new Date("2026-05-02T09:00:01Z"), now)).toBe("2026-05-02 09:01 (UTC)");
  });
});

describe("clientAddress", () => {
  it("reads the last X-Forwarded-For entry without a proxy (the peer scripts/forwarded-for.mjs appends)", () => {
    expect(clientAddress({ "x-forwarded-for": "203.0.113.9" }, 0)).toBe("203.0.113.9");
    expect(clientAddress(new Headers({ "x-forwarded-for": "::ffff:127.0.0.1" }), 0)).toBe("127.0.0.1");
    expect(clientAddress({ "x-forwarded-for": "10.0.0.1, 203.0.113.9" }, 0)).toBe("203.0.113.9");
    expect(clientAddress({}, 0)).toBeNull();
    expect(clientAddress({ "x-forwarded-for": " , " }, 0)).toBeNull();
  });

  it("with TRUST_PROXY_HOPS=N takes the entry N places left of the last (the peer the server appended)", () => {
    const chain = { "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.2" };
    expect(clientAddress(chain, 1)).toBe("203.0.113.9");
    expect(clientAddress(chain, 2)).toBe("6.6.6.6");
    // A chain shorter than the hops: the leftmost entry.
    expect(clientAddress(chain, 5)).toBe("6.6.6.6");
    expect(trustProxyHops({ TRUST_PROXY_HOPS: "2" })).toBe(2);
    expect(trustProxyHops({ TRUST_PROXY_HOPS: "x" })).toBe(0);
    expect(trustProxyHops({})).toBe(0);
  });

  it("normalizes addresses: ports, brackets, zones, mapped IPv4; IPv6 to its /64", () => {
    expect(addressKey("203.0.113.9:51234")).toBe("203.0.113.9");
    expect(addressKey("[2001:db8::1]:443")).toBe("2001:db8:0:0::/64");
    expect(addressKey("2001:DB8:0:1:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:0:1::/64");
    expect(addressKey("2001:db8:0:1::2")).toBe(addressKey("2001:db8:0:1:ffff::9"));
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
    expect(addressKey("not an address")).toBe("invalid");
  });
});

describe("consumeRateLimit", () => {
  it("team-create: 10 per day per user, then refused until the window ends, with Retry-After", async () => {
    const userId = crypto.randomUUID();
    const grants = [];
    for (let i = 0; i < 10; i++) grants.push(await consumeRateLimit("team-create", userId));
    expect(grants.map((g) => g.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const row = (await counter(`team-create:${userId}`))!;
    expect(row.points).toBe(10);
    const windowEnd = Number(row.expire);
    expect(windowEnd - Date.now()).toBeGreaterThan(86_400_000 - 60_000);

    const error = await refusal(consumeRateLimit("team-create", userId));
    expect(error.httpStatus).toBe(429);
    expect(error.code).toBe("rate_limited");
    expect(error.message).toMatch(/^You have created too many teams recently\. Try again at \d{4}-\d\d-\d\d \d\d:\d\d \(UTC\)\.$/);
    const { retryAt, retryAfterSeconds } = error.details as { retryAt: string; retryAfterSeconds: number };
    expect(Math.abs(new Date(retryAt).getTime() - windowEnd)).toBeLessThan(1500);
    expect(Math.abs(retryAfterSeconds - (windowEnd - Date.now()) / 1000)).toBeLessThan(2);

    const response = errorResponse(error);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBe(retryAfterSeconds);
    expect(await response.json()).toMatchObject({ error: { code: "rate_limited", retryAt, retryAfterSeconds } });

    // Another user is not affected; a reset unlocks.
    await expect(consumeRateLimit("team-create", crypto.randomUUID())).resolves.toMatchObject({ remaining: 9 });
    await resetRateLimit("team-create", userId);
    await expect(consumeRateLimit("team-create", userId)).resolves.toMatchObject({ remaining: 9 });
  });

  it("follows RATE_LIMIT_TEAM_CREATE", async () => {
    process.env.RATE_LIMIT_TEAM_CREATE = "2/1h";
    const userId = crypto.randomUUID();
    await consumeRateLimit("team-create", userId);
    await consumeRateLimit("team-create", userId);
    const error = await refusal(consumeRateLimit("team-create", userId));
    expect((error.details as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect((error.details as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(3500);
  });

  it("refund gives the point back", async () => {
    process.env.RATE_LIMIT_TEAM_CREATE = "2/1h";
    const userId = crypto.randomUUID();
    const first = await consumeRateLimit("team-create", userId);
    await first.refund();
    await first.refund(); // once only
    expect((await counter(`team-create:${userId}`))!.points).toBe(0);
    await consumeRateLimit("team-create", userId);
    await consumeRateLimit("team-create", userId);
    await refusal(consumeRateLimit("team-create", userId));
  });

  it("stores emails only as their sha256", async () => {
    const email = `${unique("hashed")}@example.org`;
    await consumeRateLimit("sign-in-account", email);
    const rows = await db.prisma.rateLimit.findMany({ where: { key: { startsWith: "sign-in-account:" } } });
    expect(rows.some((r) => r.key.includes(email))).toBe(false);
    const { createHash } = await import("node:crypto");
    expect(await counter(`sign-in-account:${createHash("sha256").update(email).digest("hex")}`)).toMatchObject({ points: 1 });
  });
});

describe("sign-in limits", () => {
  it("locks an account after 10 failures, with the window's end as the retry time; other accounts go on", async () => {
    const email = `${unique("lock")}@example.org`;
    await createUser({ email: email, name: "Lock", password: "the right password" });
    for (let i = 0; i < 10; i++) await expect(verifyCredentials(email, "wrong password", "192.0.2.1")).resolves.toBeNull();
    const { createHash } = await import("node:crypto");
    const row = (await counter(`sign-in-account:${createHash("sha256").update(email).digest("hex")}`))!;
    const error = await refusal(verifyCredentials(email, "the right password", "192.0.2.1"));
    expect(error.message).toMatch(/^Too many sign-in attempts for this email address\. Try again at (\d{4}-\d\d-\d\d )?\d\d:\d\d \(UTC\)\.$/);
    const retryAt = new Date((error.details as { retryAt: string }).retryAt).getTime();
    expect(Math.abs(retryAt - Number(row.expire))).toBeLessThan(1500);
    expect(retryAt - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(retryAt - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    // The shown time is the window's end rounded up to the minute.
    const shown = /(\d\d:\d\d) \(UTC\)/.exec(error.message)![1];
    expect(shown).toBe(new Date(Math.ceil(retryAt / 60_000) * 60_000).toISOString().slice(11, 16));

    const other = `${unique("free")}@example.org`;
    const user = await createUser({ email: other, name: "Free", password: "the right password" });
    await expect(verifyCredentials(other, "the right password", "192.0.2.1")).resolves.toMatchObject({ id: user.id });
  });

  it("locks unknown emails the same way (a lockout reveals nothing)", async () => {
    const email = `${unique("ghost")}@example.org`;
    for (let i = 0; i < 10; i++) await expect(verifyCredentials(email, "whatever it is", null)).resolves.toBeNull();
    await refusal(verifyCredentials(email, "whatever it is", null));
  });

  it("counts only failures: a right password gives its point back", async () => {
    const email = `${unique("reward")}@example.org`;
    await createUser({ email: email, name: "Reward", password: "the right password" });
    for (let i = 0; i < 9; i++) await verifyCredentials(email, "wrong password", null);
    for (let i = 0; i < 3; i++) await expect(verifyCredentials(email, "the right password", null)).resolves.toMatchObject({ email });
    await expect(verifyCredentials(email, "wrong password", null)).resolves.toBeNull(); // the 10th failure
    await refusal(verifyCredentials(email, "the right password", null));
  });

  it("refuses a flood of 200 concurrent wrong passwords after at most 10 hashes", async () => {
    const email = `${unique("flood")}@example.org`;
    await createUser({ email: email, name: "Flood", password: "the right password" });
    const before = argon2Calls.verify;
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => verifyCredentials(email, `guess ${i}`, "192.0.2.77")));
    expect(argon2Calls.verify - before).toBeLessThanOrEqual(10);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(RateLimitedError);
    // Attempts refused for the account did not count against the address.
    const ip = (await counter("sign-in-ip:192.0.2.77"))!;
    expect(ip.points).toBe(10);
  });

  it("limits failures per address; a refusal by the address does not count against the email", async () => {
    process.env.RATE_LIMIT_SIGN_IN_IP = "5/15m";
    const address = addressKey("2001:db8:77::1");
    for (let i = 0; i < 5; i++) await verifyCredentials(`${unique("spray")}@example.org`, "wrong password", address);
    const email = `${unique("victim")}@example.org`;
    await createUser({ email: email, name: "Victim", password: "the right password" });
    const error = await refusal(verifyCredentials(email, "the right password", addressKey("2001:db8:77::abcd")));
    expect(error.message).toMatch(/^Too many sign-in attempts from your network address\. Try again at (\d{4}-\d\d-\d\d )?\d\d:\d\d \(UTC\)\.$/);
    const { createHash } = await import("node:crypto");
    expect((await counter(`sign-in-account:${createHash("sha256").update(email).digest("hex")}`))!.points).toBe(0);
    // Another network is fine.
    await expect(verifyCredentials(email, "the right password", addressKey("2001:db8:78::1"))).resolves.toMatchObject({ email });
  });

  it("an attempt that could not be checked (hashing slots full) does not count", async () => {
    const { MAX_WAITING_CHECKS, hashPassword, verifyPassword } = await import("./accounts/password");
    process.env.PASSWORD_HASH_CONCURRENCY = "1";
    const email = `${unique("busy")}@example.org`;
    await createUser({ email: email, name: "Busy", password: "the right password" });
    const stored = await hashPassword("x-1234567890");
    let open!: () => void;
    argon2Calls.gate = new Promise<void>((resolve) => (open = resolve));
    try {
      const held = Array.from({ length: 1 + MAX_WAITING_CHECKS }, () => verifyPassword("x-1234567890", stored));
      const error = await refusal(verifyCredentials(email, "the right password", "192.0.2.99"));
      expect(error.message).toMatch(/busy checking passwords/);
      open();
      await Promise.all(held);
    } finally {
      argon2Calls.gate = null;
      delete process.env.PASSWORD_HASH_CONCURRENCY;
    }
    const { createHash } = await import("node:crypto");
    expect((await counter(`sign-in-account:${createHash("sha256").update(email).digest("hex")}`))!.points).toBe(0);
    expect((await counter("sign-in-ip:192.0.2.99"))!.points).toBe(0);
  });

  it("reserveSignInAttempt takes a point from both counters and gives both back on success", async () => {
    const email = `${unique("both")}@example.org`;
    const reservation = await reserveSignInAttempt(email, "198.51.100.200");
    const { createHash } = await import("node:crypto");
    const accountKey = `sign-in-account:${createHash("sha256").update(email).digest("hex")}`;
    expect((await counter(accountKey))!.points).toBe(1);
    expect((await counter("sign-in-ip:198.51.100.200"))!.points).toBe(1);
    await reservation.refund();
    expect((await counter(accountKey))!.points).toBe(0);
    expect((await counter("sign-in-ip:198.51.100.200"))!.points).toBe(0);
  });
});

describe("when Postgres cannot be reached", () => {
  it("counts in memory instead (still refusing floods), and warns", async () => {
    const realUrl = process.env.DATABASE_URL;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    process.env.DATABASE_URL = "postgresql://nobody:nothing@127.0.0.1:1/none";
    try {
      const userId = crypto.randomUUID();
      for (let i = 0; i < 10; i++) await consumeRateLimit("team-create", userId);
      const error = await refusal(consumeRateLimit("team-create", userId));
      expect((error.details as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(86_000);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/Postgres is unreachable; counting in this process's memory/));
    } finally {
      process.env.DATABASE_URL = realUrl;
      warn.mockRestore();
    }
    // Back on the real store.
    await expect(consumeRateLimit("team-create", crypto.randomUUID())).resolves.toMatchObject({ remaining: 9 });
  });
});
