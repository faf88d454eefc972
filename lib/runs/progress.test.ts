/** A team's progress in a phase (getTeamProgress) against a real database: order, values and visibility. */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { NotFoundError } from "../errors";
import { getTeamProgress } from "./progress";
import { insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, type PhaseOverrides, type SubmissionFields } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute));

/**
 * A task (primary metric as given) with one phase, an organizer, a member of team Alpha and
 * an outsider (in another team with a run in the task, so a participant), and Alpha's runs:
 * minute 30 public 0.60, minute 10 private 0.70, minute 20 public 0.55, minute 40 QUEUED,
 * minute 50 FAILED; the other team has one public run. Rows are inserted out of time order.
 */
async function setup(options: { primaryMetric?: string; phase?: PhaseOverrides } = {}) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Olga Organizer");
  const member = await makeUser(db, "Mia Member");
  const outsider = await makeUser(db, "Otto Outsider");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], primaryMetric: options.primaryMetric, phase: options.phase });
  const alpha = await makeTeam(db, "Alpha", [member.id]);
  const other = await makeTeam(db, "Other", [outsider.id]);
  const add = async (teamId: string, submitterId: string, minute: number, conll: number, extra: Partial<SubmissionFields> = {}) => {
    const s = await insertSubmission(db, { phaseId: phase.id, teamId, submitterId, createdAt: at(minute), systemName: `run-${minute}`, ...extra });
    // MUC F1 = minute / 100 (recall = precision = minute/100), CoNLL F1 as given.
    await insertScores(db, s.id, phase.id, { conll, muc: [minute, 100, minute, 100] });
    return s.id;
  };
  const run30 = await add(alpha.id, member.id, 30, 0.6);
  const run10 = await add(alpha.id, member.id, 10, 0.7, { visibility: "PRIVATE" });
  const run20 = await add(alpha.id, member.id, 20, 0.55);
  await add(alpha.id, member.id, 40, 0.9, { status: "QUEUED" });
  await add(alpha.id, member.id, 50, 0.95, { status: "FAILED" });
  await add(other.id, outsider.id, 5, 0.5);
  return { db, task, phase, alpha, other, organizer, member, outsider, runs: { run10, run20, run30 } };
}

describe("getTeamProgress", () => {
  let world: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    world = await setup();
  });

  it("gives a team member every scored run, private ones included, in submission order with the primary metric's F1", async () => {
    const { phase, task, alpha, member, runs } = world;
    const progress = await getTeamProgress(member.viewer, phase.id, alpha.id);
    expect(progress.metric).toBe("conll");
    expect(progress.phase).toEqual({ id: phase.id, name: phase.name, displayTimeZone: phase.displayTimeZone });
    expect(progress.task).toEqual({ slug: task.slug, title: task.title, primaryMetric: "conll" });
    expect(progress.team).toEqual({ id: alpha.id, name: alpha.name });
    expect(progress.viewerIsTeamMember).toBe(true);
    expect(progress.points.map((p) => [p.id, p.systemName, p.submittedAt.toISOString(), p.value, p.visibility, p.isBaseline])).toEqual([
      [runs.run10, "run-10", at(10).toISOString(), 0.7, "PRIVATE", false],
      [runs.run20, "run-20", at(20).toISOString(), 0.55, "PUBLIC", false],
      [runs.run30, "run-30", at(30).toISOString(), 0.6, "PUBLIC", false],
    ]);
  });

  it("gives the task's organizers every scored run too", async () => {
    const { phase, alpha, organizer, runs } = world;
    const progress = await getTeamProgress(organizer.viewer, phase.id, alpha.id);
    expect(progress.viewerIsOrganizer).toBe(true);
    expect(progress.points.map((p) => p.id)).toEqual([runs.run10, runs.run20, runs.run30]);
  });

  it("gives outsiders, signed in or not, only the public scored runs", async () => {
    const { phase, alpha, outsider, runs } = world;
    for (const viewer of [outsider.viewer, null]) {
      const progress = await getTeamProgress(viewer, phase.id, alpha.id);
      expect(progress.viewerIsTeamMember).toBe(false);
      expect(progress.points.map((p) => [p.id, p.value])).toEqual([
        [runs.run20, 0.55],
        [runs.run30, 0.6],
      ]);
    }
  });

  it("is a 404 for unknown or malformed phase and team ids, and for a team without runs in the phase that an outsider could see", async () => {
    const { db, phase, alpha, outsider } = world;
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const [phaseId, teamId] of [
      [unknown, alpha.id],
      ["not-a-uuid", alpha.id],
      [phase.id, unknown],
      [phase.id, "not-a-uuid"],
    ]) {
      expect(await rejection(getTeamProgress(outsider.viewer, phaseId, teamId))).toBeInstanceOf(NotFoundError);
    }
    // Only a private run: outsiders get the same 404 as for an unknown team; the team sees it.
    const loner = await makeUser(db, "Lena Loner");
    const secretive = await makeTeam(db, "Secretive", [loner.id]);
    const s = await insertSubmission(db, { phaseId: phase.id, teamId: secretive.id, submitterId: loner.id, visibility: "PRIVATE" });
    await insertScores(db, s.id, phase.id, { conll: 0.8 });
    expect(await rejection(getTeamProgress(null, phase.id, secretive.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(getTeamProgress(outsider.viewer, phase.id, secretive.id))).toBeInstanceOf(NotFoundError);
    expect((await getTeamProgress(loner.viewer, phase.id, secretive.id)).points.map((p) => p.id)).toEqual([s.id]);
    // A team with no runs at all: empty for its members, 404 for others.
    const idle = await makeTeam(db, "Idle", [loner.id]);
    expect((await getTeamProgress(loner.viewer, phase.id, idle.id)).points).toEqual([]);
    expect(await rejection(getTeamProgress(null, phase.id, idle.id))).toBeInstanceOf(NotFoundError);
  });
});

describe("getTeamProgress on hidden boards", () => {
  it("ORGANIZERS-only board: 404 for anonymous and signed-in outsiders; the team and organizers still see every run", async () => {
    const { phase, alpha, organizer, member, outsider, runs } = await setup({ phase: { leaderboardVisibility: "ORGANIZERS" } });
    expect(await rejection(getTeamProgress(null, phase.id, alpha.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(getTeamProgress(outsider.viewer, phase.id, alpha.id))).toBeInstanceOf(NotFoundError);
    for (const viewer of [member.viewer, organizer.viewer]) {
      expect((await getTeamProgress(viewer, phase.id, alpha.id)).points.map((p) => p.id)).toEqual([runs.run10, runs.run20, runs.run30]);
    }
  });

  it("PARTICIPANTS board: participants see the public runs, anonymous viewers and non-participants get a 404", async () => {
    const { db, phase, alpha, outsider, runs } = await setup({ phase: { leaderboardVisibility: "PARTICIPANTS" } });
    expect((await getTeamProgress(outsider.viewer, phase.id, alpha.id)).points.map((p) => p.id)).toEqual([runs.run20, runs.run30]);
    expect(await rejection(getTeamProgress(null, phase.id, alpha.id))).toBeInstanceOf(NotFoundError);
    const stranger = await makeUser(db, "Sam Stranger");
    expect(await rejection(getTeamProgress(stranger.viewer, phase.id, alpha.id))).toBeInstanceOf(NotFoundError);
  });
});

describe("getTeamProgress values", () => {
  it("values runs by the task's primary metric F1 (here MUC) and keeps baselines, flagged", async () => {
    const { db, phase, alpha, member, runs } = await setup({ primaryMetric: "muc" });
    const base = await insertSubmission(db, { phaseId: phase.id, teamId: alpha.id, submitterId: member.id, createdAt: at(25), systemName: "baseline", isBaseline: true });
    await insertScores(db, base.id, phase.id, { conll: 0.4, muc: [1, 4, 1, 4] });
    // A scored run lacking the primary metric has no point.
    const noMuc = await insertSubmission(db, { phaseId: phase.id, teamId: alpha.id, submitterId: member.id, createdAt: at(35) });
    await insertScores(db, noMuc.id, phase.id, { conll: 0.99 });

    const progress = await getTeamProgress(null, phase.id, alpha.id);
    expect(progress.metric).toBe("muc");
    expect(progress.task.primaryMetric).toBe("muc");
    expect(progress.points.map((p) => [p.id, p.isBaseline])).toEqual([
      [runs.run20, false],
      [base.id, true],
      [runs.run30, false],
    ]);
    expect(progress.points[0].value).toBeCloseTo(0.2, 12);
    expect(progress.points[1].value).toBeCloseTo(0.25, 12);
    expect(progress.points[2].value).toBeCloseTo(0.3, 12);
  });

  it("values a run of a phase with several datasets by its macro-averaged Score row, which has no counts", async () => {
    const { db, phase, alpha, member, runs } = await setup({ primaryMetric: "muc" });
    const macro = await insertSubmission(db, { phaseId: phase.id, teamId: alpha.id, submitterId: member.id, createdAt: at(36) });
    await db.score.create({ data: { submissionId: macro.id, phaseId: phase.id, metric: "muc", recall: 0.4, precision: 0.5, f1: 0.4321 } });
    const progress = await getTeamProgress(member.viewer, phase.id, alpha.id);
    expect(progress.points.map((p) => p.id)).toEqual([runs.run10, runs.run20, runs.run30, macro.id]);
    expect(progress.points[3].value).toBe(0.4321);
  });
});
