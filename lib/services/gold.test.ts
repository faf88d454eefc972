/**
 * Gold key uploads and the task's evaluation profile (issue 10 §1, §3) against a real
 * database: a file the profile cannot score is refused and stores nothing; a file
 * byte-identical to the active version is a no-op. The queue is mocked: these tests check
 * what is stored and what is enqueued, not pg-boss. (Uploading, versions and re-queueing in
 * general: uploads.test.ts.)
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

// lib/__mocks__/queue.ts: enqueueScoring is a vi.fn.
vi.mock("../queue");

import { corefudConllu, MOR_EXAMPLE } from "../corefud-examples";
import { useTestDatabase } from "../db/test-db";
import { ValidationError } from "../errors";
import { enqueueScoring } from "../queue";
import { findActiveGold, uploadGoldKey } from "./gold";
import { bytes, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, SMALL_KEY } from "./test-fixtures";

const testDb = useTestDatabase();
const enqueue = vi.mocked(enqueueScoring);

beforeEach(() => {
  enqueue.mockReset();
  enqueue.mockResolvedValue(undefined);
});

/** A CorefUD CoNLL-U gold key (one sentence, mentions with heads). */
const CONLLU_KEY = corefudConllu(MOR_EXAMPLE, MOR_EXAMPLE.key);

/** An organizer, a task with one open phase and the given evaluation columns, and a team with a scored run in the phase. */
async function setup(evaluation: { evaluationProfile: string; mentionMatching?: string; keepSingletons?: boolean } = { evaluationProfile: "conll2012" }) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Gold Organizer");
  const participant = await makeUser(db, "Submitter");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  await db.task.update({ where: { id: task.id }, data: evaluation });
  const team = await makeTeam(db, "Team", [participant.id]);
  const run = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: participant.id, status: "SCORED" });
  return { db, organizer, task, phase, run };
}

describe("uploadGoldKey and the evaluation profile", () => {
  it("a head-matching profile (crac) refuses .conll gold with a 422 on `file`: nothing stored, audited or re-queued", async () => {
    const { db, organizer, phase, run } = await setup({ evaluationProfile: "crac" });
    const auditsBefore = await db.auditEvent.count();
    const error = (await rejection(uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY)))) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.httpStatus).toBe(422);
    expect(error.fieldErrors.map((e) => e.path)).toEqual(["file"]);
    expect(error.message).toMatch(/CRAC.*\.conllu.*key\.conll/s);
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(0);
    expect(await db.auditEvent.count()).toBe(auditsBefore);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("SCORED");
    expect(enqueue).not.toHaveBeenCalled();

    const { gold, unchanged } = await uploadGoldKey(organizer.viewer, phase.id, "key.conllu", bytes(CONLLU_KEY));
    expect([gold.version, gold.fileName, unchanged]).toEqual([1, "key.conllu", false]);
  });

  it("a custom profile with head or partial match refuses .conll gold; with exact match it takes it", async () => {
    const head = await setup({ evaluationProfile: "custom", mentionMatching: "partial", keepSingletons: true });
    expect((await rejection(uploadGoldKey(head.organizer.viewer, head.phase.id, "key.conll", bytes(SMALL_KEY)))).httpStatus).toBe(422);
    expect(await head.db.goldKey.count({ where: { phaseId: head.phase.id } })).toBe(0);
    const exact = await setup({ evaluationProfile: "custom", mentionMatching: "exact", keepSingletons: false });
    expect((await uploadGoldKey(exact.organizer.viewer, exact.phase.id, "key.conll", bytes(SMALL_KEY))).gold.version).toBe(1);
  });

  it("a file byte-identical to the active version adds no version, re-queues and audits nothing, and says so", async () => {
    const { db, organizer, phase, run } = await setup();
    const first = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    expect(first).toMatchObject({ requeued: 1, unchanged: false });
    expect(first.message).toMatch(/version 1 \(key\.conll\) is now active; 1 submission was re-queued/);
    await db.submission.update({ where: { id: run.id }, data: { status: "SCORED", goldVersion: 1 } });
    enqueue.mockClear();
    const auditsBefore = await db.auditEvent.count();

    const again = await uploadGoldKey(organizer.viewer, phase.id, "renamed.conll", bytes(SMALL_KEY));
    expect(again).toMatchObject({ requeued: 0, unchanged: true, gold: { id: first.gold.id, version: 1, fileName: "key.conll", active: true } });
    expect(again.message).toBe("The file is identical to the active version 1 (key.conll, same sha256); nothing changed.");
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(1);
    expect((await findActiveGold(phase.id))?.version).toBe(1);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("SCORED");
    expect(await db.auditEvent.count()).toBe(auditsBefore);
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("only the active version counts: re-uploading a replaced version's bytes makes a new version and re-queues", async () => {
    const { db, organizer, phase } = await setup();
    const v1 = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    await uploadGoldKey(organizer.viewer, phase.id, "key2.conll", bytes(SMALL_KEY.replace("It\t(3)", "It\t-")));
    enqueue.mockClear();
    const back = await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    expect(back).toMatchObject({ unchanged: false, requeued: 1, gold: { version: 3, sha256: v1.gold.sha256 } });
    expect(await db.goldKey.count({ where: { phaseId: phase.id } })).toBe(3);
    expect(enqueue).toHaveBeenCalledTimes(1);
  });

  it("an identical file is still checked against the profile first, and is refused when the profile cannot score it", async () => {
    const { db, organizer, task, phase } = await setup();
    await uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY));
    // The profile changed behind the service's back (the service itself refuses this while the .conll key is active).
    await db.task.update({ where: { id: task.id }, data: { evaluationProfile: "crac" } });
    expect((await rejection(uploadGoldKey(organizer.viewer, phase.id, "key.conll", bytes(SMALL_KEY)))).httpStatus).toBe(422);
  });
});
