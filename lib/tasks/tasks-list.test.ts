/**
 * `listTaskSummariesForViewer` against a real database (issue 12 §5, the /tasks page): team and
 * run counts, the current phase with its countdown, and the top score as the board's readers
 * see it (selection rules, run controls, freeze, tracks, visibility, after-close timing), in a
 * number of queries that does not grow with the number of tasks.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { listTasksForViewer, listTaskSummariesForViewer, type TaskSummary } from "./tasks-list";
import { insertScores, insertSubmission, insertSubmissionInTrack, makeTaskWithPhase, makeTeam, makeTrack, makeUser, type PhaseOverrides } from "./test-fixtures";

const testDb = useTestDatabase();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

afterEach(() => {
  vi.restoreAllMocks();
});

/** The summary of one task in the viewer's list (the database is shared by the file's tests). */
async function summaryOf(taskId: string, viewer: Parameters<typeof listTaskSummariesForViewer>[0], now = new Date()): Promise<TaskSummary | undefined> {
  return (await listTaskSummariesForViewer(viewer, now)).find((t) => t.id === taskId);
}

/**
 * A task with one phase (overridable), an organizer, teams Alpha and Beta (one member each),
 * and a helper that inserts a scored run with a CoNLL F1 (and a MUC score when asked).
 */
async function setup(options: { phase?: PhaseOverrides; primaryMetric?: string } = {}) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const member = await makeUser(db, "Member");
  const rival = await makeUser(db, "Rival");
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase: options.phase, primaryMetric: options.primaryMetric });
  const alpha = await makeTeam(db, "Alpha", [member.id]);
  const beta = await makeTeam(db, "Beta", [rival.id]);
  const orgTeam = await makeTeam(db, "Organizers", [organizer.id]);
  let minute = 0;
  const run = async (teamId: string, submitterId: string, conll: number, fields: { isBaseline?: boolean; visibility?: "PUBLIC" | "PRIVATE"; status?: "SCORED" | "FAILED"; trackId?: string | null; muc?: [number, number, number, number] } = {}) => {
    minute += 1;
    const base = { phaseId: phase.id, teamId, submitterId, isBaseline: fields.isBaseline, visibility: fields.visibility, status: fields.status, createdAt: new Date(Date.now() - 10 * HOUR + minute * 60_000) };
    const s = fields.trackId === undefined ? await insertSubmission(db, base) : await insertSubmissionInTrack(db, base, fields.trackId);
    if ((fields.status ?? "SCORED") === "SCORED") await insertScores(db, s.id, phase.id, { conll, muc: fields.muc });
    return s.id;
  };
  return { db, task, phase, organizer, member, rival, alpha, beta, orgTeam, run };
}

describe("listTaskSummariesForViewer", () => {
  it("lists the same tasks in the same order as listTasksForViewer", async () => {
    await setup();
    await setup();
    const plain = await listTasksForViewer(null);
    const summaries = await listTaskSummariesForViewer(null);
    expect(summaries.map((t) => [t.id, t.status, t.phases.map((p) => p.id)])).toEqual(plain.map((t) => [t.id, t.status, t.phases.map((p) => p.id)]));
  });

  it("counts the teams and runs of the task, without baselines and withdrawn runs", async () => {
    const f = await setup();
    await f.run(f.alpha.id, f.member.id, 0.5);
    await f.run(f.alpha.id, f.member.id, 0.6, { status: "FAILED" });
    await f.run(f.beta.id, f.rival.id, 0.4);
    await f.run(f.orgTeam.id, f.organizer.id, 0.9, { isBaseline: true });
    const withdrawn = await f.run(f.beta.id, f.rival.id, 0.3);
    await f.db.submission.update({ where: { id: withdrawn }, data: { withdrawnAt: new Date() } });
    const empty = await setup();

    const s = await summaryOf(f.task.id, null);
    expect(s).toMatchObject({ teams: 2, runs: 3 });
    expect(await summaryOf(empty.task.id, null)).toMatchObject({ teams: 0, runs: 0, topScore: null });
  });

  it("gives the open phase with a countdown, and the best primary score among the runs on the board (BEST)", async () => {
    const f = await setup({ phase: { opensAt: new Date(Date.now() - DAY), closesAt: new Date(Date.now() + 3 * DAY + 2 * HOUR) } });
    await f.run(f.alpha.id, f.member.id, 0.7);
    await f.run(f.alpha.id, f.member.id, 0.8);
    await f.run(f.beta.id, f.rival.id, 0.6);
    // None of these is on the board its readers see.
    await f.run(f.orgTeam.id, f.organizer.id, 0.95, { isBaseline: true });
    await f.run(f.beta.id, f.rival.id, 0.98, { visibility: "PRIVATE" });
    const hidden = await f.run(f.beta.id, f.rival.id, 0.99);
    const disqualified = await f.run(f.beta.id, f.rival.id, 0.97);
    const withdrawn = await f.run(f.beta.id, f.rival.id, 0.96);
    await f.db.submission.update({ where: { id: hidden }, data: { hiddenAt: new Date() } });
    await f.db.submission.update({ where: { id: disqualified }, data: { disqualifiedAt: new Date(), disqualifiedReason: "test" } });
    await f.db.submission.update({ where: { id: withdrawn }, data: { withdrawnAt: new Date() } });

    const s = (await summaryOf(f.task.id, null))!;
    expect(s.current).toMatchObject({ id: f.phase.id, name: "test", state: "open", countdown: "closes in 3 days" });
    expect(s.current!.at.getTime()).toBe(f.phase.closesAt.getTime());
    expect(s.topScore).toEqual({ metric: "conll", label: "CoNLL F1", value: 0.8 });
  });

  it("applies the selection rule per team: LATEST counts each team's latest run", async () => {
    const f = await setup({ phase: { selectionRule: "LATEST" } });
    await f.run(f.alpha.id, f.member.id, 0.9);
    await f.run(f.alpha.id, f.member.id, 0.5);
    await f.run(f.beta.id, f.rival.id, 0.7);
    expect((await summaryOf(f.task.id, null))!.topScore?.value).toBe(0.7);
  });

  it("applies TEAM_SELECTED: the best of a team's final runs, else its latest run", async () => {
    const f = await setup();
    await f.db.phase.update({ where: { id: f.phase.id }, data: { selectionRule: "TEAM_SELECTED" } });
    const final = await f.run(f.alpha.id, f.member.id, 0.6);
    await f.run(f.alpha.id, f.member.id, 0.9);
    await f.run(f.beta.id, f.rival.id, 0.8);
    await f.run(f.beta.id, f.rival.id, 0.4);
    await f.db.submission.update({ where: { id: final }, data: { finalSelectedAt: new Date() } });
    expect((await summaryOf(f.task.id, null))!.topScore?.value).toBe(0.6);
  });

  it("ranks by the task's primary metric, and leaves out runs made after a freeze", async () => {
    const f = await setup({ primaryMetric: "muc" });
    await f.run(f.alpha.id, f.member.id, 0.9, { muc: [1, 2, 1, 2] });
    await f.run(f.beta.id, f.rival.id, 0.1, { muc: [3, 4, 3, 4] });
    const late = await f.run(f.beta.id, f.rival.id, 0.1, { muc: [9, 10, 9, 10] });
    const before = (await summaryOf(f.task.id, null))!.topScore;
    expect(before).toMatchObject({ metric: "muc", label: "MUC" });
    expect(before?.value).toBeCloseTo(0.9, 12);

    const lateAt = (await f.db.submission.findUniqueOrThrow({ where: { id: late } })).createdAt;
    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardTiming: "frozen", frozenAt: lateAt } });
    expect((await summaryOf(f.task.id, null))!.topScore?.value).toBeCloseTo(0.75, 12);
  });

  it("on a phase with tracks, a run without a track is on no board", async () => {
    const f = await setup();
    const track = await makeTrack(f.db, f.phase.id, "open");
    await f.run(f.alpha.id, f.member.id, 0.9, { trackId: null });
    await f.run(f.beta.id, f.rival.id, 0.5, { trackId: track.id });
    expect((await summaryOf(f.task.id, null))!.topScore?.value).toBe(0.5);
  });

  it("shows the top score only to who may see the board, and not while an after-close board is hidden", async () => {
    const f = await setup({ phase: { leaderboardVisibility: "ORGANIZERS" } });
    await f.run(f.alpha.id, f.member.id, 0.8);
    const outsider = await makeUser(f.db, "Outsider");
    const admin = await makeUser(f.db, "Admin", "ADMIN");
    expect((await summaryOf(f.task.id, null))!.topScore).toBeNull();
    expect((await summaryOf(f.task.id, f.member.viewer))!.topScore).toBeNull();
    expect((await summaryOf(f.task.id, f.organizer.viewer))!.topScore?.value).toBe(0.8);
    expect((await summaryOf(f.task.id, admin.viewer))!.topScore?.value).toBe(0.8);

    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardVisibility: "PARTICIPANTS" } });
    expect((await summaryOf(f.task.id, f.member.viewer))!.topScore?.value).toBe(0.8);
    expect((await summaryOf(f.task.id, outsider.viewer))!.topScore).toBeNull();
    expect((await summaryOf(f.task.id, null))!.topScore).toBeNull();

    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardVisibility: "PUBLIC", leaderboardTiming: "after_close" } });
    expect((await summaryOf(f.task.id, null))!.topScore).toBeNull();
    // Once the phase has closed, the board (and its top score) is public.
    const later = new Date(f.phase.closesAt.getTime() + HOUR);
    expect((await summaryOf(f.task.id, null, later))!.topScore?.value).toBe(0.8);
  });

  it("picks the current phase: the open one, else the next to open, else the last to close; with a countdown", async () => {
    const f = await setup({ phase: { opensAt: new Date(Date.now() + 2 * DAY + HOUR), closesAt: new Date(Date.now() + 9 * DAY) } });
    const upcoming = (await summaryOf(f.task.id, null))!;
    expect(upcoming.current).toMatchObject({ state: "upcoming", countdown: "opens in 2 days" });
    expect(upcoming.current!.at.getTime()).toBe(f.phase.opensAt.getTime());

    await f.db.phase.create({ data: { taskId: f.task.id, name: "dev", opensAt: new Date(Date.now() - 30 * DAY), closesAt: new Date(Date.now() - 5 * HOUR) } });
    // The upcoming phase still comes before a closed one.
    expect((await summaryOf(f.task.id, null))!.current?.name).toBe("test");
    const afterAll = new Date(f.phase.closesAt.getTime() + 3 * HOUR);
    expect((await summaryOf(f.task.id, null, afterAll))!.current).toMatchObject({ name: "test", state: "closed", countdown: "closed 3 hours ago" });
    const during = new Date(f.phase.opensAt.getTime() + DAY);
    expect((await summaryOf(f.task.id, null, during))!.current).toMatchObject({ name: "test", state: "open" });
  });

  it("uses as many queries for many tasks as for one (aggregates, not a query per task)", async () => {
    const db = testDb.prisma;
    const viewer = (await makeUser(db, "Counter")).viewer;
    const count = async () => {
      const raw = vi.spyOn(db, "$queryRaw");
      const tasks = vi.spyOn(db.task, "findMany");
      const organizers = vi.spyOn(db.taskOrganizer, "findMany");
      const list = await listTaskSummariesForViewer(viewer);
      const n = raw.mock.calls.length + tasks.mock.calls.length + organizers.mock.calls.length;
      vi.restoreAllMocks();
      return { n, tasks: list.length };
    };
    const f = await setup();
    await f.run(f.alpha.id, f.member.id, 0.5);
    const first = await count();
    for (let i = 0; i < 3; i++) {
      const g = await setup();
      await g.run(g.beta.id, g.rival.id, 0.4);
    }
    const second = await count();
    expect(second.tasks).toBeGreaterThan(first.tasks);
    expect(second.n).toBe(first.n);
    expect(first.n).toBeGreaterThanOrEqual(4);
    expect(first.n).toBeLessThanOrEqual(5);
  });
});
