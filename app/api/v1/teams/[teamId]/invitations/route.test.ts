/**
 * Team links and acting for a team through the API (issue 23 F4): only owners make links
 * (`POST /api/v1/teams/{id}/invitations`, single-use unless `maxUses` says more), and a user
 * who submits for one team in a task, then joins another through its link, is refused with a
 * 403 naming their team when they upload for it, withdraw its run or change its final runs.
 *
 * Each request goes to the handler Next's router would pick for its path (`callApi` in
 * ../../../test-helpers.ts), with real API tokens, against the file's test database. The
 * queue is the test double (lib/__mocks__/queue.ts).
 */
import { describe, expect, it, vi } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { useTestDatabase } from "@/lib/db/test-db";
import { acceptTeamInvitation } from "@/lib/teams/invitations";
import { callApi, expectError, expectJson, openPhase, setupScenario, SMALL_RESPONSE } from "@/app/api/v1/test-helpers";

const testDb = useTestDatabase();

function upload(team: string): Record<string, string | { name: string; content: string; type: string }> {
  return { file: { name: "system.conll", content: SMALL_RESPONSE, type: "text/plain" }, systemName: "api system", team };
}

describe("team links and acting for a team, through the API", () => {
  it("a MEMBER cannot make a link (403); an owner's link is single-use by default, or for up to maxUses people", async () => {
    const db = testDb.prisma;
    const { users, teams } = await setupScenario(db, { users: { owner: { token: true }, mate: { token: true } }, teams: { Crew: ["owner", "mate"] } });
    const path = `/api/v1/teams/${teams.Crew!.id}/invitations`;
    const refused = await expectError(await callApi("POST", path, { token: users.mate.token }), 403, "forbidden");
    expect(refused.message).toBe("Only the team's owners can create invitation links.");
    const single = await expectJson<{ invitation: { maxUses: number; status: string } }>(await callApi("POST", path, { token: users.owner.token }), 201);
    expect(single.invitation).toMatchObject({ maxUses: 1, status: "active" });
    const three = await expectJson<{ invitation: { maxUses: number } }>(await callApi("POST", path, { token: users.owner.token, json: { maxUses: 3 } }), 201);
    expect(three.invitation.maxUses).toBe(3);
    await expectError(await callApi("POST", path, { token: users.owner.token, json: { maxUses: 0 } }), 422, "validation");
    expect(await db.teamInvitation.count({ where: { teamId: teams.Crew!.id } })).toBe(2);
  });

  it("the rival who joined through a link is refused (403 naming their team) at upload, withdrawal and final runs", async () => {
    const db = testDb.prisma;
    const { users, teams, task } = await setupScenario(db, {
      users: { owner: { token: true }, rival: { token: true } },
      teams: { Alpha: ["owner"], Beta: ["rival"] },
      task: { phases: [openPhase("main")] },
    });
    const phaseId = task!.phases.main!.id;
    await db.phase.update({ where: { id: phaseId }, data: { selectionRule: "TEAM_SELECTED" } });
    const alpha = teams.Alpha!;
    const beta = teams.Beta!;
    await expectJson(await callApi("POST", `/api/v1/phases/${phaseId}/submissions`, { token: users.rival.token, multipart: upload(beta.name) }), 202);
    const alphaRun = await expectJson<{ id: string }>(await callApi("POST", `/api/v1/phases/${phaseId}/submissions`, { token: users.owner.token, multipart: upload(alpha.name) }), 202);
    const link = await expectJson<{ url: string }>(await callApi("POST", `/api/v1/teams/${alpha.id}/invitations`, { token: users.owner.token }), 201);
    await acceptTeamInvitation({ userId: users.rival.id, role: "USER" }, link.url.split("/").pop()!);

    const uploadRefused = await expectError(await callApi("POST", `/api/v1/phases/${phaseId}/submissions`, { token: users.rival.token, multipart: upload(alpha.name) }), 403, "forbidden");
    expect(uploadRefused.message).toContain(`You submit for team "${beta.name}" in this task`);
    const withdrawRefused = await expectError(await callApi("POST", `/api/v1/submissions/${alphaRun.id}/withdraw`, { token: users.rival.token }), 403, "forbidden");
    expect(withdrawRefused.message).toBe(`You submit for team "${beta.name}" in this task, so you cannot withdraw runs for team "${alpha.name}" here; ask the organizers to change it.`);
    for (const method of ["POST", "DELETE"]) {
      const finalRefused = await expectError(await callApi(method, `/api/v1/submissions/${alphaRun.id}/final`, { token: users.rival.token }), 403, "forbidden");
      expect(finalRefused.message).toContain(`so you cannot choose final runs for team "${alpha.name}"`);
    }
    const run = await db.submission.findUniqueOrThrow({ where: { id: alphaRun.id }, select: { withdrawnAt: true, finalSelectedAt: true } });
    expect(run).toEqual({ withdrawnAt: null, finalSelectedAt: null });
    expect(await db.submission.count({ where: { teamId: alpha.id } })).toBe(1);
    // The owner, who submits for Alpha, may.
    await expectJson(await callApi("POST", `/api/v1/submissions/${alphaRun.id}/final`, { token: users.owner.token }));
  });
});
