/**
 * An archived task is read-only (issue 11 §1): every service that changes a task's settings
 * or its runs refuses with a 409, and does again once the task is unarchived.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { ConflictError } from "../errors";
import { enqueueScoring } from "../queue";
import { addDataset } from "./datasets";
import { disqualifySubmission, hideSubmission, rescorePhase, rescoreSubmission } from "../runs/controls";
import { updateTaskAnalysisSettings } from "./analysis-settings";
import { updateTaskEvaluation } from "./evaluation-profile";
import { assertTaskWritable } from "./state";
import { insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection } from "./test-fixtures";
import { addTrack } from "./tracks";

const testDb = useTestDatabase();

beforeEach(() => {
  vi.mocked(enqueueScoring).mockReset();
  vi.mocked(enqueueScoring).mockResolvedValue(undefined);
});

describe("archived tasks are read-only", () => {
  it("assertTaskWritable: throws a 409 naming what was tried for ARCHIVED only", () => {
    expect(() => assertTaskWritable({ status: "ARCHIVED" }, "change its tracks")).toThrow(/archived and read-only: unarchive it on its manage page to change its tracks\./);
    expect(() => assertTaskWritable({ status: "PUBLISHED" })).not.toThrow();
    expect(() => assertTaskWritable({ status: "DRAFT" })).not.toThrow();
  });

  it("datasets, tracks, evaluation, analysis, and run controls refuse changes in an archived task; the same calls work once it is unarchived", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], status: "ARCHIVED" });
    const member = await makeUser(db, "Member");
    const team = await makeTeam(db, "Team", [member.id]);
    const run = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: member.id, status: "SCORED" });

    const attempts: [string, () => Promise<unknown>][] = [
      ["addDataset", () => addDataset(organizer.viewer, phase.id, { name: "extra", fileName: "extra.conll", format: "conll2012" })],
      ["addTrack", () => addTrack(organizer.viewer, phase.id, { name: "LLM" })],
      ["updateTaskEvaluation", () => updateTaskEvaluation(organizer.viewer, task.id, { evaluationProfile: "conll2012" })],
      ["updateTaskAnalysisSettings", () => updateTaskAnalysisSettings(organizer.viewer, task.id, { mappedClusterF: true })],
      ["hideSubmission", () => hideSubmission(organizer.viewer, run.id)],
      ["disqualifySubmission", () => disqualifySubmission(organizer.viewer, run.id, "a reason")],
      ["rescoreSubmission", () => rescoreSubmission(organizer.viewer, run.id)],
      ["rescorePhase", () => rescorePhase(organizer.viewer, phase.id)],
    ];
    for (const [name, attempt] of attempts) {
      const error = await rejection(attempt());
      expect(error, name).toBeInstanceOf(ConflictError);
      expect(error.message, name).toContain("archived and read-only");
    }
    expect(await db.track.count({ where: { phaseId: phase.id } })).toBe(0);
    expect(await db.dataset.count({ where: { phaseId: phase.id } })).toBe(1);
    expect((await db.submission.findUniqueOrThrow({ where: { id: run.id } })).hiddenAt).toBeNull();
    expect(vi.mocked(enqueueScoring)).not.toHaveBeenCalled();

    await db.task.update({ where: { id: task.id }, data: { status: "PUBLISHED" } });
    expect((await addTrack(organizer.viewer, phase.id, { name: "LLM" })).name).toBe("LLM");
    expect((await hideSubmission(organizer.viewer, run.id)).hiddenAt).not.toBeNull();
  });
});
