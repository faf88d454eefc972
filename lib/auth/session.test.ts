import { createRequire } from "node:module";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AuthOptions } from "next-auth";
import { useTestDatabase } from "../db/test-db";

// getCurrentUser reads the session cookie through next/headers; stand in for the request's
// cookie jar. Everything else is real: next-auth's own handler signs in and out (CSRF
// tokens, the credentials callback, the signOut event) and encrypts the session cookie.
const browser = vi.hoisted(() => ({ cookies: new Map<string, string>() }));
vi.mock("next/headers", () => ({
  cookies: async () => ({ getAll: () => [...browser.cookies].map(([name, value]) => ({ name, value })) }),
}));

// next-auth's framework-independent handler (its package exports do not list it).
const requireFromHere = createRequire(import.meta.url);
interface InternalResponse {
  status?: number;
  body?: unknown;
  redirect?: string;
  cookies?: Array<{ name: string; value: string; options?: { maxAge?: number } }>;
}
const { AuthHandler } = requireFromHere(path.join(path.dirname(requireFromHere.resolve("next-auth")), "core/index.js")) as {
  AuthHandler: (params: { req: Request; options: AuthOptions }) => Promise<InternalResponse>;
};
const { getCurrentUser, getViewer } = await import("./session");
const { createApiToken, revokeApiToken } = await import("../accounts/api-tokens");
const { changePassword, createUser, revokeSessions } = await import("../accounts/users");
const { signOutEverywhere } = await import("../accounts/account");
const { authOptions, usesSecureCookies } = await import("./options");

const db = useTestDatabase();
// Refused sign-ins are answered after this delay (1 s by default); short here, but checked.
const REFUSAL_DELAY_MS = 200;
process.env.SIGN_IN_REFUSAL_DELAY_MS = String(REFUSAL_DELAY_MS);
beforeEach(() => {
  browser.cookies.clear();
});

const SESSION_COOKIE = () => (usesSecureCookies() ? "__Secure-next-auth.session-token" : "next-auth.session-token");
const bearer = (token: string) => new Request("http://127.0.0.1/api/v1/x", { headers: { authorization: `Bearer ${token}` } });

/** A browser's cookie jar talking to next-auth's handler (/api/auth/...). */
class AuthClient {
  readonly jar = new Map<string, string>();

  async call(path: string, method: "GET" | "POST", body?: Record<string, string>, headers: Record<string, string> = {}) {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const request = new Request(`http://127.0.0.1:3000/api/auth/${path}`, {
      method,
      headers: { host: "127.0.0.1:3000", cookie, ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const response = await AuthHandler({ req: request, options: authOptions });
    for (const c of response.cookies ?? []) {
      if (c.value === "" || c.options?.maxAge === 0) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return response;
  }

  private async csrf(): Promise<string> {
    return ((await this.call("csrf", "GET")).body as { csrfToken: string }).csrfToken;
  }

  /** @returns the `error` next-auth sends back (null on success), as `signIn()` sees it */
  async signIn(email: string, password: string, headers: Record<string, string> = {}): Promise<string | null> {
    const csrfToken = await this.csrf();
    const response = await this.call("callback/credentials", "POST", { csrfToken, email, password, json: "true" }, headers);
    return new URL(response.redirect!, "http://127.0.0.1:3000").searchParams.get("error");
  }

  async signOut(): Promise<void> {
    const csrfToken = await this.csrf();
    await this.call("signout", "POST", { csrfToken, json: "true" });
  }

  get sessionCookie(): string | undefined {
    return this.jar.get(SESSION_COOKIE());
  }

  /** What `/api/auth/session` says. */
  async session(): Promise<unknown> {
    return (await this.call("session", "GET")).body;
  }
}

/** Makes the "current request" carry this session cookie (or none). */
function presentCookie(value: string | undefined) {
  browser.cookies.clear();
  if (value !== undefined) browser.cookies.set(SESSION_COOKIE(), value);
}

let n = 0;
const newUser = (password = "0123456789") => createUser({ email: `session${++n}@example.org`, name: `Session ${n}`, password: password });

describe("getCurrentUser", () => {
  it("is null without a cookie, or with one that is not a session token", async () => {
    await expect(getCurrentUser()).resolves.toBeNull();
    presentCookie("not-a-jwt");
    await expect(getCurrentUser()).resolves.toBeNull();
  });

  it("signs in through next-auth and re-reads the user: fresh role, and null once the account is gone", async () => {
    const user = await newUser();
    const client = new AuthClient();
    await expect(client.signIn(user.email.toUpperCase(), "0123456789")).resolves.toBeNull();
    presentCookie(client.sessionCookie);
    await expect(getCurrentUser()).resolves.toEqual(user);
    await db.prisma.user.update({ where: { id: user.id }, data: { role: "ADMIN" } });
    await expect(getViewer()).resolves.toEqual({ userId: user.id, role: "ADMIN" });
    await db.prisma.user.delete({ where: { id: user.id } });
    await expect(getCurrentUser()).resolves.toBeNull();
    await expect(getViewer()).resolves.toBeNull();
  });

  it("sets no session for a wrong password", async () => {
    const user = await newUser();
    const client = new AuthClient();
    await expect(client.signIn(user.email, "wrong password")).resolves.toBe("CredentialsSignin");
    expect(client.sessionCookie).toBeUndefined();
  });
});

describe("session revocation", () => {
  it("sign-out ends the session, and a copy of the old cookie no longer works", async () => {
    const user = await newUser();
    const client = new AuthClient();
    await client.signIn(user.email, "0123456789");
    const copied = client.sessionCookie!;
    presentCookie(copied);
    await expect(getCurrentUser()).resolves.toEqual(user);

    await client.signOut();
    expect(client.sessionCookie).toBeUndefined();
    presentCookie(copied);
    await expect(getCurrentUser()).resolves.toBeNull();
    await expect(getViewer()).resolves.toBeNull();
    // next-auth's own session endpoint agrees, for the copy too.
    const thief = new AuthClient();
    thief.jar.set(SESSION_COOKIE(), copied);
    expect(await thief.session()).not.toHaveProperty("user");

    // Signing in again works, with a new session.
    await client.signIn(user.email, "0123456789");
    presentCookie(client.sessionCookie);
    await expect(getCurrentUser()).resolves.toEqual(user);
    expect(await client.session()).toMatchObject({ user: { id: user.id, email: user.email, name: user.name, role: "USER" } });
  });

  it("signing out with an already revoked cookie does not end the new session", async () => {
    const user = await newUser();
    const old = new AuthClient();
    await old.signIn(user.email, "0123456789");
    const copied = old.sessionCookie!;
    await old.signOut();
    const fresh = new AuthClient();
    await fresh.signIn(user.email, "0123456789");
    const thief = new AuthClient();
    thief.jar.set(SESSION_COOKIE(), copied);
    await thief.signOut();
    presentCookie(fresh.sessionCookie);
    await expect(getCurrentUser()).resolves.toEqual(user);
  });

  it("a password change ends every session; signing in with the new password starts a good one", async () => {
    const user = await newUser("the first password");
    const laptop = new AuthClient();
    const phone = new AuthClient();
    await laptop.signIn(user.email, "the first password");
    await phone.signIn(user.email, "the first password");

    await changePassword(user.id, { currentPassword: "the first password", newPassword: "the second password", confirmPassword: "the second password" });
    for (const client of [laptop, phone]) {
      presentCookie(client.sessionCookie);
      await expect(getCurrentUser()).resolves.toBeNull();
    }
    await expect(laptop.signIn(user.email, "the first password")).resolves.toBe("CredentialsSignin");
    await expect(laptop.signIn(user.email, "the second password")).resolves.toBeNull();
    presentCookie(laptop.sessionCookie);
    await expect(getCurrentUser()).resolves.toEqual(user);
  });

  it("sign out everywhere ends every session of the user, and only that user's", async () => {
    const user = await newUser();
    const other = await newUser();
    const a = new AuthClient();
    const b = new AuthClient();
    const c = new AuthClient();
    await a.signIn(user.email, "0123456789");
    await b.signIn(user.email, "0123456789");
    await c.signIn(other.email, "0123456789");
    await revokeSessions(user.id);
    for (const client of [a, b]) {
      presentCookie(client.sessionCookie);
      await expect(getCurrentUser()).resolves.toBeNull();
    }
    presentCookie(c.sessionCookie);
    await expect(getCurrentUser()).resolves.toEqual(other);
  });

  it("accepts a token from before session versions only until the first revocation", async () => {
    const { encode } = await import("next-auth/jwt");
    const user = await newUser();
    const legacy = await encode({ token: { sub: user.id, role: "USER", name: user.name, email: user.email }, secret: authOptions.secret! });
    presentCookie(legacy);
    await expect(getCurrentUser()).resolves.toEqual(user);
    await revokeSessions(user.id);
    await expect(getCurrentUser()).resolves.toBeNull();
  });

  it("refuses a token signed with another secret", async () => {
    const { encode } = await import("next-auth/jwt");
    const user = await newUser();
    presentCookie(await encode({ token: { sub: user.id, sv: 0 }, secret: "some other secret of enough length!!" }));
    await expect(getCurrentUser()).resolves.toBeNull();
  });

  it("API tokens are separate: ordinary sign-out (revokeSessions) leaves them working; sign out everywhere revokes them", async () => {
    const user = await newUser();
    const { token } = await createApiToken(user.id, "ci");
    await revokeSessions(user.id);
    await expect(getViewer(bearer(token))).resolves.toEqual({ userId: user.id, role: "USER" });
    await signOutEverywhere({ userId: user.id, role: "USER" });
    await expect(getViewer(bearer(token))).resolves.toBeNull();
  });
});

describe("sign-in rate limits through next-auth", () => {
  it("shows the lockout sentence as the sign-in error after 10 wrong passwords, even for the right one", async () => {
    const user = await newUser();
    const client = new AuthClient();
    for (let i = 0; i < 10; i++) await expect(client.signIn(user.email, `wrong ${i}`)).resolves.toBe("CredentialsSignin");
    const started = performance.now();
    const error = await client.signIn(user.email, "0123456789");
    expect(error).toMatch(/^Too many sign-in attempts for this email address\. Try again at (\d{4}-\d\d-\d\d )?\d\d:\d\d \(UTC\)\.$/);
    // Answered only after the refusal delay.
    expect(performance.now() - started).toBeGreaterThanOrEqual(REFUSAL_DELAY_MS - 5);
    expect(client.sessionCookie).toBeUndefined();
  });

  it("limits per client address from X-Forwarded-For (100 failures per 15 minutes by default)", async () => {
    const client = new AuthClient();
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    // 100 failures spread over 20 emails (5 each, under the per-email limit).
    for (let i = 0; i < 100; i++) await expect(client.signIn(`nobody${i % 20}@example.org`, "wrong password", from("203.0.113.7"))).resolves.toBe("CredentialsSignin");
    const user = await newUser();
    await expect(client.signIn(user.email, "0123456789", from("203.0.113.7"))).resolves.toMatch(/^Too many sign-in attempts from your network address\. Try again at/);
    // Another address is not affected, and the refused attempt did not count against the email.
    await expect(client.signIn(user.email, "0123456789", from("198.51.100.1"))).resolves.toBeNull();
  }, 60_000);
});

describe("getViewer", () => {
  it("accepts a bearer token, and judges a request with one by the token alone", async () => {
    const tokenUser = await newUser();
    const cookieUser = await newUser();
    const { token, info } = await createApiToken(tokenUser.id, "api");
    const client = new AuthClient();
    await client.signIn(cookieUser.email, "0123456789");
    presentCookie(client.sessionCookie);

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

  it("carries id, role and session version through the JWT; the session callback re-reads the user", async () => {
    const user = await newUser();
    const jwt = authOptions.callbacks!.jwt!;
    const token = await jwt({ token: {}, user: { ...user, sessionVersion: 0 } as never, account: null, trigger: "signIn" } as never);
    expect(token).toMatchObject({ sub: user.id, role: "USER", email: user.email, name: user.name, sv: 0 });
    const next = await jwt({ token, account: null } as never);
    expect(next).toMatchObject({ sub: user.id, role: "USER", sv: 0 });
    const s = await authOptions.callbacks!.session!({ session: { expires: "2099-01-01T00:00:00.000Z" }, token: next } as never);
    expect(s.user).toEqual({ id: user.id, role: "USER", name: user.name, email: user.email });
    await revokeSessions(user.id);
    const revoked = await authOptions.callbacks!.session!({ session: { expires: "2099-01-01T00:00:00.000Z" }, token: next } as never);
    expect(revoked).toEqual({ expires: "2099-01-01T00:00:00.000Z" });
  });
});
