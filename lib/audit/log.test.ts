/**
 * The task audit log against a real database: which events are the task's, order, keyset
 * paging, filters, permissions (401/403/404/422), and how data is described.
 */
import { describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { describeAuditData, listTaskAuditEvents, parseAuditQuery } from "./log";
import { updatePhase } from "../tasks/tasks";
import { insertSubmission, makeTaskWithPhase, makeTeam, makeTrack, makeUser, rejection } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const minutes = (n: number) => new Date(T0 + n * 60_000);

/**
 * Task A (organizer, admin; participant with a run) and task B (its own organizer). Events on
 * A's task, phase, dataset, track, a deleted track and the run; on B's task and phase; on a
 * team. Times are minutes after T0.
 */
async function setup() {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const admin = await makeUser(db, "Admin", "ADMIN");
  const participant = await makeUser(db, "Participant");
  const otherOrganizer = await makeUser(db, "Other");
  const a = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  const b = await makeTaskWithPhase(db, { organizerIds: [otherOrganizer.id] });
  const team = await makeTeam(db, "Alpha", [participant.id]);
  const run = await insertSubmission(db, { phaseId: a.phase.id, teamId: team.id, submitterId: participant.id, systemName: "alpha-sys" });
  const track = await makeTrack(db, a.phase.id, "LLM");
  const goneTrackId = "0b5a4b0e-7c1e-4f51-9d7e-1b2c3d4e5f60";
  const event = (minute: number, actorId: string | null, action: string, targetType: string, targetId: string, data: object = {}) =>
    db.auditEvent.create({ data: { actorId, action, targetType, targetId, data, at: minutes(minute) } });
  const mine = {
    task: await event(1, organizer.id, "task.create", "task", a.task.id, { slug: a.task.slug }),
    phase: await event(2, organizer.id, "phase.update", "phase", a.phase.id, { taskId: a.task.id, changes: { dailyLimit: { from: 5, to: 3 } } }),
    dataset: await event(3, admin.id, "dataset.update", "dataset", a.dataset.id, { taskId: a.task.id, name: a.dataset.name, changes: { language: { from: "en", to: "de" } } }),
    track: await event(4, organizer.id, "track.create", "track", track.id, { taskId: a.task.id, name: "LLM" }),
    gone: await event(5, organizer.id, "track.delete", "track", goneTrackId, { taskId: a.task.id, phaseId: a.phase.id, name: "Old track" }),
    run: await event(6, participant.id, "submission.create", "submission", run.id, { phaseId: a.phase.id, teamId: team.id }),
    system: await event(7, null, "task.evaluation.update", "task", a.task.id, { from: "conll2012", to: "crac" }),
  };
  const foreign = [
    await event(2, otherOrganizer.id, "task.create", "task", b.task.id),
    await event(3, otherOrganizer.id, "phase.update", "phase", b.phase.id, { taskId: b.task.id, changes: { dailyLimit: { from: 1, to: 2 } } }),
    await event(4, participant.id, "team.create", "team", team.id, { name: team.name }),
    // a deleted track of task B
    await event(5, otherOrganizer.id, "track.delete", "track", "1b5a4b0e-7c1e-4f51-9d7e-1b2c3d4e5f61", { taskId: b.task.id, name: "B track" }),
  ];
  return { db, organizer, admin, participant, otherOrganizer, a, b, team, run, track, mine, foreign };
}

describe("listTaskAuditEvents", () => {
  it("lists only the task's events (not another task's, not team events), newest first, with actor, target label and data", async () => {
    const f = await setup();
    const page = await listTaskAuditEvents(f.organizer.viewer, f.a.task.slug);
    expect(page.next).toBeNull();
    expect(page.events.map((e) => e.id)).toEqual([f.mine.system, f.mine.run, f.mine.gone, f.mine.track, f.mine.dataset, f.mine.phase, f.mine.task].map((e) => e.id));
    const foreignIds = new Set(f.foreign.map((e) => e.id));
    expect(page.events.some((e) => foreignIds.has(e.id))).toBe(false);

    const byId = new Map(page.events.map((e) => [e.id, e]));
    expect(byId.get(f.mine.system.id)!.actor).toBeNull();
    expect(byId.get(f.mine.run.id)!.actor).toEqual({ id: f.participant.id, name: "Participant", email: f.participant.email });
    expect(byId.get(f.mine.run.id)!.target).toEqual({ type: "submission", id: f.run.id, label: "alpha-sys" });
    expect(byId.get(f.mine.task.id)!.target.label).toBe(f.a.task.title);
    expect(byId.get(f.mine.phase.id)!.target.label).toBe(f.a.phase.name);
    expect(byId.get(f.mine.dataset.id)!.target.label).toBe(f.a.dataset.name);
    expect(byId.get(f.mine.track.id)!.target.label).toBe("LLM");
    expect(byId.get(f.mine.gone.id)!.target.label).toBe("Old track");
    expect(byId.get(f.mine.phase.id)!.data).toEqual({ taskId: f.a.task.id, changes: { dailyLimit: { from: 5, to: 3 } } });
    expect(byId.get(f.mine.phase.id)!.at).toEqual(minutes(2));
  });

  it("pages with the cursor without duplicates or gaps, also across events at the same instant", async () => {
    const f = await setup();
    // three more events at the very same time as the phase event
    for (let i = 0; i < 3; i++) {
      await f.db.auditEvent.create({ data: { actorId: f.organizer.id, action: "phase.update", targetType: "phase", targetId: f.a.phase.id, data: { i }, at: minutes(2) } });
    }
    const all = (await listTaskAuditEvents(f.organizer.viewer, f.a.task.slug)).events.map((e) => e.id);
    expect(all).toHaveLength(10);
    const seen: string[] = [];
    let before: string | undefined;
    let pages = 0;
    do {
      const page = await listTaskAuditEvents(f.organizer.viewer, f.a.task.slug, { before }, 3);
      expect(page.events.length).toBeLessThanOrEqual(3);
      seen.push(...page.events.map((e) => e.id));
      before = page.next ?? undefined;
      pages++;
    } while (before && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual(all);
  });

  it("filters by action, by actor (id or email substring) and by date range", async () => {
    const f = await setup();
    const ids = async (filters: Parameters<typeof listTaskAuditEvents>[2]) => (await listTaskAuditEvents(f.organizer.viewer, f.a.task.slug, filters)).events.map((e) => e.id);
    expect(await ids({ action: "phase.update" })).toEqual([f.mine.phase.id]);
    expect(await ids({ action: "team.create" })).toEqual([]);
    expect(await ids({ actor: f.admin.id })).toEqual([f.mine.dataset.id]);
    expect(await ids({ actor: f.participant.email.slice(0, 14).toUpperCase() })).toEqual([f.mine.run.id]);
    expect(await ids({ actor: "%" })).toEqual([]);
    expect(await ids({ from: minutes(3), to: minutes(5) })).toEqual([f.mine.track.id, f.mine.dataset.id]);
    expect(await ids({ action: "task.create", from: minutes(2) })).toEqual([]);
  });

  it("answers organizers and site admins; 401 anonymous, 403 participant and another task's organizer, 404 unknown task", async () => {
    const f = await setup();
    expect((await listTaskAuditEvents(f.admin.viewer, f.a.task.slug)).events).toHaveLength(7);
    expect(await rejection(listTaskAuditEvents(null, f.a.task.slug))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(listTaskAuditEvents(null, "no-such-task"))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(listTaskAuditEvents(f.participant.viewer, f.a.task.slug))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(listTaskAuditEvents(f.otherOrganizer.viewer, f.a.task.slug))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(listTaskAuditEvents(f.organizer.viewer, "no-such-task"))).toBeInstanceOf(NotFoundError);
  });

  it("refuses an unknown action, a malformed cursor and a reversed date range with 422", async () => {
    const f = await setup();
    const unknown = await rejection(listTaskAuditEvents(f.organizer.viewer, f.a.task.slug, { action: "phase.explode" }));
    expect(unknown).toBeInstanceOf(ValidationError);
    expect(unknown.httpStatus).toBe(422);
    expect(unknown.message).toContain("phase.explode");
    expect(await rejection(listTaskAuditEvents(f.organizer.viewer, f.a.task.slug, { before: "yesterday" }))).toBeInstanceOf(ValidationError);
    expect(await rejection(listTaskAuditEvents(f.organizer.viewer, f.a.task.slug, { from: minutes(5), to: minutes(1) }))).toBeInstanceOf(ValidationError);
  });

  it("shows a real phase change made through updatePhase with who made it and what changed", async () => {
    const f = await setup();
    await updatePhase(f.organizer.viewer, f.a.phase.id, { dailyLimit: 7 });
    const [latest] = (await listTaskAuditEvents(f.organizer.viewer, f.a.task.slug, { action: "phase.update" })).events;
    expect(latest.actor?.id).toBe(f.organizer.id);
    expect(latest.target).toEqual({ type: "phase", id: f.a.phase.id, label: f.a.phase.name });
    expect(describeAuditData(latest.data)).toContain(`dailyLimit: ${JSON.stringify(f.a.phase.dailyLimit)} → 7`);
  });
});

describe("parseAuditQuery", () => {
  it("reads dates as UTC, a date-only end including its whole day; empty values are no filter; bad dates are 422", () => {
    expect(parseAuditQuery({ action: "", actor: " ", from: "2026-01-10", to: "2026-01-10" })).toEqual({
      action: undefined,
      actor: undefined,
      from: new Date("2026-01-10T00:00:00.000Z"),
      to: new Date("2026-01-11T00:00:00.000Z"),
      before: undefined,
    });
    expect(parseAuditQuery({ to: "2026-01-10T05:00:00Z" }).to).toEqual(new Date("2026-01-10T05:00:00Z"));
    expect(() => parseAuditQuery({ from: "10/01/2026" })).toThrow(ValidationError);
  });
});

describe("describeAuditData", () => {
  it("shows field: from → to for changes, from → to for top-level pairs, else key: value", () => {
    expect(describeAuditData({ taskId: "x", changes: { dailyLimit: { from: 5, to: 3 }, name: { from: "a", to: "b" } } })).toEqual(["dailyLimit: 5 → 3", "name: a → b"]);
    expect(describeAuditData({ from: "conll2012", to: "crac", requeued: 2 })).toEqual(["conll2012 → crac", "requeued: 2"]);
    expect(describeAuditData({ phaseId: "p", systemName: "s", datasets: [{ name: "d" }] })).toEqual(["systemName: s", 'datasets: [{"name":"d"}]']);
    expect(describeAuditData({ a: 1, b: 2, c: 3 }, 2)).toEqual(["a: 1", "… 2 more"]);
  });
});
