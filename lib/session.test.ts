import { beforeEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "./db/test-db";

// getServerSession needs a Next.js request context; stand in for it.
const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: vi.fn(async () => session.current),
}));

const { getCurrentUser, getViewer } = await import("./session");
const { createApiToken, revokeApiToken } = await import("./auth/api-tokens");
const { signUp } = await import("./services/users");
const { authOptions } = await import("./auth/options");

const db = useTestDatabase();
beforeEach(() => {
  session.current = null;
});

const bearer = (token: string) => new Request("http://127.0.0.1/api/v1/x", { headers: { authorization: `Bearer ${token}` } });

describe("getCurrentUser", () => {
  it("is null without a session", async () => {
    await expect(getCurrentUser()).resolves.toBeNull();
  });

  it("re-reads the user: fresh role, and null once the account is gone", async () => {
    const user = await signUp("session@example.org", "Session", "0123456789");
    session.current = { user: { id: user.id } };
    await expect(getCurrentUser()).resolves.toEqual(user);
    await db.prisma.user.update({ where: { id: user.id }, data: { role: "ADMIN" } });
    await expect(getViewer()).resolves.toEqual({ userId: user.id, role: "ADMIN" });
    await db.prisma.user.delete({ where: { id: user.id } });
    await expect(getCurrentUser()).resolves.toBeNull();
    await expect(getViewer()).resolves.toBeNull();
  });
});

describe("getViewer", () => {
  it("accepts a bearer token, and judges a request with one by the token alone", async () => {
    const tokenUser = await signUp("bearer@example.org", "Bearer", "0123456789");
    const cookieUser = await signUp("cookie@example.org", "Cookie", "0123456789");
    const { token, info } = await createApiToken(tokenUser.id, "api");
    session.current = { user: { id: cookieUser.id } };

    await expect(getViewer(bearer(token))).resolves.toEqual({ userId: tokenUser.id, role: "USER" });
    await expect(getViewer(new Request("http://127.0.0.1/"))).resolves.toEqual({ userId: cookieUser.id, role: "USER" });
    await expect(getViewer(bearer(`cfb_${"x".repeat(43)}`))).resolves.toBeNull();
    await revokeApiToken(tokenUser.id, info.id);
    await expect(getViewer(bearer(token))).resolves.toBeNull();
  });
});

describe("authOptions", () => {
  it("uses JWT sessions and the /signin page", () => {
    expect(authOptions.session?.strategy).toBe("jwt");
    expect(authOptions.pages?.signIn).toBe("/signin");
    expect(authOptions.secret).toBeTruthy();
  });

  it("authorizes good credentials only, and carries id and role through JWT and session", async () => {
    const user = await signUp("creds@example.org", "Creds", "0123456789");
    const provider = authOptions.providers[0] as unknown as {
      options: { authorize: (c: Record<string, string> | undefined, req: unknown) => Promise<unknown> };
    };
    await expect(provider.options.authorize({ email: "CREDS@example.org", password: "0123456789" }, {})).resolves.toEqual(user);
    await expect(provider.options.authorize({ email: "creds@example.org", password: "wrong password" }, {})).resolves.toBeNull();
    await expect(provider.options.authorize(undefined, {})).resolves.toBeNull();

    const jwt = authOptions.callbacks!.jwt!;
    const token = await jwt({ token: {}, user: user as never, account: null, trigger: "signIn" } as never);
    expect(token).toMatchObject({ sub: user.id, role: "USER", email: "creds@example.org", name: "Creds" });
    const next = await jwt({ token, account: null } as never);
    expect(next).toMatchObject({ sub: user.id, role: "USER" });
    const s = await authOptions.callbacks!.session!({ session: { expires: "" }, token: next } as never);
    expect(s.user).toEqual({ id: user.id, role: "USER", name: "Creds", email: "creds@example.org" });
  });
});
