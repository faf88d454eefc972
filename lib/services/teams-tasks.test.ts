/** Teams (creation, join codes, team resolution) and tasks/phases (creation, changes, views) against a real database. */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { ValidationError } from "../errors";
import type { Viewer } from "../permissions";
import { addOrganizer, addPhase, createTask, getTaskForViewer, listTasksForViewer, updatePhase } from "./tasks";
import {
  createTeam,
  ensurePersonalTeam,
  findSubmittingTeam,
  formatJoinCode,
  getJoinCode,
  joinCodeFor,
  joinTeam,
  listTeamsOf,
  resolveSubmittingTeam,
} from "./teams";
import { makeUser, rejection } from "./test-fixtures";
import { packFile } from "../storage";

const testDb = useTestDatabase();

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
    expect((await listTeamsOf(joiner.id)).map((t) => t.id)).toEqual([team.id]);
    const wrong = code.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    expect((await rejection(joinTeam(joiner.id, wrong))).httpStatus).toBe(404);
    expect((await rejection(joinTeam(joiner.id, "short"))).httpStatus).toBe(422);
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
    expect((await rejection(addOrganizer(outsider.viewer, id, outsider.email))).httpStatus).toBe(403);
    const dev = await db.phase.findFirstOrThrow({ where: { taskId: id, name: "development" } });
    expect((await rejection(updatePhase(outsider.viewer, dev.id, { dailyLimit: 1 }))).httpStatus).toBe(403);
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
    const { id } = await createTask(admin.viewer, input("view-me"));
    const test = await db.phase.findFirstOrThrow({ where: { taskId: id, name: "test" } });
    const gold = packFile(new TextEncoder().encode("gold"));
    await db.goldKey.create({ data: { phaseId: test.id, version: 1, fileName: "key.conll", ...gold, documentCount: 2, stats: { documents: 2 }, uploadedById: admin.id, active: true } });
    const visitor = await getTaskForViewer("view-me", null, new Date("2050-01-01T00:00:00Z"));
    expect(visitor.isOrganizer).toBe(false);
    expect(visitor.organizers).toEqual([{ id: admin.id, name: "Task Admin" }]);
    expect(visitor.phases.map((p) => [p.name, p.open, p.canViewLeaderboard, p.hasGold])).toEqual([
      ["development", true, true, false],
      ["test", false, false, true],
    ]);
    expect(visitor.phases.every((p) => !("gold" in p))).toBe(true);
    expect(JSON.stringify(visitor)).not.toContain(gold.sha256);
    const organizerView = await getTaskForViewer("view-me", admin.viewer, new Date("2099-02-05T00:00:00Z"));
    expect(organizerView.isOrganizer).toBe(true);
    expect(organizerView.phases[1]).toMatchObject({ open: true, canViewLeaderboard: true, gold: { version: 1, fileName: "key.conll", sha256: gold.sha256, documents: 2 } });
    expect(organizerView.phases[0].gold).toBeNull();
    expect((await rejection(getTaskForViewer("no-such-task", null))).httpStatus).toBe(404);
  });

  it("listTasksForViewer lists every task to anonymous visitors, with phases and open flags", async () => {
    await createTask(admin.viewer, input("listed-task"));
    const list = await listTasksForViewer(null, new Date("2050-01-01T00:00:00Z"));
    const item = list.find((t) => t.slug === "listed-task");
    expect(item?.phases.map((p) => [p.name, p.open])).toEqual([
      ["development", true],
      ["test", false],
    ]);
    expect(Object.keys(item ?? {}).sort()).toEqual(["id", "phases", "slug", "title"]);
  });
});
