/**
 * API tokens through the account page's server actions and the `/api/v1` routes (issue 23 F5),
 * as a browser and a script would use them: the create-token action asks for the current
 * password; a bearer request records `lastUsedAt`, which the page's listing shows; a token
 * revoked by its owner, by "Sign out everywhere", by a password change or by a password reset is
 * refused (401) by the API from then on; another user's token id cannot be revoked.
 *
 * Requests go to the handlers Next's router would pick (`callApi`), with real next-auth session
 * cookies (`sessionCookie`, `withCookies`) and the file's test database.
 */
import { describe, expect, it, vi } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { resetPasswordAction } from "../(auth)/actions";
import { LAST_USED_RESOLUTION_MS, listApiTokens } from "@/lib/accounts/api-tokens";
import { useTestDatabase } from "@/lib/db/test-db";
import { createPasswordResetLink } from "@/lib/accounts/password-reset";
import { createUser } from "@/lib/accounts/users";
import { callApi, expectError, expectJson, sessionCookie, withCookies } from "../api/v1/test-helpers";
import { changePasswordAction, createTokenAction, revokeTokenAction, signOutEverywhereAction, type CreateTokenState } from "./actions";

const testDb = useTestDatabase();
const PASSWORD = "correct horse battery staple";
const IDLE: CreateTokenState = { status: "idle", attempt: 0 };
let serial = 0;

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
}

/** A new account with {@link PASSWORD}, and a function that runs code with its (current) session cookie. */
async function person() {
  serial += 1;
  const user = await createUser({ email: `tokens-${serial}-${Date.now().toString(36)}@example.org`, name: `Token Person ${serial}`, password: PASSWORD });
  const asUser = async <T>(run: () => Promise<T>) => withCookies(await sessionCookie(testDb.prisma, user.id), run);
  return { user, asUser };
}

/** Creates a token through the account page's action, with the right password. */
async function createThroughPage(asUser: <T>(run: () => Promise<T>) => Promise<T>, name: string): Promise<string> {
  const state = await asUser(() => createTokenAction(IDLE, form({ name, password: PASSWORD })));
  if (state.status !== "created") throw new Error(`no token: ${JSON.stringify(state)}`);
  return state.token;
}

const tasksWith = (token: string) => callApi("GET", "/api/v1/tasks", { token });

describe("the account page's API tokens (server actions and /api/v1)", () => {
  it("createTokenAction refuses a session without the password, or with a wrong one (no token); with it, the token works", async () => {
    const { user, asUser } = await person();
    const without = await asUser(() => createTokenAction(IDLE, form({ name: "stolen cookie" })));
    expect(without).toEqual({ status: "error", attempt: 1, name: "stolen cookie", errors: { password: "Enter your current password." } });
    const wrong = await asUser(() => createTokenAction(without, form({ name: "stolen cookie", password: "a guess" })));
    expect(wrong).toEqual({ status: "error", attempt: 2, name: "stolen cookie", errors: { password: "That is not your current password." } });
    expect(await testDb.prisma.apiToken.count({ where: { userId: user.id } })).toBe(0);
    const anonymous = await withCookies(null, () => createTokenAction(IDLE, form({ name: "x", password: PASSWORD })));
    expect(anonymous).toMatchObject({ status: "error", errors: { form: "Your session has ended. Please sign in again." } });

    const token = await createThroughPage(asUser, "laptop");
    expect(token).toMatch(/^cfb_[A-Za-z0-9_-]{43}$/);
    await expectJson(await tasksWith(token));
  });

  it("a bearer request records lastUsedAt (at most once a minute), which the listing shows", async () => {
    const { user, asUser } = await person();
    const token = await createThroughPage(asUser, "ci");
    const [fresh] = await listApiTokens(user.id);
    expect(fresh).toMatchObject({ name: "ci", lastUsedAt: null, revokedAt: null });
    const before = Date.now();
    await expectJson(await tasksWith(token));
    const [used] = await listApiTokens(user.id);
    expect(used!.lastUsedAt).toBeInstanceOf(Date);
    expect(used!.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 5);
    // Within the minute, a second request does not write again.
    await expectJson(await tasksWith(token));
    expect((await listApiTokens(user.id))[0]!.lastUsedAt).toEqual(used!.lastUsedAt);
    expect(LAST_USED_RESOLUTION_MS).toBe(60_000);
  });

  it("revokeTokenAction: the owner's revoked token is refused (401); another user's token id changes nothing", async () => {
    const owner = await person();
    const intruder = await person();
    const token = await createThroughPage(owner.asUser, "to revoke");
    const [row] = await listApiTokens(owner.user.id);
    await intruder.asUser(() => revokeTokenAction(form({ tokenId: row!.id })));
    expect((await listApiTokens(owner.user.id))[0]!.revokedAt).toBeNull();
    await expectJson(await tasksWith(token));

    await owner.asUser(() => revokeTokenAction(form({ tokenId: row!.id })));
    expect((await listApiTokens(owner.user.id))[0]!.revokedAt).toBeInstanceOf(Date);
    await expectError(await tasksWith(token), 401, "unauthorized");
  });

  it("signOutEverywhereAction revokes every token of the account (401 afterwards), not another account's", async () => {
    const { user, asUser } = await person();
    const other = await person();
    const first = await createThroughPage(asUser, "one");
    const second = await createThroughPage(asUser, "two");
    const theirs = await createThroughPage(other.asUser, "theirs");
    await expect(asUser(() => signOutEverywhereAction())).resolves.toBe(true);
    await expectError(await tasksWith(first), 401, "unauthorized");
    await expectError(await tasksWith(second), 401, "unauthorized");
    await expectJson(await tasksWith(theirs));
    expect((await listApiTokens(user.id)).every((t) => t.revokedAt !== null)).toBe(true);
  });

  it("changePasswordAction revokes every token of the account", async () => {
    const { asUser } = await person();
    const token = await createThroughPage(asUser, "before the change");
    const result = await asUser(() => changePasswordAction(form({ currentPassword: PASSWORD, newPassword: "another fine password", confirmPassword: "another fine password" })));
    expect(result).toEqual({ ok: true });
    await expectError(await tasksWith(token), 401, "unauthorized");
  });

  it("resetPasswordAction (the mailed link) revokes every token of the account", async () => {
    const { user, asUser } = await person();
    const token = await createThroughPage(asUser, "before the reset");
    const link = await createPasswordResetLink(user.email);
    const resetToken = new URL(link.url).searchParams.get("token")!;
    const result = await withCookies(null, () => resetPasswordAction(form({ token: resetToken, newPassword: "a reset password here", confirmPassword: "a reset password here" })));
    expect(result).toEqual({ ok: true });
    await expectError(await tasksWith(token), 401, "unauthorized");
  });
});
