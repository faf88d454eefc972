/**
 * Gold key uploads, submissions and quotas against a real database. The queue is mocked:
 * these tests check what is stored and what is enqueued, not pg-boss.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { ConflictError, ForbiddenError, QuotaExceededError, RateLimitedError, ValidationError } from "../errors";
import { closeRateLimitStore, consumeRateLimit } from "../rate-limit";
import { enqueueScoring } from "../queue";
import { packFile, sha256Hex, unpackFile } from "../storage";
import { makeTarGz, makeZip } from "./archive.fixtures";
import { defaultDatasetData } from "../tasks/datasets";
import { findActiveGold, listGoldVersions, uploadGoldKey } from "../tasks/gold";
import { nextUtcMidnight, quotaForViewer, quotaStatus } from "../runs/quota";
import { createSubmission, getSubmissionForViewer, listSubmissionsForPhase, listSubmissionsForTeam, listSubmissionsForViewer, type CreateSubmissionInput } from "../runs/submissions";
import { compareDocuments, DocumentMismatchError, UploadShapeError, uploadHowTo, type RunDocument } from "./checks";
import { runEvaluation } from "../tasks/evaluation";
import { EVALUATION_PROFILES } from "../../scoring/presets";
import { readCorpus } from "../../scoring/formats";
import { createTeam, setParticipantTeam, taskTeamOf } from "../teams/teams";
import { BROKEN_FILE, bytes, insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeTrack, makeUser, rejection, SMALL_KEY, type PhaseOverrides } from "../tasks/test-fixtures";

const testDb = useTestDatabase();
const enqueue = vi.mocked(enqueueScoring);
afterAll(() => closeRateLimitStore());

beforeEach(() => {
  enqueue.mockReset();
  enqueue.mockResolvedValue(undefined);
});
afterEach(() => {
  delete process.env.UPLOAD_MAX_BYTES;
  delete process.env.RATE_LIMIT_TEAM_CREATE;
});

/** An organizer, a task with one open phase (overridable), and a participant in a one-person team. */
async function setup(phase: PhaseOverrides = {}) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Gold Organizer");
  const participant = await makeUser(db, "Submitter");
  const { task, phase: p, dataset } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase });
  const team = await makeTeam(db, "Team", [participant.id]);
  return { db, organizer, participant, task, phase: p, team, dataset };
}

const submission = (viewer: CreateSubmissionInput["viewer"], phaseId: string, over: Partial<CreateSubmissionInput> = {}): CreateSubmissionInput => ({
  viewer,
  phaseId,
  fileName: "system.conll",
  bytes: bytes(SMALL_KEY),
  systemName: "my-system",
  ...over,
});

describe("uploadGoldKey", () => {
  it("stores version 1 with exact stats, active, and audits it; findActiveGold returns the same bytes", async () => {
    const { db, organizer, phase } = await setup();
    const { gold, requeued } = await uploadGoldKey(organizer.viewer, phase.id, "dir/key.v4_gold_conll", bytes(SMALL_KEY));
    expect(requeued).toBe(0);
    expect(gold).toMatchObject({ version: 1, fileName: "key.v4_gold_conll", active: true, documents: 2, size: bytes(SMALL_KEY).byteLength });
    expect(gold.stats).toEqual({ documents: 2, tokens: 12, mentions: 6, entities: 4, singletons: 2, warnings: 0 });
    const row = await db.goldKey.findUniqueOrThrow({ where: { id: gold.id } });
    expect(new TextDecoder().decode(unpackFile(row.gzip, row.sha256))).toBe(SMALL_KEY);
    const active = await findActiveGold(phase.id);
    expect(active?.version).toBe(1);
    expect(unpackFile(active!.gzip, active!.sha256).toString("utf8")).toBe(SMALL_KEY);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "gold.upload", targetId: gold.id } });
    expect(audit.actorId).toBe(organizer.id);
    expect(JSON.stringify(audit.data)).not.toContain("John");
    expect(enqueue).toHaveBeenCalledWith([]);
  });

  it("a new version becomes the only active one and re-queues every submission of the phase, keeping old scores", async () => {
    const { db, organizer, participant, phase, team } = await setup();
    await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    const scored = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status: "SCORED", goldVersion: 1 });
    await insertScores(db, scored.id, phase.id, { conll: 0.42 });
    const failed = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status: "FAILED", errorStage: "scoring" });
    await db.submission.update({ where: { id: failed.id }, data: { attempts: 3, errorMessage: "boom", errorLocation: { line: 1 } } });
    const elsewhere = await makeTaskWithPhase(db);
    const untouched = await insertSubmission(db, { phaseId: elsewhere.phase.id, teamId: team.id, submitterId: participant.id, status: "SCORED" });
    enqueue.mockClear();

    const { gold, requeued } = await uploadGoldKey(organizer.viewer, phase.id, "key2.conll", bytes(SMALL_KEY.replace("It\t(3)", "It\t-")));
    expect(gold.version).toBe(2);
    expect(gold.stats).toMatchObject({ mentions: 5, entities: 3, singletons: 1 });
    expect(requeued).toBe(2);
    const versions = await db.goldKey.findMany({ where: { phaseId: phase.id }, orderBy: { version: "asc" } });
    expect(versions.map((v) => [v.version, v.active])).toEqual([
      [1, false],
      [2, true],
    ]);
    const after = await db.submission.findMany({ where: { phaseId: phase.id }, orderBy: { createdAt: "asc" } });
    for (const s of after) {
      expect([s.status, s.attempts, s.errorStage, s.errorMessage, s.errorLocation]).toEqual(["QUEUED", 0, null, null, null]);
    }
    expect(after.find((s) => s.id === scored.id)?.goldVersion).toBe(1);
    expect(await db.score.count({ where: { submissionId: scored.id } })).toBe(1);
    expect((await db.submission.findUniqueOrThrow({ where: { id: untouched.id } })).status).toBe("SCORED");
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect([...enqueue.mock.calls[0][0]].sort()).toEqual([scored.id, failed.id].sort());
    expect((await findActiveGold(phase.id))?.version).toBe(2);
    expect((await listGoldVersions(organizer.viewer, phase.id)).map((g) => g.version)).toEqual([2, 1]);
    expect((await rejection(listGoldVersions(participant.viewer, phase.id))).httpStatus).toBe(403);
  });

  it("a broken file is a 422 with line numbers; nothing is stored, the version and submissions are unchanged", async () => {
    const { db, organizer, participant, phase, team } = await setup();
    await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    const s = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status: "SCORED" });
    enqueue.mockClear();
    const auditsBefore = await db.auditEvent.count();
    const error = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "broken.conll", bytes(BROKEN_FILE)))) as ValidationError;
    expect(error.httpStatus).toBe(422);
    expect(error.formatErrors).toHaveLength(1);
    expect(error.formatErrors[0]).toMatchObject({ file: "broken.conll", line: 3 });
    expect(error.toJSON().error.formatErrors).toEqual(error.formatErrors);
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(1);
    expect((await findActiveGold(phase.id))?.version).toBe(1);
    expect((await db.submission.findUniqueOrThrow({ where: { id: s.id } })).status).toBe("SCORED");
    expect(await db.auditEvent.count()).toBe(auditsBefore);
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("only organizers upload (401/403), and the size limit is enforced (413)", async () => {
    const { db, participant, organizer, phase } = await setup();
    expect((await rejection(uploadGoldKey(null, phase.id, "k.conll", bytes(SMALL_KEY)))).httpStatus).toBe(401);
    expect((await rejection(uploadGoldKey(participant.viewer, phase.id, "k.conll", bytes(SMALL_KEY)))).httpStatus).toBe(403);
    process.env.UPLOAD_MAX_BYTES = "100";
    expect((await rejection(uploadGoldKey(organizer.viewer, phase.id, "k.conll", bytes(SMALL_KEY)))).httpStatus).toBe(413);
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(0);
  });

  it("a failed enqueue after commit is logged, not thrown (the reconciler catches up)", async () => {
    const { organizer, phase } = await setup();
    enqueue.mockRejectedValueOnce(new Error("queue down"));
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { gold } = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
      expect(gold.version).toBe(1);
      expect(log).toHaveBeenCalledWith(expect.stringContaining("queue down"));
    } finally {
      log.mockRestore();
    }
  });
});

/**
 * Runs `body` while every insert into submissions sleeps 300 ms, so two uploads' check-then-insert
 * windows overlap for sure: without the (team, phase) lock both would pass the quota check.
 */
async function withSlowInserts<T>(body: () => Promise<T>): Promise<T> {
  const db = testDb.prisma;
  await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_slow_insert() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$ LANGUAGE plpgsql`);
  await db.$executeRawUnsafe(`CREATE TRIGGER test_slow_insert BEFORE INSERT ON submissions FOR EACH ROW EXECUTE FUNCTION test_slow_insert()`);
  try {
    return await body();
  } finally {
    await db.$executeRawUnsafe(`DROP TRIGGER test_slow_insert ON submissions`);
  }
}

describe("createSubmission", () => {
  it("stores the file QUEUED, audits it and enqueues it after commit", async () => {
    const { db, participant, phase, team, dataset } = await setup();
    const result = await createSubmission(submission(participant.viewer, phase.id, { description: "desc", paperUrl: "https://example.org/p" }));
    expect(result.status).toBe("QUEUED");
    const row = await db.submission.findUniqueOrThrow({ where: { id: result.id } });
    expect([row.teamId, row.submitterId, row.systemName, row.fileName, row.status, row.paperUrl]).toEqual([team.id, participant.id, "my-system", "system.conll", "QUEUED", "https://example.org/p"]);
    // The upload as sent, and its one file for the phase's only dataset.
    expect([row.sha256, row.size]).toEqual([sha256Hex(bytes(SMALL_KEY)), bytes(SMALL_KEY).byteLength]);
    const files = await db.submissionFile.findMany({ where: { submissionId: result.id } });
    expect(files.map((f) => [f.datasetId, f.fileName, f.size, f.goldKeyId])).toEqual([[dataset.id, "system.conll", bytes(SMALL_KEY).byteLength, null]]);
    expect(unpackFile(files[0].gzip, files[0].sha256).toString("utf8")).toBe(SMALL_KEY);
    expect(result.missingDatasets).toEqual([]);
    expect(enqueue).toHaveBeenCalledWith([result.id]);
    expect(await db.auditEvent.count({ where: { action: "submission.create", targetId: result.id } })).toBe(1);
  });

  it("rejects anonymous viewers (401) and unknown phases (404)", async () => {
    const { participant, phase } = await setup();
    expect((await rejection(createSubmission(submission(null, phase.id)))).httpStatus).toBe(401);
    expect((await rejection(createSubmission(submission(participant.viewer, "00000000-0000-0000-0000-000000000000")))).httpStatus).toBe(404);
  });

  it("rejects submissions outside the window with 409 and the times in UTC; nothing stored", async () => {
    const { db, participant, team } = await setup();
    const closed = await makeTaskWithPhase(db, { phase: { opensAt: new Date("2024-01-01T00:00:00Z"), closesAt: new Date("2024-02-01T12:00:00Z") } });
    const error = await rejection(createSubmission(submission(participant.viewer, closed.phase.id)));
    expect(error.httpStatus).toBe(409);
    expect(error.code).toBe("phase_closed");
    expect(error.message).toContain("is closed");
    expect(error.message).toContain("2024-01-01 00:00 UTC");
    expect(error.message).toContain("2024-02-01 12:00 UTC");
    const future = await makeTaskWithPhase(db, { phase: { opensAt: new Date("2099-01-01T00:00:00Z"), closesAt: new Date("2099-02-01T00:00:00Z") } });
    expect((await rejection(createSubmission(submission(participant.viewer, future.phase.id)))).message).toContain("has not opened yet");
    expect(await db.submission.count({ where: { teamId: team.id } })).toBe(0);
  });

  it("enforces the daily limit per UTC day (429 with the reset time), and yesterday's runs do not count today", async () => {
    const { participant, phase, team } = await setup({ dailyLimit: 2 });
    const today = new Date();
    const yesterday = new Date(today.getTime() - 24 * 3600 * 1000);
    await createSubmission(submission(participant.viewer, phase.id, { now: yesterday }));
    await createSubmission(submission(participant.viewer, phase.id, { now: yesterday }));
    await createSubmission(submission(participant.viewer, phase.id, { now: today }));
    await createSubmission(submission(participant.viewer, phase.id, { now: today }));
    const error = await rejection(createSubmission(submission(participant.viewer, phase.id, { now: today })));
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.httpStatus).toBe(429);
    expect(error.details).toEqual({ limit: "daily", resetsAt: nextUtcMidnight(today).toISOString() });
    expect(error.message).toContain("00:00 UTC");
    const status = await quotaStatus(team.id, phase.id, today);
    expect(status).toMatchObject({ usedToday: 2, dailyLimit: 2, remainingToday: 0, usedTotal: 4, totalLimit: null, remainingTotal: null });
    expect(status.resetsAt.toISOString()).toBe(nextUtcMidnight(today).toISOString());
    expect(status.resetsAt.getUTCHours()).toBe(0);
  });

  it("enforces the total limit across days (429, limit total)", async () => {
    const { db, participant, phase, team } = await setup({ totalLimit: 2, dailyLimit: 5 });
    await createSubmission(submission(participant.viewer, phase.id, { now: new Date(Date.now() - 20 * 3600 * 1000) }));
    await createSubmission(submission(participant.viewer, phase.id));
    const error = await rejection(createSubmission(submission(participant.viewer, phase.id, { now: new Date(Date.now() + 1000) })));
    expect(error.httpStatus).toBe(429);
    expect(error.details).toEqual({ limit: "total" });
    expect(await db.submission.count({ where: { teamId: team.id, phaseId: phase.id } })).toBe(2);
  });

  it("two concurrent uploads racing for the last slot: exactly one succeeds", async () => {
    const { db, participant, phase, team } = await setup({ totalLimit: 3 });
    await createSubmission(submission(participant.viewer, phase.id));
    await createSubmission(submission(participant.viewer, phase.id));
    const results = await withSlowInserts(() =>
      Promise.allSettled([createSubmission(submission(participant.viewer, phase.id)), createSubmission(submission(participant.viewer, phase.id))]),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect(rejected[0].reason).toBeInstanceOf(QuotaExceededError);
    expect(await db.submission.count({ where: { teamId: team.id, phaseId: phase.id } })).toBe(3);
  });

  it("a user in no team racing two first uploads for one slot: one personal team, one submission", async () => {
    const { db, phase } = await setup({ totalLimit: 1 });
    const newcomer = await makeUser(db, "Racing Newcomer");
    const results = await withSlowInserts(() =>
      Promise.allSettled([createSubmission(submission(newcomer.viewer, phase.id)), createSubmission(submission(newcomer.viewer, phase.id))]),
    );
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const teams = await db.team.findMany({ where: { members: { some: { userId: newcomer.id } } } });
    expect(teams.map((t) => t.name)).toEqual(["Racing Newcomer"]);
    expect(await db.submission.count({ where: { phaseId: phase.id, teamId: teams[0].id } })).toBe(1);
  });

  it("naming a team one is not in is 403; nothing stored", async () => {
    const { db, participant, phase } = await setup();
    const other = await makeUser(db, "Someone Else");
    const otherTeam = await createTeam(other.id, `Not Yours ${Date.now()}`);
    const error = await rejection(createSubmission(submission(participant.viewer, phase.id, { team: otherTeam.name })));
    expect(error.httpStatus).toBe(403);
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(0);
  });

  it("an invalid file is a 422 with its line; nothing stored, no quota used, no personal team created", async () => {
    const { db, participant, phase, team } = await setup({ dailyLimit: 3 });
    const before = await quotaStatus(team.id, phase.id);
    const error = (await rejection(createSubmission(submission(participant.viewer, phase.id, { fileName: "bad.conll", bytes: bytes(BROKEN_FILE) })))) as ValidationError;
    expect(error.httpStatus).toBe(422);
    expect(error.formatErrors[0]).toMatchObject({ file: "bad.conll", line: 3 });
    expect(await quotaStatus(team.id, phase.id)).toEqual(before);
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(0);
    expect(await db.taskParticipant.count({ where: { taskId: phase.taskId } })).toBe(0);
    const loner = await makeUser(db, "Loner With Bad File");
    await rejection(createSubmission(submission(loner.viewer, phase.id, { bytes: bytes(BROKEN_FILE) })));
    expect(await db.teamMember.count({ where: { userId: loner.id } })).toBe(0);
    expect(await db.taskParticipant.count({ where: { userId: { in: [participant.id, loner.id] } } })).toBe(0);
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("checks the quota before reading the file: an over-quota team's broken file is a 429, not a 422", async () => {
    const { db, participant, phase, team } = await setup({ dailyLimit: 1, closesAt: new Date(Date.now() + 3 * 24 * 3600 * 1000) });
    await createSubmission(submission(participant.viewer, phase.id));
    const error = await rejection(createSubmission(submission(participant.viewer, phase.id, { fileName: "bad.conll", bytes: bytes(BROKEN_FILE) })));
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.httpStatus).toBe(429);
    // The same broken file on a fresh day is read, and refused for what it is.
    const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
    expect((await rejection(createSubmission(submission(participant.viewer, phase.id, { bytes: bytes(BROKEN_FILE), now: tomorrow })))).httpStatus).toBe(422);
    expect(await db.submission.count({ where: { teamId: team.id } })).toBe(1);
  });

  it("a user in no team over the team-creation limit: 429 at the personal team; nothing stored, no team recorded", async () => {
    const { db, phase } = await setup();
    process.env.RATE_LIMIT_TEAM_CREATE = "1/1h";
    const newcomer = await makeUser(db, "Team Spammer");
    await consumeRateLimit("team-create", newcomer.id);
    expect(await rejection(createSubmission(submission(newcomer.viewer, phase.id)))).toBeInstanceOf(RateLimitedError);
    expect(await db.teamMember.count({ where: { userId: newcomer.id } })).toBe(0);
    expect(await db.submission.count({ where: { submitterId: newcomer.id } })).toBe(0);
    expect(await taskTeamOf(phase.taskId, newcomer.id)).toBeNull();
  });

  it("a quota refusal records no team for the user in the task", async () => {
    const { db, participant, phase, team } = await setup({ totalLimit: 1 });
    await createSubmission(submission(participant.viewer, phase.id));
    const teammate = await makeUser(db, "Late Teammate");
    await db.teamMember.create({ data: { teamId: team.id, userId: teammate.id } });
    expect((await rejection(createSubmission(submission(teammate.viewer, phase.id)))).httpStatus).toBe(429);
    expect(await taskTeamOf(phase.taskId, teammate.id)).toBeNull();
    expect((await taskTeamOf(phase.taskId, participant.id))?.team.id).toBe(team.id);
  });

  it("a file over the limit is a 413 stating the limit in MB", async () => {
    const { db, participant, phase } = await setup();
    process.env.UPLOAD_MAX_BYTES = String(512 * 1024);
    const error = await rejection(createSubmission(submission(participant.viewer, phase.id, { bytes: new Uint8Array(600 * 1024) })));
    expect(error.httpStatus).toBe(413);
    expect(error.message).toContain("0.5 MB");
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(0);
  });

  it("baselines: organizers only; they skip the window and the quota and do not count", async () => {
    const { db, organizer, participant } = await setup();
    const closed = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase: { totalLimit: 1, opensAt: new Date("2099-01-01T00:00:00Z"), closesAt: new Date("2099-02-01T00:00:00Z") } });
    expect((await rejection(createSubmission(submission(participant.viewer, closed.phase.id, { isBaseline: true })))).httpStatus).toBe(403);
    const orgTeam = await makeTeam(db, "Org team", [organizer.id]);
    await createSubmission(submission(organizer.viewer, closed.phase.id, { isBaseline: true }));
    await createSubmission(submission(organizer.viewer, closed.phase.id, { isBaseline: true }));
    expect(await quotaStatus(orgTeam.id, closed.phase.id)).toMatchObject({ usedTotal: 0, remainingTotal: 1 });
  });
});

describe("one team per user per task", () => {
  /** A task with two open phases (dev, test), its organizer, and a user in two teams. */
  async function twoTeams() {
    const { db, organizer, participant, task, phase, team } = await setup();
    const test = await db.phase.create({
      data: { taskId: task.id, name: "second", opensAt: phase.opensAt, closesAt: phase.closesAt, datasets: { create: defaultDatasetData("conll2012") } },
    });
    const other = await makeTeam(db, "Other", [participant.id]);
    return { db, organizer, participant, task, dev: phase, test, team, other };
  }

  it("the first run records its team; naming another team later, in any phase, is a 403 saying which team; naming none uses the recorded one", async () => {
    const { db, participant, task, dev, test, team, other } = await twoTeams();
    // In two teams without a record: a team must be named.
    expect((await rejection(createSubmission(submission(participant.viewer, dev.id)))).httpStatus).toBe(422);
    const first = await createSubmission(submission(participant.viewer, dev.id, { team: team.name }));
    expect(await taskTeamOf(task.id, participant.id)).toMatchObject({ team: { id: team.id, name: team.name } });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "submission.create", targetId: first.id } });
    expect(audit.data).toMatchObject({ teamId: team.id, taskTeamRecorded: true });

    for (const phaseId of [dev.id, test.id]) {
      for (const ref of [other.name, other.id]) {
        const error = await rejection(createSubmission(submission(participant.viewer, phaseId, { team: ref })));
        expect(error).toBeInstanceOf(ForbiddenError);
        expect(error.message).toBe(`You submit for team "${team.name}" in this task; ask the organizers to change it.`);
      }
    }
    const implicit = await createSubmission(submission(participant.viewer, test.id));
    const named = await createSubmission(submission(participant.viewer, test.id, { team: team.name.toUpperCase() }));
    const rows = await db.submission.findMany({ where: { id: { in: [implicit.id, named.id] } } });
    expect(rows.map((r) => r.teamId)).toEqual([team.id, team.id]);
    expect(await db.submission.count({ where: { teamId: other.id } })).toBe(0);
    expect(await db.taskParticipant.count({ where: { taskId: task.id } })).toBe(1);

    // Another task is another choice.
    const elsewhere = await makeTaskWithPhase(db);
    await createSubmission(submission(participant.viewer, elsewhere.phase.id, { team: other.name }));
    expect((await taskTeamOf(elsewhere.task.id, participant.id))?.team.id).toBe(other.id);
  });

  it("two first runs racing with different teams: one records its team, the other is refused with 403", async () => {
    const { db, participant, task, dev, team, other } = await twoTeams();
    const results = await withSlowInserts(() =>
      Promise.allSettled([
        createSubmission(submission(participant.viewer, dev.id, { team: team.id })),
        createSubmission(submission(participant.viewer, dev.id, { team: other.id })),
      ]),
    );
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!;
    expect(rejected.reason).toBeInstanceOf(ForbiddenError);
    const recorded = await taskTeamOf(task.id, participant.id);
    expect(await db.submission.findMany({ where: { phaseId: dev.id }, select: { teamId: true } })).toEqual([{ teamId: recorded!.team.id }]);
  });

  it("an organizer's change lets the user submit for the new team only; clearing lets the next run choose again", async () => {
    const { db, organizer, participant, task, dev, team, other } = await twoTeams();
    await createSubmission(submission(participant.viewer, dev.id, { team: team.id }));
    await setParticipantTeam(organizer.viewer, task.id, participant.id, other.id);
    expect((await rejection(createSubmission(submission(participant.viewer, dev.id, { team: team.id })))).message).toContain(`team "${other.name}"`);
    const moved = await createSubmission(submission(participant.viewer, dev.id));
    expect((await db.submission.findUniqueOrThrow({ where: { id: moved.id } })).teamId).toBe(other.id);
    const events = await db.auditEvent.findMany({ where: { action: "task.participant.update", targetId: task.id }, orderBy: { at: "asc" } });
    expect(events.map((e) => [e.actorId, e.data])).toEqual([
      [organizer.id, { userId: participant.id, from: { id: team.id, name: team.name }, to: { id: other.id, name: other.name } }],
    ]);

    expect(await setParticipantTeam(organizer.viewer, task.id, participant.id, null)).toBeNull();
    expect(await taskTeamOf(task.id, participant.id)).toBeNull();
    await createSubmission(submission(participant.viewer, dev.id, { team: team.name }));
    expect((await taskTeamOf(task.id, participant.id))?.team.id).toBe(team.id);
    expect(await db.auditEvent.count({ where: { action: "task.participant.update", targetId: task.id } })).toBe(2);
  });

  it("baselines are exempt: an organizer's baseline names any of their teams and records nothing", async () => {
    const { db, organizer, task, dev } = await twoTeams();
    const orgA = await makeTeam(db, "Org A", [organizer.id]);
    const orgB = await makeTeam(db, "Org B", [organizer.id]);
    await createSubmission(submission(organizer.viewer, dev.id, { team: orgA.id, isBaseline: true }));
    await createSubmission(submission(organizer.viewer, dev.id, { team: orgB.id, isBaseline: true }));
    expect(await taskTeamOf(task.id, organizer.id)).toBeNull();
    // A non-baseline run by the organizer records a team like anyone's, and baselines stay free.
    await createSubmission(submission(organizer.viewer, dev.id, { team: orgA.id }));
    expect((await taskTeamOf(task.id, organizer.id))?.team.id).toBe(orgA.id);
    await createSubmission(submission(organizer.viewer, dev.id, { team: orgB.id, isBaseline: true }));
    expect((await rejection(createSubmission(submission(organizer.viewer, dev.id, { team: orgB.id })))).httpStatus).toBe(403);
  });
});

describe("quota counting", () => {
  it("counts every status except FAILED at stage platform", async () => {
    const { db, participant, phase, team } = await setup({ dailyLimit: 10, totalLimit: 10 });
    const add = (status: "QUEUED" | "SCORING" | "SCORED" | "FAILED", errorStage: string | null = null) =>
      insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status, errorStage });
    await add("QUEUED");
    await add("SCORING");
    await add("SCORED");
    await add("FAILED", "validation");
    await add("FAILED", null);
    await add("FAILED", "platform");
    await add("FAILED", "platform");
    expect(await quotaStatus(team.id, phase.id)).toMatchObject({ usedToday: 5, usedTotal: 5, remainingToday: 5, remainingTotal: 5 });
  });

  it("quotaForViewer resolves the team like a submission, without creating one", async () => {
    const { db, participant, phase, team } = await setup({ dailyLimit: 4 });
    await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status: "QUEUED" });
    const mine = await quotaForViewer(participant.viewer, phase.id);
    expect(mine.team?.id).toBe(team.id);
    expect(mine.quota).toMatchObject({ usedToday: 1, remainingToday: 3 });
    const loner = await makeUser(db, "Quota Loner");
    const fresh = await quotaForViewer(loner.viewer, phase.id);
    expect(fresh).toMatchObject({ team: null, mustChooseTeam: false, quota: { usedToday: 0, remainingToday: 4 } });
    expect(await db.teamMember.count({ where: { userId: loner.id } })).toBe(0);
    expect(mine.fixed).toBe(false);
    const second = await makeTeam(db, "Second", [participant.id]);
    expect(await quotaForViewer(participant.viewer, phase.id)).toMatchObject({ team: null, fixed: false, mustChooseTeam: true, quota: null });
    expect((await rejection(quotaForViewer(null, phase.id))).httpStatus).toBe(401);
    // Once a team is recorded for the user in the task, it is the team, with no choice.
    await db.taskParticipant.create({ data: { taskId: phase.taskId, userId: participant.id, teamId: team.id } });
    const fixed = await quotaForViewer(participant.viewer, phase.id);
    expect(fixed).toMatchObject({ team: { id: team.id }, fixed: true, mustChooseTeam: false, quota: { usedToday: 1, remainingToday: 3 } });
    expect((await rejection(quotaForViewer(participant.viewer, phase.id, second.name))).message).toContain(`You submit for team "${team.name}" in this task`);
  });
});

describe("submission lists", () => {
  it("team members list their team's runs; organizers list the phase; others get 404/403", async () => {
    const { db, organizer, participant, phase, team } = await setup();
    const s = await createSubmission(submission(participant.viewer, phase.id));
    expect((await listSubmissionsForTeam(participant.viewer, team.id)).map((x) => x.id)).toEqual([s.id]);
    const stranger = await makeUser(db, "List Stranger");
    expect((await rejection(listSubmissionsForTeam(stranger.viewer, team.id))).httpStatus).toBe(404);
    expect((await listSubmissionsForPhase(organizer.viewer, phase.id)).map((x) => [x.id, x.team.id, x.status])).toEqual([[s.id, team.id, "QUEUED"]]);
    expect((await rejection(listSubmissionsForPhase(participant.viewer, phase.id))).httpStatus).toBe(403);
    expect((await listSubmissionsForViewer(participant.viewer, phase.id)).map((x) => x.id)).toEqual([s.id]);
    expect(await listSubmissionsForViewer(stranger.viewer, phase.id)).toEqual([]);
    expect((await rejection(listSubmissionsForViewer(null, phase.id))).httpStatus).toBe(401);
  });
});

/** SMALL_KEY with its first document renamed (doc1 → docX): one run document not in the key, one key document missing. */
const MISNAMED = SMALL_KEY.replace("(doc1); part 000", "(docX); part 000");

/** A CorefUD CoNLL-U file of the given documents (`# newdoc id`), or one unnamed document when `names` is null. */
function conllu(names: string[] | null): string {
  const sentence = (id: string) => [
    `# sent_id = ${id}`,
    "# text = John saw him",
    "1\tJohn\tJohn\tPROPN\t_\t_\t2\tnsubj\t_\tEntity=(e1-person-1)",
    "2\tsaw\tsee\tVERB\t_\t_\t0\troot\t_\t_",
    "3\thim\the\tPRON\t_\t_\t2\tobj\t_\tEntity=(e1-person-1)",
    "",
  ];
  if (names === null) return ["# global.Entity = eid-etype-head-other", ...sentence("s1")].join("\n");
  return names.flatMap((n) => [`# newdoc id = ${n}`, "# global.Entity = eid-etype-head-other", ...sentence(`${n}-1`)]).join("\n");
}

describe("document check at upload", () => {
  /** setup() with a gold key (SMALL_KEY unless given) and the phase's documentCheck. */
  async function withGold(mode: "warn" | "error", gold: { fileName: string; text: string } = { fileName: "key.conll", text: SMALL_KEY }) {
    const s = await setup({ dailyLimit: 5 });
    await uploadGoldKey(s.organizer.viewer, s.phase.id, gold.fileName, bytes(gold.text));
    await s.db.phase.update({ where: { id: s.phase.id }, data: { documentCheck: mode } });
    enqueue.mockClear();
    return s;
  }

  const expectedWarnings = [
    {
      code: "response-only-document",
      message: 'response document "docX/part 0" (line 1) is not in the gold key; it will be ignored',
      file: "system.conll",
      line: 1,
      document: "docX/part 0",
    },
    { code: "missing-document", message: 'key document "doc1/part 0" is not in the run; it will be scored as empty', document: "doc1/part 0" },
  ];

  it("warn: without confirmation a 409 with the warnings, nothing stored, no quota used; with it the run is stored", async () => {
    const { db, participant, phase, team } = await withGold("warn");
    const before = await quotaStatus(team.id, phase.id);
    const error = await rejection(createSubmission(submission(participant.viewer, phase.id, { bytes: bytes(MISNAMED) })));
    expect(error).toBeInstanceOf(ConflictError);
    expect([error.httpStatus, error.code]).toEqual([409, "conflict"]);
    expect(error.message).toBe(
      "The document names of system.conll do not match the gold key: 1 document of the run is not in the gold key and 1 key document is not in the run. Nothing was stored and no run was counted. To submit it anyway, send the upload again with acknowledgeWarnings=true.",
    );
    expect(error.toJSON().error).toEqual({
      code: "conflict",
      message: error.message,
      warnings: expectedWarnings,
      unmatched: 1,
      missing: 1,
      missingDatasets: [],
      acknowledgeWith: "acknowledgeWarnings=true",
    });
    // A false confirmation (the form value "false") is no confirmation.
    expect((await rejection(createSubmission(submission(participant.viewer, phase.id, { bytes: bytes(MISNAMED), acknowledgeWarnings: "false" })))).httpStatus).toBe(409);
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(0);
    expect(await quotaStatus(team.id, phase.id)).toEqual(before);
    expect(await db.taskParticipant.count({ where: { taskId: phase.taskId } })).toBe(0);
    expect(enqueue).not.toHaveBeenCalled();

    const created = await createSubmission(submission(participant.viewer, phase.id, { bytes: bytes(MISNAMED), acknowledgeWarnings: true }));
    expect(created).toEqual({ id: created.id, status: "QUEUED", warnings: expectedWarnings, missingDatasets: [] });
    expect(enqueue).toHaveBeenCalledWith([created.id]);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "submission.create", targetId: created.id } });
    expect(audit.data).toMatchObject({ documentWarnings: { unmatched: 1, missing: 1 } });
    // The API's form value.
    const viaForm = await createSubmission(submission(participant.viewer, phase.id, { bytes: bytes(MISNAMED), acknowledgeWarnings: "TRUE" }));
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(2);
    expect((await quotaStatus(team.id, phase.id)).usedTotal).toBe(before.usedTotal + 2);
    expect(viaForm.warnings).toHaveLength(2);
    const bad = (await rejection(createSubmission(submission(participant.viewer, phase.id, { acknowledgeWarnings: "maybe" })))) as ValidationError;
    expect(bad.fieldErrors.map((f) => f.path)).toEqual(["acknowledgeWarnings"]);
  });

  it("error: a 422 listing the problems, even when confirmed; nothing stored, no quota used", async () => {
    const { db, participant, phase, team } = await withGold("error");
    const before = await quotaStatus(team.id, phase.id);
    for (const acknowledgeWarnings of [false, true]) {
      const error = await rejection(createSubmission(submission(participant.viewer, phase.id, { bytes: bytes(MISNAMED), acknowledgeWarnings })));
      expect(error).toBeInstanceOf(DocumentMismatchError);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.httpStatus).toBe(422);
      expect(error.message).toContain("This phase does not accept such runs");
      const body = error.toJSON().error;
      expect(body).toMatchObject({ code: "validation", warnings: expectedWarnings, unmatched: 1, missing: 1 });
      expect((error as ValidationError).fieldErrors).toEqual([{ path: "file", message: error.message }]);
    }
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(0);
    expect(await quotaStatus(team.id, phase.id)).toEqual(before);
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("a run whose documents match (as the scorer matches them: part 000 = part 0) is stored without warnings in either mode", async () => {
    for (const mode of ["warn", "error"] as const) {
      const { db, participant, phase } = await withGold(mode);
      const created = await createSubmission(submission(participant.viewer, phase.id, { bytes: bytes(SMALL_KEY.replaceAll("part 000", "part 0")) }));
      expect(created.warnings).toEqual([]);
      expect((await db.submission.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("QUEUED");
    }
  });

  it("single-file CoNLL-U runs: named by # newdoc id, or after the file when unnamed, as the scorer names them", async () => {
    const { db, participant, phase } = await withGold("warn", { fileName: "gum.conllu", text: conllu(["gum_a"]) });
    // One unnamed document is called after its file: "gum_a.conllu" matches, "output.conllu" does not.
    const named = await createSubmission(submission(participant.viewer, phase.id, { fileName: "gum_a.conllu", bytes: bytes(conllu(null)) }));
    expect(named.warnings).toEqual([]);
    const error = await rejection(createSubmission(submission(participant.viewer, phase.id, { fileName: "output.conllu", bytes: bytes(conllu(null)) })));
    expect(error.httpStatus).toBe(409);
    expect((error.details?.warnings as { document?: string }[]).map((w) => w.document)).toEqual(["output", "gum_a"]);
    const withId = await createSubmission(submission(participant.viewer, phase.id, { fileName: "output.conllu", bytes: bytes(conllu(["gum_a"])) }));
    expect(withId.warnings).toEqual([]);
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(2);
  });

  it("no active gold key: no check, the run is stored", async () => {
    const { db, participant, phase } = await setup();
    await db.phase.update({ where: { id: phase.id }, data: { documentCheck: "error" } });
    const created = await createSubmission(submission(participant.viewer, phase.id, { bytes: bytes(MISNAMED) }));
    expect(created.warnings).toEqual([]);
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(1);
  });

  it("a new gold version is checked against, not the cached ids of the old one", async () => {
    const { organizer, participant, phase } = await withGold("warn");
    expect((await createSubmission(submission(participant.viewer, phase.id))).warnings).toEqual([]);
    await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(MISNAMED));
    const error = await rejection(createSubmission(submission(participant.viewer, phase.id)));
    expect(error.httpStatus).toBe(409);
    expect(error.details?.warnings).toEqual([
      { code: "response-only-document", message: 'response document "doc1/part 0" (line 1) is not in the gold key; it will be ignored', file: "system.conll", line: 1, document: "doc1/part 0" },
      { code: "missing-document", message: 'key document "docX/part 0" is not in the run; it will be scored as empty', document: "docX/part 0" },
    ]);
    // And back: the first version's ids come from the cache, still right.
    await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    expect((await createSubmission(submission(participant.viewer, phase.id))).warnings).toEqual([]);
  });

  it("the run page's view carries the scorer's stored warnings and evaluation record, for every viewer who may see the run", async () => {
    const { db, participant, phase, team } = await setup();
    const run = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status: "SCORED", goldVersion: 1 });
    const before = await getSubmissionForViewer(run.id, null);
    expect([before.warnings, before.evaluation]).toEqual([[], null]);
    const warnings = [
      { code: "missing-document", message: 'key document "d2" is not in the response; it is scored as an empty response', document: "d2" },
      { code: "repeated-mention-removed", message: "x", file: "system.conll", line: 7 },
    ];
    const evaluation = runEvaluation(EVALUATION_PROFILES.crac);
    await db.submission.update({ where: { id: run.id }, data: { warnings: [...warnings, { junk: true }], evaluation: JSON.parse(JSON.stringify(evaluation)) } });
    for (const viewer of [null, participant.viewer]) {
      const view = await getSubmissionForViewer(run.id, viewer);
      expect(view.warnings).toEqual(warnings);
      expect(view.evaluation).toEqual(evaluation);
    }
  });
});

describe("compareDocuments", () => {
  const run = (ids: string[]): RunDocument[] => ids.map((id, i) => ({ id, line: 10 * i + 1 }));

  it("lists run documents not in the key (once each, in file order) and key documents not in the run (in key order)", () => {
    const check = compareDocuments(run(["a", "x", "x", "b"]), ["b", "c", "a", "d"], "r.conll");
    expect([check.unmatched, check.missing]).toEqual([1, 2]);
    expect(check.warnings.map((w) => [w.code, w.document, w.line])).toEqual([
      ["response-only-document", "x", 11],
      ["missing-document", "c", undefined],
      ["missing-document", "d", undefined],
    ]);
    expect(compareDocuments(run(["a", "b"]), ["b", "a"], "r.conll")).toEqual({ warnings: [], unmatched: 0, missing: 0 });
  });

  it("names at most `shown` documents of each kind, then how many more", () => {
    const runIds = Array.from({ length: 25 }, (_, i) => `run${i}`);
    const keyIds = Array.from({ length: 22 }, (_, i) => `key${i}`);
    const check = compareDocuments(run(runIds), keyIds, "r.conll");
    expect([check.unmatched, check.missing, check.warnings.length]).toEqual([25, 22, 20 + 1 + 20 + 1]);
    expect(check.warnings[20]).toEqual({ code: "response-only-document", message: "… and 5 more response documents are not in the gold key", file: "r.conll" });
    expect(check.warnings[41]).toEqual({ code: "missing-document", message: "… and 2 more key documents are not in the run" });
    expect(check.warnings.filter((w) => w.document).map((w) => w.document)).toEqual([...runIds.slice(0, 20), ...keyIds.slice(0, 20)]);
    expect(compareDocuments(run(["x", "y"]), ["k"], "r.conll", 1).warnings.map((w) => w.message)).toEqual([
      'response document "x" (line 1) is not in the gold key; it will be ignored',
      "… and 1 more response document is not in the gold key",
      'key document "k" is not in the run; it will be scored as empty',
    ]);
  });

  it("pairs CorefUD documents begun by a bare '# newdoc' by their position, and names a missing one so", () => {
    const doc = (word: string) => `# newdoc\n# global.Entity = eid-etype\n1\t${word}\t${word}\tX\t_\t_\t0\troot\t_\tEntity=(e1-x)\n\n`;
    const read = (text: string, file: string) => readCorpus(Buffer.from(text), file).documents.map((d) => ({ id: d.id, line: d.line }));
    const gold = read(["a", "b", "c"].map(doc).join(""), "gold.conllu").map((d) => d.id);
    expect(gold).toEqual(["unnamed document 1", "unnamed document 2", "unnamed document 3"]);
    expect(compareDocuments(read(["a", "b", "c"].map(doc).join(""), "run.conllu"), gold, "run.conllu").warnings).toEqual([]);
    const short = compareDocuments(read(["a", "b"].map(doc).join(""), "run.conllu"), gold, "run.conllu");
    expect(short.warnings.map((w) => w.message)).toEqual(['key document "unnamed document 3" is not in the run; it will be scored as empty']);
  });
});

describe("uploadHowTo", () => {
  it("one dataset: a file or an archive holding it; several: the archive's file names, at most 10 then a count", () => {
    expect(uploadHowTo([{ name: "main", fileName: "main.conll" }])).toBe("Upload one coreference file, or a .zip or .tar.gz archive holding main.conll.");
    const twelve = Array.from({ length: 12 }, (_, i) => ({ name: `d${i}`, fileName: `d${i}.conllu` }));
    expect(uploadHowTo(twelve)).toBe(
      "Upload a .zip or .tar.gz archive with one file per dataset: d0.conllu, d1.conllu, d2.conllu, d3.conllu, d4.conllu, d5.conllu, d6.conllu, d7.conllu, d8.conllu, d9.conllu and 2 more.",
    );
  });
});

describe("tracks at upload", () => {
  /** A phase with two tracks (`LLM` first) and the setup of {@link setup}. */
  async function withTracks(phase: PhaseOverrides = {}, llmLimits: { dailyLimit?: number | null; totalLimit?: number | null } = {}) {
    const s = await setup(phase);
    const llm = await makeTrack(s.db, s.phase.id, "LLM", { position: 0, ...llmLimits });
    const open = await makeTrack(s.db, s.phase.id, "unconstrained", { position: 1 });
    return { ...s, llm, open };
  }

  it("a phase with tracks requires one (422 on track listing the choices; checked before the file; nothing stored, no quota used)", async () => {
    const { db, participant, phase, team } = await withTracks({ dailyLimit: 5 });
    const before = await quotaStatus(team.id, phase.id);
    const missing = (await rejection(createSubmission(submission(participant.viewer, phase.id, { bytes: bytes(BROKEN_FILE) })))) as ValidationError;
    expect(missing.httpStatus).toBe(422);
    expect(missing.formatErrors).toEqual([]);
    expect(missing.fieldErrors).toEqual([{ path: "track", message: 'This phase has tracks: choose the run\'s track, one of "LLM", "unconstrained" (by name or id).' }]);
    const unknown = (await rejection(createSubmission(submission(participant.viewer, phase.id, { track: "closed" })))) as ValidationError;
    expect(unknown.fieldErrors[0].path).toBe("track");
    expect(unknown.message).toContain('"LLM", "unconstrained"');
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(0);
    expect(await quotaStatus(team.id, phase.id)).toEqual(before);
    expect(await taskTeamOf(phase.taskId, participant.id)).toBeNull();
  });

  it("stores the run's track (by name or id), audits it, and the run's view and the lists show it", async () => {
    const { db, participant, phase, llm, open } = await withTracks();
    const byName = await createSubmission(submission(participant.viewer, phase.id, { track: "llm" }));
    const byId = await createSubmission(submission(participant.viewer, phase.id, { track: open.id }));
    expect((await db.submission.findUniqueOrThrow({ where: { id: byName.id } })).trackId).toBe(llm.id);
    expect((await db.submission.findUniqueOrThrow({ where: { id: byId.id } })).trackId).toBe(open.id);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "submission.create", targetId: byName.id } });
    expect(audit.data).toMatchObject({ trackId: llm.id, track: "LLM" });
    expect((await getSubmissionForViewer(byName.id, participant.viewer)).track).toEqual({ id: llm.id, name: "LLM" });
    const listed = await listSubmissionsForViewer(participant.viewer, phase.id);
    expect(listed.map((r) => [r.id, r.track?.name])).toEqual([
      [byId.id, "unconstrained"],
      [byName.id, "LLM"],
    ]);
  });

  it("baselines may leave the track out (stored without one) or name one", async () => {
    const { db, organizer, phase, open } = await withTracks();
    await makeTeam(db, "Org team", [organizer.id]);
    const plain = await createSubmission(submission(organizer.viewer, phase.id, { isBaseline: true }));
    const inTrack = await createSubmission(submission(organizer.viewer, phase.id, { isBaseline: true, track: "unconstrained" }));
    expect((await db.submission.findUniqueOrThrow({ where: { id: plain.id } })).trackId).toBeNull();
    expect((await db.submission.findUniqueOrThrow({ where: { id: inTrack.id } })).trackId).toBe(open.id);
    expect((await getSubmissionForViewer(plain.id, organizer.viewer)).track).toBeNull();
  });

  it("a phase without tracks refuses a track (422 on track); without one the run is stored as before", async () => {
    const { db, participant, phase } = await setup();
    const error = (await rejection(createSubmission(submission(participant.viewer, phase.id, { track: "LLM" })))) as ValidationError;
    expect(error.fieldErrors).toEqual([{ path: "track", message: "This phase has no tracks; leave out the track." }]);
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(0);
    const { id } = await createSubmission(submission(participant.viewer, phase.id));
    expect((await db.submission.findUniqueOrThrow({ where: { id } })).trackId).toBeNull();
  });

  it("a track with its own limits counts only its runs against them; the other tracks share the phase's limits", async () => {
    const { participant, phase, team, llm } = await withTracks({ dailyLimit: 1 }, { dailyLimit: 2 });
    // Two runs in LLM (its own limit of 2 a day), none of them counting against the phase's 1.
    await createSubmission(submission(participant.viewer, phase.id, { track: "LLM" }));
    await createSubmission(submission(participant.viewer, phase.id, { track: "LLM" }));
    const llmFull = await rejection(createSubmission(submission(participant.viewer, phase.id, { track: "LLM" })));
    expect(llmFull.httpStatus).toBe(429);
    expect(llmFull.message).toContain('used its 2 submissions for today in the "LLM" track of the test phase');
    expect(await quotaStatus(team.id, phase.id, new Date(), undefined, undefined, llm)).toMatchObject({
      usedToday: 2,
      remainingToday: 0,
      track: { id: llm.id, name: "LLM" },
    });
    // The phase's shared quota is untouched by the LLM runs: one run in "unconstrained", then full.
    expect(await quotaStatus(team.id, phase.id)).toMatchObject({ usedToday: 0, remainingToday: 1, track: null });
    await createSubmission(submission(participant.viewer, phase.id, { track: "unconstrained" }));
    const phaseFull = await rejection(createSubmission(submission(participant.viewer, phase.id, { track: "unconstrained" })));
    expect(phaseFull.httpStatus).toBe(429);
    expect(phaseFull.message).toContain("used its 1 submissions for today in the test phase");

    const viewerQuota = await quotaForViewer(participant.viewer, phase.id);
    expect(viewerQuota.quota).toMatchObject({ usedToday: 1, remainingToday: 0 });
    expect(viewerQuota.tracks?.map((t) => [t.track.name, t.ownLimits, t.quota.usedToday, t.quota.dailyLimit])).toEqual([
      ["LLM", true, 2, 2],
      ["unconstrained", false, 1, 1],
    ]);
  });

  it("without own limits on any track, the phase's limits count the runs of every track together", async () => {
    const { participant, phase } = await withTracks({ totalLimit: 2 });
    await createSubmission(submission(participant.viewer, phase.id, { track: "LLM" }));
    await createSubmission(submission(participant.viewer, phase.id, { track: "unconstrained" }));
    const error = await rejection(createSubmission(submission(participant.viewer, phase.id, { track: "LLM" })));
    expect(error.details).toEqual({ limit: "total" });
    expect((await quotaForViewer(participant.viewer, phase.id)).tracks).toBeNull();
  });
});

describe("datasets at upload: a phase with several datasets takes an archive", () => {
  const NAMES = ["en_a", "cs_b", "de_c"];
  /** SMALL_KEY with its documents named after the dataset (documents are named within a dataset). */
  const keyOf = (name: string) => SMALL_KEY.replaceAll("(doc", `(${name}_doc`);

  /** setup() whose phase has three datasets (en_a, cs_b, de_c; CoNLL-2012), each with an active gold key `keyOf(name)`, and the given document check. */
  async function threeDatasets(mode: "warn" | "error" = "warn") {
    const s = await setup({ dailyLimit: 5 });
    await s.db.dataset.deleteMany({ where: { phaseId: s.phase.id } });
    const datasets = [];
    for (const [position, name] of NAMES.entries()) {
      const d = await s.db.dataset.create({ data: { phaseId: s.phase.id, name, language: name.slice(0, 2), fileName: `${name}.conll`, format: "conll2012", position } });
      const stored = packFile(bytes(keyOf(name)));
      await s.db.goldKey.create({
        data: { phaseId: s.phase.id, datasetId: d.id, version: 1, fileName: `${name}-key.conll`, sha256: stored.sha256, gzip: stored.gzip, size: stored.size, documentCount: 2, uploadedById: s.organizer.id, active: true },
      });
      datasets.push(d);
    }
    await s.db.phase.update({ where: { id: s.phase.id }, data: { documentCheck: mode } });
    return { ...s, datasets };
  }

  /** Checks that a refused upload left no trace: no run, no quota used, no audit event, no team recorded, nothing enqueued. */
  async function expectNothingStored(s: Awaited<ReturnType<typeof threeDatasets>>, before: { quota: unknown; audits: number }) {
    expect(await s.db.submission.count({ where: { phaseId: s.phase.id } })).toBe(0);
    expect(await s.db.submissionFile.count({ where: { phaseId: s.phase.id } })).toBe(0);
    expect(await quotaStatus(s.team.id, s.phase.id)).toEqual(before.quota);
    expect(await s.db.auditEvent.count()).toBe(before.audits);
    expect(await taskTeamOf(s.phase.taskId, s.participant.id)).toBeNull();
    expect(enqueue).not.toHaveBeenCalled();
  }

  it("an archive with 2 of the 3 files asks for confirmation like a missing document (409, nothing stored); confirmed it is accepted (.zip and .tgz): one stored file per dataset, the third answered as missing and audited", async () => {
    const s = await threeDatasets();
    const { db, participant, phase, team, datasets } = s;
    for (const [fileName, make] of [
      ["run.zip", makeZip],
      ["run.tgz", makeTarGz],
    ] as const) {
      const archive = await make([
        { path: "run/en_a.conll", text: keyOf("en_a") },
        { path: "run/de_c.conll", text: keyOf("de_c") },
      ]);
      const warning = { code: "missing-dataset", message: `dataset cs_b: ${fileName} has no file "cs_b.conll"; the dataset will count as 0 in the average`, file: fileName };
      const before = { quota: await quotaStatus(team.id, phase.id), runs: await db.submission.count({ where: { phaseId: phase.id } }) };
      const asked = await rejection(createSubmission(submission(participant.viewer, phase.id, { fileName, bytes: archive })));
      expect(asked).toBeInstanceOf(ConflictError);
      expect(asked.message).toBe(
        `${fileName} has no file for dataset cs_b, which would count as 0 in the average. Nothing was stored and no run was counted. To submit it anyway, send the upload again with acknowledgeWarnings=true.`,
      );
      expect(asked.details).toEqual({ warnings: [warning], unmatched: 0, missing: 0, missingDatasets: ["cs_b"], acknowledgeWith: "acknowledgeWarnings=true" });
      expect(await quotaStatus(team.id, phase.id)).toEqual(before.quota);
      expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(before.runs);

      const created = await createSubmission(submission(participant.viewer, phase.id, { fileName, bytes: archive, acknowledgeWarnings: true }));
      expect(created).toEqual({ id: created.id, status: "QUEUED", warnings: [warning], missingDatasets: ["cs_b"] });
      const row = await db.submission.findUniqueOrThrow({ where: { id: created.id } });
      expect([row.fileName, row.sha256, row.size, row.status]).toEqual([fileName, sha256Hex(archive), archive.byteLength, "QUEUED"]);
      const files = await db.submissionFile.findMany({ where: { submissionId: created.id } });
      expect(files.map((f) => f.datasetId).sort()).toEqual([datasets[0].id, datasets[2].id].sort());
      for (const f of files) {
        const d = datasets.find((x) => x.id === f.datasetId)!;
        expect([f.fileName, f.phaseId, f.goldKeyId]).toEqual([d.fileName, phase.id, null]);
        expect(unpackFile(f.gzip, f.sha256).toString("utf8")).toBe(keyOf(d.name));
      }
      const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "submission.create", targetId: created.id } });
      expect(audit.data).toMatchObject({
        fileName,
        sha256: sha256Hex(archive),
        datasets: [
          { name: "en_a", fileName: "en_a.conll" },
          { name: "de_c", fileName: "de_c.conll" },
        ],
        missing: ["cs_b"],
      });
      expect(enqueue).toHaveBeenLastCalledWith([created.id]);
      // Before scoring, the run's view lists every dataset, the left-out one as missing.
      const view = await getSubmissionForViewer(created.id, participant.viewer);
      expect(view.datasets.map((d) => [d.name, d.language, d.fileName, d.missing, d.goldVersion, d.scores])).toEqual([
        ["en_a", "en", "en_a.conll", false, null, null],
        ["cs_b", "cs", null, true, null, null],
        ["de_c", "de", "de_c.conll", false, null, null],
      ]);
    }
    expect((await quotaStatus(team.id, phase.id)).usedTotal).toBe(2);
  });

  it("on a phase whose document check is \"error\", an archive leaving a dataset out is a 422 even when confirmed; with a misnamed document too, both are said", async () => {
    const s = await threeDatasets("error");
    const before = { quota: await quotaStatus(s.team.id, s.phase.id), audits: await s.db.auditEvent.count() };
    const partial = await makeZip([
      { path: "en_a.conll", text: keyOf("en_a") },
      { path: "de_c.conll", text: keyOf("de_c") },
    ]);
    const refused = (await rejection(createSubmission(submission(s.participant.viewer, s.phase.id, { fileName: "run.zip", bytes: partial, acknowledgeWarnings: true })))) as DocumentMismatchError;
    expect(refused).toBeInstanceOf(DocumentMismatchError);
    expect(refused.httpStatus).toBe(422);
    expect(refused.message).toBe(
      "run.zip has no file for dataset cs_b, which would count as 0 in the average. This phase does not accept such runs: include a file for every dataset and upload again. Nothing was stored and no run was counted.",
    );
    expect(refused.toJSON().error).toMatchObject({ missingDatasets: ["cs_b"], unmatched: 0, missing: 0, warnings: [{ code: "missing-dataset" }] });
    const both = await makeZip([
      { path: "en_a.conll", text: keyOf("en_a").replace("(en_a_doc1)", "(en_a_docX)") },
      { path: "de_c.conll", text: keyOf("de_c") },
    ]);
    const twice = await rejection(createSubmission(submission(s.participant.viewer, s.phase.id, { fileName: "run.zip", bytes: both })));
    expect(twice.message).toBe(
      "The document names of run.zip (dataset en_a) do not match the gold key: 1 document of the run is not in the gold key and 1 key document is not in the run. run.zip has no file for dataset cs_b, which would count as 0 in the average. This phase does not accept such runs: name the documents as in the gold key, include a file for every dataset and upload again. Nothing was stored and no run was counted.",
    );
    await expectNothingStored(s, before);
  });

  it("hostile archives (path traversal, an unknown file, a duplicate file) are a 422 on file: nothing stored, no quota used, no audit", async () => {
    const s = await threeDatasets();
    const before = { quota: await quotaStatus(s.team.id, s.phase.id), audits: await s.db.auditEvent.count() };
    const cases: [Uint8Array, string][] = [
      [await makeZip([{ path: "../en_a.conll", text: keyOf("en_a") }]), 'run.zip holds "../en_a.conll", a path that climbs out of the archive'],
      [
        await makeZip([
          { path: "en_a.conll", text: keyOf("en_a") },
          { path: "notes.txt", text: "hello" },
        ]),
        'run.zip holds "notes.txt", which is not a dataset file of this phase; expected file names: "en_a.conll", "cs_b.conll", "de_c.conll".',
      ],
      [
        await makeZip([
          { path: "x/en_a.conll", text: keyOf("en_a") },
          { path: "y/en_a.conll", text: keyOf("en_a") },
        ]),
        'run.zip holds two files named "en_a.conll"',
      ],
    ];
    for (const [archive, message] of cases) {
      const error = (await rejection(createSubmission(submission(s.participant.viewer, s.phase.id, { fileName: "run.zip", bytes: archive })))) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.httpStatus).toBe(422);
      expect(error.fieldErrors.map((f) => f.path)).toEqual(["file"]);
      // What to upload first, the reason in `detail`, and the sample archive (issue 24 §3).
      expect(error).toBeInstanceOf(UploadShapeError);
      expect(error.message).toBe("Upload a .zip or .tar.gz archive with one file per dataset: en_a.conll, cs_b.conll, de_c.conll.");
      expect((error as UploadShapeError).detail).toContain(message);
      expect(error.toJSON().error).toMatchObject({ message: error.message, sampleUrl: `/api/v1/phases/${s.phase.id}/sample-submission` });
      expect(error.toJSON().error.detail).toContain(message);
    }
    await expectNothingStored(s, before);
  });

  it("a format error inside the archive is a 422 naming the file in the archive, its line and column, and its dataset", async () => {
    const s = await threeDatasets();
    const before = { quota: await quotaStatus(s.team.id, s.phase.id), audits: await s.db.auditEvent.count() };
    const archive = await makeTarGz([
      { path: "en_a.conll", text: keyOf("en_a") },
      { path: "cs_b.conll", text: BROKEN_FILE },
    ]);
    const error = (await rejection(createSubmission(submission(s.participant.viewer, s.phase.id, { fileName: "run.tar.gz", bytes: archive })))) as ValidationError;
    expect(error.httpStatus).toBe(422);
    expect(error.formatErrors).toHaveLength(1);
    expect(error.formatErrors[0]).toMatchObject({ file: "cs_b.conll", line: 3, column: 3 });
    expect(error.message).toMatch(/^cs_b\.conll \(dataset cs_b\) in run\.tar\.gz: The file could not be read: cs_b\.conll:3:3/);
    expect(error.toJSON().error.formatErrors).toEqual(error.formatErrors);
    await expectNothingStored(s, before);
  });

  it("a misnamed document in one dataset: a 409 naming the dataset, nothing stored; accepted with acknowledgeWarnings", async () => {
    const s = await threeDatasets("warn");
    const before = { quota: await quotaStatus(s.team.id, s.phase.id), audits: await s.db.auditEvent.count() };
    const archive = await makeZip([
      { path: "en_a.conll", text: keyOf("en_a") },
      { path: "cs_b.conll", text: keyOf("cs_b").replace("(cs_b_doc1)", "(cs_b_docX)") },
      { path: "de_c.conll", text: keyOf("de_c") },
    ]);
    const expected = [
      {
        code: "response-only-document",
        message: 'dataset cs_b: response document "cs_b_docX/part 0" (line 1) is not in the gold key; it will be ignored',
        file: "cs_b.conll",
        line: 1,
        document: "cs_b_docX/part 0",
      },
      { code: "missing-document", message: 'dataset cs_b: key document "cs_b_doc1/part 0" is not in the run; it will be scored as empty', document: "cs_b_doc1/part 0" },
    ];
    const error = await rejection(createSubmission(submission(s.participant.viewer, s.phase.id, { fileName: "run.zip", bytes: archive })));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.httpStatus).toBe(409);
    expect(error.message).toContain("The document names of run.zip (dataset cs_b) do not match the gold key: 1 document of the run is not in the gold key and 1 key document is not in the run.");
    expect(error.details).toMatchObject({ warnings: expected, unmatched: 1, missing: 1, acknowledgeWith: "acknowledgeWarnings=true" });
    await expectNothingStored(s, before);

    const created = await createSubmission(submission(s.participant.viewer, s.phase.id, { fileName: "run.zip", bytes: archive, acknowledgeWarnings: true }));
    expect(created).toEqual({ id: created.id, status: "QUEUED", warnings: expected, missingDatasets: [] });
    expect(await s.db.submissionFile.count({ where: { submissionId: created.id } })).toBe(3);
    const audit = await s.db.auditEvent.findFirstOrThrow({ where: { action: "submission.create", targetId: created.id } });
    expect(audit.data).toMatchObject({ documentWarnings: { unmatched: 1, missing: 1 }, missing: [] });

    // On a phase that refuses mismatches, the same archive is a 422 even when confirmed.
    await s.db.phase.update({ where: { id: s.phase.id }, data: { documentCheck: "error" } });
    const refused = await rejection(createSubmission(submission(s.participant.viewer, s.phase.id, { fileName: "run.zip", bytes: archive, acknowledgeWarnings: true })));
    expect(refused).toBeInstanceOf(DocumentMismatchError);
    expect(refused.toJSON().error).toMatchObject({ warnings: expected });
    expect(await s.db.submission.count({ where: { phaseId: s.phase.id } })).toBe(1);
  });

  it("a plain file on a phase with 3 datasets is a 422 naming the datasets and the expected file names; nothing stored", async () => {
    const s = await threeDatasets();
    const before = { quota: await quotaStatus(s.team.id, s.phase.id), audits: await s.db.auditEvent.count() };
    const error = (await rejection(createSubmission(submission(s.participant.viewer, s.phase.id, { fileName: "en_a.conll", bytes: bytes(keyOf("en_a")) })))) as ValidationError;
    expect(error.httpStatus).toBe(422);
    const howTo = "Upload a .zip or .tar.gz archive with one file per dataset: en_a.conll, cs_b.conll, de_c.conll.";
    expect(error.fieldErrors).toEqual([{ path: "file", message: howTo }]);
    expect(error.toJSON().error).toEqual({
      code: "validation",
      message: howTo,
      fieldErrors: [{ path: "file", message: howTo }],
      detail:
        'This phase has 3 datasets (en_a, cs_b, de_c); upload a .zip or .tar.gz with one file per dataset named "en_a.conll" (dataset en_a, en), "cs_b.conll" (dataset cs_b, cs), "de_c.conll" (dataset de_c, de). en_a.conll is not such an archive.',
      sampleUrl: `/api/v1/phases/${s.phase.id}/sample-submission`,
    });
    await expectNothingStored(s, before);
  });

  it("the run's view lists every dataset with its file, gold version and scores; per-document scores are grouped by dataset", async () => {
    const { db, organizer, participant, phase, datasets } = await threeDatasets();
    const archive = await makeZip([
      { path: "en_a.conll", text: keyOf("en_a") },
      { path: "cs_b.conll", text: keyOf("cs_b") },
    ]);
    const { id } = await createSubmission(submission(participant.viewer, phase.id, { fileName: "run.zip", bytes: archive, acknowledgeWarnings: true }));
    // Stored as the worker stores a scored run: the gold key on each file, dataset scores, the
    // phase's macro-average (de_c left out: 0), document scores per dataset, the evaluation record.
    for (const g of await db.goldKey.findMany({ where: { phaseId: phase.id }, select: { id: true, datasetId: true } })) {
      await db.submissionFile.updateMany({ where: { submissionId: id, datasetId: g.datasetId }, data: { goldKeyId: g.id } });
    }
    await db.datasetScore.createMany({
      data: [
        { submissionId: id, phaseId: phase.id, datasetId: datasets[0].id, metric: "conll", f1: 0.8 },
        { submissionId: id, phaseId: phase.id, datasetId: datasets[1].id, metric: "conll", f1: 0.6 },
      ],
    });
    await db.score.create({ data: { submissionId: id, phaseId: phase.id, metric: "conll", f1: (0.8 + 0.6 + 0) / 3 } });
    const muc = { metric: "muc", recallNum: 1, recallDen: 2, precisionNum: 1, precisionDen: 1 };
    await db.documentScore.createMany({
      data: [
        { submissionId: id, datasetId: datasets[1].id, document: "d", ...muc },
        { submissionId: id, datasetId: datasets[0].id, document: "d", ...muc },
        { submissionId: id, datasetId: datasets[0].id, document: "a", ...muc },
      ],
    });
    const evaluation = { ...runEvaluation(EVALUATION_PROFILES.conll2012), datasets: datasets.map((d, i) => ({ id: d.id, name: d.name, goldVersion: 1, missing: i === 2 })) };
    await db.submission.update({ where: { id }, data: { status: "SCORED", goldVersion: null, evaluation: JSON.parse(JSON.stringify(evaluation)) } });

    const view = await getSubmissionForViewer(id, organizer.viewer);
    expect(view.datasets.map((d) => [d.name, d.fileName, d.missing, d.goldVersion, d.scores?.conll?.f1 ?? null])).toEqual([
      ["en_a", "en_a.conll", false, 1, 0.8],
      ["cs_b", "cs_b.conll", false, 1, 0.6],
      ["de_c", null, true, 1, null],
    ]);
    expect(view.scores?.conll?.f1).toBeCloseTo(1.4 / 3, 12);
    expect(view.perDocument?.map((d) => [d.dataset, d.document, d.metrics.muc?.recall])).toEqual([
      ["en_a", "a", 0.5],
      ["en_a", "d", 0.5],
      ["cs_b", "d", 0.5],
    ]);
    // Anonymous visitors of the public run see the datasets too.
    expect((await getSubmissionForViewer(id, null)).datasets.map((d) => d.missing)).toEqual([false, false, true]);
  });
});

describe("one-dataset phases: a plain file as before, or an archive holding the dataset's file", () => {
  it("a plain file of any name; an archive holding main.conll; an archive with another file is a 422", async () => {
    const { db, participant, phase, dataset } = await setup();
    expect(dataset.fileName).toBe("main.conll");
    const plain = await createSubmission(submission(participant.viewer, phase.id, { fileName: "whatever-name.txt" }));
    expect(plain.missingDatasets).toEqual([]);
    const archive = await makeZip([{ path: "main.conll", text: SMALL_KEY }]);
    const zipped = await createSubmission(submission(participant.viewer, phase.id, { fileName: "run.zip", bytes: archive }));
    expect(zipped).toEqual({ id: zipped.id, status: "QUEUED", warnings: [], missingDatasets: [] });
    const row = await db.submission.findUniqueOrThrow({ where: { id: zipped.id }, include: { files: true } });
    expect([row.fileName, row.sha256]).toEqual(["run.zip", sha256Hex(archive)]);
    expect(row.files.map((f) => [f.datasetId, f.fileName, unpackFile(f.gzip, f.sha256).toString("utf8")])).toEqual([[dataset.id, "main.conll", SMALL_KEY]]);
    const view = await getSubmissionForViewer(zipped.id, participant.viewer);
    expect(view.datasets.map((d) => [d.name, d.fileName, d.missing])).toEqual([["main", "main.conll", false]]);

    const wrong = (await rejection(createSubmission(submission(participant.viewer, phase.id, { fileName: "run.zip", bytes: await makeZip([{ path: "system.conll", text: SMALL_KEY }]) })))) as ValidationError;
    expect(wrong.httpStatus).toBe(422);
    expect(wrong.message).toBe("Upload one coreference file, or a .zip or .tar.gz archive holding main.conll.");
    expect((wrong as UploadShapeError).detail).toContain('expected file names: "main.conll"');
    expect(await db.submission.count({ where: { phaseId: phase.id } })).toBe(2);
  });
});
