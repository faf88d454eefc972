/**
 * Editing a task and its phases against a real database (issue 11 §1): `updateTask` (fields,
 * audit with from/to, validation), `updatePhase` checked with `phaseSettingsProblems` on the
 * merged phase (the freeze), `closePhaseNow`, `deletePhase` (runs → 409 saying how many, the
 * last phase → 409, audit with taskId and name), and the date preview of `phaseDatePreview`.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { phaseDatePreview } from "../validations/phase-dates";
import { addPhase, closePhaseNow, deletePhase, updatePhase, updateTask } from "./tasks";
import { insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection } from "./test-fixtures";

const testDb = useTestDatabase();
const DAY = 24 * 3600 * 1000;

/** A published task with one open phase and an organizer, a team member and an outsider. */
async function setup() {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Editor");
  const member = await makeUser(db, "Member");
  const outsider = await makeUser(db, "Outsider");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  return { db, organizer, member, outsider, task, phase };
}

describe("updateTask", () => {
  it("changes title, description, rules, licence and source; audits task.update with from/to of the changed fields only", async () => {
    const f = await setup();
    await f.db.task.update({ where: { id: f.task.id }, data: { description: "Old text.", dataLicense: "CC BY 4.0" } });
    const updated = await updateTask(f.organizer.viewer, f.task.id, {
      title: "  CRAC 2026  ",
      description: "Old text.",
      rules: "# Rules\n\n- One team per person.",
      dataLicense: "",
      dataSource: "GUM",
    });
    expect(updated).toMatchObject({ title: "CRAC 2026", description: "Old text.", rules: "# Rules\n\n- One team per person.", dataLicense: null, dataSource: "GUM", status: "PUBLISHED" });
    const events = await f.db.auditEvent.findMany({ where: { action: "task.update", targetId: f.task.id } });
    expect(events).toHaveLength(1);
    expect(events[0].actorId).toBe(f.organizer.id);
    expect(events[0].data).toEqual({
      changes: {
        title: { from: f.task.title, to: "CRAC 2026" },
        rules: { from: "", to: "# Rules\n\n- One team per person." },
        dataLicense: { from: "CC BY 4.0", to: null },
        dataSource: { from: null, to: "GUM" },
      },
    });
    // The same values again change nothing and write nothing.
    await updateTask(f.organizer.viewer, f.task.id, { title: "CRAC 2026", dataLicense: null });
    expect(await f.db.auditEvent.count({ where: { action: "task.update", targetId: f.task.id } })).toBe(1);
  });

  it("organizers only; unknown task 404; bad or unknown fields 422 per field; nothing changes", async () => {
    const f = await setup();
    expect(await rejection(updateTask(null, f.task.id, { title: "x" }))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(updateTask(f.outsider.viewer, f.task.id, { title: "x" }))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(updateTask(f.organizer.viewer, "not-a-task", { title: "x" }))).toBeInstanceOf(NotFoundError);
    const bad = (await rejection(updateTask(f.organizer.viewer, f.task.id, { title: " ", rules: 7, slug: "new-slug", description: "x".repeat(100_001) }))) as ValidationError;
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.fieldErrors.map((e) => e.path).sort()).toEqual(["", "description", "rules", "title"]);
    expect(bad.fieldErrors.find((e) => e.path === "")?.message).toMatch(/slug/);
    const stored = await f.db.task.findUniqueOrThrow({ where: { id: f.task.id } });
    expect([stored.title, stored.rules, stored.slug]).toEqual([f.task.title, "", f.task.slug]);
  });
});

describe("updatePhase", () => {
  it("checks the merged phase with phaseSettingsProblems: frozen needs frozenAt (422 on field frozenAt), inside the window; leaving frozen clears it", async () => {
    const f = await setup();
    const missing = (await rejection(updatePhase(f.organizer.viewer, f.phase.id, { leaderboardTiming: "frozen" }))) as ValidationError;
    expect(missing.httpStatus).toBe(422);
    expect(missing.fieldErrors).toEqual([{ path: "frozenAt", message: "required when the leaderboard freezes" }]);
    expect(missing.message).toBe("Freeze time required when the leaderboard freezes.");
    const outside = (await rejection(updatePhase(f.organizer.viewer, f.phase.id, { leaderboardTiming: "frozen", frozenAt: new Date(f.phase.closesAt.getTime() + DAY).toISOString() }))) as ValidationError;
    expect(outside.fieldErrors.map((e) => e.path)).toEqual(["frozenAt"]);
    const stray = (await rejection(updatePhase(f.organizer.viewer, f.phase.id, { frozenAt: new Date().toISOString() }))) as ValidationError;
    expect(stray.fieldErrors).toEqual([{ path: "frozenAt", message: "only a leaderboard that freezes takes a freeze time" }]);
    const window = (await rejection(updatePhase(f.organizer.viewer, f.phase.id, { closesAt: new Date(f.phase.opensAt.getTime() - DAY).toISOString() }))) as ValidationError;
    expect(window.fieldErrors.map((e) => e.path)).toEqual(["closesAt"]);
    expect((await f.db.phase.findUniqueOrThrow({ where: { id: f.phase.id } })).leaderboardTiming).toBe("live");

    const freeze = new Date(Date.now() + 3600_000);
    const frozen = await updatePhase(f.organizer.viewer, f.phase.id, { leaderboardTiming: "frozen", frozenAt: freeze.toISOString(), selectionRule: "TEAM_SELECTED", finalRunLimit: 2 });
    expect([frozen.leaderboardTiming, frozen.frozenAt?.toISOString(), frozen.selectionRule, frozen.finalRunLimit]).toEqual(["frozen", freeze.toISOString(), "TEAM_SELECTED", 2]);
    const event = await f.db.auditEvent.findFirstOrThrow({ where: { action: "phase.update", targetId: f.phase.id } });
    expect(event.data).toMatchObject({ taskId: f.task.id, changes: { leaderboardTiming: { from: "live", to: "frozen" }, finalRunLimit: { from: 1, to: 2 } } });
    // A closing time before the stored freeze is refused on frozenAt.
    const early = (await rejection(updatePhase(f.organizer.viewer, f.phase.id, { closesAt: new Date(freeze.getTime() - 60_000).toISOString() }))) as ValidationError;
    expect(early.fieldErrors.map((e) => e.path)).toEqual(["frozenAt"]);
    const live = await updatePhase(f.organizer.viewer, f.phase.id, { leaderboardTiming: "after_close" });
    expect([live.leaderboardTiming, live.frozenAt]).toEqual(["after_close", null]);
  });
});

describe("closePhaseNow", () => {
  it("sets closesAt to now for an open phase (audited as phase.update); a closed or upcoming phase is a 409; organizers only", async () => {
    const f = await setup();
    expect(await rejection(closePhaseNow(f.member.viewer, f.phase.id))).toBeInstanceOf(ForbiddenError);
    const now = new Date(Date.now() - 60_000);
    const closed = await closePhaseNow(f.organizer.viewer, f.phase.id, now);
    expect(closed.closesAt.toISOString()).toBe(now.toISOString());
    const event = await f.db.auditEvent.findFirstOrThrow({ where: { action: "phase.update", targetId: f.phase.id } });
    expect(event).toMatchObject({ actorId: f.organizer.id, data: { taskId: f.task.id, reason: "closed now", changes: { closesAt: { from: f.phase.closesAt.toISOString(), to: now.toISOString() } } } });
    const again = await rejection(closePhaseNow(f.organizer.viewer, f.phase.id));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again.message).toBe("The test phase is already closed; only an open phase can be closed now. Change its dates instead.");
    const upcoming = await addPhase(f.organizer.viewer, f.task.id, { name: "later", opensAt: new Date(Date.now() + DAY).toISOString(), closesAt: new Date(Date.now() + 2 * DAY).toISOString() });
    expect((await rejection(closePhaseNow(f.organizer.viewer, upcoming.id))).message).toMatch(/has not opened yet/);
  });

  it("a freeze still ahead is dropped (the board becomes live); a past freeze stays", async () => {
    const f = await setup();
    const now = new Date();
    await updatePhase(f.organizer.viewer, f.phase.id, { leaderboardTiming: "frozen", frozenAt: new Date(now.getTime() + 3600_000).toISOString() });
    const closed = await closePhaseNow(f.organizer.viewer, f.phase.id, now);
    expect([closed.closesAt.getTime(), closed.leaderboardTiming, closed.frozenAt]).toEqual([now.getTime(), "live", null]);

    const g = await setup();
    const past = new Date(now.getTime() - 3600_000);
    await updatePhase(g.organizer.viewer, g.phase.id, { leaderboardTiming: "frozen", frozenAt: past.toISOString() });
    const kept = await closePhaseNow(g.organizer.viewer, g.phase.id, now);
    expect([kept.leaderboardTiming, kept.frozenAt?.getTime()]).toEqual(["frozen", past.getTime()]);
  });
});

describe("deletePhase", () => {
  it("refuses a phase with runs (409 saying how many, withdrawn and baselines count) and the task's last phase; deletes otherwise, audited with taskId and name", async () => {
    const f = await setup();
    const team = await makeTeam(f.db, "Runs", [f.member.id]);
    const extra = await addPhase(f.organizer.viewer, f.task.id, { name: "extra", opensAt: new Date(Date.now() - DAY).toISOString(), closesAt: new Date(Date.now() + DAY).toISOString() });
    const run = await insertSubmission(f.db, { phaseId: extra.id, teamId: team.id, submitterId: f.member.id });
    await f.db.submission.update({ where: { id: run.id }, data: { withdrawnAt: new Date() } });
    await insertSubmission(f.db, { phaseId: extra.id, teamId: team.id, submitterId: f.member.id, isBaseline: true });
    expect(await rejection(deletePhase(f.outsider.viewer, extra.id))).toBeInstanceOf(ForbiddenError);
    const withRuns = await rejection(deletePhase(f.organizer.viewer, extra.id));
    expect(withRuns).toBeInstanceOf(ConflictError);
    expect(withRuns.httpStatus).toBe(409);
    expect(withRuns.message).toBe("The extra phase has 2 runs (baselines and withdrawn runs included): a phase with runs cannot be deleted. Close it instead.");

    // The other phase has no runs: it can go, but then "extra" is the last one.
    expect(await deletePhase(f.organizer.viewer, f.phase.id)).toEqual({ id: f.phase.id, taskId: f.task.id, name: "test" });
    expect(await f.db.phase.findUnique({ where: { id: f.phase.id } })).toBeNull();
    expect(await f.db.dataset.count({ where: { phaseId: f.phase.id } })).toBe(0);
    const event = await f.db.auditEvent.findFirstOrThrow({ where: { action: "phase.delete", targetId: f.phase.id } });
    expect(event).toMatchObject({ actorId: f.organizer.id, targetType: "phase", data: { taskId: f.task.id, name: "test" } });

    await f.db.submission.deleteMany({ where: { phaseId: extra.id } });
    const last = await rejection(deletePhase(f.organizer.viewer, extra.id));
    expect(last).toBeInstanceOf(ConflictError);
    expect(last.message).toBe("The extra phase is the task's only phase: add another phase before deleting it.");
    expect(await rejection(deletePhase(f.organizer.viewer, f.phase.id))).toBeInstanceOf(NotFoundError);
  });
});

describe("phaseDatePreview", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  const aoe = (iso: string) => new Date(`${iso}-12:00`);

  it("a new phase: when it opens and closes, with the distance and the time in its zone", () => {
    expect(phaseDatePreview({ opensAt: aoe("2026-11-28T09:00:00"), closesAt: aoe("2026-12-10T23:59:00"), displayTimeZone: "AoE" }, null, now)).toEqual([
      "Opens in 2 days, 09:00 AoE on 2026-11-28.",
      "Closes in 14 days, 23:59 AoE on 2026-12-10.",
    ]);
  });

  it("a moved closing time says what it was; closing an open phase says teams can no longer submit", () => {
    const before = { opensAt: new Date("2026-11-01T00:00:00Z"), closesAt: aoe("2026-12-01T12:00:00"), displayTimeZone: "AoE" };
    expect(phaseDatePreview({ ...before, closesAt: aoe("2026-11-29T14:00:00") }, before, now)).toEqual([
      "Opened 25 days ago, 12:00 AoE on 2026-10-31.",
      "Closes in 3 days, 14:00 AoE on 2026-11-29 (was 2026-12-01 12:00 AoE).",
    ]);
    expect(phaseDatePreview({ ...before, closesAt: new Date("2026-11-26T06:00:00Z") }, before, now)).toEqual([
      "Opened 25 days ago, 12:00 AoE on 2026-10-31.",
      "Closed 6 hours ago, 18:00 AoE on 2026-11-25 (was 2026-12-01 12:00 AoE).",
      "Teams can no longer submit once this is saved.",
    ]);
  });

  it("reopening says teams can submit; a new zone is named; an invalid window or zone is one sentence", () => {
    const before = { opensAt: new Date("2026-11-01T00:00:00Z"), closesAt: new Date("2026-11-20T00:00:00Z"), displayTimeZone: "UTC" };
    expect(phaseDatePreview({ ...before, closesAt: new Date("2026-11-27T12:00:00Z"), displayTimeZone: "Europe/Prague" }, before, now)).toEqual([
      "Opened 25 days ago, 01:00 Europe/Prague on 2026-11-01.",
      "Closes in 1 day, 13:00 Europe/Prague on 2026-11-27 (was 2026-11-20 00:00 UTC).",
      "Teams can submit as soon as this is saved.",
      "Times are shown to teams in Europe/Prague (was UTC).",
    ]);
    expect(phaseDatePreview({ ...before, closesAt: before.opensAt }, before, now)).toEqual([
      "The phase would close before it opens: the closing time must be later than the opening time.",
    ]);
    expect(phaseDatePreview({ ...before, displayTimeZone: "Mars/Olympus" }, before, now)).toEqual(['Unknown time zone "Mars/Olympus".']);
    expect(phaseDatePreview({ ...before, opensAt: new Date(Number.NaN) }, before, now)).toEqual(["Enter an opening and a closing time."]);
  });
});
