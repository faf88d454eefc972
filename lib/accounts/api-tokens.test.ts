import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { sha256Hex } from "../storage";
import { createUser, UserInputError } from "./users";
import {
  LAST_USED_RESOLUTION_MS,
  MAX_ACTIVE_TOKENS,
  authenticateBearer,
  createApiToken,
  listApiTokens,
  parseBearer,
  revokeApiToken,
} from "./api-tokens";

const db = useTestDatabase();
let n = 0;
const newUser = () => createUser({ email: `user${++n}@example.org`, name: `User ${n}`, password: "0123456789" });

describe("createApiToken", () => {
  it("returns a cfb_ token once and stores only its sha256", async () => {
    const user = await newUser();
    const { token, info } = await createApiToken(user.id, "  laptop ");
    expect(token).toMatch(/^cfb_[A-Za-z0-9_-]{43}$/);
    expect(info).toMatchObject({ name: "laptop", lastUsedAt: null, revokedAt: null });
    const row = await db.prisma.apiToken.findUniqueOrThrow({ where: { id: info.id } });
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
  });

  it("asks for no password (the admin CLI's primitive) and audits the creation as the operator's (actor null, via cli)", async () => {
    const user = await newUser();
    const { token, info } = await createApiToken(user.id, "from the CLI");
    const events = await db.prisma.auditEvent.findMany({ where: { targetType: "user", targetId: user.id, action: "user.api_token_create" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: null, data: { tokenId: info.id, name: "from the CLI", via: "cli" } });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it("makes a different token every time", async () => {
    const user = await newUser();
    const a = await createApiToken(user.id, "a");
    const b = await createApiToken(user.id, "a");
    expect(a.token).not.toBe(b.token);
  });

  it("rejects bad names", async () => {
    const user = await newUser();
    const blank = await createApiToken(user.id, "   ").catch((error: unknown) => error);
    expect(blank).toBeInstanceOf(UserInputError);
    expect((blank as UserInputError).fields).toEqual({ name: "Give the token a name." });
    await expect(createApiToken(user.id, "x".repeat(101))).rejects.toBeInstanceOf(UserInputError);
    await expect(createApiToken(user.id, "bad\u0000name")).rejects.toBeInstanceOf(UserInputError);
  });

  it(`limits a user to ${MAX_ACTIVE_TOKENS} active tokens`, async () => {
    const user = await newUser();
    await db.prisma.apiToken.createMany({
      data: Array.from({ length: MAX_ACTIVE_TOKENS }, (_, i) => ({ userId: user.id, name: `t${i}`, tokenHash: sha256Hex(`fake-${user.id}-${i}`) })),
    });
    await expect(createApiToken(user.id, "one too many")).rejects.toThrow(/revoke one first/);
    const first = await db.prisma.apiToken.findFirstOrThrow({ where: { userId: user.id } });
    await revokeApiToken(user.id, first.id);
    await expect(createApiToken(user.id, "now it fits")).resolves.toBeTruthy();
  });
});

describe("listApiTokens", () => {
  it("lists only the user's tokens, newest first, without hashes", async () => {
    const user = await newUser();
    const other = await newUser();
    await createApiToken(user.id, "first");
    await new Promise((r) => setTimeout(r, 5));
    await createApiToken(user.id, "second");
    await createApiToken(other.id, "someone else's");
    const list = await listApiTokens(user.id);
    expect(list.map((t) => t.name)).toEqual(["second", "first"]);
    for (const t of list) expect(Object.keys(t).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name", "revokedAt"]);
  });
});

describe("authenticateBearer and revokeApiToken", () => {
  it("authenticates a live token and records lastUsedAt", async () => {
    const user = await newUser();
    const { token, info } = await createApiToken(user.id, "ci");
    await expect(authenticateBearer(`Bearer ${token}`)).resolves.toEqual(user);
    await expect(authenticateBearer(`bearer   ${token} `)).resolves.toEqual(user);
    const [listed] = await listApiTokens(user.id);
    expect(listed!.id).toBe(info.id);
    expect(listed!.lastUsedAt).toBeInstanceOf(Date);
  });

  it("refreshes lastUsedAt only after the resolution interval", async () => {
    const user = await newUser();
    const { token, info } = await createApiToken(user.id, "ci");
    const old = new Date(Date.now() - LAST_USED_RESOLUTION_MS - 1000);
    await db.prisma.apiToken.update({ where: { id: info.id }, data: { lastUsedAt: old } });
    await authenticateBearer(`Bearer ${token}`);
    const fresh = (await db.prisma.apiToken.findUniqueOrThrow({ where: { id: info.id } })).lastUsedAt!;
    expect(fresh.getTime()).toBeGreaterThan(old.getTime());
    await authenticateBearer(`Bearer ${token}`);
    expect((await db.prisma.apiToken.findUniqueOrThrow({ where: { id: info.id } })).lastUsedAt).toEqual(fresh);
  });

  it("rejects missing, malformed and unknown tokens", async () => {
    for (const header of [
      undefined,
      null,
      "",
      "Bearer",
      "Basic dXNlcjpwYXNz",
      "Bearer cfb_short",
      `Bearer cfb_${"A".repeat(43)}`,
      `Bearer cfb_${"A".repeat(43)} extra`,
      `Token cfb_${"A".repeat(43)}`,
    ]) {
      await expect(authenticateBearer(header)).resolves.toBeNull();
    }
  });

  it("stops accepting a token once revoked; only the owner can revoke", async () => {
    const owner = await newUser();
    const intruder = await newUser();
    const { token, info } = await createApiToken(owner.id, "to revoke");
    await expect(revokeApiToken(intruder.id, info.id)).resolves.toBe(false);
    await expect(authenticateBearer(`Bearer ${token}`)).resolves.toEqual(owner);
    await expect(revokeApiToken(owner.id, info.id)).resolves.toBe(true);
    await expect(revokeApiToken(owner.id, info.id)).resolves.toBe(false);
    await expect(authenticateBearer(`Bearer ${token}`)).resolves.toBeNull();
    const [listed] = await listApiTokens(owner.id);
    expect(listed!.revokedAt).toBeInstanceOf(Date);
  });

  it("treats a malformed token id as not found", async () => {
    const user = await newUser();
    await expect(revokeApiToken(user.id, "../../etc")).resolves.toBe(false);
  });

  it("stops accepting tokens of a deleted user", async () => {
    const user = await newUser();
    const { token } = await createApiToken(user.id, "gone");
    await db.prisma.user.delete({ where: { id: user.id } });
    await expect(authenticateBearer(`Bearer ${token}`)).resolves.toBeNull();
  });
});

describe("parseBearer", () => {
  it("extracts only well-formed tokens", () => {
    const token = `cfb_${"a".repeat(43)}`;
    expect(parseBearer(`Bearer ${token}`)).toBe(token);
    expect(parseBearer(`Bearer\t${token}`)).toBe(token);
    expect(parseBearer(token)).toBeNull();
  });
});
