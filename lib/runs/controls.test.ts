/**
 * Run controls against a real database (issue 11 §3, §4): who may withdraw, disqualify and
 * reinstate a run, when, what each answers (401/403/404/409/422), the audit rows, the quota a
 * withdrawn run keeps using, and who still sees a withdrawn run. What the boards do with both
 * is in leaderboard.test.ts. The queue is mocked (uploads enqueue nothing real).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { ConflictError, ForbiddenError, NotFoundError, PhaseClosedError, QuotaExceededError, UnauthorizedError, ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { getTeamProgress } from "./progress";
import { quotaStatus } from "./quota";
import { DISQUALIFY_REASON_MAX, disqualifySubmission, hideSubmission, requalifySubmission, rescorePhase, rescoreSubmission, unhideSubmission, withdrawSubmission } from "./controls";
import { compareRuns, listComparableRuns } from "../boards/significance";
import { createSubmission, getSubmissionForViewer, listSubmissionsForPhase, listSubmissionsForTeam } from "./submissions";
import { packFile } from "../storage";
import { bytes, insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, SMALL_KEY, type PhaseOverrides } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

beforeEach(() => {
  vi.mocked(enqueueScoring).mockReset();
  vi.mocked(enqueueScoring).mockResolvedValue(undefined);
});

/**
 * A task with one open phase (overridable) and an organizer (with a team of their own for
 * baselines), team Alpha (member, teammate) and team Beta (rival), and a reader outside every
 * team; Alpha has one scored public run, Beta one, and the organizers a baseline.
 */
async function setup(phase: PhaseOverrides = {}) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const admin = await makeUser(db, "Admin", "ADMIN");
  const member = await makeUser(db, "Member");
  const teammate = await makeUser(db, "Teammate");
  const rival = await makeUser(db, "Rival");
  const reader = await makeUser(db, "Reader");
  const { task, phase: p } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase });
  const alpha = await makeTeam(db, "Alpha", [member.id, teammate.id]);
  const beta = await makeTeam(db, "Beta", [rival.id]);
  const orgTeam = await makeTeam(db, "Organizers", [organizer.id]);
  const run = async (teamId: string, submitterId: string, conll: number, fields: { isBaseline?: boolean; visibility?: "PUBLIC" | "PRIVATE"; minute?: number } = {}) => {
    const s = await insertSubmission(db, {
      phaseId: p.id,
      teamId,
      submitterId,
      isBaseline: fields.isBaseline,
      visibility: fields.visibility,
      createdAt: new Date(Date.now() - 3600_000 + (fields.minute ?? 0) * 60_000),
    });
    await insertScores(db, s.id, p.id, { conll });
    return s.id;
  };
  const ids = {
    alpha: await run(alpha.id, member.id, 0.8, { minute: 1 }),
    beta: await run(beta.id, rival.id, 0.6, { minute: 2 }),
    baseline: await run(orgTeam.id, organizer.id, 0.5, { isBaseline: true, minute: 3 }),
  };
  return { db, task, phase: p, organizer, admin, member, teammate, rival, reader, alpha, beta, orgTeam, ids, run };
}

/** How many audit events with one of `actions` target the phase's runs (the database is shared by the file's tests). */
async function countAudit(phaseId: string, actions: string[]): Promise<number> {
  const ids = (await testDb.prisma.submission.findMany({ where: { phaseId }, select: { id: true } })).map((s) => s.id);
  return testDb.prisma.auditEvent.count({ where: { targetType: "submission", targetId: { in: ids }, action: { in: actions } } });
}

/** The audit events of one submission, oldest first. */
async function auditOf(submissionId: string) {
  return testDb.prisma.auditEvent.findMany({ where: { targetType: "submission", targetId: submissionId }, orderBy: { at: "asc" } });
}

describe("withdrawSubmission", () => {
  it("a team member withdraws the team's run: withdrawnAt is set and audited as submission.withdraw; a second withdrawal is a 409", async () => {
    const f = await setup();
    const now = new Date();
    const state = await withdrawSubmission(f.teammate.viewer, f.ids.alpha, { now });
    expect(state).toEqual({ id: f.ids.alpha, withdrawnAt: now, disqualified: null });
    expect((await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } })).withdrawnAt).toEqual(now);
    const events = await auditOf(f.ids.alpha);
    expect(events.map((e) => [e.action, e.actorId])).toEqual([["submission.withdraw", f.teammate.id]]);
    expect(events[0].data).toMatchObject({ phaseId: f.phase.id, teamId: f.alpha.id, withdrawnAt: now.toISOString() });

    const again = await rejection(withdrawSubmission(f.member.viewer, f.ids.alpha));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again.httpStatus).toBe(409);
    expect(again.message).toMatch(/already withdrawn/);
    expect(await auditOf(f.ids.alpha)).toHaveLength(1);
  });

  it("refuses everyone outside the team: organizers 403, other teams 403 (404 for a private run), anonymous 401, unknown or malformed ids 404", async () => {
    const f = await setup();
    const privateRun = await f.run(f.alpha.id, f.member.id, 0.7, { visibility: "PRIVATE" });
    const organizer = await rejection(withdrawSubmission(f.organizer.viewer, f.ids.alpha));
    expect(organizer).toBeInstanceOf(ForbiddenError);
    expect(organizer.message).toBe("Only members of the run's team can withdraw it.");
    expect((await rejection(withdrawSubmission(f.admin.viewer, f.ids.alpha))).httpStatus).toBe(403);
    expect((await rejection(withdrawSubmission(f.rival.viewer, f.ids.alpha))).httpStatus).toBe(403);
    expect(await rejection(withdrawSubmission(f.rival.viewer, privateRun))).toBeInstanceOf(NotFoundError);
    expect(await rejection(withdrawSubmission(null, f.ids.alpha))).toBeInstanceOf(UnauthorizedError);
    expect((await rejection(withdrawSubmission(f.member.viewer, "00000000-0000-4000-8000-000000000000"))).httpStatus).toBe(404);
    expect((await rejection(withdrawSubmission(f.member.viewer, "not-a-uuid"))).httpStatus).toBe(404);
    const rows = await f.db.submission.findMany({ where: { phaseId: f.phase.id, withdrawnAt: { not: null } } });
    expect(rows).toEqual([]);
    expect(await countAudit(f.phase.id, ["submission.withdraw"])).toBe(0);
  });

  it("refuses a baseline (403), even for the organizers' own team", async () => {
    const f = await setup();
    const error = await rejection(withdrawSubmission(f.organizer.viewer, f.ids.baseline));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toMatch(/Baselines .* cannot be withdrawn/);
  });

  it("only before the phase closes: at or after closesAt it is a 409 naming the closing time, and nothing changes", async () => {
    const f = await setup();
    const justBefore = new Date(f.phase.closesAt.getTime() - 1);
    const at = new Date(f.phase.closesAt.getTime());
    const error = await rejection(withdrawSubmission(f.member.viewer, f.ids.alpha, { now: at }));
    expect(error).toBeInstanceOf(PhaseClosedError);
    expect(error.httpStatus).toBe(409);
    expect(error.message).toMatch(/^The test phase closed on \d{4}-\d\d-\d\d \d\d:\d\d UTC; its runs can no longer be withdrawn\.$/);
    expect((await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } })).withdrawnAt).toBeNull();
    expect(await auditOf(f.ids.alpha)).toEqual([]);
    expect((await withdrawSubmission(f.member.viewer, f.ids.alpha, { now: justBefore })).withdrawnAt).toEqual(justBefore);
  });

  it("a disqualified run cannot be withdrawn (409): the organizers' public reason stays on the board", async () => {
    const f = await setup();
    await disqualifySubmission(f.organizer.viewer, f.ids.alpha, "Tuned on the test gold.");
    const error = await rejection(withdrawSubmission(f.member.viewer, f.ids.alpha));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.message).toMatch(/disqualified/);
  });

  it("does not refund the quota: the withdrawn run still counts, and the team's next upload over the limit is refused", async () => {
    const f = await setup({ totalLimit: 2, dailyLimit: null });
    // Alpha has one run from the fixture; this upload is its second and last.
    const upload = () =>
      createSubmission({ viewer: f.member.viewer, phaseId: f.phase.id, fileName: "system.conll", bytes: bytes(SMALL_KEY), systemName: "again" });
    const { id } = await upload();
    const before = await quotaStatus(f.alpha.id, f.phase.id);
    expect(before).toMatchObject({ usedTotal: 2, remainingTotal: 0 });
    await withdrawSubmission(f.member.viewer, id);
    expect(await quotaStatus(f.alpha.id, f.phase.id)).toEqual(before);
    await withdrawSubmission(f.member.viewer, f.ids.alpha);
    expect(await quotaStatus(f.alpha.id, f.phase.id)).toEqual(before);
    expect(await rejection(upload())).toBeInstanceOf(QuotaExceededError);
  });

  it("afterwards the team and the organizers still see the run, marked withdrawn; for everybody else it is a 404, and it leaves the progress chart and the comparable runs", async () => {
    const f = await setup();
    const viewBefore = await getSubmissionForViewer(f.ids.alpha, f.member.viewer);
    expect([viewBefore.withdrawnAt, viewBefore.disqualified, viewBefore.viewerCanWithdraw]).toEqual([null, null, true]);
    expect(viewBefore.withdrawableUntil).toEqual(f.phase.closesAt);
    expect((await getSubmissionForViewer(f.ids.alpha, f.member.viewer, f.phase.closesAt)).viewerCanWithdraw).toBe(false);
    expect((await getSubmissionForViewer(f.ids.alpha, f.organizer.viewer)).viewerCanWithdraw).toBe(false);
    expect((await getSubmissionForViewer(f.ids.alpha, f.reader.viewer)).viewerCanWithdraw).toBe(false);
    expect((await listComparableRuns(f.reader.viewer, f.ids.beta)).map((r) => r.id)).toContain(f.ids.alpha);
    expect((await getTeamProgress(null, f.phase.id, f.alpha.id)).points.map((p) => p.id)).toEqual([f.ids.alpha]);

    const { withdrawnAt } = await withdrawSubmission(f.member.viewer, f.ids.alpha);
    for (const insider of [f.member, f.teammate, f.organizer, f.admin]) {
      const view = await getSubmissionForViewer(f.ids.alpha, insider.viewer);
      expect([view.withdrawnAt, view.viewerCanWithdraw], insider.name).toEqual([withdrawnAt, false]);
    }
    for (const outsider of [null, f.reader.viewer, f.rival.viewer]) {
      expect(await rejection(getSubmissionForViewer(f.ids.alpha, outsider))).toBeInstanceOf(NotFoundError);
    }
    // The lists of the organizers and of the team mark it.
    const phaseList = await listSubmissionsForPhase(f.organizer.viewer, f.phase.id);
    expect(phaseList.find((s) => s.id === f.ids.alpha)).toMatchObject({ withdrawnAt, disqualified: null });
    expect((await listSubmissionsForTeam(f.member.viewer, f.alpha.id, f.phase.id))[0]).toMatchObject({ id: f.ids.alpha, withdrawnAt });
    // Others cannot pick it to compare with; its team can.
    expect((await listComparableRuns(f.reader.viewer, f.ids.beta)).map((r) => r.id)).not.toContain(f.ids.alpha);
    expect((await listComparableRuns(f.organizer.viewer, f.ids.beta)).map((r) => r.id)).toContain(f.ids.alpha);
    expect(await rejection(listComparableRuns(f.reader.viewer, f.ids.alpha))).toBeInstanceOf(NotFoundError);
    expect(await rejection(compareRuns(f.reader.viewer, f.ids.alpha, f.ids.beta))).toBeInstanceOf(NotFoundError);
    expect((await listComparableRuns(f.member.viewer, f.ids.alpha)).map((r) => r.id)).toContain(f.ids.beta);
    // The progress chart: no point for it (an outsider then sees no team at all).
    expect(await rejection(getTeamProgress(null, f.phase.id, f.alpha.id))).toBeInstanceOf(NotFoundError);
    expect((await getTeamProgress(f.member.viewer, f.phase.id, f.alpha.id)).points).toEqual([]);
  });
});

describe("disqualifySubmission and requalifySubmission", () => {
  it("an organizer disqualifies with a trimmed public reason (who and when recorded, audited with the reason); again replaces the reason; reinstating clears it", async () => {
    const f = await setup();
    const now = new Date("2030-01-02T03:04:05.000Z");
    const state = await disqualifySubmission(f.organizer.viewer, f.ids.alpha, "  Trained on the test gold.\n", { now });
    expect(state).toEqual({ id: f.ids.alpha, withdrawnAt: null, disqualified: { reason: "Trained on the test gold.", at: now } });
    const row = await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } });
    expect([row.disqualifiedAt, row.disqualifiedReason, row.disqualifiedById]).toEqual([now, "Trained on the test gold.", f.organizer.id]);
    // Everybody who sees the run sees the reason.
    expect((await getSubmissionForViewer(f.ids.alpha, null)).disqualified).toEqual({ reason: "Trained on the test gold.", at: now });
    expect((await getSubmissionForViewer(f.ids.alpha, f.member.viewer)).viewerCanWithdraw).toBe(false);
    expect((await listSubmissionsForPhase(f.organizer.viewer, f.phase.id)).find((s) => s.id === f.ids.alpha)?.disqualified).toEqual({ reason: "Trained on the test gold.", at: now });

    await disqualifySubmission(f.admin.viewer, f.ids.alpha, "Used the test gold for tuning.");
    expect((await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } })).disqualifiedById).toBe(f.admin.id);

    const reinstated = await requalifySubmission(f.organizer.viewer, f.ids.alpha);
    expect(reinstated.disqualified).toBeNull();
    const cleared = await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } });
    expect([cleared.disqualifiedAt, cleared.disqualifiedReason, cleared.disqualifiedById]).toEqual([null, null, null]);

    const events = await auditOf(f.ids.alpha);
    expect(events.map((e) => [e.action, e.actorId, (e.data as { reason?: string }).reason])).toEqual([
      ["submission.disqualify", f.organizer.id, "Trained on the test gold."],
      ["submission.disqualify", f.admin.id, "Used the test gold for tuning."],
      ["submission.requalify", f.organizer.id, "Used the test gold for tuning."],
    ]);
    expect(events[1].data).toMatchObject({ previousReason: "Trained on the test gold.", phaseId: f.phase.id, teamId: f.alpha.id });
  });

  it("organizers of the task only: the run's team and other teams 403, anonymous 401, a private run of another team 404; nothing changes", async () => {
    const f = await setup();
    const privateRun = await f.run(f.alpha.id, f.member.id, 0.7, { visibility: "PRIVATE" });
    const other = await makeUser(f.db, "Other organizer");
    await makeTaskWithPhase(f.db, { organizerIds: [other.id] });
    for (const viewer of [f.member.viewer, f.rival.viewer, f.reader.viewer, other.viewer]) {
      const error = await rejection(disqualifySubmission(viewer, f.ids.alpha, "No."));
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error.message).toBe("Only the organizers of this task can disqualify or reinstate a run.");
    }
    expect(await rejection(disqualifySubmission(null, f.ids.alpha, "No."))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(disqualifySubmission(f.rival.viewer, privateRun, "No."))).toBeInstanceOf(NotFoundError);
    expect(await rejection(disqualifySubmission(f.organizer.viewer, "00000000-0000-4000-8000-000000000000", "No."))).toBeInstanceOf(NotFoundError);
    await disqualifySubmission(f.organizer.viewer, f.ids.beta, "Late.");
    expect((await rejection(requalifySubmission(f.rival.viewer, f.ids.beta))).httpStatus).toBe(403);
    expect((await rejection(requalifySubmission(null, f.ids.beta))).httpStatus).toBe(401);
    expect((await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } })).disqualifiedAt).toBeNull();
    expect((await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.beta } })).disqualifiedReason).toBe("Late.");
    expect(await countAudit(f.phase.id, ["submission.disqualify", "submission.requalify"])).toBe(1);
  });

  it(`the reason is required and at most ${DISQUALIFY_REASON_MAX} characters (422 on field reason)`, async () => {
    const f = await setup();
    for (const reason of [undefined, null, "", "   ", 42, "x".repeat(DISQUALIFY_REASON_MAX + 1)]) {
      const error = await rejection(disqualifySubmission(f.organizer.viewer, f.ids.alpha, reason));
      expect(error, String(reason)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fieldErrors.map((e) => e.path)).toEqual(["reason"]);
    }
    expect((await rejection(disqualifySubmission(f.organizer.viewer, f.ids.alpha, ""))).message).toMatch(/Give the reason/);
    expect((await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } })).disqualifiedAt).toBeNull();
    const longest = "y".repeat(DISQUALIFY_REASON_MAX);
    expect((await disqualifySubmission(f.organizer.viewer, f.ids.alpha, longest)).disqualified?.reason).toBe(longest);
  });

  it("reinstating a run that is not disqualified is a 409; a withdrawn run cannot be disqualified (409)", async () => {
    const f = await setup();
    const error = await rejection(requalifySubmission(f.organizer.viewer, f.ids.alpha));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.message).toBe("This run is not disqualified.");
    await withdrawSubmission(f.member.viewer, f.ids.alpha);
    const withdrawn = await rejection(disqualifySubmission(f.organizer.viewer, f.ids.alpha, "Too late."));
    expect(withdrawn).toBeInstanceOf(ConflictError);
    expect(withdrawn.message).toMatch(/withdrawn by its team/);
    expect(await countAudit(f.phase.id, ["submission.disqualify"])).toBe(0);
  });
});

/** Gives the phase an active gold key (what a re-score needs), stored directly. */
async function addGold(phaseId: string, uploadedById: string) {
  const db = testDb.prisma;
  const dataset = await db.dataset.findFirstOrThrow({ where: { phaseId } });
  const stored = packFile(bytes(SMALL_KEY));
  return db.goldKey.create({
    data: { phaseId, datasetId: dataset.id, version: 1, fileName: "key.conll", sha256: stored.sha256, gzip: stored.gzip, size: stored.size, documentCount: 2, stats: {}, uploadedById, active: true },
  });
}

describe("hideSubmission and unhideSubmission", () => {
  it("an organizer hides a run: hiddenAt and hiddenBy set, audited submission.hide; its team and the organizers still see it, others get a 404; unhide reverses it", async () => {
    const f = await setup();
    const now = new Date();
    expect(await hideSubmission(f.organizer.viewer, f.ids.alpha, { now })).toEqual({ id: f.ids.alpha, hiddenAt: now });
    const row = await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } });
    expect([row.hiddenAt, row.hiddenById]).toEqual([now, f.organizer.id]);
    expect((await auditOf(f.ids.alpha)).map((e) => [e.action, e.actorId])).toEqual([["submission.hide", f.organizer.id]]);

    expect((await getSubmissionForViewer(f.ids.alpha, f.member.viewer)).id).toBe(f.ids.alpha);
    expect((await getSubmissionForViewer(f.ids.alpha, f.organizer.viewer)).id).toBe(f.ids.alpha);
    expect((await getSubmissionForViewer(f.ids.alpha, f.admin.viewer)).id).toBe(f.ids.alpha);
    for (const viewer of [f.rival.viewer, f.reader.viewer, null]) {
      expect(await rejection(getSubmissionForViewer(f.ids.alpha, viewer))).toBeInstanceOf(NotFoundError);
    }
    // A second hide is a 409 and writes nothing.
    const again = await rejection(hideSubmission(f.admin.viewer, f.ids.alpha));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again.message).toMatch(/already hidden/);

    expect(await unhideSubmission(f.admin.viewer, f.ids.alpha)).toEqual({ id: f.ids.alpha, hiddenAt: null });
    const back = await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } });
    expect([back.hiddenAt, back.hiddenById]).toEqual([null, null]);
    expect((await auditOf(f.ids.alpha)).map((e) => [e.action, e.actorId])).toEqual([
      ["submission.hide", f.organizer.id],
      ["submission.unhide", f.admin.id],
    ]);
    expect((await getSubmissionForViewer(f.ids.alpha, f.reader.viewer)).id).toBe(f.ids.alpha);
    expect(await rejection(unhideSubmission(f.organizer.viewer, f.ids.alpha))).toBeInstanceOf(ConflictError);
  });

  it("organizers only: the team itself 403, other teams 403, anonymous 401, unknown ids 404; baselines can be hidden", async () => {
    const f = await setup();
    const team = await rejection(hideSubmission(f.member.viewer, f.ids.alpha));
    expect(team).toBeInstanceOf(ForbiddenError);
    expect(team.message).toBe("Only the organizers of this task can hide a run.");
    expect((await rejection(hideSubmission(f.rival.viewer, f.ids.alpha))).httpStatus).toBe(403);
    expect(await rejection(hideSubmission(null, f.ids.alpha))).toBeInstanceOf(UnauthorizedError);
    expect((await rejection(hideSubmission(f.organizer.viewer, "00000000-0000-4000-8000-000000000000"))).httpStatus).toBe(404);
    expect((await rejection(unhideSubmission(f.member.viewer, f.ids.alpha))).httpStatus).toBe(403);
    expect(await countAudit(f.phase.id, ["submission.hide", "submission.unhide"])).toBe(0);

    expect((await hideSubmission(f.organizer.viewer, f.ids.baseline)).hiddenAt).not.toBeNull();
    // A hidden run of another team is no longer visible to outsiders, so they get a 404 now.
    expect((await rejection(unhideSubmission(f.rival.viewer, f.ids.baseline))).httpStatus).toBe(404);
  });
});

describe("rescoreSubmission and rescorePhase", () => {
  it("re-scoring one run sets it QUEUED (attempts 0, error cleared), clears its files' gold key, enqueues it and audits submission.rescore", async () => {
    const f = await setup();
    const gold = await addGold(f.phase.id, f.organizer.id);
    await f.db.submissionFile.updateMany({ where: { submissionId: { in: [f.ids.alpha, f.ids.beta] } }, data: { goldKeyId: gold.id } });
    await f.db.submission.update({ where: { id: f.ids.alpha }, data: { status: "FAILED", attempts: 3, errorStage: "platform", errorMessage: "boom" } });

    expect(await rescoreSubmission(f.organizer.viewer, f.ids.alpha)).toEqual({ ids: [f.ids.alpha], requeued: 1 });
    const row = await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha }, include: { files: true } });
    expect([row.status, row.attempts, row.errorStage, row.errorMessage]).toEqual(["QUEUED", 0, null, null]);
    expect(row.files.map((x) => x.goldKeyId)).toEqual([null]);
    // The other run keeps its gold key and status.
    const other = await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.beta }, include: { files: true } });
    expect([other.status, other.files[0].goldKeyId]).toEqual(["SCORED", gold.id]);
    expect(vi.mocked(enqueueScoring)).toHaveBeenCalledWith([f.ids.alpha]);
    const events = await auditOf(f.ids.alpha);
    expect(events.map((e) => [e.action, e.actorId])).toEqual([["submission.rescore", f.organizer.id]]);
    expect(events[0].data).toMatchObject({ phaseId: f.phase.id, previousStatus: "FAILED" });

    // Now QUEUED: a second re-score is a 409, as is one of a SCORING run.
    const queued = await rejection(rescoreSubmission(f.organizer.viewer, f.ids.alpha));
    expect(queued).toBeInstanceOf(ConflictError);
    expect(queued.message).toMatch(/waiting to be scored already/);
    await f.db.submission.update({ where: { id: f.ids.beta }, data: { status: "SCORING" } });
    expect((await rejection(rescoreSubmission(f.organizer.viewer, f.ids.beta))).message).toMatch(/being scored already/);
    expect(await countAudit(f.phase.id, ["submission.rescore"])).toBe(1);
  });

  it("one run: organizers only (403 for the team, 401 anonymous, 404 unknown), and a phase without gold is a 409", async () => {
    const f = await setup();
    const noGold = await rejection(rescoreSubmission(f.organizer.viewer, f.ids.alpha));
    expect(noGold).toBeInstanceOf(ConflictError);
    expect(noGold.message).toMatch(/no gold key yet/);
    await addGold(f.phase.id, f.organizer.id);
    expect((await rejection(rescoreSubmission(f.member.viewer, f.ids.alpha))).httpStatus).toBe(403);
    expect((await rejection(rescoreSubmission(null, f.ids.alpha))).httpStatus).toBe(401);
    expect((await rejection(rescoreSubmission(f.organizer.viewer, "nope"))).httpStatus).toBe(404);
    expect((await f.db.submission.findUniqueOrThrow({ where: { id: f.ids.alpha } })).status).toBe("SCORED");
    expect(vi.mocked(enqueueScoring)).not.toHaveBeenCalled();
  });

  it("re-scoring the phase re-queues every run whatever its status, clears every file's gold key, and audits phase.rescore once with the count", async () => {
    const f = await setup();
    const gold = await addGold(f.phase.id, f.organizer.id);
    await f.db.submissionFile.updateMany({ where: { phaseId: f.phase.id }, data: { goldKeyId: gold.id } });
    await f.db.submission.update({ where: { id: f.ids.beta }, data: { status: "SCORING", workerId: "host:1" } });
    // Another phase's run is left alone.
    const other = await makeTaskWithPhase(f.db, { organizerIds: [f.organizer.id] });
    const outside = await insertSubmission(f.db, { phaseId: other.phase.id, teamId: f.alpha.id, submitterId: f.member.id });

    const result = await rescorePhase(f.organizer.viewer, f.phase.id);
    expect(result.requeued).toBe(3);
    expect(new Set(result.ids)).toEqual(new Set(Object.values(f.ids)));
    const rows = await f.db.submission.findMany({ where: { phaseId: f.phase.id }, include: { files: true } });
    expect(rows.map((r) => [r.status, r.workerId, r.files[0].goldKeyId])).toEqual(rows.map(() => ["QUEUED", null, null]));
    expect((await f.db.submission.findUniqueOrThrow({ where: { id: outside.id } })).status).toBe("SCORED");
    expect(vi.mocked(enqueueScoring)).toHaveBeenCalledWith(result.ids);
    const events = await f.db.auditEvent.findMany({ where: { targetType: "phase", targetId: f.phase.id } });
    expect(events.map((e) => [e.action, e.actorId])).toEqual([["phase.rescore", f.organizer.id]]);
    expect(events[0].data).toMatchObject({ taskId: f.task.id, name: f.phase.name, count: 3 });
  });

  it("the phase: 404 for a non-organizer (as for an unknown phase), 401 anonymous, 409 without gold; nothing changes", async () => {
    const f = await setup();
    expect((await rejection(rescorePhase(f.organizer.viewer, f.phase.id))).httpStatus).toBe(409);
    await addGold(f.phase.id, f.organizer.id);
    for (const viewer of [f.member.viewer, f.reader.viewer]) {
      const error = await rejection(rescorePhase(viewer, f.phase.id));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe("No such phase.");
    }
    expect(await rejection(rescorePhase(null, f.phase.id))).toBeInstanceOf(UnauthorizedError);
    expect((await rejection(rescorePhase(f.organizer.viewer, "00000000-0000-4000-8000-000000000000"))).message).toBe("No such phase.");
    expect(await f.db.submission.count({ where: { phaseId: f.phase.id, status: "QUEUED" } })).toBe(0);
    expect(await f.db.auditEvent.count({ where: { action: "phase.rescore", targetId: f.phase.id } })).toBe(0);
    expect((await rescorePhase(f.admin.viewer, f.phase.id)).requeued).toBe(3);
  });
});
