/** Teams (creation, join codes, team resolution) and tasks/phases (creation, changes, views) against a real database. */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { ForbiddenError, RateLimitedError, ValidationError } from "../errors";
import { closeRateLimitStore, consumeRateLimit } from "../rate-limit";
import type { Viewer } from "../permissions";
import { addOrganizer, addPhase, createTask, getTaskForViewer, updatePhase } from "../tasks/tasks";
import { listTasksForViewer } from "../tasks/tasks-list";
import {
  createTeam,
  ensurePersonalTeam,
  findSubmittingTeam,
  formatJoinCode,
  getJoinCode,
  joinCodeFor,
  joinTeam,
  listTaskParticipants,
  listTaskTeamsOf,
  listTeamsOf,
  pickTaskTeam,
  resolveSubmittingTeam,
  setParticipantTeam,
  taskTeamOf,
} from "./teams";
import { makeTaskWithPhase, makeTeam, makeUser, rejection, thrown } from "../tasks/test-fixtures";
import { packFile } from "../storage";
import { customProfile, EVALUATION_PROFILES } from "../../scoring";

const testDb = useTestDatabase();
afterAll(() => closeRateLimitStore());

describe("join codes", () => {
  it("are deterministic per team and secret, 16 base32 characters, different across teams and secrets", () => {
    const id = "3f2b8c1e-0000-4000-8000-000000000001";
    const code = joinCodeFor(id, "secret-a");
    expect(code).toMatch(/^[A-Z2-7]{16}$/);
    expect(joinCodeFor(id, "secret-a")).toBe(code);
    expect(joinCodeFor(id, "secret-b")).not.toBe(code);
    expect(joinCodeFor("3f2b8c1e-0000-4000-8000-000000000002", "secret-a")).not.toBe(code);
    expect(formatJoinCode("ABCDEFGHIJKLMNOP")).toBe("ABCD-EFGH-IJKL-MNOP");
  });
});

describe("teams", () => {
  it("createTeam makes the creator OWNER and refuses a taken name, case-insensitively", async () => {
    const db = testDb.prisma;
    const u = await makeUser(db, "Creator");
    const team = await createTeam(u.id, "  Coref Wizards ");
    expect(team).toMatchObject({ name: "Coref Wizards", role: "OWNER", memberCount: 1 });
    const other = await makeUser(db, "Other");
    const error = await rejection(createTeam(other.id, "coref wizards"));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors[0].path).toBe("name");
    expect((await rejection(createTeam(other.id, "x"))).httpStatus).toBe(422);
    expect(await db.auditEvent.count({ where: { action: "team.create", targetId: team.id } })).toBe(1);
  });

  it("joinTeam with the code a member sees adds a MEMBER once; a wrong code is 404", async () => {
    const db = testDb.prisma;
    const owner = await makeUser(db, "Owner");
    const joiner = await makeUser(db, "Joiner");
    const team = await createTeam(owner.id, "Joinable");
    const code = await getJoinCode(owner.id, team.id);
    expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
    expect((await rejection(getJoinCode(joiner.id, team.id))).httpStatus).toBe(404);
    const joined = await joinTeam(joiner.id, code.toLowerCase());
    expect(joined).toMatchObject({ id: team.id, role: "MEMBER", memberCount: 2 });
    expect((await joinTeam(joiner.id, code)).memberCount).toBe(2);
    // A MEMBER cannot pass the code on (only owners let people in).
    expect((await rejection(getJoinCode(joiner.id, team.id))).httpStatus).toBe(403);
    expect((await listTeamsOf(joiner.id)).map((t) => t.id)).toEqual([team.id]);
    const wrong = code.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    expect((await rejection(joinTeam(joiner.id, wrong))).httpStatus).toBe(404);
    expect((await rejection(joinTeam(joiner.id, "short"))).httpStatus).toBe(422);
  });
});

describe("team creation rate limit", () => {
  it("createTeam: over the limit is a 429 saying when to try again; nothing is created; other users are not affected", async () => {
    const db = testDb.prisma;
    vi.stubEnv("RATE_LIMIT_TEAM_CREATE", "2/1h");
    const u = await makeUser(db, "Team Hoarder");
    await createTeam(u.id, `Hoard one ${u.id}`);
    await createTeam(u.id, `Hoard two ${u.id}`);
    const error = await rejection(createTeam(u.id, `Hoard three ${u.id}`));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.httpStatus).toBe(429);
    expect(error.message).toMatch(/^You have created too many teams recently\. Try again at .*\(UTC\)\.$/);
    expect(error.details).toMatchObject({ retryAfterSeconds: expect.any(Number) });
    expect((error.details!.retryAfterSeconds as number) > 3000).toBe(true);
    expect(await db.team.count({ where: { members: { some: { userId: u.id } } } })).toBe(2);
    const other = await makeUser(db, "Modest Creator");
    expect((await createTeam(other.id, `Modest ${other.id}`)).role).toBe("OWNER");
  });

  it("ensurePersonalTeam: creating the personal team counts against the same limit; returning an existing team does not", async () => {
    const db = testDb.prisma;
    vi.stubEnv("RATE_LIMIT_TEAM_CREATE", "1/1h");
    const loner = await makeUser(db, "Limited Loner");
    await consumeRateLimit("team-create", loner.id);
    expect(await rejection(ensurePersonalTeam(loner.id))).toBeInstanceOf(RateLimitedError);
    expect(await listTeamsOf(loner.id)).toEqual([]);
    const member = await makeUser(db, "Member At Limit");
    const team = await createTeam(member.id, `At limit ${member.id}`);
    expect((await ensurePersonalTeam(member.id)).id).toBe(team.id);
    expect(await rejection(createTeam(member.id, `Over limit ${member.id}`))).toBeInstanceOf(RateLimitedError);
  });
});

describe("team resolution for submissions", () => {
  it("in no team: a personal team named after the user is created once, even for concurrent calls", async () => {
    const db = testDb.prisma;
    const u = await makeUser(db, "Nora Newcomer");
    expect(await findSubmittingTeam(u.id)).toBeNull();
    expect(await db.team.count({ where: { members: { some: { userId: u.id } } } })).toBe(0);
    const [a, b] = await Promise.all([resolveSubmittingTeam(u.id), ensurePersonalTeam(u.id)]);
    expect(a.id).toBe(b.id);
    expect(a.name).toBe("Nora Newcomer");
    expect(await listTeamsOf(u.id)).toMatchObject([{ id: a.id, role: "OWNER", memberCount: 1 }]);
  });

  it("a personal team gets a suffix when the user's name is taken by another team", async () => {
    const db = testDb.prisma;
    const first = await makeUser(db, "Sam Same");
    const second = await makeUser(db, "Sam Same");
    const t1 = await ensurePersonalTeam(first.id);
    const t2 = await ensurePersonalTeam(second.id);
    expect(t1.name).toBe("Sam Same");
    expect(t2.name).toBe(`Sam Same (${second.id.slice(0, 8)})`);
  });

  it("in exactly one team: that team; naming it by name or id also works", async () => {
    const db = testDb.prisma;
    const u = await makeUser(db, "Uno");
    const team = await createTeam(u.id, "Only Team");
    expect((await resolveSubmittingTeam(u.id)).id).toBe(team.id);
    expect((await resolveSubmittingTeam(u.id, "only team")).id).toBe(team.id);
    expect((await resolveSubmittingTeam(u.id, team.id)).id).toBe(team.id);
  });

  it("in several teams: must name one, else a 422 on field `team` listing them", async () => {
    const db = testDb.prisma;
    const u = await makeUser(db, "Multi");
    const a = await createTeam(u.id, "Multi A");
    await createTeam(u.id, "Multi B");
    const error = await rejection(resolveSubmittingTeam(u.id));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors[0].path).toBe("team");
    expect(error.message).toContain("Multi A");
    expect(error.message).toContain("Multi B");
    expect((await resolveSubmittingTeam(u.id, "Multi A")).id).toBe(a.id);
  });

  it("naming a team one is not in is 403, whether it exists or not, and creates nothing", async () => {
    const db = testDb.prisma;
    const owner = await makeUser(db, "Stranger Owner");
    await createTeam(owner.id, "Closed Club");
    const u = await makeUser(db, "Outsider");
    for (const ref of ["Closed Club", "No Such Team"]) {
      const error = await rejection(resolveSubmittingTeam(u.id, ref));
      expect(error.httpStatus).toBe(403);
    }
    expect(await listTeamsOf(u.id)).toEqual([]);
  });
});

describe("the team recorded for a user in a task", () => {
  it("pickTaskTeam: with a record, that team whatever else the user is in; naming another is 403; without one, as pickSubmittingTeam", () => {
    const a = { id: "3f2b8c1e-0000-4000-8000-00000000000a", name: "Alpha" };
    const b = { id: "3f2b8c1e-0000-4000-8000-00000000000b", name: "Beta" };
    expect(pickTaskTeam(a, [b, a])).toBe(a);
    expect(pickTaskTeam(a, [b, a], "alpha")).toBe(a);
    expect(pickTaskTeam(a, [b, a], a.id.toUpperCase())).toBe(a);
    const other = thrown(() => pickTaskTeam(a, [b, a], "Beta"));
    expect(other).toBeInstanceOf(ForbiddenError);
    expect(other.message).toBe('You submit for team "Alpha" in this task; ask the organizers to change it.');
    expect(thrown(() => pickTaskTeam(a, [b])).message).toContain("no longer one of its members");
    expect(pickTaskTeam(null, [b], undefined)).toBe(b);
    expect(thrown(() => pickTaskTeam(null, [a, b])).httpStatus).toBe(422);
    expect(pickTaskTeam(null, [])).toBeNull();
  });

  it("setParticipantTeam: organizers (and admins) only; the user must be a member of the team; unknown ids are 404", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Participants Organizer");
    const admin = await makeUser(db, "Participants Admin", "ADMIN");
    const user = await makeUser(db, "Recorded User");
    const stranger = await makeUser(db, "Stranger");
    const { task } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    const mine = await makeTeam(db, "Mine", [user.id]);
    const also = await makeTeam(db, "Also mine", [user.id]);
    const notMine = await makeTeam(db, "Not mine", [stranger.id]);
    await db.taskParticipant.create({ data: { taskId: task.id, userId: user.id, teamId: mine.id } });

    expect((await rejection(setParticipantTeam(null, task.id, user.id, also.id))).httpStatus).toBe(401);
    expect((await rejection(setParticipantTeam(user.viewer, task.id, user.id, also.id))).httpStatus).toBe(403);
    expect((await rejection(setParticipantTeam(stranger.viewer, task.id, user.id, null))).httpStatus).toBe(403);
    const notMember = await rejection(setParticipantTeam(organizer.viewer, task.id, user.id, notMine.id));
    expect(notMember).toBeInstanceOf(ValidationError);
    expect((notMember as ValidationError).fieldErrors[0]).toMatchObject({ path: "teamId", message: expect.stringContaining('not a member of the team "') });
    for (const [taskId, userId, teamId] of [
      ["00000000-0000-4000-8000-000000000000", user.id, also.id],
      ["nonsense", user.id, also.id],
      [task.id, "00000000-0000-4000-8000-000000000000", also.id],
      [task.id, user.id, "00000000-0000-4000-8000-000000000000"],
      [task.id, user.id, "nonsense"],
    ]) {
      expect((await rejection(setParticipantTeam(organizer.viewer, taskId, userId, teamId))).httpStatus).toBe(404);
    }
    expect((await taskTeamOf(task.id, user.id))?.team.id).toBe(mine.id);
    expect(await db.auditEvent.count({ where: { action: "task.participant.update", targetId: task.id } })).toBe(0);

    const changed = await setParticipantTeam(admin.viewer, task.id, user.id, also.id);
    expect(changed?.team).toEqual({ id: also.id, name: also.name });
    // The same team again changes nothing and writes nothing.
    await setParticipantTeam(organizer.viewer, task.id, user.id, also.id);
    const events = await db.auditEvent.findMany({ where: { action: "task.participant.update", targetId: task.id } });
    expect(events.map((e) => [e.actorId, e.targetType, e.data])).toEqual([
      [admin.id, "task", { userId: user.id, from: { id: mine.id, name: mine.name }, to: { id: also.id, name: also.name } }],
    ]);
    // An organizer may also set a team before the user's first run.
    const newcomer = await makeUser(db, "Newcomer");
    await db.teamMember.create({ data: { teamId: also.id, userId: newcomer.id } });
    expect((await setParticipantTeam(organizer.viewer, task.id, newcomer.id, also.id))?.team.id).toBe(also.id);
  });

  it("listTaskParticipants (organizers) lists user, team, since and the user's teams; listTaskTeamsOf lists a user's own records", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "List Organizer");
    const user = await makeUser(db, "Listed User");
    const { task } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
    const other = await makeTaskWithPhase(db);
    const a = await makeTeam(db, "List A", [user.id]);
    const b = await makeTeam(db, "List B", [user.id]);
    await db.taskParticipant.create({ data: { taskId: task.id, userId: user.id, teamId: b.id } });
    await db.taskParticipant.create({ data: { taskId: other.task.id, userId: user.id, teamId: a.id } });

    const list = await listTaskParticipants(organizer.viewer, task.id);
    expect(list).toEqual([
      { user: { id: user.id, name: "Listed User" }, team: { id: b.id, name: b.name }, since: expect.any(Date), teams: [{ id: a.id, name: a.name }, { id: b.id, name: b.name }] },
    ]);
    expect((await rejection(listTaskParticipants(user.viewer, task.id))).httpStatus).toBe(403);
    expect((await rejection(listTaskParticipants(null, task.id))).httpStatus).toBe(401);
    expect((await rejection(listTaskParticipants(organizer.viewer, "nonsense"))).httpStatus).toBe(404);

    const mine = await listTaskTeamsOf(user.id);
    expect(mine.map((r) => [r.task.id, r.team.id]).sort()).toEqual([[task.id, b.id], [other.task.id, a.id]].sort());
    expect(await listTaskTeamsOf(organizer.id)).toEqual([]);
  });
});

describe("tasks and phases", () => {
  let admin: { id: string; viewer: NonNullable<Viewer> };
  const input = (slug: string) => ({
    slug,
    title: "CRAC 2025",
    description: "# Hello",
    dataLicense: "CC BY 4.0",
    phases: [
      { name: "development", opensAt: "2020-01-01T00:00:00Z", closesAt: "2099-01-01T00:00:00Z", dailyLimit: 5 },
      { name: "test", opensAt: "2099-02-01T00:00:00Z", closesAt: "2099-02-10T23:59:00-12:00", displayTimeZone: "AoE", leaderboardVisibility: "ORGANIZERS" },
    ],
  });

  beforeAll(async () => {
    admin = await makeUser(testDb.prisma, "Task Admin", "ADMIN");
  });

  /** Publishes a new task (a draft) at once: these tests read it as visitors; the publishing checks are in task-lifecycle.test.ts. */
  const publish = async <T extends { id: string }>(created: Promise<T>): Promise<T> => {
    const task = await created;
    await testDb.prisma.task.update({ where: { id: task.id }, data: { status: "PUBLISHED", publishedAt: new Date() } });
    return task;
  };

  it("createTask: admins only; the creator becomes organizer; audited", async () => {
    const db = testDb.prisma;
    const user = await makeUser(db, "Plain User");
    expect((await rejection(createTask(null, input("t-anon")))).httpStatus).toBe(401);
    expect((await rejection(createTask(user.viewer, input("t-user")))).httpStatus).toBe(403);
    const { id, slug } = await createTask(admin.viewer, input("crac-2025"));
    expect(slug).toBe("crac-2025");
    const stored = await db.task.findUniqueOrThrow({ where: { id }, include: { organizers: true, phases: { orderBy: { opensAt: "asc" } } } });
    expect(stored.primaryMetric).toBe("conll");
    expect(stored.organizers.map((o) => o.userId)).toEqual([admin.id]);
    expect(stored.phases.map((p) => [p.name, p.displayTimeZone, p.dailyLimit, p.leaderboardVisibility])).toEqual([
      ["development", "UTC", 5, "PUBLIC"],
      ["test", "AoE", null, "ORGANIZERS"],
    ]);
    expect(stored.phases[1].closesAt.toISOString()).toBe("2099-02-11T11:59:00.000Z");
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "task.create", targetId: id } });
    expect(audit.actorId).toBe(admin.id);
  });

  it("createTask: a taken slug and invalid fields are 422 with field errors; nothing is created", async () => {
    const db = testDb.prisma;
    await createTask(admin.viewer, input("taken-slug"));
    const taken = (await rejection(createTask(admin.viewer, input("taken-slug")))) as ValidationError;
    expect(taken.fieldErrors.map((e) => e.path)).toEqual(["slug"]);
    const bad = (await rejection(
      createTask(admin.viewer, { ...input("bad-task"), primaryMetric: "accuracy", phases: [{ name: "x", opensAt: "2025-01-02T00:00:00Z", closesAt: "2025-01-01T00:00:00Z", displayTimeZone: "Atlantis/Capital" }] }),
    )) as ValidationError;
    expect(bad.httpStatus).toBe(422);
    expect(bad.fieldErrors.map((e) => e.path).sort()).toEqual(["phases.0.closesAt", "phases.0.displayTimeZone", "primaryMetric"]);
    expect(await db.task.count({ where: { slug: "bad-task" } })).toBe(0);
  });

  it("updatePhase: organizers only, checks the merged window, records old and new values", async () => {
    const db = testDb.prisma;
    const { id } = await createTask(admin.viewer, input("update-me"));
    const organizer = await makeUser(db, "Phase Organizer");
    const outsider = await makeUser(db, "Phase Outsider");
    expect((await addOrganizer(admin.viewer, id, organizer.email.toUpperCase())).added).toBe(true);
    expect((await addOrganizer(admin.viewer, id, organizer.email)).added).toBe(false);
    expect((await rejection(addOrganizer(admin.viewer, id, "nobody@example.org"))).httpStatus).toBe(404);
    // The task is still a draft: to an outsider it does not exist (the unknown id's 404, issue 23 F7).
    expect(await rejection(addOrganizer(outsider.viewer, id, outsider.email))).toMatchObject({ httpStatus: 404, message: "No such task." });
    const dev = await db.phase.findFirstOrThrow({ where: { taskId: id, name: "development" } });
    expect(await rejection(updatePhase(outsider.viewer, dev.id, { dailyLimit: 1 }))).toMatchObject({ httpStatus: 404, message: "No such phase." });
    expect((await rejection(updatePhase(organizer.viewer, dev.id, { closesAt: "2019-01-01T00:00:00Z" }))).httpStatus).toBe(422);
    const updated = await updatePhase(organizer.viewer, dev.id, { dailyLimit: null, totalLimit: 10, selectionRule: "LATEST" });
    expect([updated.dailyLimit, updated.totalLimit, updated.selectionRule, updated.name]).toEqual([null, 10, "LATEST", "development"]);
    const event = await db.auditEvent.findFirstOrThrow({ where: { action: "phase.update", targetId: dev.id } });
    expect(event.actorId).toBe(organizer.id);
    expect(event.data).toMatchObject({ changes: { dailyLimit: { from: 5, to: null }, totalLimit: { from: null, to: 10 }, selectionRule: { from: "BEST", to: "LATEST" } } });
    expect((await rejection(updatePhase(organizer.viewer, dev.id, { name: "test" }))).httpStatus).toBe(422);
    const added = await addPhase(organizer.viewer, id, { name: "extra", opensAt: "2099-03-01T00:00:00Z", closesAt: "2099-03-02T00:00:00Z" });
    expect(added.taskId).toBe(id);
    expect(await db.auditEvent.count({ where: { action: "task.organizer.add", targetId: id } })).toBe(1);
  });

  it("getTaskForViewer: open flags, leaderboard access, and gold metadata for organizers only", async () => {
    const db = testDb.prisma;
    const { id } = await publish(createTask(admin.viewer, input("view-me")));
    const test = await db.phase.findFirstOrThrow({ where: { taskId: id, name: "test" } });
    const gold = packFile(new TextEncoder().encode("gold"));
    const dataset = await db.dataset.findFirstOrThrow({ where: { phaseId: test.id } });
    await db.goldKey.create({ data: { phaseId: test.id, datasetId: dataset.id, version: 1, fileName: "key.conll", ...gold, documentCount: 2, stats: { documents: 2 }, uploadedById: admin.id, active: true } });
    const visitor = await getTaskForViewer("view-me", null, new Date("2050-01-01T00:00:00Z"));
    expect(visitor.isOrganizer).toBe(false);
    expect(visitor.organizers).toEqual([{ id: admin.id, name: "Task Admin" }]);
    expect(visitor.phases.map((p) => [p.name, p.open, p.canViewLeaderboard, p.hasGold])).toEqual([
      ["development", true, true, false],
      ["test", false, false, true],
    ]);
    expect(visitor.phases.every((p) => !("gold" in p))).toBe(true);
    expect(visitor.phases[1].datasets).toEqual([{ id: dataset.id, name: "main", language: "", fileName: "main.conll", format: "conll2012", position: 0, hasGold: true }]);
    expect(visitor.phases[0].datasets.map((d) => [d.name, d.hasGold])).toEqual([["main", false]]);
    expect(JSON.stringify(visitor)).not.toContain(gold.sha256);
    const organizerView = await getTaskForViewer("view-me", admin.viewer, new Date("2099-02-05T00:00:00Z"));
    expect(organizerView.isOrganizer).toBe(true);
    expect(organizerView.phases[1]).toMatchObject({ open: true, canViewLeaderboard: true, gold: { version: 1, fileName: "key.conll", sha256: gold.sha256, documents: 2 } });
    expect(organizerView.phases[0].gold).toBeNull();
    expect(organizerView.phases[1].datasets[0]).toMatchObject({ name: "main", hasGold: true, gold: { datasetId: dataset.id, version: 1, sha256: gold.sha256 } });
    expect(organizerView.phases[0].datasets[0].gold).toBeNull();
    expect((await rejection(getTaskForViewer("no-such-task", null))).httpStatus).toBe(404);
  });

  it("createTask takes an evaluation profile: conll2012 by default, crac, or custom with its three settings; the view shows its label and variants", async () => {
    const db = testDb.prisma;
    const stored = async (id: string) =>
      db.task.findUniqueOrThrow({ where: { id }, select: { evaluationProfile: true, mentionMatching: true, keepSingletons: true, zeroMatching: true } });

    const plain = await publish(createTask(admin.viewer, input("profile-default")));
    expect(await stored(plain.id)).toEqual({ evaluationProfile: "conll2012", mentionMatching: "exact", keepSingletons: true, zeroMatching: "dependent" });
    const plainView = await getTaskForViewer("profile-default", null);
    expect(plainView.evaluation).toMatchObject({ profile: "conll2012", label: EVALUATION_PROFILES.conll2012.label, variants: [], needsHeads: false });

    const crac = await publish(createTask(admin.viewer, { ...input("profile-crac"), evaluationProfile: "crac" }));
    expect(await stored(crac.id)).toEqual({ evaluationProfile: "crac", mentionMatching: "head", keepSingletons: false, zeroMatching: "dependent" });
    const cracView = await getTaskForViewer("profile-crac", null);
    expect(cracView.evaluation.label).toBe(EVALUATION_PROFILES.crac.label);
    expect(cracView.evaluation.variants.map((v) => v.label)).toEqual(["Partial match", "Exact match", "Head match with singletons"]);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "task.create", targetId: crac.id } });
    expect(audit.data).toMatchObject({ evaluation: { evaluationProfile: "crac" } });

    const settings = { mentionMatching: "partial", keepSingletons: false, zeroMatching: "linear" };
    const custom = await publish(createTask(admin.viewer, { ...input("profile-custom"), evaluationProfile: "custom", ...settings }));
    expect(await stored(custom.id)).toEqual({ evaluationProfile: "custom", ...settings });
    expect((await getTaskForViewer("profile-custom", null)).evaluation.label).toBe(customProfile({ match: "partial", removeSingletons: true, zeroMatch: "linear" }).label);

    // Each phase starts with one dataset, "main", in the format the profile reads: partial and
    // head match need CorefUD CoNLL-U.
    const formats = async (taskId: string) =>
      new Set((await db.dataset.findMany({ where: { phase: { taskId } }, select: { name: true, fileName: true, format: true } })).map((d) => `${d.name} ${d.fileName} ${d.format}`));
    expect(await db.dataset.count({ where: { phase: { taskId: plain.id } } })).toBe(await db.phase.count({ where: { taskId: plain.id } }));
    expect(await formats(plain.id)).toEqual(new Set(["main main.conll conll2012"]));
    expect(await formats(crac.id)).toEqual(new Set(["main main.conllu conllu"]));
    expect(await formats(custom.id)).toEqual(new Set(["main main.conllu conllu"]));
  });

  it("createTask refuses invalid evaluation choices with a 422 per field; nothing is created", async () => {
    const db = testDb.prisma;
    const paths = async (extra: Record<string, unknown>) => {
      const error = (await rejection(createTask(admin.viewer, { ...input("bad-profile"), ...extra }))) as ValidationError;
      expect(error.httpStatus).toBe(422);
      return error.fieldErrors.map((e) => e.path).sort();
    };
    expect(await paths({ evaluationProfile: "corefud" })).toEqual(["evaluationProfile"]);
    expect(await paths({ evaluationProfile: "custom" })).toEqual(["keepSingletons", "mentionMatching", "zeroMatching"]);
    expect(await paths({ evaluationProfile: "custom", mentionMatching: "head", keepSingletons: false })).toEqual(["zeroMatching"]);
    expect(await paths({ evaluationProfile: "custom", mentionMatching: "span", keepSingletons: "no", zeroMatching: "nearest" })).toEqual(["keepSingletons", "mentionMatching", "zeroMatching"]);
    expect(await paths({ evaluationProfile: "crac", keepSingletons: true })).toEqual(["keepSingletons"]);
    expect(await paths({ mentionMatching: "head" })).toEqual(["mentionMatching"]);
    expect(await db.task.count({ where: { slug: "bad-profile" } })).toBe(0);
  });

  it("a phase's document check is warn by default, can be set at creation, and round-trips through updatePhase (audited)", async () => {
    const db = testDb.prisma;
    const base = input("doc-check");
    const { id } = await publish(createTask(admin.viewer, { ...base, phases: [base.phases[0], { ...base.phases[1], documentCheck: "error" }] }));
    const phase = (name: string) => db.phase.findFirstOrThrow({ where: { taskId: id, name } });
    expect((await phase("development")).documentCheck).toBe("warn");
    expect((await phase("test")).documentCheck).toBe("error");
    const dev = await phase("development");
    const updated = await updatePhase(admin.viewer, dev.id, { documentCheck: "error" });
    expect(updated.documentCheck).toBe("error");
    expect((await phase("development")).documentCheck).toBe("error");
    const event = await db.auditEvent.findFirstOrThrow({ where: { action: "phase.update", targetId: dev.id } });
    expect(event.data).toMatchObject({ changes: { documentCheck: { from: "warn", to: "error" } } });
    const view = await getTaskForViewer("doc-check", null);
    expect(view.phases.map((p) => [p.name, p.documentCheck])).toEqual([
      ["development", "error"],
      ["test", "error"],
    ]);
    expect((await updatePhase(admin.viewer, dev.id, { documentCheck: "warn" })).documentCheck).toBe("warn");
    const bad = (await rejection(updatePhase(admin.viewer, dev.id, { documentCheck: "ignore" }))) as ValidationError;
    expect(bad.httpStatus).toBe(422);
    expect(bad.fieldErrors.map((e) => e.path)).toEqual(["documentCheck"]);
    expect((await phase("development")).documentCheck).toBe("warn");
  });

  it("listTasksForViewer lists published tasks to anonymous visitors, with status, phases and open flags", async () => {
    await publish(createTask(admin.viewer, input("listed-task")));
    const list = await listTasksForViewer(null, new Date("2050-01-01T00:00:00Z"));
    const item = list.find((t) => t.slug === "listed-task");
    expect(item?.phases.map((p) => [p.name, p.open])).toEqual([
      ["development", true],
      ["test", false],
    ]);
    expect(Object.keys(item ?? {}).sort()).toEqual(["id", "phases", "slug", "status", "title"]);
    expect(item?.status).toBe("PUBLISHED");
  });
});
