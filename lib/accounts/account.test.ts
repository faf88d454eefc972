/**
 * Email change and account deletion against a real database (issue 11 §5): the password
 * check, the taken address, the token (sha256 only, one hour, one use), the mails to the new
 * and old addresses, the session version, the audit rows; deletion's refusal for a task's only
 * organizer, and its effects (teams, ownership, tokens, organizer rows, the renamed user, no
 * sign-in, no session, runs kept with the team as "deleted user").
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../db/test-db";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

const { readOutbox, sendMail } = await import("./mail");
const { mkdtemp } = await import("node:fs/promises");
const { tmpdir } = await import("node:os");
const path = await import("node:path");
const { ConflictError, NotFoundError, RateLimitedError, UnauthorizedError } = await import("../errors");
const { sha256Hex } = await import("../storage");
const { authenticateBearer, createApiToken, listApiTokens } = await import("./api-tokens");
const { changePassword, createUser, getSessionUser, verifyCredentials, UserInputError } = await import("./users");
const {
  DELETED_USER_NAME,
  EMAIL_CHANGE_MAILS_PER_HOUR,
  EMAIL_CHANGE_TOKEN_TTL_MS,
  INVALID_EMAIL_CHANGE_LINK,
  InvalidEmailChangeLinkError,
  confirmEmailChange,
  createOwnApiToken,
  deleteAccount,
  deletedEmailFor,
  describeEmailChange,
  requestEmailChange,
  revokeOwnApiToken,
  signOutEverywhere,
  soleOrganizedTasks,
} = await import("./account");
const { getLeaderboard } = await import("../boards/leaderboard");
const { getSubmissionForViewer, listSubmissionsForTeam } = await import("../runs/submissions");
const { requestPasswordReset, resetPassword } = await import("./password-reset");
const { insertScores, insertSubmission, makeTaskWithPhase, makeUser, rejection } = await import("../tasks/test-fixtures");

const testDb = useTestDatabase();
const mailed = vi.mocked(sendMail);
const BASE = "https://coref.example.org";
const LINK = /^https:\/\/coref\.example\.org\/account\/confirm-email\?token=([A-Za-z0-9_-]{43})$/;
const T0 = new Date("2026-11-25T12:00:00.000Z");
const PASSWORD = "old password 1";

let log: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.stubEnv("NEXTAUTH_URL", BASE);
  vi.stubEnv("SMTP_URL", "");
  mailed.mockClear();
  log = vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllEnvs();
  log.mockRestore();
});

let serial = 0;
/** A new account with the password {@link PASSWORD}, and its viewer. */
async function account(label = "acct") {
  serial += 1;
  const user = await createUser({ email: `${label}-${serial}@example.org`, password: PASSWORD, name: `${label} ${serial}` });
  return { ...user, viewer: { userId: user.id, role: user.role } };
}

/** The token of the confirmation link mailed to `to`. */
function tokenMailedTo(to: string): string {
  const call = mailed.mock.calls.filter((c) => c[0].to === to).at(-1);
  const token = call && LINK.exec(call[0].links?.[0] ?? "")?.[1];
  if (!token) throw new Error(`no confirmation link mailed to ${to}`);
  return token;
}

describe("requestEmailChange", () => {
  it("checks the password, stores only the token's sha256 (one hour), mails the link to the new address and a notice without it to the old one, audits the request", async () => {
    const user = await account();
    const answer = await requestEmailChange(user.viewer, "  New-Address@Example.org ", PASSWORD, T0);
    expect(answer).toEqual({ newEmail: "new-address@example.org", expiresAt: new Date(T0.getTime() + EMAIL_CHANGE_TOKEN_TTL_MS) });
    expect(EMAIL_CHANGE_TOKEN_TTL_MS).toBe(3600_000);
    const token = tokenMailedTo("new-address@example.org");
    const toNew = mailed.mock.calls.find((c) => c[0].to === "new-address@example.org")![0];
    expect(toNew.subject).toBe("Confirm your new Corefboard email address");
    expect(toNew.text).toContain(toNew.links![0]);
    await vi.waitFor(() => expect(mailed.mock.calls.some((c) => c[0].to === user.email)).toBe(true));
    const toOld = mailed.mock.calls.find((c) => c[0].to === user.email)![0];
    expect(toOld.subject).toBe("Your Corefboard email address is being changed");
    expect(toOld.text).toContain("new-address@example.org");
    expect(toOld.text).not.toContain(token);
    expect(toOld.links ?? []).toEqual([]);

    const rows = await testDb.prisma.emailChangeToken.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ newEmail: "new-address@example.org", tokenHash: sha256Hex(token), usedAt: null });
    expect(JSON.stringify(rows)).not.toContain(token);
    // Nothing changes before the confirmation.
    expect((await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
    const events = await testDb.prisma.auditEvent.findMany({ where: { targetType: "user", targetId: user.id, action: "user.email_change_request" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: user.id, data: { tokenId: rows[0]!.id } });
  });

  it("refuses a wrong or missing password, a malformed address, the current address and an address in use (422 on the field), and anonymous viewers (401)", async () => {
    const user = await account();
    const other = await account();
    const fields = async (p: Promise<unknown>) => ((await rejection(p)) as InstanceType<typeof UserInputError>).fields;
    expect(await fields(requestEmailChange(user.viewer, "fresh@example.org", "wrong password", T0))).toEqual({ password: "That is not your current password." });
    expect(await fields(requestEmailChange(user.viewer, "fresh@example.org", "", T0))).toEqual({ password: "Enter your current password." });
    expect(await fields(requestEmailChange(user.viewer, "not an address", PASSWORD, T0))).toEqual({ newEmail: "Enter a valid email address." });
    expect(await fields(requestEmailChange(user.viewer, user.email.toUpperCase(), PASSWORD, T0))).toEqual({ newEmail: "That is already your email address." });
    expect(await fields(requestEmailChange(user.viewer, other.email, PASSWORD, T0))).toEqual({ newEmail: "An account with this email address already exists." });
    expect(await rejection(requestEmailChange(null, "fresh@example.org", PASSWORD, T0))).toBeInstanceOf(UnauthorizedError);
    expect(await testDb.prisma.emailChangeToken.count({ where: { userId: user.id } })).toBe(0);
    expect(mailed).not.toHaveBeenCalled();
  });

  it(`allows ${EMAIL_CHANGE_MAILS_PER_HOUR} requests an hour; a new request ends the earlier link`, async () => {
    const user = await account();
    for (let i = 0; i < EMAIL_CHANGE_MAILS_PER_HOUR; i += 1) await requestEmailChange(user.viewer, `try-${serial}-${i}@example.org`, PASSWORD, new Date(T0.getTime() + i * 60_000));
    const first = tokenMailedTo(`try-${serial}-0@example.org`);
    expect(await describeEmailChange(first, new Date(T0.getTime() + 5 * 60_000))).toBeNull();
    const last = tokenMailedTo(`try-${serial}-${EMAIL_CHANGE_MAILS_PER_HOUR - 1}@example.org`);
    expect(await describeEmailChange(last, new Date(T0.getTime() + 5 * 60_000))).toEqual({ newEmail: `try-${serial}-${EMAIL_CHANGE_MAILS_PER_HOUR - 1}@example.org` });
    const refused = await rejection(requestEmailChange(user.viewer, `try-${serial}-x@example.org`, PASSWORD, new Date(T0.getTime() + 10 * 60_000)));
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect(refused.message).toMatch(/^You asked to change your email address 3 times in the last hour\. Try again at /);
    // An hour after the first, one more is allowed.
    await requestEmailChange(user.viewer, `try-${serial}-y@example.org`, PASSWORD, new Date(T0.getTime() + 61 * 60_000));
  });
});

describe("the test outbox (MAIL_OUTBOX_FILE)", () => {
  it("without SMTP, records each mail as a JSON line that readOutbox returns (how the end-to-end tests read links)", async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "outbox-")), "mail.jsonl");
    expect(await readOutbox(file)).toEqual([]);
    vi.stubEnv("MAIL_OUTBOX_FILE", file);
    const user = await account();
    const newEmail = `outbox-${serial}@example.org`;
    await requestEmailChange(user.viewer, newEmail, PASSWORD, T0);
    const token = tokenMailedTo(newEmail);
    await vi.waitFor(async () => expect(await readOutbox(file)).toHaveLength(2));
    const entries = await readOutbox(file);
    expect(entries.find((e) => e.to === newEmail)).toMatchObject({ subject: "Confirm your new Corefboard email address", links: [`${BASE}/account/confirm-email?token=${token}`] });
    expect(entries.find((e) => e.to === user.email)).toMatchObject({ links: [] });
  });
});

describe("confirmEmailChange", () => {
  it("changes the email, ends every session (version bumped), uses the token up and audits user.email_change; the new address signs in", async () => {
    const user = await account();
    const newEmail = `moved-${serial}@example.org`;
    await requestEmailChange(user.viewer, newEmail, PASSWORD, T0);
    const token = tokenMailedTo(newEmail);
    expect(await describeEmailChange(token, T0)).toEqual({ newEmail });
    const before = await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await getSessionUser(user.id, before.sessionVersion)).not.toBeNull();

    expect(await confirmEmailChange(token, new Date(T0.getTime() + 60_000))).toEqual({ userId: user.id, email: newEmail });
    const after = await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.email).toBe(newEmail);
    expect(after.sessionVersion).toBe(before.sessionVersion + 1);
    expect(await getSessionUser(user.id, before.sessionVersion)).toBeNull();
    expect(await verifyCredentials(newEmail, PASSWORD)).toMatchObject({ id: user.id, email: newEmail });
    expect(await verifyCredentials(user.email, PASSWORD)).toBeNull();
    const events = await testDb.prisma.auditEvent.findMany({ where: { targetType: "user", targetId: user.id, action: "user.email_change" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: user.id, data: { from: user.email, to: newEmail } });

    // One use.
    expect(await describeEmailChange(token, T0)).toBeNull();
    const again = await rejection(confirmEmailChange(token, new Date(T0.getTime() + 120_000)));
    expect(again).toBeInstanceOf(InvalidEmailChangeLinkError);
    expect(again.message).toBe(INVALID_EMAIL_CHANGE_LINK);
  });

  it("refuses an expired link (one hour) and an unknown one (422)", async () => {
    const user = await account();
    const newEmail = `late-${serial}@example.org`;
    await requestEmailChange(user.viewer, newEmail, PASSWORD, T0);
    const token = tokenMailedTo(newEmail);
    expect(await describeEmailChange(token, new Date(T0.getTime() + EMAIL_CHANGE_TOKEN_TTL_MS - 1))).toEqual({ newEmail });
    const expired = new Date(T0.getTime() + EMAIL_CHANGE_TOKEN_TTL_MS);
    expect(await rejection(confirmEmailChange(token, expired))).toBeInstanceOf(InvalidEmailChangeLinkError);
    expect(await rejection(confirmEmailChange("C".repeat(43), T0))).toBeInstanceOf(InvalidEmailChangeLinkError);
    expect(await rejection(confirmEmailChange("short", T0))).toBeInstanceOf(InvalidEmailChangeLinkError);
    expect((await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
  });

  it("refuses (409) when another account took the address meanwhile; nothing changes and the link is not used up", async () => {
    const user = await account();
    const newEmail = `contested-${serial}@example.org`;
    await requestEmailChange(user.viewer, newEmail, PASSWORD, T0);
    const token = tokenMailedTo(newEmail);
    await createUser({ email: newEmail, password: "someone else 1" });
    const refused = await rejection(confirmEmailChange(token, T0));
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused.message).toBe(`The address ${newEmail} is now used by another account, so your address was not changed.`);
    const row = await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.email).toBe(user.email);
    expect(await testDb.prisma.emailChangeToken.count({ where: { userId: user.id, usedAt: { not: null } } })).toBe(0);
    expect(await testDb.prisma.auditEvent.count({ where: { targetId: user.id, action: "user.email_change" } })).toBe(0);
  });
});

/** A user with a password who organizes tasks and is in teams with runs. */
async function deletionSetup() {
  const db = testDb.prisma;
  const user = await account("leaver");
  const teammate = await makeUser(db, "Teammate");
  const laterMate = await makeUser(db, "Later mate");
  const coOrganizer = await makeUser(db, "Co-organizer");
  // Team Alpha: the user owns it; Teammate joined before Later mate.
  const alpha = await db.team.create({ data: { name: `Alpha ${serial}` } });
  await db.teamMember.create({ data: { teamId: alpha.id, userId: user.id, role: "OWNER", createdAt: new Date("2026-01-01T00:00:00Z") } });
  await db.teamMember.create({ data: { teamId: alpha.id, userId: laterMate.id, role: "MEMBER", createdAt: new Date("2026-03-01T00:00:00Z") } });
  await db.teamMember.create({ data: { teamId: alpha.id, userId: teammate.id, role: "MEMBER", createdAt: new Date("2026-02-01T00:00:00Z") } });
  // A one-person team.
  const solo = await db.team.create({ data: { name: `Solo ${serial}`, members: { create: { userId: user.id, role: "OWNER" } } } });
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [coOrganizer.id] });
  const run = await insertSubmission(db, { phaseId: phase.id, teamId: alpha.id, submitterId: user.id, systemName: "leaver-sys" });
  await insertScores(db, run.id, phase.id, { conll: 0.7 });
  await db.taskParticipant.create({ data: { taskId: task.id, userId: user.id, teamId: alpha.id } });
  return { db, user, teammate, laterMate, coOrganizer, alpha, solo, task, phase, run };
}

describe("deleteAccount", () => {
  it("is refused (409) while the user is the only organizer of a task that is not archived, naming it; a co-organized or archived task does not block", async () => {
    const f = await deletionSetup();
    const { task: alone } = await makeTaskWithPhase(f.db, { organizerIds: [f.user.id], status: "DRAFT" });
    const { task: shared } = await makeTaskWithPhase(f.db, { organizerIds: [f.user.id, f.coOrganizer.id] });
    const { task: archived } = await makeTaskWithPhase(f.db, { organizerIds: [f.user.id], status: "ARCHIVED" });
    expect((await soleOrganizedTasks(f.user.id)).map((t) => t.id)).toEqual([alone.id]);
    const refused = await rejection(deleteAccount(f.user.viewer, PASSWORD, T0));
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused.message).toBe(`You are the only organizer of this task: “${alone.title}” (/tasks/${alone.slug}). Invite a co-organizer or archive it before deleting your account.`);
    expect(refused.details).toEqual({ tasks: [{ id: alone.id, slug: alone.slug, title: alone.title }] });
    const row = await f.db.user.findUniqueOrThrow({ where: { id: f.user.id } });
    expect(row.deletedAt).toBeNull();
    expect(await f.db.taskOrganizer.count({ where: { userId: f.user.id } })).toBe(3);

    // Once the task has another organizer, the deletion goes through.
    await f.db.taskOrganizer.create({ data: { taskId: alone.id, userId: f.coOrganizer.id } });
    await deleteAccount(f.user.viewer, PASSWORD, T0);
    expect(await f.db.taskOrganizer.count({ where: { userId: f.user.id } })).toBe(0);
    expect(await f.db.taskOrganizer.count({ where: { taskId: { in: [shared.id, archived.id] } } })).toBe(1);
  });

  it("needs the right password (422) and a signed-in viewer (401)", async () => {
    const f = await deletionSetup();
    const wrong = (await rejection(deleteAccount(f.user.viewer, "wrong password", T0))) as InstanceType<typeof UserInputError>;
    expect(wrong.fields).toEqual({ password: "That is not your current password." });
    expect(await rejection(deleteAccount(null, PASSWORD, T0))).toBeInstanceOf(UnauthorizedError);
    expect((await f.db.user.findUniqueOrThrow({ where: { id: f.user.id } })).deletedAt).toBeNull();
  });

  it("removes the person and keeps the runs: teams, ownership, tokens, records, sign-in, sessions, 'deleted user' on the runs, audited", async () => {
    const f = await deletionSetup();
    const { token: apiToken } = await createApiToken(f.user.id, "laptop");
    expect(await authenticateBearer(`Bearer ${apiToken}`)).not.toBeNull();
    await requestPasswordReset(f.user.email, { now: T0 });
    await requestEmailChange(f.user.viewer, `elsewhere-${serial}@example.org`, PASSWORD, T0);
    const before = await f.db.user.findUniqueOrThrow({ where: { id: f.user.id } });

    const result = await deleteAccount(f.user.viewer, PASSWORD, T0);
    expect(result.ownershipPassed).toEqual([{ teamId: f.alpha.id, teamName: f.alpha.name, newOwnerId: f.teammate.id }]);

    const row = await f.db.user.findUniqueOrThrow({ where: { id: f.user.id } });
    expect(row).toMatchObject({ name: DELETED_USER_NAME, email: deletedEmailFor(f.user.id), passwordHash: null, role: "USER", deletedAt: T0, sessionVersion: before.sessionVersion + 1 });
    expect(row.email).toBe(`deleted-${f.user.id}@deleted.invalid`);
    // Teams: memberships gone; the longest-standing other member owns Alpha; the solo team stays, empty.
    expect(await f.db.teamMember.count({ where: { userId: f.user.id } })).toBe(0);
    const alphaMembers = await f.db.teamMember.findMany({ where: { teamId: f.alpha.id }, orderBy: { createdAt: "asc" } });
    expect(alphaMembers.map((m) => [m.userId, m.role])).toEqual([
      [f.teammate.id, "OWNER"],
      [f.laterMate.id, "MEMBER"],
    ]);
    expect(await f.db.team.findUnique({ where: { id: f.solo.id } })).not.toBeNull();
    // Tokens and records.
    expect(await f.db.apiToken.count({ where: { userId: f.user.id } })).toBe(0);
    expect(await authenticateBearer(`Bearer ${apiToken}`)).toBeNull();
    expect(await f.db.passwordResetToken.count({ where: { userId: f.user.id } })).toBe(0);
    expect(await f.db.emailChangeToken.count({ where: { userId: f.user.id } })).toBe(0);
    expect(await f.db.taskParticipant.count({ where: { userId: f.user.id } })).toBe(0);
    // No sign-in, no session.
    expect(await verifyCredentials(f.user.email, PASSWORD)).toBeNull();
    expect(await getSessionUser(f.user.id, before.sessionVersion)).toBeNull();
    expect(await getSessionUser(f.user.id, row.sessionVersion)).toBeNull();
    // The run stays with its team, submitted by "deleted user", and on the board.
    const teamRuns = await listSubmissionsForTeam(f.teammate.viewer, f.alpha.id);
    expect(teamRuns.map((r) => [r.id, r.team.name, r.submitter.name])).toEqual([[f.run.id, f.alpha.name, DELETED_USER_NAME]]);
    const view = await getSubmissionForViewer(f.run.id, f.teammate.viewer);
    expect(view.submitter?.name).toBe(DELETED_USER_NAME);
    const board = await getLeaderboard(f.phase.id, null);
    expect(board.rows.map((r) => [r.submissionId, r.team.name])).toEqual([[f.run.id, f.alpha.name]]);
    // Audited, without personal data.
    const events = await f.db.auditEvent.findMany({ where: { targetType: "user", targetId: f.user.id, action: "user.delete" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: f.user.id, data: { teamsLeft: expect.arrayContaining([f.alpha.id, f.solo.id]), ownershipPassed: [{ teamId: f.alpha.id, newOwnerId: f.teammate.id }] } });
    expect(JSON.stringify(events[0]!.data)).not.toContain(f.user.email);
    // Deleting again: the account is gone.
    expect(await rejection(deleteAccount(f.user.viewer, PASSWORD, T0))).toBeInstanceOf(NotFoundError);
  });

  it("a deleted account stays out even if its row got a password again (e.g. through a reset link to the deleted address)", async () => {
    const f = await deletionSetup();
    await deleteAccount(f.user.viewer, PASSWORD, T0);
    const donor = await account("donor");
    const { passwordHash } = await f.db.user.findUniqueOrThrow({ where: { id: donor.id }, select: { passwordHash: true } });
    await f.db.user.update({ where: { id: f.user.id }, data: { passwordHash } });
    expect(await verifyCredentials(donor.email, PASSWORD)).not.toBeNull();
    expect(await verifyCredentials(deletedEmailFor(f.user.id), PASSWORD)).toBeNull();
  });
});

describe("API tokens of the signed-in account (issue 23 F5)", () => {
  const tokenEvents = (userId: string) =>
    testDb.prisma.auditEvent.findMany({ where: { targetType: "user", targetId: userId, action: { in: ["user.api_token_create", "user.api_token_revoke"] } }, orderBy: [{ at: "asc" }, { id: "asc" }] });

  it("createOwnApiToken needs the current password: without it or with a wrong one, a 422 on `password` and no token; with it, a working token, audited", async () => {
    const user = await account("tok");
    const missing = (await rejection(createOwnApiToken(user.viewer, { name: "laptop", password: "" }))) as InstanceType<typeof UserInputError>;
    expect(missing).toBeInstanceOf(UserInputError);
    expect(missing.fields).toEqual({ password: "Enter your current password." });
    const absent = (await rejection(createOwnApiToken(user.viewer, { name: "laptop", password: undefined }))) as InstanceType<typeof UserInputError>;
    expect(absent.fields).toEqual({ password: "Enter your current password." });
    const wrong = (await rejection(createOwnApiToken(user.viewer, { name: "laptop", password: "not my password" }))) as InstanceType<typeof UserInputError>;
    expect(wrong).toBeInstanceOf(UserInputError);
    expect(wrong.fields).toEqual({ password: "That is not your current password." });
    // A bad name is refused before the password is looked at.
    const badName = (await rejection(createOwnApiToken(user.viewer, { name: "   ", password: PASSWORD }))) as InstanceType<typeof UserInputError>;
    expect(Object.keys(badName.fields)).toEqual(["name"]);
    expect(await testDb.prisma.apiToken.count({ where: { userId: user.id } })).toBe(0);
    expect(await tokenEvents(user.id)).toEqual([]);

    const { token, info } = await createOwnApiToken(user.viewer, { name: " laptop ", password: PASSWORD });
    expect(info.name).toBe("laptop");
    expect(await authenticateBearer(`Bearer ${token}`)).toMatchObject({ id: user.id });
    const events = await tokenEvents(user.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: user.id, action: "user.api_token_create", data: { tokenId: info.id, name: "laptop", via: "account" } });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it("createOwnApiToken refuses anonymous viewers (401) and deleted accounts (404)", async () => {
    expect(await rejection(createOwnApiToken(null, { name: "x", password: PASSWORD }))).toBeInstanceOf(UnauthorizedError);
    const f = await account("gone");
    await testDb.prisma.user.update({ where: { id: f.id }, data: { deletedAt: T0 } });
    expect(await rejection(createOwnApiToken(f.viewer, { name: "x", password: PASSWORD }))).toBeInstanceOf(NotFoundError);
    expect(await testDb.prisma.apiToken.count({ where: { userId: f.id } })).toBe(0);
  });

  it("wrong passwords at token creation count toward the sign-in lockout of the address: after 10, even the right password is refused (429), and so is signing in", async () => {
    const user = await account("lock");
    for (let i = 0; i < 10; i++) {
      expect(await rejection(createOwnApiToken(user.viewer, { name: "guess", password: `guess ${i}` }))).toBeInstanceOf(UserInputError);
    }
    const locked = await rejection(createOwnApiToken(user.viewer, { name: "guess", password: PASSWORD }));
    expect(locked).toBeInstanceOf(RateLimitedError);
    expect((locked as Error).message).toMatch(/^Too many sign-in attempts for this email address\. Try again at/);
    expect(await rejection(verifyCredentials(user.email, PASSWORD))).toBeInstanceOf(RateLimitedError);
    expect(await testDb.prisma.apiToken.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a right password gives its attempt back: creating tokens does not lock the owner out", async () => {
    const user = await account("many");
    for (let i = 0; i < 12; i++) await createOwnApiToken(user.viewer, { name: `t${i}`, password: PASSWORD });
    expect(await testDb.prisma.apiToken.count({ where: { userId: user.id } })).toBe(12);
    expect(await verifyCredentials(user.email, PASSWORD)).not.toBeNull();
  });

  it("revokeOwnApiToken revokes the owner's token (then refused by bearer authentication), audits it; another user's token id is a 404 and stays working", async () => {
    const owner = await account("own");
    const intruder = await account("intr");
    const { token, info } = await createApiToken(owner.id, "ci");
    const refused = await rejection(revokeOwnApiToken(intruder.viewer, info.id));
    expect(refused).toBeInstanceOf(NotFoundError);
    expect((refused as Error).message).toBe("There is no such API token.");
    expect(await authenticateBearer(`Bearer ${token}`)).toMatchObject({ id: owner.id });
    expect(await rejection(revokeOwnApiToken(owner.viewer, "not-a-uuid"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(revokeOwnApiToken(owner.viewer, "00000000-0000-4000-8000-000000000000"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(revokeOwnApiToken(null, info.id))).toBeInstanceOf(UnauthorizedError);

    await expect(revokeOwnApiToken(owner.viewer, info.id)).resolves.toBe(true);
    expect(await authenticateBearer(`Bearer ${token}`)).toBeNull();
    // Again: nothing to do, no error, no second event.
    await expect(revokeOwnApiToken(owner.viewer, info.id)).resolves.toBe(false);
    const revokes = (await tokenEvents(owner.id)).filter((e) => e.action === "user.api_token_revoke");
    expect(revokes).toHaveLength(1);
    expect(revokes[0]).toMatchObject({ actorId: owner.id, data: { tokenIds: [info.id], reason: "owner" } });
    expect(await tokenEvents(intruder.id)).toEqual([]);
  });

  /** An account with two active tokens and one revoked, and another account with one. */
  async function withTokens(label: string) {
    const user = await account(label);
    const other = await account(`${label}-other`);
    const a = await createApiToken(user.id, "a");
    const b = await createApiToken(user.id, "b");
    const old = await createApiToken(user.id, "old");
    await revokeOwnApiToken(user.viewer, old.info.id);
    const oldRevokedAt = (await testDb.prisma.apiToken.findUniqueOrThrow({ where: { id: old.info.id } })).revokedAt;
    const others = await createApiToken(other.id, "theirs");
    const expectRevoked = async (reason: string) => {
      expect(await authenticateBearer(`Bearer ${a.token}`)).toBeNull();
      expect(await authenticateBearer(`Bearer ${b.token}`)).toBeNull();
      expect(await testDb.prisma.apiToken.count({ where: { userId: user.id, revokedAt: null } })).toBe(0);
      // The earlier revocation keeps its time; the other account is untouched.
      expect((await testDb.prisma.apiToken.findUniqueOrThrow({ where: { id: old.info.id } })).revokedAt).toEqual(oldRevokedAt);
      expect(await authenticateBearer(`Bearer ${others.token}`)).toMatchObject({ id: other.id });
      const events = (await tokenEvents(user.id)).filter((e) => e.action === "user.api_token_revoke" && (e.data as { reason?: string }).reason === reason);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actorId: user.id, data: { tokenIds: [a.info.id, b.info.id].sort(), reason } });
    };
    return { user, expectRevoked };
  }

  it("signOutEverywhere ends every session and revokes every API token of the account, in one go; 401 when anonymous", async () => {
    const { user, expectRevoked } = await withTokens("soe");
    const before = await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await getSessionUser(user.id, before.sessionVersion)).not.toBeNull();
    const { revokedTokenIds } = await signOutEverywhere(user.viewer);
    expect(revokedTokenIds).toHaveLength(2);
    expect(await getSessionUser(user.id, before.sessionVersion)).toBeNull();
    await expectRevoked("sign_out_everywhere");
    expect(await rejection(signOutEverywhere(null))).toBeInstanceOf(UnauthorizedError);
    // With nothing left to revoke: the sessions still end, and no empty event is written.
    await expect(signOutEverywhere(user.viewer)).resolves.toEqual({ revokedTokenIds: [] });
    expect((await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion).toBe(before.sessionVersion + 2);
  });

  it("signOutEverywhere changes nothing when the token revocation fails (one transaction)", async () => {
    const { user } = await withTokens("atomic");
    const before = await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    // A trigger that refuses revoking this account's tokens stands in for a failure midway.
    await testDb.prisma.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION refuse_token_revoke() RETURNS trigger AS $$
      BEGIN
        IF NEW.user_id = '${user.id}'::uuid AND NEW.revoked_at IS NOT NULL THEN RAISE EXCEPTION 'refused for the test'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await testDb.prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_token_revoke BEFORE UPDATE ON api_tokens FOR EACH ROW EXECUTE FUNCTION refuse_token_revoke()`);
    try {
      await expect(signOutEverywhere(user.viewer)).rejects.toThrow(/refused for the test/);
    } finally {
      await testDb.prisma.$executeRawUnsafe(`DROP TRIGGER refuse_token_revoke ON api_tokens`);
      await testDb.prisma.$executeRawUnsafe(`DROP FUNCTION refuse_token_revoke()`);
    }
    expect((await testDb.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion).toBe(before.sessionVersion);
    expect(await testDb.prisma.apiToken.count({ where: { userId: user.id, revokedAt: null } })).toBe(2);
  });

  it("a password change revokes every API token of the account", async () => {
    const { user, expectRevoked } = await withTokens("chg");
    await changePassword(user.id, { currentPassword: PASSWORD, newPassword: "a new password 2", confirmPassword: "a new password 2" });
    await expectRevoked("password_change");
  });

  it("a refused password change (wrong current password) revokes nothing", async () => {
    const user = await account("chg-wrong");
    const { token } = await createApiToken(user.id, "kept");
    await expect(changePassword(user.id, { currentPassword: "wrong one", newPassword: "a new password 2", confirmPassword: "a new password 2" })).rejects.toBeInstanceOf(UserInputError);
    expect(await authenticateBearer(`Bearer ${token}`)).toMatchObject({ id: user.id });
  });

  it("a password reset revokes every API token of the account, and its audit event counts them", async () => {
    const { user, expectRevoked } = await withTokens("rst");
    await requestPasswordReset(user.email);
    await vi.waitFor(() => expect(mailed.mock.calls.some((c) => c[0].to === user.email && /reset-password\?token=/.test(c[0].text))).toBe(true));
    const call = mailed.mock.calls.filter((c) => c[0].to === user.email).at(-1)!;
    const resetToken = /token=([A-Za-z0-9_-]{43})/.exec(call[0].text)![1]!;
    await resetPassword(resetToken, "a reset password 3");
    await expectRevoked("password_reset");
    const reset = await testDb.prisma.auditEvent.findFirstOrThrow({ where: { targetId: user.id, action: "user.password_reset" } });
    expect(reset.data).toMatchObject({ apiTokensRevoked: 2 });
    // Revoked tokens stay listed to their owner, as revoked.
    const listed = await listApiTokens(user.id);
    expect(listed.map((t) => [t.name, t.revokedAt !== null]).sort()).toEqual([
      ["a", true],
      ["b", true],
      ["old", true],
    ]);
  });
});
