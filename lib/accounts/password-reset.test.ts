import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../db/test-db";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

const { sendMail } = await import("./mail");
const { RateLimitedError } = await import("../errors");
const { sha256Hex } = await import("../storage");
const { createUser, getSessionUser, verifyCredentials, UserInputError } = await import("./users");
const {
  INVALID_RESET_LINK,
  InvalidResetLinkError,
  PASSWORD_RESET_REQUESTED,
  RESET_MAILS_PER_HOUR,
  RESET_TOKEN_TTL_MS,
  createPasswordResetLink,
  isPasswordResetTokenUsable,
  requestPasswordReset,
  resetPassword,
} = await import("./password-reset");

const db = useTestDatabase();
const mailed = vi.mocked(sendMail);
const BASE = "https://coref.example.org";
const T0 = new Date("2026-11-25T12:00:00.000Z");
const LINK = /^https:\/\/coref\.example\.org\/reset-password\?token=([A-Za-z0-9_-]{43})$/;

let log: ReturnType<typeof vi.spyOn>;
let warn: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  vi.stubEnv("NEXTAUTH_URL", BASE);
  vi.stubEnv("SMTP_URL", "");
  mailed.mockClear();
  log = vi.spyOn(console, "log").mockImplementation(() => {});
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllEnvs();
  log.mockRestore();
  warn.mockRestore();
});

let serial = 0;
/** A new account with the password "old password 1". */
async function account() {
  serial += 1;
  return createUser({ email: `reset-${serial}@example.org`, password: "old password 1" });
}

/** Requests a reset for `email` at `now` and returns the token of the mailed link. */
async function requestToken(email: string, now = T0): Promise<string> {
  const calls = mailed.mock.calls.length;
  await requestPasswordReset(email, { now });
  expect(mailed.mock.calls.length, "one mail sent").toBe(calls + 1);
  const url = mailed.mock.calls.at(-1)![0].links![0]!;
  const token = LINK.exec(url)?.[1];
  if (!token) throw new Error(`no token in ${url}`);
  return token;
}

describe("requestPasswordReset", () => {
  it("stores only the token's sha256, expiring one hour later, mails the link to the account and audits the request", async () => {
    const user = await account();
    const answer = await requestPasswordReset("  RESET-1@Example.org ", { now: T0 });
    expect(answer).toEqual({ message: PASSWORD_RESET_REQUESTED });
    expect(mailed).toHaveBeenCalledTimes(1);
    const mail = mailed.mock.calls[0]![0];
    expect(mail).toMatchObject({ to: user.email, subject: "Set a new Corefboard password" });
    const token = LINK.exec(mail.links![0]!)![1]!;
    expect(mail.text).toContain(mail.links![0]);

    const rows = await db.prisma.passwordResetToken.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.expiresAt.getTime()).toBe(T0.getTime() + RESET_TOKEN_TTL_MS);
    expect(RESET_TOKEN_TTL_MS).toBe(60 * 60 * 1000);
    expect(rows[0]!.usedAt).toBeNull();

    const events = await db.prisma.auditEvent.findMany({ where: { targetId: user.id } });
    expect(events.map((e) => [e.action, e.actorId, e.targetType])).toEqual([["user.password_reset_request", null, "user"]]);
    expect(events[0]!.data).toMatchObject({ tokenId: rows[0]!.id, via: "web" });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it("writes the link to the server log when SMTP_URL is unset", async () => {
    const user = await account();
    const token = await requestToken(user.email);
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith(expect.stringContaining(`${BASE}/reset-password?token=${token}`)));
    expect(String(log.mock.calls.at(-1)![0])).toMatch(/^mail \(not sent: SMTP_URL is unset\): to "reset-\d+@example\.org", subject "Set a new Corefboard password"/);
  });

  it("answers the same for an unknown address, and makes, mails and audits nothing", async () => {
    const before = { tokens: await db.prisma.passwordResetToken.count(), events: await db.prisma.auditEvent.count() };
    const user = await account();
    const known = await requestPasswordReset(user.email, { now: T0 });
    const unknown = await requestPasswordReset("nobody-here@example.org", { now: T0 });
    expect(unknown).toEqual(known);
    expect(mailed).toHaveBeenCalledTimes(1);
    expect(await db.prisma.passwordResetToken.count()).toBe(before.tokens + 1);
    expect(await db.prisma.auditEvent.count()).toBe(before.events + 1);
  });

  it("refuses text that is no email address, on the email field", async () => {
    const error = await requestPasswordReset("not an address").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserInputError);
    expect((error as InstanceType<typeof UserInputError>).fields).toEqual({ email: "Enter a valid email address." });
    expect(mailed).not.toHaveBeenCalled();
  });

  it(`mails at most ${RESET_MAILS_PER_HOUR} links per account an hour; further requests send nothing, answer the same, and work again an hour later`, async () => {
    const user = await account();
    for (let i = 0; i < RESET_MAILS_PER_HOUR; i++) await requestToken(user.email, new Date(T0.getTime() + i * 60_000));
    const over = await requestPasswordReset(user.email, { now: new Date(T0.getTime() + 30 * 60_000) });
    expect(over).toEqual({ message: PASSWORD_RESET_REQUESTED });
    expect(mailed).toHaveBeenCalledTimes(RESET_MAILS_PER_HOUR);
    expect(await db.prisma.passwordResetToken.count({ where: { userId: user.id } })).toBe(RESET_MAILS_PER_HOUR);
    // The first link was made at T0: an hour and a second later it no longer counts.
    await requestToken(user.email, new Date(T0.getTime() + RESET_TOKEN_TTL_MS + 1000));
  });

  it("limits requests per client address with the address's sign-in counter, for known and unknown emails alike", async () => {
    vi.stubEnv("RATE_LIMIT_SIGN_IN_IP", "2/1h");
    const user = await account();
    const address = "198.51.100.44";
    await requestPasswordReset(user.email, { address });
    await requestPasswordReset("unknown-from-address@example.org", { address });
    for (const email of [user.email, "another-unknown@example.org"]) {
      const error = await requestPasswordReset(email, { address }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect((error as Error).message).toMatch(/^Too many password reset requests from your network address\. Try again at (\d{4}-\d\d-\d\d )?\d\d:\d\d \(UTC\)\.$/);
    }
    expect(mailed).toHaveBeenCalledTimes(1);
    // Another address, and callers without one (scripts), are not affected.
    await expect(requestPasswordReset(user.email, { address: "203.0.113.9" })).resolves.toEqual({ message: PASSWORD_RESET_REQUESTED });
    await expect(requestPasswordReset("x-unknown@example.org")).resolves.toEqual({ message: PASSWORD_RESET_REQUESTED });
  });

  it("answers the same when the mail cannot be sent, and logs the failure", async () => {
    const user = await account();
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      mailed.mockRejectedValueOnce(new Error("connect ECONNREFUSED 10.0.0.1:465"));
      await expect(requestPasswordReset(user.email)).resolves.toEqual({ message: PASSWORD_RESET_REQUESTED });
      await vi.waitFor(() => expect(error).toHaveBeenCalledWith(`password reset: could not send the reset mail of user ${user.id}: connect ECONNREFUSED 10.0.0.1:465`));
    } finally {
      error.mockRestore();
    }
  });
});

describe("resetPassword", () => {
  it("sets the new password once: the old one stops working and the same link fails a second time", async () => {
    const user = await account();
    const token = await requestToken(user.email);
    const at = new Date(T0.getTime() + 10 * 60_000);
    await expect(resetPassword(token, "brand new password", { now: at, confirmPassword: "brand new password" })).resolves.toEqual({
      userId: user.id,
      email: user.email,
    });
    await expect(verifyCredentials(user.email, "brand new password")).resolves.toMatchObject({ id: user.id });
    await expect(verifyCredentials(user.email, "old password 1")).resolves.toBeNull();

    const row = await db.prisma.passwordResetToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(token) } });
    expect(row.usedAt).toEqual(at);
    await expect(isPasswordResetTokenUsable(token, { now: at })).resolves.toBe(false);
    const again = resetPassword(token, "yet another password", { now: at });
    await expect(again).rejects.toBeInstanceOf(InvalidResetLinkError);
    await expect(resetPassword(token, "yet another password", { now: at })).rejects.toThrow(INVALID_RESET_LINK);
    await expect(verifyCredentials(user.email, "yet another password")).resolves.toBeNull();

    const events = await db.prisma.auditEvent.findMany({ where: { targetId: user.id, action: "user.password_reset" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: user.id, targetType: "user", data: { tokenId: row.id, hadPassword: true } });
  });

  it("works until one hour after the request, and not from then on", async () => {
    const user = await account();
    const late = await requestToken(user.email, T0);
    const inTime = await requestToken(user.email, T0);
    const expiry = new Date(T0.getTime() + RESET_TOKEN_TTL_MS);
    await expect(isPasswordResetTokenUsable(late, { now: new Date(expiry.getTime() - 1) })).resolves.toBe(true);
    await expect(isPasswordResetTokenUsable(late, { now: expiry })).resolves.toBe(false);
    const error = await resetPassword(late, "too late password", { now: expiry }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResetLinkError);
    expect(error).toMatchObject({ httpStatus: 422, message: "This reset link is invalid or has expired; ask for a new one." });
    await resetPassword(inTime, "just in time pw", { now: new Date(expiry.getTime() - 1) });
    await expect(verifyCredentials(user.email, "just in time pw")).resolves.toMatchObject({ id: user.id });
  });

  it("ends the account's other unused links and every session (session version bumped)", async () => {
    const user = await account();
    const other = await account();
    const first = await requestToken(user.email);
    const second = await requestToken(user.email);
    const othersToken = await requestToken(other.email);
    const before = (await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion;
    await expect(getSessionUser(user.id, before)).resolves.not.toBeNull();

    await resetPassword(second, "reset via second", { now: T0 });
    const after = (await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion;
    expect(after).toBe(before + 1);
    await expect(getSessionUser(user.id, before)).resolves.toBeNull();
    await expect(isPasswordResetTokenUsable(first, { now: T0 })).resolves.toBe(false);
    await expect(resetPassword(first, "reset via first!", { now: T0 })).rejects.toBeInstanceOf(InvalidResetLinkError);
    // Another account's link is untouched.
    await expect(isPasswordResetTokenUsable(othersToken, { now: T0 })).resolves.toBe(true);
    const events = await db.prisma.auditEvent.findMany({ where: { targetId: user.id, action: "user.password_reset" } });
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ otherTokensEnded: 1 })]);
  });

  it("refuses unknown and malformed tokens with the same message", async () => {
    for (const token of ["", "short", "x".repeat(43), "!".repeat(43), "a".repeat(44)]) {
      await expect(resetPassword(token, "a good password")).rejects.toThrow(INVALID_RESET_LINK);
      await expect(isPasswordResetTokenUsable(token)).resolves.toBe(false);
    }
  });

  it("applies sign-up's password rules and checks the confirmation, leaving the link usable", async () => {
    const user = await account();
    const token = await requestToken(user.email);
    const short = await resetPassword(token, "too short", { now: T0 }).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(UserInputError);
    expect((short as InstanceType<typeof UserInputError>).fields).toEqual({ newPassword: "Passwords must be at least 10 characters." });
    const long = await resetPassword(token, "é".repeat(513), { now: T0 }).catch((e: unknown) => e);
    expect((long as InstanceType<typeof UserInputError>).fields.newPassword).toMatch(/^Passwords can be at most 1024 bytes/);
    const mismatch = await resetPassword(token, "a good password", { now: T0, confirmPassword: "a good passw0rd" }).catch((e: unknown) => e);
    expect((mismatch as InstanceType<typeof UserInputError>).fields).toEqual({ confirmPassword: "The two new passwords do not match." });
    await expect(isPasswordResetTokenUsable(token, { now: T0 })).resolves.toBe(true);
    await expect(verifyCredentials(user.email, "old password 1")).resolves.toMatchObject({ id: user.id });
  });

  it("lets an account without a password (like the demo organizer) set one", async () => {
    const row = await db.prisma.user.create({ data: { email: "no-password@example.org", name: "No Password", passwordHash: null } });
    await expect(verifyCredentials(row.email, "first password")).resolves.toBeNull();
    const token = await requestToken(row.email);
    await resetPassword(token, "first password", { now: T0 });
    await expect(verifyCredentials(row.email, "first password")).resolves.toMatchObject({ id: row.id });
    const event = await db.prisma.auditEvent.findFirstOrThrow({ where: { targetId: row.id, action: "user.password_reset" } });
    expect(event.data).toMatchObject({ hadPassword: false });
  });

  it("lets only one of two simultaneous uses of a link through", async () => {
    const user = await account();
    const token = await requestToken(user.email);
    const results = await Promise.allSettled([
      resetPassword(token, "racer number one", { now: T0 }),
      resetPassword(token, "racer number two", { now: T0 }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(InvalidResetLinkError);
    const version = (await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion;
    expect(version).toBe(1);
  });

  it("clears the account's failed sign-in counter, so a locked-out owner can sign in at once", async () => {
    const user = await account();
    for (let i = 0; i < 10; i++) await verifyCredentials(user.email, `wrong guess ${i}`);
    await expect(verifyCredentials(user.email, "old password 1")).rejects.toBeInstanceOf(RateLimitedError);
    const token = await requestToken(user.email);
    await resetPassword(token, "after the lockout", { now: T0 });
    await expect(verifyCredentials(user.email, "after the lockout")).resolves.toMatchObject({ id: user.id });
  });
});

describe("createPasswordResetLink (admin CLI)", () => {
  it("makes a working link without mailing it, audited as from the admin CLI", async () => {
    const user = await account();
    const link = await createPasswordResetLink(user.email.toUpperCase(), { now: T0 });
    expect(link.email).toBe(user.email);
    expect(link.expiresAt).toEqual(new Date(T0.getTime() + RESET_TOKEN_TTL_MS));
    const token = LINK.exec(link.url)![1]!;
    expect(mailed).not.toHaveBeenCalled();
    await expect(isPasswordResetTokenUsable(token, { now: T0 })).resolves.toBe(true);
    const event = await db.prisma.auditEvent.findFirstOrThrow({ where: { targetId: user.id, action: "user.password_reset_request" } });
    expect(event.data).toMatchObject({ via: "admin-cli" });
  });

  it("refuses an unknown address (404) and junk (422)", async () => {
    await expect(createPasswordResetLink("ghost@example.org")).rejects.toMatchObject({ httpStatus: 404, message: "No account uses the email address ghost@example.org." });
    await expect(createPasswordResetLink("junk")).rejects.toBeInstanceOf(UserInputError);
  });
});
