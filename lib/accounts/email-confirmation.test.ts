/**
 * Sign-up with e-mail confirmation against a real database (issue 23 F8): the same answer for
 * new and registered addresses (the owner of a registered one gets a notice, the account stays
 * as it was), one password hash either way, nobody signed in; the confirmation link (sha256
 * only, 24 hours, one use); unconfirmed accounts refused (403) on uploads and team creation
 * until they confirm; the per-address sign-up limit, refusals included; a new link from the
 * account page (limited); operator-made accounts confirmed; a password reset confirms.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../db/test-db";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

const { readOutbox, sendMail } = await import("./mail");
const { hashPassword } = await import("./password");
const { mkdtemp } = await import("node:fs/promises");
const { tmpdir } = await import("node:os");
const path = await import("node:path");
const { ConflictError, ForbiddenError, RateLimitedError, UnauthorizedError } = await import("../errors");
const { sha256Hex } = await import("../storage");
const { EMAIL_NOT_CONFIRMED, EmailNotConfirmedError } = await import("../permissions");
const { SIGN_UP_ANSWER_MIN_MS, createUser, getUserByEmail, signUp, verifyCredentials } = await import("./users");
const {
  CONFIRMATION_MAIL_SUBJECT,
  CONFIRMATION_MAILS_PER_HOUR,
  EMAIL_CONFIRMATION_TTL_MS,
  InvalidConfirmationLinkError,
  SIGN_UP_NOTICE_SUBJECT,
  SIGN_UP_REQUESTED,
  confirmEmailAddress,
  describeEmailConfirmation,
  emailConfirmationState,
  resendEmailConfirmation,
} = await import("./email-confirmation");
const { createTeam } = await import("../teams/teams");
const { createSubmission } = await import("../runs/submissions");
const { createPasswordResetLink, resetPassword } = await import("./password-reset");
const { makeTaskWithPhase, bytes, SMALL_KEY, rejection } = await import("../tasks/test-fixtures");
const { signUpAction } = await import("../../app/(auth)/actions");

const testDb = useTestDatabase();
const BASE = "https://coref.example.org";
const PASSWORD = "correct horse battery staple";
const mailed = vi.mocked(sendMail);
const hashed = vi.mocked(hashPassword);

let serial = 0;
beforeEach(() => {
  vi.stubEnv("NEXTAUTH_URL", BASE);
  serial++;
  mailed.mockClear();
  hashed.mockClear();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A fresh address for this test. */
const address = (label: string) => `${label}-${serial}-${Date.now().toString(36)}@example.org`;

/** The mails sent to `to` with `subject` (they go out in the background: waits for one). */
async function mailsTo(to: string, subject: string): Promise<{ text: string; links: readonly string[] }[]> {
  const find = () => mailed.mock.calls.map(([m]) => m).filter((m) => m.to === to && m.subject === subject);
  await vi.waitFor(() => expect(find().length).toBeGreaterThan(0));
  return find().map((m) => ({ text: m.text, links: m.links ?? [] }));
}

/** The token of the latest confirmation link mailed to `to`. */
async function confirmationToken(to: string): Promise<string> {
  const mails = await mailsTo(to, CONFIRMATION_MAIL_SUBJECT);
  const link = new URL(mails.at(-1)!.links[0]!);
  expect(`${link.origin}${link.pathname}`).toBe(`${BASE}/confirm-account`);
  return link.searchParams.get("token")!;
}

/** A fresh unconfirmed account made by signing up, with its confirmation token. */
async function signedUp(label = "new"): Promise<{ id: string; email: string; viewer: { userId: string; role: "USER" }; token: string }> {
  const email = address(label);
  await signUp(email, "New Person", PASSWORD);
  const user = (await getUserByEmail(email))!;
  return { id: user.id, email, viewer: { userId: user.id, role: "USER" }, token: await confirmationToken(email) };
}

describe("signUp", () => {
  it("answers the same for a new and a registered address, hashing a password either way; the owner of the registered one gets a notice and the account is unchanged", async () => {
    const registered = await createUser({ email: address("owner"), password: PASSWORD, name: "Owner" });
    const before = await testDb.prisma.user.findUniqueOrThrow({ where: { id: registered.id } });
    hashed.mockClear();

    const fresh = address("fresh");
    const forNew = await signUp(fresh, "Fresh", "another password 1");
    expect(hashed).toHaveBeenCalledTimes(1);
    const forTaken = await signUp(registered.email.toUpperCase(), "Intruder", "another password 2");
    expect(hashed).toHaveBeenCalledTimes(2);
    expect(forNew).toEqual({ message: SIGN_UP_REQUESTED });
    expect(forTaken).toEqual(forNew);

    // The registered account: unchanged, and its owner told, with a sign-in and a reset link.
    expect(await testDb.prisma.user.findUniqueOrThrow({ where: { id: registered.id } })).toEqual(before);
    expect(await testDb.prisma.emailConfirmationToken.count({ where: { userId: registered.id } })).toBe(0);
    const [notice] = await mailsTo(registered.email, SIGN_UP_NOTICE_SUBJECT);
    expect(notice!.links).toEqual([`${BASE}/signin`, `${BASE}/forgot-password`]);
    expect(notice!.text).toContain("already has one");
    expect(mailed.mock.calls.filter(([m]) => m.to === registered.email)).toHaveLength(1);

    // The new address: an unconfirmed USER with a stored sha256 of the mailed token.
    const row = await testDb.prisma.user.findUniqueOrThrow({ where: { email: fresh } });
    expect(row).toMatchObject({ name: "Fresh", role: "USER", emailConfirmedAt: null });
    const token = await confirmationToken(fresh);
    const stored = await testDb.prisma.emailConfirmationToken.findMany({ where: { userId: row.id } });
    expect(stored.map((t) => t.tokenHash)).toEqual([sha256Hex(token)]);
    expect(stored[0]!.expiresAt.getTime() - stored[0]!.createdAt.getTime()).toBe(EMAIL_CONFIRMATION_TTL_MS);
    expect(mailed.mock.calls.filter(([m]) => m.to === fresh).map(([m]) => m.subject)).toEqual([CONFIRMATION_MAIL_SUBJECT]);
  });

  it("the sign-up action gives the same result for both, no sooner than SIGN_UP_ANSWER_MIN_MS, and signs nobody in (no session is made: the result is the message only)", async () => {
    const registered = await createUser({ email: address("action-owner"), password: PASSWORD });
    const form = (email: string) => {
      const data = new FormData();
      data.set("email", email);
      data.set("name", "Someone");
      data.set("password", "a long enough password");
      return data;
    };
    let started = performance.now();
    const forNew = await signUpAction(form(address("action-new")));
    const newMs = performance.now() - started;
    started = performance.now();
    const forTaken = await signUpAction(form(registered.email));
    const takenMs = performance.now() - started;
    expect(forNew).toEqual({ ok: true, message: SIGN_UP_REQUESTED });
    expect(forTaken).toEqual(forNew);
    // Both answer no sooner than the floor (the work itself takes far less here).
    expect(newMs).toBeGreaterThanOrEqual(SIGN_UP_ANSWER_MIN_MS - 1);
    expect(takenMs).toBeGreaterThanOrEqual(SIGN_UP_ANSWER_MIN_MS - 1);
    expect(await signUpAction(form("not an address"))).toMatchObject({ ok: false, errors: { email: expect.any(String) } });
  });

  it("a concurrent sign-up race for one address makes one account and answers all the same", async () => {
    const email = address("race");
    const results = await Promise.all([1, 2, 3].map((i) => signUp(email, `Racer ${i}`, PASSWORD)));
    expect(results).toEqual([1, 2, 3].map(() => ({ message: SIGN_UP_REQUESTED })));
    expect(await testDb.prisma.user.count({ where: { email } })).toBe(1);
  });

  it("limits sign-ups per e-mail address (RATE_LIMIT_SIGN_UP_ACCOUNT), counting those for a registered address too, whatever the case", async () => {
    vi.stubEnv("RATE_LIMIT_SIGN_UP_ACCOUNT", "3/1h");
    const email = address("limited");
    await signUp(email, "First", PASSWORD); // makes the account
    await signUp(email.toUpperCase(), "Second", PASSWORD); // registered: a notice, counted
    await signUp(email, "Third", PASSWORD); // registered: counted
    hashed.mockClear();
    const refused = await signUp(email, "Fourth", PASSWORD).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as Error).message).toMatch(/^Too many sign-up attempts for this email address\. Try again at (\d{4}-\d\d-\d\d )?\d\d:\d\d \(UTC\)\.$/);
    expect(hashed).not.toHaveBeenCalled();
    // A fresh address (registered by its first sign-up) reaches the limit the same way.
    const other = address("other-limited");
    for (let i = 0; i < 3; i++) await signUp(other, "Guess", PASSWORD);
    await expect(signUp(other, "Guess", PASSWORD)).rejects.toThrow(/^Too many sign-up attempts for this email address\./);
    // Another address is not affected.
    await expect(signUp(address("free"), "Free", PASSWORD)).resolves.toEqual({ message: SIGN_UP_REQUESTED });
  });

  it("limits sign-ups per client address (RATE_LIMIT_SIGN_UP_IP), counting those for registered addresses too", async () => {
    vi.stubEnv("RATE_LIMIT_SIGN_UP_IP", "2/1h");
    const client = `198.51.100.${serial % 250}`;
    const registered = await createUser({ email: address("ip-owner"), password: PASSWORD });
    await signUp(registered.email, "Again", PASSWORD, client);
    await signUp(address("ip-new"), "New", PASSWORD, client);
    const third = address("ip-third");
    await expect(signUp(third, "Third", PASSWORD, client)).rejects.toThrow(/^Too many sign-up attempts from your network address\. Try again at /);
    expect(await getUserByEmail(third)).toBeNull();
    await expect(signUp(address("ip-other"), "Other", PASSWORD, "203.0.113.9")).resolves.toEqual({ message: SIGN_UP_REQUESTED });
  });

  it("an unconfirmed account can sign in", async () => {
    const user = await signedUp("signs-in");
    await expect(verifyCredentials(user.email, PASSWORD)).resolves.toMatchObject({ id: user.id, email: user.email });
  });
});

describe("the confirmation link", () => {
  it("confirms once (audited as user.email_confirm), then is used up", async () => {
    const user = await signedUp("confirm");
    expect(await describeEmailConfirmation(user.token)).toEqual({ email: user.email });
    expect(await emailConfirmationState(user.viewer)).toEqual({ confirmed: false, email: user.email });
    const at = new Date();
    expect(await confirmEmailAddress(user.token, at)).toEqual({ userId: user.id, email: user.email });
    const row = await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.emailConfirmedAt?.getTime()).toBe(at.getTime());
    expect(await emailConfirmationState(user.viewer)).toEqual({ confirmed: true, email: user.email });
    const events = await testDb.prisma.auditEvent.findMany({ where: { targetId: user.id, action: "user.email_confirm" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: user.id, targetType: "user" });

    // One use.
    expect(await describeEmailConfirmation(user.token)).toBeNull();
    await expect(confirmEmailAddress(user.token)).rejects.toBeInstanceOf(InvalidConfirmationLinkError);
  });

  it("expires after 24 hours, and unknown or malformed tokens are refused", async () => {
    const user = await signedUp("expire");
    const later = new Date(Date.now() + EMAIL_CONFIRMATION_TTL_MS + 1000);
    expect(await describeEmailConfirmation(user.token, later)).toBeNull();
    const error = await confirmEmailAddress(user.token, later).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidConfirmationLinkError);
    expect((error as InstanceType<typeof InvalidConfirmationLinkError>).httpStatus).toBe(422);
    expect((await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailConfirmedAt).toBeNull();
    await expect(confirmEmailAddress("x".repeat(43))).rejects.toBeInstanceOf(InvalidConfirmationLinkError);
    await expect(confirmEmailAddress("not a token")).rejects.toBeInstanceOf(InvalidConfirmationLinkError);
    // Still usable before it expires.
    await expect(confirmEmailAddress(user.token)).resolves.toMatchObject({ userId: user.id });
  });

  it("only one of two concurrent confirmations uses the token", async () => {
    const user = await signedUp("twice");
    const results = await Promise.allSettled([confirmEmailAddress(user.token), confirmEmailAddress(user.token)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await testDb.prisma.auditEvent.count({ where: { targetId: user.id, action: "user.email_confirm" } })).toBe(1);
  });

  it("is in the test outbox (MAIL_OUTBOX_FILE) in development and e2e", async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "outbox-")), "mail.jsonl");
    vi.stubEnv("MAIL_OUTBOX_FILE", file);
    const email = address("outbox");
    await signUp(email, "Outbox", PASSWORD);
    const token = await confirmationToken(email);
    await vi.waitFor(async () => expect((await readOutbox(file)).filter((e) => e.to === email)).toHaveLength(1));
    const [entry] = (await readOutbox(file)).filter((e) => e.to === email);
    expect(entry).toMatchObject({ subject: CONFIRMATION_MAIL_SUBJECT, links: [`${BASE}/confirm-account?token=${token}`] });
  });
});

describe("unconfirmed accounts", () => {
  it("are refused (403) on team creation until they confirm", async () => {
    const user = await signedUp("team");
    const error = await rejection(createTeam(user.id, `Team ${serial}`));
    expect(error).toBeInstanceOf(EmailNotConfirmedError);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.httpStatus).toBe(403);
    expect(error.message).toBe(EMAIL_NOT_CONFIRMED);
    expect(error.toJSON()).toEqual({ error: { code: "forbidden", message: EMAIL_NOT_CONFIRMED, reason: "email_not_confirmed", resendAt: "/account" } });
    expect(await testDb.prisma.teamMember.count({ where: { userId: user.id } })).toBe(0);
    await confirmEmailAddress(user.token);
    await expect(createTeam(user.id, `Team ${serial}`)).resolves.toMatchObject({ role: "OWNER" });
  });

  it("are refused (403) on uploads until they confirm", async () => {
    const user = await signedUp("upload");
    const { phase } = await makeTaskWithPhase(testDb.prisma);
    const upload = { viewer: user.viewer, phaseId: phase.id, fileName: "system.conll", bytes: bytes(SMALL_KEY), systemName: "my-system" };
    const error = await rejection(createSubmission(upload));
    expect(error).toBeInstanceOf(EmailNotConfirmedError);
    expect(error.httpStatus).toBe(403);
    expect(await testDb.prisma.submission.count({ where: { submitterId: user.id } })).toBe(0);
    expect(await testDb.prisma.teamMember.count({ where: { userId: user.id } })).toBe(0);
    await confirmEmailAddress(user.token);
    await expect(createSubmission(upload)).resolves.toMatchObject({ status: "QUEUED" });
    expect(await testDb.prisma.submission.count({ where: { submitterId: user.id } })).toBe(1);
  });
});

describe("resendEmailConfirmation", () => {
  it("mails a new link that ends the earlier one; at most 3 an hour, the sign-up's included", async () => {
    const user = await signedUp("resend");
    const now = new Date();
    await resendEmailConfirmation(user.viewer, now);
    const second = await confirmationToken(user.email);
    expect(second).not.toBe(user.token);
    expect(await describeEmailConfirmation(user.token, now)).toBeNull();
    expect(await describeEmailConfirmation(second, now)).toEqual({ email: user.email });
    await resendEmailConfirmation(user.viewer, now);
    expect(CONFIRMATION_MAILS_PER_HOUR).toBe(3);
    const refused = await resendEmailConfirmation(user.viewer, now).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as Error).message).toMatch(/^You asked for 3 confirmation links in the last hour\. Try again at (\d{4}-\d\d-\d\d )?\d\d:\d\d \(UTC\)\.$/);
    expect(await testDb.prisma.emailConfirmationToken.count({ where: { userId: user.id } })).toBe(3);
    // An hour later, one more.
    await expect(resendEmailConfirmation(user.viewer, new Date(now.getTime() + 61 * 60_000))).resolves.toMatchObject({ email: user.email });
  });

  it("refuses anonymous viewers (401) and confirmed accounts (409)", async () => {
    await expect(resendEmailConfirmation(null)).rejects.toBeInstanceOf(UnauthorizedError);
    const confirmed = await createUser({ email: address("done"), password: PASSWORD });
    await expect(resendEmailConfirmation({ userId: confirmed.id, role: "USER" })).rejects.toBeInstanceOf(ConflictError);
    expect(await testDb.prisma.emailConfirmationToken.count({ where: { userId: confirmed.id } })).toBe(0);
  });
});

describe("confirmed by other means", () => {
  it("accounts made by an operator (createUser: admin CLI, e2e seeds) are confirmed and may create teams", async () => {
    const user = await createUser({ email: address("admin-made"), password: PASSWORD });
    const row = await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.emailConfirmedAt).toBeInstanceOf(Date);
    await expect(createTeam(user.id, `Operator team ${serial}`)).resolves.toMatchObject({ role: "OWNER" });
  });

  it("setting a password with a reset link confirms the address (the mailbox was read)", async () => {
    const user = await signedUp("reset");
    const link = await createPasswordResetLink(user.email);
    await resetPassword(new URL(link.url).searchParams.get("token")!, "a brand new password");
    expect((await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailConfirmedAt).toBeInstanceOf(Date);
  });
});
