/**
 * A task's lifecycle against a real database (issue 11 §1): a draft is invisible to everyone
 * but its organizers (task, list, phase, leaderboard, runs, uploads); publishing checks the
 * gold keys, the dates and the description, naming each failed check, and is audited; an
 * archived task stays public but is read-only; unarchiving. The queue is mocked.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { packFile } from "../storage";
import { getLeaderboard } from "../boards/leaderboard";
import { createSubmission, getSubmissionForViewer } from "../runs/submissions";
import { archiveTask, publishChecks, publishTask, unarchiveTask } from "./lifecycle";
import { addPhase, closePhaseNow, createTask, deletePhase, getPhaseForViewer, getTaskForViewer, updatePhase, updateTask } from "./tasks";
import { listTasksForViewer } from "./tasks-list";
import { bytes, insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, SMALL_KEY } from "./test-fixtures";

const testDb = useTestDatabase();
const DAY = 24 * 3600 * 1000;

beforeEach(() => {
  vi.mocked(enqueueScoring).mockReset();
  vi.mocked(enqueueScoring).mockResolvedValue(undefined);
});

/** Gives every dataset of the phase an active gold key (v1), written directly. */
async function giveGold(phaseId: string, uploadedById: string): Promise<void> {
  const db = testDb.prisma;
  for (const dataset of await db.dataset.findMany({ where: { phaseId } })) {
    await db.goldKey.create({
      data: { phaseId, datasetId: dataset.id, version: 1, fileName: "key.conll", ...packFile(bytes(SMALL_KEY)), documentCount: 2, stats: { documents: 2 }, uploadedById, active: true },
    });
  }
}

/** A task in the given state with one open phase, an organizer, a team (member) with a scored public run, and outsiders. */
async function setup(status: "DRAFT" | "PUBLISHED" | "ARCHIVED" = "DRAFT") {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const admin = await makeUser(db, "Admin", "ADMIN");
  const member = await makeUser(db, "Member");
  const reader = await makeUser(db, "Reader");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], status });
  const team = await makeTeam(db, "Alpha", [member.id]);
  const run = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: member.id });
  await insertScores(db, run.id, phase.id, { conll: 0.7 });
  return { db, organizer, admin, member, reader, task, phase, team, run };
}

/** An upload of the small key as a run. */
function upload(viewer: NonNullable<Parameters<typeof createSubmission>[0]["viewer"]>, phaseId: string, extra: { isBaseline?: boolean } = {}) {
  return createSubmission({ viewer, phaseId, fileName: "run.conll", bytes: bytes(SMALL_KEY), systemName: "sys", ...extra });
}

describe("a draft", () => {
  it("createTask makes a DRAFT that its organizer sees (status, rules, no publishing time) and nobody else", async () => {
    const db = testDb.prisma;
    const admin = await makeUser(db, "Creator", "ADMIN");
    const reader = await makeUser(db, "Reader");
    const { id, slug } = await createTask(admin.viewer, {
      slug: "draft-made",
      title: "Draft made",
      phases: [{ name: "test", opensAt: "2020-01-01T00:00:00Z", closesAt: "2099-01-01T00:00:00Z" }],
    });
    expect((await db.task.findUniqueOrThrow({ where: { id } })).status).toBe("DRAFT");
    const view = await getTaskForViewer(slug, admin.viewer);
    expect(view).toMatchObject({ status: "DRAFT", rules: "", publishedAt: null, archivedAt: null, isOrganizer: true });
    for (const viewer of [null, reader.viewer]) expect(await rejection(getTaskForViewer(slug, viewer))).toBeInstanceOf(NotFoundError);
  });

  it("is a 404 for anonymous readers and signed-in outsiders, even for its own team's members: task, phase, leaderboard, run", async () => {
    const f = await setup("DRAFT");
    for (const viewer of [null, f.reader.viewer, f.member.viewer]) {
      expect(await rejection(getTaskForViewer(f.task.slug, viewer))).toBeInstanceOf(NotFoundError);
      expect(await rejection(getPhaseForViewer(f.phase.id, viewer))).toBeInstanceOf(NotFoundError);
      expect(await rejection(getLeaderboard(f.phase.id, viewer))).toBeInstanceOf(NotFoundError);
      expect(await rejection(getSubmissionForViewer(f.run.id, viewer))).toBeInstanceOf(NotFoundError);
    }
    // Its organizers and site admins see all of it.
    for (const viewer of [f.organizer.viewer, f.admin.viewer]) {
      expect((await getTaskForViewer(f.task.slug, viewer)).status).toBe("DRAFT");
      expect((await getPhaseForViewer(f.phase.id, viewer)).phase.id).toBe(f.phase.id);
      expect((await getLeaderboard(f.phase.id, viewer)).rows.length).toBe(1);
      expect((await getSubmissionForViewer(f.run.id, viewer)).id).toBe(f.run.id);
    }
  });

  it("is listed to its organizers and site admins only, with its status; published and archived tasks to everyone, archived last", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "List Organizer");
    const reader = await makeUser(db, "List Reader");
    const admin = await makeUser(db, "List Admin", "ADMIN");
    const archived = await makeTaskWithPhase(db, { status: "ARCHIVED" });
    const draft = await makeTaskWithPhase(db, { organizerIds: [organizer.id], status: "DRAFT" });
    const published = await makeTaskWithPhase(db, { status: "PUBLISHED" });
    const mine = [archived, draft, published].map((t) => t.task.slug);
    const listed = async (viewer: Parameters<typeof listTasksForViewer>[0]) =>
      (await listTasksForViewer(viewer)).filter((t) => mine.includes(t.slug)).map((t) => [t.slug, t.status]);
    const publicList = [
      [published.task.slug, "PUBLISHED"],
      [archived.task.slug, "ARCHIVED"],
    ];
    expect(await listed(null)).toEqual(publicList);
    expect(await listed(reader.viewer)).toEqual(publicList);
    const withDraft = [[published.task.slug, "PUBLISHED"], [draft.task.slug, "DRAFT"], [archived.task.slug, "ARCHIVED"]];
    expect(await listed(organizer.viewer)).toEqual(withDraft);
    expect(await listed(admin.viewer)).toEqual(withDraft);
  });

  it("createSubmission: a 404 like an unknown phase for non-organizers (nothing stored); its organizers may add baselines", async () => {
    const f = await setup("DRAFT");
    for (const viewer of [f.member.viewer, f.reader.viewer]) {
      const error = await rejection(upload(viewer, f.phase.id));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe("No such phase.");
    }
    expect(await f.db.submission.count({ where: { phaseId: f.phase.id } })).toBe(1);
    const orgTeam = await makeTeam(f.db, "Organizers", [f.organizer.id]);
    const baseline = await createSubmission({ viewer: f.organizer.viewer, phaseId: f.phase.id, team: orgTeam.id, fileName: "base.conll", bytes: bytes(SMALL_KEY), systemName: "baseline", isBaseline: true });
    expect(baseline.status).toBe("QUEUED");
  });
});

describe("publishing", () => {
  it("publishChecks and publishTask name every failed check: gold (per phase and dataset), dates, description; nothing changes", async () => {
    const db = testDb.prisma;
    const now = new Date();
    const organizer = await makeUser(db, "Checker");
    const { task, phase } = await makeTaskWithPhase(db, {
      organizerIds: [organizer.id],
      status: "DRAFT",
      phase: { name: "dev", opensAt: new Date(now.getTime() - 10 * DAY), closesAt: new Date(now.getTime() - DAY) },
    });
    const second = await db.phase.create({
      data: { taskId: task.id, name: "test", opensAt: new Date(now.getTime() - 9 * DAY), closesAt: new Date(now.getTime() - 2 * DAY), datasets: { create: [{ name: "en", fileName: "en.conll" }, { name: "cs", fileName: "cs.conll", position: 1 }] } },
    });
    await giveGold(phase.id, organizer.id);
    const en = await db.dataset.findFirstOrThrow({ where: { phaseId: second.id, name: "en" } });
    await db.goldKey.create({ data: { phaseId: second.id, datasetId: en.id, version: 1, fileName: "en.conll", ...packFile(bytes(SMALL_KEY)), documentCount: 2, stats: {}, uploadedById: organizer.id, active: true } });

    const list = await publishChecks(organizer.viewer, task.id, now);
    expect(list.status).toBe("DRAFT");
    expect(list.ready).toBe(false);
    expect(list.checks.map((c) => [c.id, c.ok])).toEqual([
      ["gold", false],
      ["dates", false],
      ["description", false],
    ]);
    expect(list.checks[0].detail).toBe('No active gold key for phase "test" (dataset cs). Upload it on the Gold tab.');
    expect(list.checks[0].fix).toEqual({ tab: "gold", label: "Upload gold keys" });
    expect(list.checks[1].detail).toMatch(/^Every phase has closed \(the last on .+ UTC\): move a closing time into the future\.$/);

    const error = (await rejection(publishTask(organizer.viewer, task.id, now))) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.httpStatus).toBe(422);
    expect(error.fieldErrors.map((e) => e.path)).toEqual(["gold", "dates", "description"]);
    expect(error.message).toContain('phase "test" (dataset cs)');
    expect(error.message).toContain("the description is not empty");
    const stored = await db.task.findUniqueOrThrow({ where: { id: task.id } });
    expect([stored.status, stored.publishedAt]).toEqual(["DRAFT", null]);
    expect(await db.auditEvent.count({ where: { action: "task.publish", targetId: task.id } })).toBe(0);

    // Fix two of the three: only the gold check is left.
    await db.task.update({ where: { id: task.id }, data: { description: "Resolve coreference." } });
    await db.phase.update({ where: { id: second.id }, data: { closesAt: new Date(now.getTime() + DAY) } });
    const left = (await rejection(publishTask(organizer.viewer, task.id, now))) as ValidationError;
    expect(left.fieldErrors.map((e) => e.path)).toEqual(["gold"]);

    // An untouched automatic "main" without gold next to named datasets: explained, and the fix links the Phases tab.
    const cs = await db.dataset.findFirstOrThrow({ where: { phaseId: second.id, name: "cs" } });
    await db.dataset.update({ where: { id: cs.id }, data: { name: "main", fileName: "main.conll" } });
    const gold = (await publishChecks(organizer.viewer, task.id, now)).checks[0];
    expect(gold.detail).toBe(
      'No active gold key for phase "test" (dataset main). Upload it on the Gold tab. The dataset "main" of phase "test" is the one every phase starts with; next to your named datasets it expects a gold key of its own. Delete it (or rename it to one of your datasets) on the Phases tab.',
    );
    expect(gold.fix).toEqual({ tab: "phases", label: "Rename or delete “main” in the phase’s datasets" });
  });

  it("CorefUD CoNLL-U gold under the default profile adds a non-blocking note suggesting CRAC; CoNLL-2012 gold, or the CRAC profile, adds none", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Note Organizer");
    const now = new Date();
    const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], status: "DRAFT" });
    await db.task.update({ where: { id: task.id }, data: { description: "Resolve coreference." } });
    await giveGold(phase.id, organizer.id);
    const plain = await publishChecks(organizer.viewer, task.id, now);
    expect(plain.notes).toEqual([]);
    const ready = plain.ready;
    await db.goldKey.updateMany({ where: { phaseId: phase.id }, data: { fileName: "key.conllu" } });
    const hinted = await publishChecks(organizer.viewer, task.id, now);
    expect(hinted.notes).toHaveLength(1);
    expect(hinted.notes[0]).toMatch(/^Your gold is CorefUD CoNLL-U: the CRAC profile is suggested \(CRAC /);
    // Non-blocking: the checks and readiness are the same as without it.
    expect(hinted.ready).toBe(ready);
    expect(hinted.checks).toEqual(plain.checks);
    await db.task.update({ where: { id: task.id }, data: { evaluationProfile: "crac", mentionMatching: "head", keepSingletons: false } });
    expect((await publishChecks(organizer.viewer, task.id, now)).notes).toEqual([]);
  });

  it("a freeze outside the window fails the date check, by phase name", async () => {
    const db = testDb.prisma;
    const now = new Date();
    const organizer = await makeUser(db, "Dates");
    const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], status: "DRAFT" });
    await db.task.update({ where: { id: task.id }, data: { description: "x" } });
    await giveGold(phase.id, organizer.id);
    expect((await publishChecks(organizer.viewer, task.id, now)).ready).toBe(true);
    // The DB allows a freeze outside the window (only its presence is checked); publishing does not.
    await db.phase.update({ where: { id: phase.id }, data: { leaderboardTiming: "frozen", frozenAt: new Date(now.getTime() + 5 * DAY) } });
    const dates = (await publishChecks(organizer.viewer, task.id, now)).checks.find((c) => c.id === "dates")!;
    expect(dates.ok).toBe(false);
    expect(dates.detail).toBe('Phase "test": the freeze time must be between the opening and the closing time.');
    // (A window that closes before it opens cannot be stored: the DB refuses it.)
    await db.phase.update({ where: { id: phase.id }, data: { frozenAt: new Date(now.getTime() - 2 * DAY) } });
    expect((await publishChecks(organizer.viewer, task.id, now)).ready).toBe(false);
    await db.phase.update({ where: { id: phase.id }, data: { frozenAt: new Date(now.getTime()) } });
    expect((await publishChecks(organizer.viewer, task.id, now)).ready).toBe(true);
  });

  it("publishTask: organizers only; publishes when every check passes, sets publishedAt, audits task.publish; then the task is public; twice is a 409", async () => {
    const f = await setup("DRAFT");
    await f.db.task.update({ where: { id: f.task.id }, data: { description: "Resolve coreference." } });
    await giveGold(f.phase.id, f.organizer.id);
    // A draft does not exist for anyone but its organizers: the unknown task's 404, anonymous callers included (issue 23 F7).
    for (const refused of [() => publishTask(null, f.task.id), () => publishTask(f.reader.viewer, f.task.id), () => publishChecks(null, f.task.id), () => publishChecks(f.reader.viewer, f.task.id)]) {
      const error = await rejection(refused());
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe("No such task.");
    }
    expect(await rejection(publishTask(f.organizer.viewer, "00000000-0000-4000-8000-000000000000"))).toBeInstanceOf(NotFoundError);
    const now = new Date("2030-01-01T00:00:00Z");
    await f.db.phase.update({ where: { id: f.phase.id }, data: { closesAt: new Date("2031-01-01T00:00:00Z") } });
    expect((await publishChecks(f.organizer.viewer, f.task.id, now)).ready).toBe(true);
    expect(await publishTask(f.organizer.viewer, f.task.id, now)).toEqual({ status: "PUBLISHED", publishedAt: now });
    const stored = await f.db.task.findUniqueOrThrow({ where: { id: f.task.id } });
    expect([stored.status, stored.publishedAt?.toISOString()]).toEqual(["PUBLISHED", now.toISOString()]);
    const event = await f.db.auditEvent.findFirstOrThrow({ where: { action: "task.publish", targetId: f.task.id } });
    expect(event).toMatchObject({ actorId: f.organizer.id, targetType: "task", data: { from: "DRAFT", to: "PUBLISHED" } });
    expect((await getTaskForViewer(f.task.slug, null)).status).toBe("PUBLISHED");
    expect((await getSubmissionForViewer(f.run.id, f.reader.viewer)).id).toBe(f.run.id);
    expect(await rejection(publishTask(f.organizer.viewer, f.task.id, now))).toBeInstanceOf(ConflictError);
  });
});

describe("archiving", () => {
  it("archiveTask: organizers only, published tasks only (a draft is a 409); audited; the task stays public", async () => {
    const draft = await setup("DRAFT");
    expect(await rejection(archiveTask(draft.organizer.viewer, draft.task.id))).toBeInstanceOf(ConflictError);
    const f = await setup("PUBLISHED");
    expect(await rejection(archiveTask(f.member.viewer, f.task.id))).toBeInstanceOf(ForbiddenError);
    const now = new Date("2030-02-01T00:00:00Z");
    expect(await archiveTask(f.organizer.viewer, f.task.id, now)).toEqual({ status: "ARCHIVED", archivedAt: now });
    expect(await rejection(archiveTask(f.organizer.viewer, f.task.id))).toBeInstanceOf(ConflictError);
    const view = await getTaskForViewer(f.task.slug, null);
    expect([view.status, view.archivedAt?.toISOString()]).toEqual(["ARCHIVED", now.toISOString()]);
    expect((await getLeaderboard(f.phase.id, null)).rows.length).toBe(1);
    expect((await getSubmissionForViewer(f.run.id, null)).id).toBe(f.run.id);
    const event = await f.db.auditEvent.findFirstOrThrow({ where: { action: "task.archive", targetId: f.task.id } });
    expect(event).toMatchObject({ actorId: f.organizer.id, data: { from: "PUBLISHED", to: "ARCHIVED" } });
  });

  it("an archived task is read-only: no runs (baselines neither), no edits of the task or its phases; nothing changes", async () => {
    const f = await setup("ARCHIVED");
    for (const viewer of [f.member.viewer, f.organizer.viewer]) {
      const error = await rejection(upload(viewer, f.phase.id));
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.httpStatus).toBe(409);
      expect(error.message).toBe("This task is archived: it no longer accepts runs.");
    }
    const orgTeam = await makeTeam(f.db, "Org", [f.organizer.id]);
    expect(await rejection(createSubmission({ viewer: f.organizer.viewer, phaseId: f.phase.id, team: orgTeam.id, fileName: "b.conll", bytes: bytes(SMALL_KEY), systemName: "b", isBaseline: true }))).toBeInstanceOf(ConflictError);
    const later = new Date(Date.now() + 5 * DAY).toISOString();
    const refusals = [
      () => updateTask(f.organizer.viewer, f.task.id, { title: "New title" }),
      () => updatePhase(f.organizer.viewer, f.phase.id, { dailyLimit: 3 }),
      () => addPhase(f.organizer.viewer, f.task.id, { name: "extra", opensAt: later, closesAt: new Date(Date.now() + 6 * DAY).toISOString() }),
      () => deletePhase(f.organizer.viewer, f.phase.id),
      () => closePhaseNow(f.organizer.viewer, f.phase.id),
    ];
    for (const refusal of refusals) {
      const error = await rejection(refusal());
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.message).toMatch(/^This task is archived and read-only: unarchive it on its manage page to /);
    }
    expect(await f.db.submission.count({ where: { phaseId: f.phase.id } })).toBe(1);
    expect(await f.db.phase.count({ where: { taskId: f.task.id } })).toBe(1);
    const phase = await f.db.phase.findUniqueOrThrow({ where: { id: f.phase.id } });
    expect([phase.dailyLimit, phase.closesAt.getTime()]).toEqual([null, f.phase.closesAt.getTime()]);
    expect((await f.db.task.findUniqueOrThrow({ where: { id: f.task.id } })).title).toBe(f.task.title);
  });

  it("unarchiveTask makes it published again (audited), and it takes edits again; only an archived task can be unarchived", async () => {
    const f = await setup("ARCHIVED");
    expect(await rejection(unarchiveTask(f.reader.viewer, f.task.id))).toBeInstanceOf(ForbiddenError);
    expect(await unarchiveTask(f.organizer.viewer, f.task.id)).toEqual({ status: "PUBLISHED" });
    const stored = await f.db.task.findUniqueOrThrow({ where: { id: f.task.id } });
    expect([stored.status, stored.archivedAt]).toEqual(["PUBLISHED", null]);
    expect(await f.db.auditEvent.count({ where: { action: "task.unarchive", targetId: f.task.id, actorId: f.organizer.id } })).toBe(1);
    expect((await updateTask(f.organizer.viewer, f.task.id, { title: "Back again" })).title).toBe("Back again");
    expect(await rejection(unarchiveTask(f.organizer.viewer, f.task.id))).toBeInstanceOf(ConflictError);
  });
});
