/**
 * An account whose e-mail address is not confirmed yet (issue 23 F8), at the HTTP and form
 * level: `POST /api/v1/phases/{id}/submissions` (with its API token and with its session
 * cookie) and the create-team form's server action answer 403 with the message saying how to
 * confirm, storing nothing; after the mailed link is confirmed both work.
 */
import { describe, expect, it, vi } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { createTeamAction } from "@/app/teams/actions";
import { useTestDatabase } from "@/lib/db/test-db";
import { EMAIL_NOT_CONFIRMED } from "@/lib/permissions";
import { confirmEmailAddress } from "@/lib/accounts/email-confirmation";
import { newLinkToken } from "@/lib/teams/invitations";
import { callApi, expectError, expectJson, sessionCookie, setupScenario, SMALL_KEY, SMALL_RESPONSE, submissionCount, withCookies } from "@/app/api/v1/test-helpers";

const testDb = useTestDatabase();

/** Marks a scenario user unconfirmed, as sign-up leaves an account, and returns a usable confirmation token. */
async function unconfirm(userId: string): Promise<string> {
  await testDb.prisma.user.update({ where: { id: userId }, data: { emailConfirmedAt: null } });
  const { token, tokenHash } = newLinkToken();
  await testDb.prisma.emailConfirmationToken.create({ data: { userId, tokenHash, expiresAt: new Date(Date.now() + 3600_000) } });
  return token;
}

function submit(phaseId: string, auth: { token?: string; cookie?: string }) {
  return callApi("POST", `/api/v1/phases/${phaseId}/submissions`, {
    ...auth,
    multipart: { file: { name: "system.conll", content: SMALL_RESPONSE, type: "text/plain" }, systemName: "Unconfirmed system" },
  });
}

describe("an unconfirmed account", () => {
  it("is refused uploads with 403 (token and cookie alike), nothing stored, until it confirms", async () => {
    const { task, users } = await setupScenario(testDb.prisma, { users: { newcomer: { token: true } }, task: { gold: [{ phase: "test", text: SMALL_KEY }] } });
    const phaseId = task!.phases.test!.id;
    const token = await unconfirm(users.newcomer.id);
    const cookie = await sessionCookie(testDb.prisma, users.newcomer.id);

    const byToken = await expectError(await submit(phaseId, { token: users.newcomer.token! }), 403, "forbidden");
    expect(byToken).toEqual({ code: "forbidden", message: EMAIL_NOT_CONFIRMED, reason: "email_not_confirmed", resendAt: "/account" });
    expect((await expectError(await submit(phaseId, { cookie }), 403, "forbidden")).message).toBe(EMAIL_NOT_CONFIRMED);
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(0);
    expect(await testDb.prisma.teamMember.count({ where: { userId: users.newcomer.id } })).toBe(0);

    await confirmEmailAddress(token);
    expect((await expectJson<{ status: string }>(await submit(phaseId, { token: users.newcomer.token! }), 202)).status).toBe("QUEUED");
    expect(await submissionCount(testDb.prisma, phaseId)).toBe(1);
  });

  it("is refused team creation by the form's action with the 403's message, until it confirms", async () => {
    const { users } = await setupScenario(testDb.prisma, { users: { newcomer: {} } });
    const token = await unconfirm(users.newcomer.id);
    const cookie = await sessionCookie(testDb.prisma, users.newcomer.id);
    const form = new FormData();
    form.set("name", `Unconfirmed crew ${Date.now().toString(36)}`);

    const refused = await withCookies(cookie, () => createTeamAction({ status: "idle" }, form));
    expect(refused).toMatchObject({ status: "error", message: EMAIL_NOT_CONFIRMED });
    expect(await testDb.prisma.teamMember.count({ where: { userId: users.newcomer.id } })).toBe(0);

    await confirmEmailAddress(token);
    expect(await withCookies(cookie, () => createTeamAction({ status: "idle" }, form))).toMatchObject({ status: "done" });
    expect(await testDb.prisma.teamMember.count({ where: { userId: users.newcomer.id, role: "OWNER" } })).toBe(1);
  });
});
