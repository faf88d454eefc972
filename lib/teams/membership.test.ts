/**
 * Team membership against a real database (issue 23 F4): owners remove members and make
 * owners, members leave, the last-owner rule, the audit rows, runs staying the team's; one
 * team per user per task for acting (the rival who joined another team cannot upload,
 * withdraw or choose final runs for it); and who withdrew or chose what, for the teams page.
 * The queue is mocked (uploads enqueue nothing real).
 */
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { closeRateLimitStore } from "../rate-limit";
import { setFinalSelection } from "../runs/final-selection";
import { withdrawSubmission } from "../runs/controls";
import { createSubmission } from "../runs/submissions";
import { acceptTeamInvitation, createTeamInvitation } from "./invitations";
import { leaveTeam, listTeamRunActions, makeTeamOwner, removeTeamMember } from "./membership";
import { listTeamsOf } from "./teams";
import { bytes, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, SMALL_KEY } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

beforeEach(() => {
  vi.mocked(enqueueScoring).mockReset();
  vi.mocked(enqueueScoring).mockResolvedValue(undefined);
});
afterAll(() => closeRateLimitStore());

/** Team Crew: owner, member, second; and an outsider. */
async function setup() {
  const db = testDb.prisma;
  const owner = await makeUser(db, "Owner");
  const member = await makeUser(db, "Member");
  const second = await makeUser(db, "Second");
  const outsider = await makeUser(db, "Outsider");
  const team = await makeTeam(db, "Crew", [owner.id, member.id, second.id]);
  return { db, owner, member, second, outsider, team };
}

async function roleOf(teamId: string, userId: string) {
  return (await testDb.prisma.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { role: true } }))?.role ?? null;
}

async function auditRows(teamId: string, action: string) {
  return testDb.prisma.auditEvent.findMany({ where: { targetType: "team", targetId: teamId, action }, orderBy: { at: "asc" } });
}

describe("removeTeamMember", () => {
  it("an owner removes a member: the membership goes, the run stays the team's, audited as team.member_remove", async () => {
    const f = await setup();
    const { phase } = await makeTaskWithPhase(f.db);
    const run = await insertSubmission(f.db, { phaseId: phase.id, teamId: f.team.id, submitterId: f.member.id });
    expect(await removeTeamMember(f.owner.viewer, { teamId: f.team.id, userId: f.member.id })).toEqual({ teamId: f.team.id, userId: f.member.id, role: null });
    expect(await roleOf(f.team.id, f.member.id)).toBeNull();
    expect((await f.db.submission.findUniqueOrThrow({ where: { id: run.id } })).teamId).toBe(f.team.id);
    const rows = await auditRows(f.team.id, "team.member_remove");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: f.owner.id, data: { userId: f.member.id, role: "MEMBER" } });
    // Gone is gone: removing again is a 404.
    expect(await rejection(removeTeamMember(f.owner.viewer, { teamId: f.team.id, userId: f.member.id }))).toBeInstanceOf(NotFoundError);
  });

  it("a MEMBER cannot remove anyone (403); outsiders get a 404, anonymous a 401, malformed ids a 422; removing oneself is a 409", async () => {
    const f = await setup();
    const refused = await rejection(removeTeamMember(f.member.viewer, { teamId: f.team.id, userId: f.second.id }));
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect(refused.message).toBe("Only the team's owners can remove members.");
    expect(await rejection(removeTeamMember(f.member.viewer, { teamId: f.team.id, userId: f.owner.id }))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(removeTeamMember(f.outsider.viewer, { teamId: f.team.id, userId: f.member.id }))).toBeInstanceOf(NotFoundError);
    expect(await rejection(removeTeamMember(null, { teamId: f.team.id, userId: f.member.id }))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(removeTeamMember(f.owner.viewer, { teamId: "nope", userId: f.member.id }))).toBeInstanceOf(ValidationError);
    expect(await rejection(removeTeamMember(f.owner.viewer, { teamId: f.team.id, userId: f.owner.id }))).toBeInstanceOf(ConflictError);
    expect(await rejection(removeTeamMember(f.owner.viewer, { teamId: f.team.id, userId: f.outsider.id }))).toBeInstanceOf(NotFoundError);
    expect(await f.db.teamMember.count({ where: { teamId: f.team.id } })).toBe(3);
    expect(await auditRows(f.team.id, "team.member_remove")).toHaveLength(0);
  });
});

describe("leaveTeam and makeTeamOwner", () => {
  it("a member leaves (audited as team.leave); the last owner cannot while others stay (409), can after making another owner", async () => {
    const f = await setup();
    expect(await leaveTeam(f.second.viewer, { teamId: f.team.id })).toMatchObject({ role: null });
    expect((await auditRows(f.team.id, "team.leave"))[0]).toMatchObject({ actorId: f.second.id, data: { role: "MEMBER" } });

    const refused = await rejection(leaveTeam(f.owner.viewer, { teamId: f.team.id }));
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused.message).toBe("You are the team's only owner: make another member owner before you leave.");
    expect(await roleOf(f.team.id, f.owner.id)).toBe("OWNER");

    expect(await rejection(makeTeamOwner(f.member.viewer, { teamId: f.team.id, userId: f.member.id }))).toBeInstanceOf(ForbiddenError);
    expect(await makeTeamOwner(f.owner.viewer, { teamId: f.team.id, userId: f.member.id })).toEqual({ teamId: f.team.id, userId: f.member.id, role: "OWNER" });
    expect(await roleOf(f.team.id, f.member.id)).toBe("OWNER");
    expect((await auditRows(f.team.id, "team.owner_add"))[0]).toMatchObject({ actorId: f.owner.id, data: { userId: f.member.id } });
    // Again: nothing changes, nothing is written.
    await makeTeamOwner(f.owner.viewer, { teamId: f.team.id, userId: f.member.id });
    expect(await auditRows(f.team.id, "team.owner_add")).toHaveLength(1);

    await leaveTeam(f.owner.viewer, { teamId: f.team.id });
    expect(await roleOf(f.team.id, f.owner.id)).toBeNull();
    expect((await listTeamsOf(f.member.id))[0]).toMatchObject({ id: f.team.id, role: "OWNER", memberCount: 1 });
    // The last member may leave; the team stays, empty.
    await leaveTeam(f.member.viewer, { teamId: f.team.id });
    expect(await f.db.team.count({ where: { id: f.team.id } })).toBe(1);
    expect(await f.db.teamMember.count({ where: { teamId: f.team.id } })).toBe(0);
    expect(await rejection(leaveTeam(f.member.viewer, { teamId: f.team.id }))).toBeInstanceOf(NotFoundError);
  });

  it("two owners leaving at once cannot leave the team without an owner", async () => {
    const f = await setup();
    await makeTeamOwner(f.owner.viewer, { teamId: f.team.id, userId: f.member.id });
    const results = await Promise.allSettled([leaveTeam(f.owner.viewer, { teamId: f.team.id }), leaveTeam(f.member.viewer, { teamId: f.team.id })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await f.db.teamMember.count({ where: { teamId: f.team.id, role: "OWNER" } })).toBe(1);
  });
});

describe("one team per user per task, for acting", () => {
  /**
   * The attack of issue 23 F4: Rival submits for Beta in the task, then joins Alpha through an
   * invitation link, and tries to upload for Alpha, withdraw Alpha's run and change Alpha's
   * final runs.
   */
  async function rivalWorld() {
    const db = testDb.prisma;
    const owner = await makeUser(db, "Alpha Owner");
    const rival = await makeUser(db, "Rival");
    const { task, phase } = await makeTaskWithPhase(db);
    await db.phase.update({ where: { id: phase.id }, data: { selectionRule: "TEAM_SELECTED", finalRunLimit: 2 } });
    const alpha = await makeTeam(db, "Alpha", [owner.id]);
    const beta = await makeTeam(db, "Beta", [rival.id]);
    const upload = (viewer: typeof rival.viewer, team: string) =>
      createSubmission({ viewer, phaseId: phase.id, fileName: "system.conll", bytes: bytes(SMALL_KEY), systemName: "sys", team });
    await upload(rival.viewer, beta.name);
    const alphaRun = await upload(owner.viewer, alpha.name);
    const { url } = await createTeamInvitation(owner.viewer, alpha.id);
    await acceptTeamInvitation(rival.viewer, url.split("/").pop()!);
    return { db, owner, rival, task, phase, alpha, beta, alphaRun, upload };
  }

  it("the rival is refused at each step (403 naming their team) and changes nothing", async () => {
    const w = await rivalWorld();
    const runsBefore = await w.db.submission.count({ where: { teamId: w.alpha.id } });

    const uploadRefused = await rejection(w.upload(w.rival.viewer, w.alpha.name));
    expect(uploadRefused).toBeInstanceOf(ForbiddenError);
    expect(uploadRefused.message).toContain(`You submit for team "${w.beta.name}" in this task`);

    const withdrawRefused = await rejection(withdrawSubmission(w.rival.viewer, w.alphaRun.id));
    expect(withdrawRefused).toBeInstanceOf(ForbiddenError);
    expect(withdrawRefused.message).toBe(
      `You submit for team "${w.beta.name}" in this task, so you cannot withdraw runs for team "${w.alpha.name}" here; ask the organizers to change it.`,
    );

    for (const selected of [true, false]) {
      const finalRefused = await rejection(setFinalSelection(w.rival.viewer, w.alphaRun.id, selected));
      expect(finalRefused).toBeInstanceOf(ForbiddenError);
      expect(finalRefused.message).toBe(
        `You submit for team "${w.beta.name}" in this task, so you cannot choose final runs for team "${w.alpha.name}" here; ask the organizers to change it.`,
      );
    }

    const run = await w.db.submission.findUniqueOrThrow({ where: { id: w.alphaRun.id } });
    expect(run.withdrawnAt).toBeNull();
    expect(run.finalSelectedAt).toBeNull();
    expect(await w.db.submission.count({ where: { teamId: w.alpha.id } })).toBe(runsBefore);
    expect(await w.db.auditEvent.count({ where: { targetId: w.alphaRun.id, action: { in: ["submission.withdraw", "submission.final_select", "submission.final_unselect"] } } })).toBe(0);
  });

  it("Alpha's own member may act, and a member with no runs in the task may too", async () => {
    const w = await rivalWorld();
    const fresh = await makeUser(w.db, "Fresh");
    await w.db.teamMember.create({ data: { teamId: w.alpha.id, userId: fresh.id, role: "MEMBER" } });
    expect((await setFinalSelection(fresh.viewer, w.alphaRun.id, true)).changed).toBe(true);
    expect((await withdrawSubmission(w.owner.viewer, w.alphaRun.id)).withdrawnAt).not.toBeNull();
  });

  it("the team page's list says who withdrew and who chose final runs, and when, newest first; members only", async () => {
    const w = await rivalWorld();
    const mate = await makeUser(w.db, "Mate");
    await w.db.teamMember.create({ data: { teamId: w.alpha.id, userId: mate.id, role: "MEMBER" } });
    const t1 = new Date(Date.now() - 60_000);
    const t2 = new Date(Date.now() - 30_000);
    await setFinalSelection(mate.viewer, w.alphaRun.id, true, t1);
    await withdrawSubmission(w.owner.viewer, w.alphaRun.id, { now: t2 });
    const list = await listTeamRunActions(mate.viewer, w.alpha.id);
    expect(list.map((e) => [e.kind, e.actor?.name])).toEqual([
      ["withdraw", "Alpha Owner"],
      ["final_select", "Mate"],
    ]);
    expect(list[0].run).toMatchObject({ id: w.alphaRun.id, systemName: "sys", phaseName: w.phase.name, task: { slug: w.task.slug } });
    // Beta's list does not show Alpha's changes; outsiders get a 404.
    expect(await listTeamRunActions(w.rival.viewer, w.beta.id)).toEqual([]);
    const outsider = await makeUser(w.db, "Outsider");
    expect(await rejection(listTeamRunActions(outsider.viewer, w.alpha.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(listTeamRunActions(null, w.alpha.id))).toBeInstanceOf(UnauthorizedError);
  });

  it("new audit events carry their team in the team_id column: run events the run's team, team events the team", async () => {
    const w = await rivalWorld();
    await setFinalSelection(w.owner.viewer, w.alphaRun.id, true);
    await setFinalSelection(w.owner.viewer, w.alphaRun.id, false);
    await withdrawSubmission(w.owner.viewer, w.alphaRun.id);
    const alphaEvents = await w.db.auditEvent.findMany({ where: { teamId: w.alpha.id }, orderBy: { at: "asc" }, select: { action: true, targetId: true } });
    expect(alphaEvents.map((e) => e.action).sort()).toEqual(
      ["submission.create", "team.invitation_create", "team.join", "submission.final_select", "submission.final_unselect", "submission.withdraw"].sort(),
    );
    // Every run event on Alpha's run, and only those, names Alpha; Beta's upload names Beta.
    const runEvents = await w.db.auditEvent.findMany({ where: { targetType: "submission" }, select: { targetId: true, teamId: true, data: true } });
    expect(runEvents.length).toBeGreaterThan(4);
    for (const e of runEvents) expect(e.teamId).toBe((e.data as { teamId: string }).teamId);
    expect(runEvents.filter((e) => e.targetId === w.alphaRun.id).every((e) => e.teamId === w.alpha.id)).toBe(true);
    expect(runEvents.filter((e) => e.teamId === w.beta.id)).toHaveLength(1);
    // Events on no team (the task and phase set-up) have none.
    expect(await w.db.auditEvent.count({ where: { targetType: { in: ["task", "phase"] }, teamId: { not: null } } })).toBe(0);
  });
});

describe("listTeamRunActions's query", () => {
  it("is served by the (team_id, at DESC, id) index, not a scan of the site's audit events", async () => {
    const db = testDb.prisma;
    const owner = await makeUser(db, "Indexed Owner");
    const team = await makeTeam(db, "Indexed", [owner.id]);
    // A site with 300 other teams and 30,000 run events, and 2,000 on this team's runs.
    await db.$executeRaw`INSERT INTO teams (name) SELECT 'Other ' || g FROM generate_series(1, 300) g`;
    await db.$executeRaw`
      INSERT INTO audit_events (action, target_type, target_id, team_id, data, at)
      SELECT (ARRAY['submission.create', 'submission.withdraw', 'submission.final_select'])[1 + g % 3], 'submission', gen_random_uuid()::text,
             t.id, jsonb_build_object('teamId', t.id), now() - g * interval '1 minute'
      FROM generate_series(1, 30000) g
      JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM teams WHERE name LIKE 'Other %') t ON t.n = g % 300`;
    await db.$executeRaw`
      INSERT INTO audit_events (action, target_type, target_id, team_id, data, at)
      SELECT 'submission.withdraw', 'submission', gen_random_uuid()::text, ${team.id}::uuid, jsonb_build_object('teamId', ${team.id}::text), now() - g * interval '1 minute'
      FROM generate_series(1, 2000) g`;
    await db.$executeRaw`ANALYZE audit_events`;

    // The SQL the service sends for the audit events, caught on its way to Postgres.
    const sent: { text: string; values: unknown[] }[] = [];
    const originalQuery = pg.Client.prototype.query;
    const query = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string; values?: unknown[] };
      const text = typeof config === "string" ? config : config?.text;
      if (text && /FROM "public"\."audit_events"/.test(text)) sent.push({ text, values: (typeof config === "string" ? (args[1] as unknown[]) : config.values) ?? [] });
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args) as never;
    });
    try {
      // The run events are of runs that do not exist, so the list is empty; the query is what counts.
      expect(await listTeamRunActions(owner.viewer, team.id)).toEqual([]);
    } finally {
      query.mockRestore();
    }
    expect(sent).toHaveLength(1);
    const [{ text, values }] = sent;
    expect(text).toContain('"team_id" = $');
    expect(text).not.toContain("teamId");

    const client = new pg.Client({ connectionString: testDb.connectionString });
    await client.connect();
    try {
      // The same statement and parameters, explained (ANALYZE: as actually run).
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, FORMAT TEXT) ${text}`, values);
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      // An ordered scan of the team's entries that stops at the limit: no sort, no seq scan.
      expect(plan).toMatch(/Limit[^\n]*\n\s*->\s+Index Scan using audit_events_team_id_at_id_idx on audit_events/);
      expect(plan).toMatch(/Index Cond: \(team_id = '[0-9a-f-]+'::uuid\)/);
      expect(plan).not.toMatch(/Seq Scan|Sort/);
    } finally {
      await client.end();
    }
  });
});
