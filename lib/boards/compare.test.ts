/**
 * The compare page's pickers (listComparePhases, listPhaseRunsToCompare) against a real
 * database: who sees which run, checked run by run against `submissionAccess`, the one rule
 * the run pages use; the order; and the phases offered.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { NotFoundError } from "../errors";
import { submissionAccess, SUBMISSION_VISIBILITY_SELECT, type Viewer } from "../permissions";
import { COMPARE_PICKER_LIMIT, listComparePhases, listPhaseRunsToCompare, loadComparePage } from "./compare";
import { insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection, type PhaseOverrides, type SubmissionFields } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

const HOUR = 3600 * 1000;

/**
 * A task with one phase, an organizer, two teams (A, B; one member each), an outsider, and
 * runs of every kind: A's public runs (CoNLL F1 0.5 and 0.7), A's private run (0.9), B's
 * public run (0.6), B's withdrawn run, B's hidden run, a baseline (0.4), a queued run and a
 * failed run, all made an hour ago; then B's run made just now (0.65).
 */
async function phaseWithRuns(overrides: PhaseOverrides = {}, status: "PUBLISHED" | "DRAFT" = "PUBLISHED") {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const memberA = await makeUser(db, "Member A");
  const memberB = await makeUser(db, "Member B");
  const outsider = await makeUser(db, "Outsider");
  const teamA = await makeTeam(db, "Team A", [memberA.id]);
  const teamB = await makeTeam(db, "Team B", [memberB.id]);
  const { task, phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase: overrides, status });
  const earlier = new Date(Date.now() - HOUR);
  const run = async (teamId: string, submitterId: string, systemName: string, conll: number | null, extra: Partial<SubmissionFields> = {}) => {
    const row = await insertSubmission(db, { phaseId: phase.id, teamId, submitterId, systemName, createdAt: earlier, ...extra });
    if (conll !== null) await insertScores(db, row.id, phase.id, { conll });
    return row.id;
  };
  const ids = {
    a1: await run(teamA.id, memberA.id, "a-one", 0.5),
    a2: await run(teamA.id, memberA.id, "a-two", 0.7),
    aPrivate: await run(teamA.id, memberA.id, "a-private", 0.9, { visibility: "PRIVATE" }),
    b1: await run(teamB.id, memberB.id, "b-one", 0.6),
    bWithdrawn: await run(teamB.id, memberB.id, "b-withdrawn", 0.55),
    bHidden: await run(teamB.id, memberB.id, "b-hidden", 0.52),
    baseline: await run(teamB.id, organizer.id, "baseline", 0.4, { isBaseline: true }),
    queued: await run(teamA.id, memberA.id, "a-queued", null, { status: "QUEUED" }),
    failed: await run(teamA.id, memberA.id, "a-failed", null, { status: "FAILED" }),
    bLate: await run(teamB.id, memberB.id, "b-late", 0.65, { createdAt: new Date() }),
  };
  await db.submission.update({ where: { id: ids.bWithdrawn }, data: { withdrawnAt: new Date() } });
  await db.submission.update({ where: { id: ids.bHidden }, data: { hiddenAt: new Date() } });
  const viewers: Record<string, Viewer> = {
    anonymous: null,
    organizer: organizer.viewer,
    memberA: memberA.viewer,
    memberB: memberB.viewer,
    outsider: outsider.viewer,
  };
  return { task, phase, ids, viewers, earlier };
}

/** The ids listed for a viewer. */
async function listed(viewer: Viewer, phaseId: string): Promise<string[]> {
  return (await listPhaseRunsToCompare(viewer, phaseId)).runs.map((r) => r.id);
}

/** The scored runs of the phase that `submissionAccess` lets the viewer see (withdrawn runs: only their team and the organizers, as compareRuns). */
async function seenByAccessRule(viewer: Viewer, phaseId: string): Promise<string[]> {
  const rows = await testDb.prisma.submission.findMany({ where: { phaseId, status: "SCORED" }, select: { ...SUBMISSION_VISIBILITY_SELECT, id: true } });
  const seen: string[] = [];
  for (const row of rows) {
    const access = await submissionAccess(viewer, row, testDb.prisma);
    if (access.visible && (row.withdrawnAt === null || access.isTeamMember || access.isOrganizer)) seen.push(row.id);
  }
  return seen.sort();
}

describe("listPhaseRunsToCompare", () => {
  it("lists, for every viewer, exactly the scored runs submissionAccess lets them see", async () => {
    for (const setup of [
      {},
      { leaderboardVisibility: "ORGANIZERS" as const },
      { leaderboardVisibility: "PARTICIPANTS" as const },
    ]) {
      const { phase, viewers } = await phaseWithRuns(setup);
      for (const [who, viewer] of Object.entries(viewers)) {
        expect([...(await listed(viewer, phase.id))].sort(), `${who} on ${JSON.stringify(setup)}`).toEqual(await seenByAccessRule(viewer, phase.id));
      }
    }
  });

  it("on a public board: others see the public, kept, visible runs; a team also its own private run; organizers every scored run", async () => {
    const { phase, ids, viewers } = await phaseWithRuns();
    const publicRuns = [ids.a1, ids.a2, ids.b1, ids.baseline, ids.bLate];
    expect((await listed(viewers.anonymous, phase.id)).sort()).toEqual([...publicRuns].sort());
    expect((await listed(viewers.outsider, phase.id)).sort()).toEqual([...publicRuns].sort());
    expect((await listed(viewers.memberA, phase.id)).sort()).toEqual([...publicRuns, ids.aPrivate].sort());
    expect((await listed(viewers.memberB, phase.id)).sort()).toEqual([...publicRuns, ids.bWithdrawn, ids.bHidden].sort());
    expect((await listed(viewers.organizer, phase.id)).sort()).toEqual([...publicRuns, ids.aPrivate, ids.bWithdrawn, ids.bHidden].sort());
  });

  it("lists the runs best first by the primary metric, with their team and score", async () => {
    const { phase, ids, viewers, task } = await phaseWithRuns();
    const result = await listPhaseRunsToCompare(viewers.anonymous, phase.id);
    expect(result.runs.map((r) => r.id)).toEqual([ids.a2, ids.bLate, ids.b1, ids.a1, ids.baseline]);
    expect(result.runs[0]).toMatchObject({ systemName: "a-two", primary: 0.7, isBaseline: false, track: null });
    expect(result.runs[0].team).toMatch(/^Team A /);
    expect(result.runs.at(-1)).toMatchObject({ isBaseline: true });
    expect(result).toMatchObject({ task: { slug: task.slug, primaryMetric: "conll" }, phase: { id: phase.id, name: "test" }, truncated: false });
  });

  it("before an after-close phase closes, shows others only the baselines", async () => {
    const { phase, ids, viewers } = await phaseWithRuns();
    await testDb.prisma.phase.update({ where: { id: phase.id }, data: { leaderboardTiming: "after_close" } });
    expect(await listed(viewers.outsider, phase.id)).toEqual([ids.baseline]);
    expect((await listed(viewers.memberA, phase.id)).sort()).toEqual([ids.a1, ids.a2, ids.aPrivate, ids.baseline].sort());
    expect(await listed(viewers.outsider, phase.id)).toEqual(await seenByAccessRule(viewers.outsider, phase.id));
  });

  it("on a frozen board, hides runs made after the freeze from others", async () => {
    const { phase, ids, viewers, earlier } = await phaseWithRuns();
    await testDb.prisma.phase.update({ where: { id: phase.id }, data: { leaderboardTiming: "frozen", frozenAt: new Date(earlier.getTime() + HOUR / 2) } });
    expect(await listed(viewers.outsider, phase.id)).not.toContain(ids.bLate);
    expect(await listed(viewers.memberB, phase.id)).toContain(ids.bLate);
    expect((await listed(viewers.outsider, phase.id)).sort()).toEqual(await seenByAccessRule(viewers.outsider, phase.id));
  });

  it("is a 404 for a draft task's phase (except for its organizers), an unknown phase and a malformed id", async () => {
    const { phase, viewers } = await phaseWithRuns({}, "DRAFT");
    expect(await rejection(listPhaseRunsToCompare(viewers.anonymous, phase.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(listPhaseRunsToCompare(viewers.memberA, phase.id))).toBeInstanceOf(NotFoundError);
    expect((await listed(viewers.organizer, phase.id)).length).toBe(8);
    expect(await rejection(listPhaseRunsToCompare(null, "00000000-0000-4000-8000-000000000000"))).toBeInstanceOf(NotFoundError);
    expect(await rejection(listPhaseRunsToCompare(null, "not-a-uuid"))).toBeInstanceOf(NotFoundError);
  });

  it(`lists at most ${COMPARE_PICKER_LIMIT} runs and says so`, async () => {
    const db = testDb.prisma;
    const user = await makeUser(db, "Many");
    const team = await makeTeam(db, "Many runs", [user.id]);
    const { phase } = await makeTaskWithPhase(db);
    for (let i = 0; i < COMPARE_PICKER_LIMIT + 1; i++) {
      const row = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: user.id, systemName: `s${i}` });
      await insertScores(db, row.id, phase.id, { conll: i / 1000 });
    }
    const result = await listPhaseRunsToCompare(null, phase.id);
    expect(result.runs.length).toBe(COMPARE_PICKER_LIMIT);
    expect(result.truncated).toBe(true);
    expect(result.runs[0].systemName).toBe(`s${COMPARE_PICKER_LIMIT}`);
  }, 60_000);
});

describe("listComparePhases", () => {
  it("offers the phases where the viewer sees at least two runs, with how many", async () => {
    const open = await phaseWithRuns();
    const hidden = await phaseWithRuns({ leaderboardVisibility: "ORGANIZERS" });
    const draft = await phaseWithRuns({}, "DRAFT");
    const anonymous = await listComparePhases(null);
    const ids = anonymous.map((p) => p.id);
    expect(ids).toContain(open.phase.id);
    expect(ids).not.toContain(hidden.phase.id);
    expect(ids).not.toContain(draft.phase.id);
    expect(anonymous.find((p) => p.id === open.phase.id)).toEqual({ id: open.phase.id, name: "test", task: { slug: open.task.slug, title: open.task.title }, runs: 5 });
    // On the hidden board a team sees its own runs: three for team A.
    const mine = await listComparePhases(hidden.viewers.memberA);
    expect(mine.find((p) => p.id === hidden.phase.id)?.runs).toBe(3);
    // Organizers see their draft.
    expect((await listComparePhases(draft.viewers.organizer)).map((p) => p.id)).toContain(draft.phase.id);
  });
});

describe("loadComparePage", () => {
  const none = { a: undefined, b: undefined, phase: undefined, samples: undefined };

  it("offers the phases when nothing is chosen, a phase's runs when a phase is", async () => {
    const { phase, ids, viewers } = await phaseWithRuns();
    const start = await loadComparePage(viewers.anonymous, none);
    expect(start.kind).toBe("phases");
    expect(start.kind === "phases" && start.phases.map((p) => p.id)).toContain(phase.id);
    const runs = await loadComparePage(viewers.anonymous, { ...none, phase: phase.id });
    expect(runs).toMatchObject({ kind: "runs", error: null, phase: { phase: { id: phase.id } } });
    expect(runs.kind === "runs" && runs.phase.runs[0].id).toBe(ids.a2);
  });

  it("with one run, offers the runs it can be compared with; with the same run twice, says why", async () => {
    const { ids, viewers, phase } = await phaseWithRuns();
    const second = await loadComparePage(viewers.anonymous, { ...none, a: ids.a1 });
    expect(second).toMatchObject({ kind: "second", error: null, first: { id: ids.a1, systemName: "a-one", phase: { id: phase.id, name: "test" } } });
    expect(second.kind === "second" && second.comparable.map((r) => r.id)).not.toContain(ids.aPrivate);
    const same = await loadComparePage(viewers.anonymous, { ...none, a: ids.a1, b: ids.a1 });
    expect(same).toMatchObject({ kind: "second", error: "Choose two different runs to compare.", first: { id: ids.a1 } });
  });

  it("gives the phases with the reason when no run can be compared with the given one", async () => {
    const { ids, viewers } = await phaseWithRuns();
    const page = await loadComparePage(viewers.memberA, { ...none, a: ids.queued });
    expect(page.kind).toBe("phases");
    expect(page.kind === "phases" && page.error).toMatch(/^No other run can be compared with this one yet/);
  });

  it("is a 404 for a run or phase the viewer may not see", async () => {
    const { ids, viewers } = await phaseWithRuns({}, "DRAFT");
    expect(await rejection(loadComparePage(viewers.anonymous, { ...none, a: ids.a1 }))).toBeInstanceOf(NotFoundError);
    expect(await rejection(loadComparePage(viewers.outsider, { ...none, a: ids.a1, b: ids.a2 }))).toBeInstanceOf(NotFoundError);
    const open = await phaseWithRuns();
    expect(await rejection(loadComparePage(open.viewers.outsider, { ...none, a: open.ids.aPrivate }))).toBeInstanceOf(NotFoundError);
  });
});
