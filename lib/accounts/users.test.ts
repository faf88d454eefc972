import bcrypt from "bcryptjs";
import { describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { argon2Calls } from "./test-argon2";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

const { verifyPassword } = await import("./password");
const { RateLimitedError } = await import("../errors");
const { SIGN_UP_REQUESTED } = await import("./email-confirmation");
const { EmailTakenError, UserInputError, changePassword, createUser, getSessionUser, getUserByEmail, getUserById, revokeSessions, signUp, verifyCredentials } =
  await import("./users");

const db = useTestDatabase();

describe("signUp", () => {
  it("creates an unconfirmed USER with a normalized email and an argon2id hash (not the password), session version 0; answers with the message only", async () => {
    await expect(signUp("  Ada@Example.ORG ", "  Ada Lovelace ", "correct horse battery")).resolves.toEqual({ message: SIGN_UP_REQUESTED });
    const row = await db.prisma.user.findUniqueOrThrow({ where: { email: "ada@example.org" } });
    expect(row).toMatchObject({ name: "Ada Lovelace", role: "USER", emailConfirmedAt: null });
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(row.passwordHash).not.toContain("correct horse");
    expect(row.sessionVersion).toBe(0);
  });

  it("makes no second account for a registered email, whatever its case, and answers the same", async () => {
    await signUp("dup@example.org", "First", "0123456789");
    await expect(signUp("DUP@example.org", "Second", "0123456789")).resolves.toEqual({ message: SIGN_UP_REQUESTED });
    const rows = await db.prisma.user.findMany({ where: { email: "dup@example.org" } });
    expect(rows.map((r) => r.name)).toEqual(["First"]);
  });

  it.each([
    ["not-an-email", "Name", "0123456789", "email"],
    ["", "Name", "0123456789", "email"],
    ["a@example.org", "", "0123456789", "name"],
    ["a@example.org", "   ", "0123456789", "name"],
    ["a@example.org", "x".repeat(101), "0123456789", "name"],
    ["a@example.org", "Name", "short", "password"],
    ["a@example.org", "Name", "123456789", "password"],
    ["a@example.org", "Name", "é".repeat(513), "password"], // 1026 bytes > 1024
  ])("rejects email=%j name=%j password=%j on field %s", async (email, name, password, field) => {
    const error = await signUp(email, name, password).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserInputError);
    expect(Object.keys((error as InstanceType<typeof UserInputError>).fields)).toContain(field);
    expect(await db.prisma.user.count({ where: { email: "a@example.org" } })).toBe(0);
  });

  it("accepts a 10-character password, and long ones up to 1024 bytes (no 72-byte bcrypt cut)", async () => {
    await expect(signUp("ten@example.org", "Ten", "abcdefghij")).resolves.toEqual({ message: SIGN_UP_REQUESTED });
    await expect(verifyCredentials("ten@example.org", "abcdefghij")).resolves.toMatchObject({ email: "ten@example.org" });
    const long = "é".repeat(512); // 1024 bytes
    await signUp("long@example.org", "Long", long);
    await expect(verifyCredentials("long@example.org", long)).resolves.toMatchObject({ email: "long@example.org" });
    await expect(verifyCredentials("long@example.org", `${"é".repeat(511)}e`)).resolves.toBeNull();
  });
});

describe("verifyCredentials", () => {
  it("returns the user and its session version for the right password, with any email case", async () => {
    const user = await createUser({ email: "grace@example.org", name: "Grace", password: "a long enough password" });
    await expect(verifyCredentials("Grace@Example.org", "a long enough password")).resolves.toEqual({ ...user, sessionVersion: 0 });
    await db.prisma.user.update({ where: { id: user.id }, data: { sessionVersion: 7 } });
    await expect(verifyCredentials("grace@example.org", "a long enough password")).resolves.toEqual({ ...user, sessionVersion: 7 });
  });

  it("returns null for a wrong password, an unknown email, or junk", async () => {
    await createUser({ email: "alan@example.org", name: "Alan", password: "a long enough password" });
    await expect(verifyCredentials("alan@example.org", "a long enough passwor")).resolves.toBeNull();
    await expect(verifyCredentials("nobody@example.org", "a long enough password")).resolves.toBeNull();
    await expect(verifyCredentials("", "")).resolves.toBeNull();
    await expect(verifyCredentials("alan@example.org", "x".repeat(5000))).resolves.toBeNull();
  });

  it("refuses junk input without hashing", async () => {
    const before = argon2Calls.verify;
    await verifyCredentials("", "");
    await verifyCredentials("junk@example.org", "x".repeat(1025));
    expect(argon2Calls.verify).toBe(before);
  });

  it("still checks an argon2 hash for unknown emails, so timing does not reveal accounts", async () => {
    await createUser({ email: "timing@example.org", name: "Timing", password: "a long enough password" });
    const before = argon2Calls.verify;
    await verifyCredentials("timing@example.org", "wrong password!!");
    expect(argon2Calls.verify).toBe(before + 1);
    await verifyCredentials("missing@example.org", "wrong password!!");
    expect(argon2Calls.verify).toBe(before + 2);
  });

  it("returns null for an account without a password", async () => {
    await db.prisma.user.create({ data: { email: "nopass@example.org", name: "No pass" } });
    await expect(verifyCredentials("nopass@example.org", "anything at all")).resolves.toBeNull();
  });

  it("accepts a bcrypt hash from before argon2 and replaces it with argon2id at the next successful sign-in", async () => {
    const legacy = await bcrypt.hash("an old bcrypt password", 4);
    const created = await db.prisma.user.create({ data: { email: "legacy@example.org", name: "Legacy", passwordHash: legacy } });
    // A wrong password leaves the hash alone.
    await expect(verifyCredentials("legacy@example.org", "not the old password")).resolves.toBeNull();
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: created.id } })).passwordHash).toBe(legacy);

    await expect(verifyCredentials("legacy@example.org", "an old bcrypt password")).resolves.toMatchObject({ id: created.id });
    const upgraded = (await db.prisma.user.findUniqueOrThrow({ where: { id: created.id } })).passwordHash!;
    expect(upgraded).toMatch(/^\$argon2id\$/);
    await expect(verifyPassword("an old bcrypt password", upgraded)).resolves.toBe(true);
    // And the upgraded account keeps signing in.
    await expect(verifyCredentials("legacy@example.org", "an old bcrypt password")).resolves.toMatchObject({ id: created.id });
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: created.id } })).passwordHash).toBe(upgraded);
  });

  it("locks an email after 10 failed attempts, whatever the password, until the window ends", async () => {
    await createUser({ email: "locked@example.org", name: "Locked", password: "the right password" });
    for (let i = 0; i < 10; i++) await expect(verifyCredentials("locked@example.org", `wrong ${i}`)).resolves.toBeNull();
    const error = await verifyCredentials("LOCKED@example.org", "the right password").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as Error).message).toMatch(/^Too many sign-in attempts for this email address\. Try again at (\d{4}-\d\d-\d\d )?\d\d:\d\d \(UTC\)\.$/);
  });
});

describe("changePassword", () => {
  it("checks the current password, stores the new one and ends every session", async () => {
    const user = await createUser({ email: "change@example.org", name: "Change", password: "the first password" });
    await expect(changePassword(user.id, { currentPassword: "the first password", newPassword: "the second password", confirmPassword: "the second password" })).resolves.toBe(1);
    await expect(verifyCredentials("change@example.org", "the first password")).resolves.toBeNull();
    await expect(verifyCredentials("change@example.org", "the second password")).resolves.toEqual({ ...user, sessionVersion: 1 });
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it.each([
    [{ currentPassword: "not it at all", newPassword: "the second password", confirmPassword: "the second password" }, "currentPassword", "That is not your current password."],
    [{ currentPassword: "", newPassword: "the second password", confirmPassword: "the second password" }, "currentPassword", "Enter your current password."],
    [{ currentPassword: "the first password", newPassword: "short", confirmPassword: "short" }, "newPassword", "Passwords must be at least 10 characters."],
    [{ currentPassword: "the first password", newPassword: "the second password", confirmPassword: "the second passwort" }, "confirmPassword", "The two new passwords do not match."],
    [{ currentPassword: "the first password", newPassword: "the first password", confirmPassword: "the first password" }, "newPassword", "The new password must differ from the current one."],
  ])("refuses %j on field %s", async (input, field, message) => {
    const user = await createUser({ email: `refuse-${Math.random().toString(36).slice(2)}@example.org`, name: "Refuse", password: "the first password" });
    const error = await changePassword(user.id, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserInputError);
    expect((error as InstanceType<typeof UserInputError>).fields).toEqual({ [field]: message });
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.sessionVersion).toBe(0);
    await expect(verifyPassword("the first password", row.passwordHash!)).resolves.toBe(true);
  });

  it("counts wrong current passwords like failed sign-ins", async () => {
    const user = await createUser({ email: "guess@example.org", name: "Guess", password: "the first password" });
    for (let i = 0; i < 10; i++) {
      await expect(changePassword(user.id, { currentPassword: `guess ${i}`, newPassword: "the second password", confirmPassword: "the second password" })).rejects.toBeInstanceOf(UserInputError);
    }
    await expect(changePassword(user.id, { currentPassword: "the first password", newPassword: "the second password", confirmPassword: "the second password" })).rejects.toBeInstanceOf(RateLimitedError);
    await expect(verifyCredentials("guess@example.org", "the first password")).rejects.toBeInstanceOf(RateLimitedError);
  });

  it("refuses a user without a password or an unknown id", async () => {
    const nopass = await db.prisma.user.create({ data: { email: "nopass-change@example.org", name: "No pass" } });
    const input = { currentPassword: "anything long", newPassword: "the second password", confirmPassword: "the second password" };
    await expect(changePassword(nopass.id, input)).rejects.toBeInstanceOf(UserInputError);
    await expect(changePassword("00000000-0000-4000-8000-000000000000", input)).rejects.toBeInstanceOf(UserInputError);
    await expect(changePassword("not-a-uuid", input)).rejects.toBeInstanceOf(UserInputError);
  });
});

describe("session versions", () => {
  it("getSessionUser accepts only the current version; revokeSessions bumps it", async () => {
    const user = await createUser({ email: "versions@example.org", name: "Versions", password: "0123456789" });
    await expect(getSessionUser(user.id, 0)).resolves.toEqual(user);
    await expect(getSessionUser(user.id, 1)).resolves.toBeNull();
    await expect(revokeSessions(user.id)).resolves.toBe(true);
    await expect(getSessionUser(user.id, 0)).resolves.toBeNull();
    await expect(getSessionUser(user.id, 1)).resolves.toEqual(user);
    // Conditional: only while the version is still the given one.
    await expect(revokeSessions(user.id, 0)).resolves.toBe(false);
    await expect(getSessionUser(user.id, 1)).resolves.toEqual(user);
    await expect(revokeSessions(user.id, 1)).resolves.toBe(true);
    await expect(getSessionUser(user.id, 2)).resolves.toEqual(user);
  });

  it("gives null for unknown or malformed ids and versions", async () => {
    await expect(getSessionUser("not-a-uuid", 0)).resolves.toBeNull();
    await expect(getSessionUser("00000000-0000-4000-8000-000000000000", 0)).resolves.toBeNull();
    const user = await createUser({ email: "versions2@example.org", name: "Versions", password: "0123456789" });
    await expect(getSessionUser(user.id, 0.5)).resolves.toBeNull();
    await expect(revokeSessions("not-a-uuid")).resolves.toBe(false);
  });

  it("a deleted account (deletedAt set) has no session and cannot sign in, whatever its version and password", async () => {
    const user = await createUser({ email: "deleted-check@example.org", name: "Soon gone", password: "0123456789" });
    await expect(verifyCredentials("deleted-check@example.org", "0123456789")).resolves.not.toBeNull();
    await db.prisma.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
    await expect(getSessionUser(user.id, 0)).resolves.toBeNull();
    await expect(verifyCredentials("deleted-check@example.org", "0123456789")).resolves.toBeNull();
  });
});

describe("createUser", () => {
  it("creates an ADMIN when asked, with a default name from the email", async () => {
    const admin = await createUser({ email: "Root@Example.org", password: "0123456789", admin: true });
    expect(admin).toMatchObject({ email: "root@example.org", name: "root", role: "ADMIN" });
  });

  it("creates a confirmed USER by default and checks the same rules as sign-up", async () => {
    await expect(createUser({ email: "plain@example.org", password: "0123456789", name: "Plain" })).resolves.toMatchObject({
      role: "USER",
    });
    expect((await db.prisma.user.findUniqueOrThrow({ where: { email: "plain@example.org" } })).emailConfirmedAt).toBeInstanceOf(Date);
    await expect(createUser({ email: "plain@example.org", password: "0123456789" })).rejects.toBeInstanceOf(EmailTakenError);
    await expect(createUser({ email: "x@example.org", password: "short" })).rejects.toBeInstanceOf(UserInputError);
  });
});

describe("lookups", () => {
  it("finds users by id and email; null for unknown or malformed keys", async () => {
    const user = await createUser({ email: "find@example.org", name: "Find Me", password: "0123456789" });
    await expect(getUserById(user.id)).resolves.toEqual(user);
    await expect(getUserByEmail("FIND@example.org")).resolves.toEqual(user);
    await expect(getUserById("not-a-uuid")).resolves.toBeNull();
    await expect(getUserById("00000000-0000-4000-8000-000000000000")).resolves.toBeNull();
    await expect(getUserByEmail("nope")).resolves.toBeNull();
  });
});
