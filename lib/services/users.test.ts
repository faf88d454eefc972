import bcrypt from "bcryptjs";
import { describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { bcryptCost } from "../auth/password";
import {
  EmailTakenError,
  UserInputError,
  createUser,
  getUserByEmail,
  getUserById,
  signUp,
  verifyCredentials,
} from "./users";

const db = useTestDatabase();

describe("signUp", () => {
  it("creates a USER with a normalized email and a bcrypt hash (not the password)", async () => {
    const user = await signUp("  Ada@Example.ORG ", "  Ada Lovelace ", "correct horse battery");
    expect(user).toMatchObject({ email: "ada@example.org", name: "Ada Lovelace", role: "USER" });
    expect(Object.keys(user).sort()).toEqual(["email", "id", "name", "role"]);
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toMatch(/^\$2[aby]\$10\$/);
    expect(row.passwordHash).not.toContain("correct horse");
  });

  it("uses cost 10 under NODE_ENV=test", () => {
    expect(process.env.NODE_ENV).toBe("test");
    expect(bcryptCost()).toBe(10);
  });

  it("refuses a duplicate email, whatever its case", async () => {
    await signUp("dup@example.org", "First", "0123456789");
    await expect(signUp("DUP@example.org", "Second", "0123456789")).rejects.toBeInstanceOf(EmailTakenError);
    await expect(signUp("dup@example.org", "Second", "0123456789")).rejects.toThrow(/already exists/);
  });

  it("refuses concurrent sign-ups for the same email except one", async () => {
    const results = await Promise.allSettled(
      [1, 2, 3].map((i) => signUp("race@example.org", `Racer ${i}`, "0123456789")),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(EmailTakenError);
  });

  it.each([
    ["not-an-email", "Name", "0123456789", "email"],
    ["", "Name", "0123456789", "email"],
    ["a@example.org", "", "0123456789", "name"],
    ["a@example.org", "   ", "0123456789", "name"],
    ["a@example.org", "x".repeat(101), "0123456789", "name"],
    ["a@example.org", "Name", "short", "password"],
    ["a@example.org", "Name", "123456789", "password"],
    ["a@example.org", "Name", "é".repeat(37), "password"], // 74 bytes > bcrypt's 72
  ])("rejects email=%j name=%j password=%j on field %s", async (email, name, password, field) => {
    const error = await signUp(email, name, password).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserInputError);
    expect(Object.keys((error as UserInputError).fields)).toContain(field);
    expect(await db.prisma.user.count({ where: { email: "a@example.org" } })).toBe(0);
  });

  it("accepts a 10-character password", async () => {
    await expect(signUp("ten@example.org", "Ten", "abcdefghij")).resolves.toMatchObject({ email: "ten@example.org" });
  });
});

describe("verifyCredentials", () => {
  it("returns the user for the right password, with any email case", async () => {
    const user = await signUp("grace@example.org", "Grace", "a long enough password");
    await expect(verifyCredentials("Grace@Example.org", "a long enough password")).resolves.toEqual(user);
  });

  it("returns null for a wrong password, an unknown email, or junk", async () => {
    await signUp("alan@example.org", "Alan", "a long enough password");
    await expect(verifyCredentials("alan@example.org", "a long enough passwor")).resolves.toBeNull();
    await expect(verifyCredentials("nobody@example.org", "a long enough password")).resolves.toBeNull();
    await expect(verifyCredentials("", "")).resolves.toBeNull();
    await expect(verifyCredentials("alan@example.org", "x".repeat(5000))).resolves.toBeNull();
  });

  it("still checks a bcrypt hash for unknown emails, so timing does not reveal accounts", async () => {
    await signUp("timing@example.org", "Timing", "a long enough password");
    const compare = vi.spyOn(bcrypt, "compare");
    try {
      await verifyCredentials("timing@example.org", "wrong password!!");
      expect(compare).toHaveBeenCalledTimes(1);
      await verifyCredentials("missing@example.org", "wrong password!!");
      expect(compare).toHaveBeenCalledTimes(2);
    } finally {
      compare.mockRestore();
    }
  });

  it("returns null for an account without a password", async () => {
    await db.prisma.user.create({ data: { email: "nopass@example.org", name: "No pass" } });
    await expect(verifyCredentials("nopass@example.org", "anything at all")).resolves.toBeNull();
  });
});

describe("createUser", () => {
  it("creates an ADMIN when asked, with a default name from the email", async () => {
    const admin = await createUser({ email: "Root@Example.org", password: "0123456789", admin: true });
    expect(admin).toMatchObject({ email: "root@example.org", name: "root", role: "ADMIN" });
  });

  it("creates a USER by default and checks the same rules as sign-up", async () => {
    await expect(createUser({ email: "plain@example.org", password: "0123456789", name: "Plain" })).resolves.toMatchObject({
      role: "USER",
    });
    await expect(createUser({ email: "plain@example.org", password: "0123456789" })).rejects.toBeInstanceOf(EmailTakenError);
    await expect(createUser({ email: "x@example.org", password: "short" })).rejects.toBeInstanceOf(UserInputError);
  });
});

describe("lookups", () => {
  it("finds users by id and email; null for unknown or malformed keys", async () => {
    const user = await signUp("find@example.org", "Find Me", "0123456789");
    await expect(getUserById(user.id)).resolves.toEqual(user);
    await expect(getUserByEmail("FIND@example.org")).resolves.toEqual(user);
    await expect(getUserById("not-a-uuid")).resolves.toBeNull();
    await expect(getUserById("00000000-0000-4000-8000-000000000000")).resolves.toBeNull();
    await expect(getUserByEmail("nope")).resolves.toBeNull();
  });
});
