/**
 * The leaderboard policy per phase (issue 11 §2) and the participant's final selection and
 * standing (§4), against a real database: a board hidden until the phase closes (page data,
 * JSON, CSV, significance, progress, comparable runs), the freeze, hidden runs, TEAM_SELECTED
 * (the chosen run counts, the latest-run fallback, the limit, the closing time, who may choose,
 * the audit rows), the organizers' `final` board, the task standing and a run's rank.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { ConflictError, ForbiddenError, NotFoundError, PhaseClosedError, UnauthorizedError } from "../errors";
import { setFinalSelection, listFinalSelection, runFinalState } from "../runs/final-selection";
import { getLeaderboard, leaderboardJson } from "./leaderboard";
import { leaderboardCsv } from "./leaderboard-csv";
import { getTeamProgress } from "../runs/progress";
import { disqualifySubmission, withdrawSubmission } from "../runs/controls";
import { boardSignificance, listComparableRuns } from "./significance";
import { getRunRank, getTaskStanding, runRankSentence } from "../runs/standing";
import { csvCells, insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser, rejection } from "../tasks/test-fixtures";

const testDb = useTestDatabase();
const MINUTE = 60_000;

/** The CSV's data rows as maps column → cell. */
function csvRows(csv: string): Map<string, string>[] {
  const [header, ...lines] = csv.trim().split("\r\n").map(csvCells);
  return lines.map((cells) => new Map(header.map((c, i) => [c, cells[i]])));
}

/** Submission ids of a board's rows, in board order. */
const ids = (board: { rows: { submissionId: string }[] }) => board.rows.map((r) => r.submissionId);

/**
 * A task (organizer with a baselines team), an open phase with the given policy fields, team
 * Alpha (member, teammate), team Beta (rival), a signed-in user without a team (reader), and
 * runs: Alpha 0.8 and 0.6, Beta 0.7, a baseline 0.5, each made `minute` minutes after `t0`
 * (an hour before now).
 */
async function world(policy: { leaderboardTiming?: string; frozenAt?: Date | null; selectionRule?: "BEST" | "LATEST" | "TEAM_SELECTED"; finalRunLimit?: number } = {}) {
  const db = testDb.prisma;
  const organizer = await makeUser(db, "Organizer");
  const member = await makeUser(db, "Member");
  const teammate = await makeUser(db, "Teammate");
  const rival = await makeUser(db, "Rival");
  const reader = await makeUser(db, "Reader");
  const { task, phase: created } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], phase: { dailyLimit: 5, totalLimit: 20 } });
  const phase = await db.phase.update({ where: { id: created.id }, data: policy });
  const alpha = await makeTeam(db, "Alpha", [member.id, teammate.id]);
  const beta = await makeTeam(db, "Beta", [rival.id]);
  const orgTeam = await makeTeam(db, "Organizers", [organizer.id]);
  const t0 = Date.now() - 3600_000;
  const run = async (teamId: string, submitterId: string, conll: number | null, minute: number, fields: { isBaseline?: boolean; status?: "QUEUED" | "FAILED" } = {}) => {
    const s = await insertSubmission(db, {
      phaseId: phase.id,
      teamId,
      submitterId,
      systemName: `run-${minute}`,
      createdAt: new Date(t0 + minute * MINUTE),
      isBaseline: fields.isBaseline,
      status: fields.status,
    });
    if (conll !== null) await insertScores(db, s.id, phase.id, { conll });
    return s.id;
  };
  const runs = {
    alphaHigh: await run(alpha.id, member.id, 0.8, 1),
    beta: await run(beta.id, rival.id, 0.7, 2),
    alphaLow: await run(alpha.id, member.id, 0.6, 3),
    baseline: await run(orgTeam.id, organizer.id, 0.5, 4, { isBaseline: true }),
  };
  for (const [userId, teamId] of [
    [member.id, alpha.id],
    [teammate.id, alpha.id],
    [rival.id, beta.id],
  ]) {
    await db.taskParticipant.create({ data: { taskId: task.id, userId, teamId } });
  }
  return { db, task, phase, organizer, member, teammate, rival, reader, alpha, beta, orgTeam, runs, run, t0 };
}

describe("a board hidden until the phase closes (after_close)", () => {
  it("before the close: each team sees only its own runs and the baselines, unranked and marked own; anonymous viewers see nothing; organizers everything", async () => {
    const w = await world({ leaderboardTiming: "after_close" });

    const alphaBoard = await getLeaderboard(w.phase.id, w.member.viewer);
    expect(alphaBoard.policy).toMatchObject({ timing: "after_close", ownTeamOnly: true, organizerView: false, final: false });
    expect(ids(alphaBoard)).toEqual([w.runs.alphaHigh, w.runs.baseline]);
    expect(alphaBoard.rows.map((r) => [r.rank, r.own])).toEqual([
      [null, true],
      [null, false],
    ]);
    const betaBoard = await getLeaderboard(w.phase.id, w.rival.viewer, { allRuns: true });
    expect(ids(betaBoard)).toEqual([w.runs.beta, w.runs.baseline]);
    expect(betaBoard.rows.some((r) => r.team.id === w.alpha.id)).toBe(false);
    expect(ids(await getLeaderboard(w.phase.id, w.reader.viewer))).toEqual([w.runs.baseline]);
    expect((await getLeaderboard(w.phase.id, null)).rows).toEqual([]);

    const organizerBoard = await getLeaderboard(w.phase.id, w.organizer.viewer);
    expect(organizerBoard.policy).toMatchObject({ ownTeamOnly: false, organizerView: true });
    expect(organizerBoard.rows.map((r) => [r.submissionId, r.rank])).toEqual([
      [w.runs.alphaHigh, 1],
      [w.runs.beta, 2],
      [w.runs.baseline, null],
    ]);

    // JSON and CSV carry the same rows; no significance markers on a hidden board.
    const json = leaderboardJson(alphaBoard, await boardSignificance(alphaBoard));
    expect((json.rows as { submissionId: string; own: boolean; significance: unknown }[]).map((r) => [r.submissionId, r.own, r.significance])).toEqual([
      [w.runs.alphaHigh, true, null],
      [w.runs.baseline, false, null],
    ]);
    expect((json.policy as { ownTeamOnly: boolean }).ownTeamOnly).toBe(true);
    const csv = csvRows(leaderboardCsv(betaBoard));
    expect(csv.map((r) => [r.get("submission_id"), r.get("rank")])).toEqual([
      [w.runs.beta, ""],
      [w.runs.baseline, ""],
    ]);
    expect(leaderboardCsv(await getLeaderboard(w.phase.id, null)).trim().split("\r\n")).toHaveLength(1);
  });

  it("after the close the board is as live for everyone", async () => {
    const w = await world({ leaderboardTiming: "after_close" });
    const after = new Date(w.phase.closesAt.getTime() + 1000);
    for (const viewer of [null, w.reader.viewer, w.rival.viewer, w.member.viewer]) {
      const board = await getLeaderboard(w.phase.id, viewer, { now: after });
      expect(board.policy.ownTeamOnly).toBe(false);
      expect(board.rows.map((r) => [r.submissionId, r.rank])).toEqual([
        [w.runs.alphaHigh, 1],
        [w.runs.beta, 2],
        [w.runs.baseline, null],
      ]);
    }
    const csv = csvRows(leaderboardCsv(await getLeaderboard(w.phase.id, null, { now: after })));
    expect(csv.map((r) => r.get("rank"))).toEqual(["1", "2", ""]);
  });

  it("the team progress page and the comparable runs follow it: another team's progress is a 404 until the close", async () => {
    const w = await world({ leaderboardTiming: "after_close" });
    const after = new Date(w.phase.closesAt.getTime() + 1000);
    expect(await rejection(getTeamProgress(w.rival.viewer, w.phase.id, w.alpha.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(getTeamProgress(null, w.phase.id, w.alpha.id))).toBeInstanceOf(NotFoundError);
    expect((await getTeamProgress(w.member.viewer, w.phase.id, w.alpha.id)).points.map((p) => p.id)).toEqual([w.runs.alphaHigh, w.runs.alphaLow]);
    expect((await getTeamProgress(w.organizer.viewer, w.phase.id, w.alpha.id)).points).toHaveLength(2);
    expect((await getTeamProgress(w.rival.viewer, w.phase.id, w.alpha.id, after)).points).toHaveLength(2);

    const comparable = (await listComparableRuns(w.rival.viewer, w.runs.beta)).map((r) => r.id);
    expect(comparable).toEqual([]);
    const later = (await listComparableRuns(w.rival.viewer, w.runs.beta, after)).map((r) => r.id).sort();
    expect(later).toEqual([w.runs.alphaHigh, w.runs.alphaLow, w.runs.baseline].sort());
  });
});

describe("a frozen board", () => {
  it("runs made at or after the freeze are on no one's board but the organizers', who see them ranked and marked", async () => {
    const w = await world();
    const frozenAt = new Date(w.t0 + 10 * MINUTE);
    await w.db.phase.update({ where: { id: w.phase.id }, data: { leaderboardTiming: "frozen", frozenAt } });
    const lateAlpha = await w.run(w.alpha.id, w.member.id, 0.95, 10);
    const lateBeta = await w.run(w.beta.id, w.rival.id, 0.9, 11);

    for (const viewer of [null, w.member.viewer, w.rival.viewer]) {
      const board = await getLeaderboard(w.phase.id, viewer, { allRuns: true });
      expect(board.policy).toMatchObject({ timing: "frozen", freezeApplied: true });
      expect(ids(board)).not.toContain(lateAlpha);
      expect(ids(board)).not.toContain(lateBeta);
      expect(board.rows.filter((r) => !r.isBaseline).map((r) => r.rank)).toEqual([1, 2, 3]);
    }
    const organizer = await getLeaderboard(w.phase.id, w.organizer.viewer);
    expect(organizer.rows.map((r) => [r.submissionId, r.rank, r.afterFreeze])).toEqual([
      [lateAlpha, 1, true],
      [lateBeta, 2, true],
      [w.runs.baseline, null, false],
    ]);
    const json = leaderboardJson(organizer);
    expect((json.rows as { afterFreeze: boolean; hidden: boolean }[]).map((r) => [r.afterFreeze, r.hidden])).toEqual([
      [true, false],
      [true, false],
      [false, false],
    ]);
    expect(csvRows(leaderboardCsv(organizer)).map((r) => r.get("after_freeze"))).toEqual(["true", "true", "false"]);
    // Others' JSON and CSV have no organizer markers.
    const public_ = await getLeaderboard(w.phase.id, null);
    expect(Object.keys((leaderboardJson(public_).rows as Record<string, unknown>[])[0])).not.toContain("afterFreeze");
    expect(csvRows(leaderboardCsv(public_))[0].has("after_freeze")).toBe(false);

    // Progress: the team's later run is not a point for the team either; organizers see it marked.
    expect((await getTeamProgress(w.member.viewer, w.phase.id, w.alpha.id)).points.map((p) => p.id)).not.toContain(lateAlpha);
    const orgProgress = await getTeamProgress(w.organizer.viewer, w.phase.id, w.alpha.id);
    expect(orgProgress.points.find((p) => p.id === lateAlpha)?.afterFreeze).toBe(true);
    // Comparable runs: the later runs of others are not offered.
    expect((await listComparableRuns(w.member.viewer, w.runs.alphaHigh)).map((r) => r.id)).not.toContain(lateBeta);
  });
});

describe("hidden runs", () => {
  it("are on no board of a non-organizer (the team's next run counts); organizers see them unranked, marked hidden", async () => {
    const w = await world();
    await w.db.submission.update({ where: { id: w.runs.alphaHigh }, data: { hiddenAt: new Date(), hiddenById: w.organizer.id } });
    for (const viewer of [null, w.member.viewer, w.rival.viewer]) {
      const board = await getLeaderboard(w.phase.id, viewer);
      expect(board.rows.map((r) => [r.submissionId, r.rank])).toEqual([
        [w.runs.beta, 1],
        [w.runs.alphaLow, 2],
        [w.runs.baseline, null],
      ]);
      expect(ids(await getLeaderboard(w.phase.id, viewer, { allRuns: true }))).not.toContain(w.runs.alphaHigh);
    }
    const organizer = await getLeaderboard(w.phase.id, w.organizer.viewer);
    expect(organizer.rows.map((r) => [r.submissionId, r.rank, r.hidden])).toEqual([
      [w.runs.alphaHigh, null, true],
      [w.runs.beta, 1, false],
      [w.runs.alphaLow, 2, false],
      [w.runs.baseline, null, false],
    ]);
    expect(csvRows(leaderboardCsv(organizer)).map((r) => r.get("hidden"))).toEqual(["true", "false", "false", "false"]);
    expect((await getTeamProgress(w.member.viewer, w.phase.id, w.alpha.id)).points.map((p) => p.id)).toEqual([w.runs.alphaLow]);
    expect((await getTeamProgress(w.organizer.viewer, w.phase.id, w.alpha.id)).points.map((p) => [p.id, p.hidden])).toEqual([
      [w.runs.alphaHigh, true],
      [w.runs.alphaLow, false],
    ]);
  });
});

describe("TEAM_SELECTED", () => {
  it("the best of a team's final runs counts; a team that chose none is represented by its latest run, flagged", async () => {
    const w = await world({ selectionRule: "TEAM_SELECTED", finalRunLimit: 2 });
    // Alpha marks its weaker run only.
    const change = await setFinalSelection(w.member.viewer, w.runs.alphaLow, true);
    expect(change).toMatchObject({ submissionId: w.runs.alphaLow, changed: true, selection: { count: 1, limit: 2, open: true } });
    const betaLate = await w.run(w.beta.id, w.rival.id, 0.3, 20);

    const board = await getLeaderboard(w.phase.id, null);
    expect(board.rows.map((r) => [r.submissionId, r.rank, r.selection])).toEqual([
      [w.runs.alphaLow, 1, "final"],
      [w.runs.baseline, null, null],
      [betaLate, 2, "latest-fallback"],
    ]);
    expect(csvRows(leaderboardCsv(board)).map((r) => r.get("selection"))).toEqual(["final", "", "latest-fallback"]);
    expect((leaderboardJson(board).rows as { selection: string | null }[]).map((r) => r.selection)).toEqual(["final", null, "latest-fallback"]);
    // Marking the stronger run too: the best of the two counts.
    await setFinalSelection(w.teammate.viewer, w.runs.alphaHigh, true);
    expect((await getLeaderboard(w.phase.id, null)).rows[0]).toMatchObject({ submissionId: w.runs.alphaHigh, rank: 1, selection: "final" });
    // allRuns lists every run.
    expect((await getLeaderboard(w.phase.id, null, { allRuns: true })).rows).toHaveLength(5);
    // A disqualified final run never counts: the team's other final run does.
    await disqualifySubmission(w.organizer.viewer, w.runs.alphaHigh, "Trained on the test set.");
    const after = await getLeaderboard(w.phase.id, null);
    expect(after.rows.filter((r) => r.rank !== null).map((r) => [r.submissionId, r.selection])).toEqual([
      [w.runs.alphaLow, "final"],
      [betaLate, "latest-fallback"],
    ]);
  });

  it("enforces the limit with a 409 naming it and the chosen runs; marking is idempotent; unmarking frees the place; both are audited", async () => {
    const w = await world({ selectionRule: "TEAM_SELECTED", finalRunLimit: 1 });
    await setFinalSelection(w.member.viewer, w.runs.alphaHigh, true);
    const again = await setFinalSelection(w.member.viewer, w.runs.alphaHigh, true);
    expect(again.changed).toBe(false);
    const over = await rejection(setFinalSelection(w.member.viewer, w.runs.alphaLow, true));
    expect(over).toBeInstanceOf(ConflictError);
    expect(over.httpStatus).toBe(409);
    expect(over.message).toContain("at most 1 final run");
    expect(over.message).toContain('"run-1"');
    expect(over.details).toMatchObject({ limit: 1, selected: [{ id: w.runs.alphaHigh, systemName: "run-1" }] });
    expect((await w.db.submission.findUniqueOrThrow({ where: { id: w.runs.alphaLow } })).finalSelectedAt).toBeNull();

    expect((await setFinalSelection(w.member.viewer, w.runs.alphaHigh, false)).changed).toBe(true);
    expect((await setFinalSelection(w.member.viewer, w.runs.alphaHigh, false)).changed).toBe(false);
    expect((await setFinalSelection(w.member.viewer, w.runs.alphaLow, true)).selection.runs.map((r) => r.id)).toEqual([w.runs.alphaLow]);

    const events = await w.db.auditEvent.findMany({ where: { targetType: "submission", targetId: { in: [w.runs.alphaHigh, w.runs.alphaLow] } }, orderBy: { at: "asc" } });
    expect(events.map((e) => [e.action, e.targetId, e.actorId])).toEqual([
      ["submission.final_select", w.runs.alphaHigh, w.member.id],
      ["submission.final_unselect", w.runs.alphaHigh, w.member.id],
      ["submission.final_select", w.runs.alphaLow, w.member.id],
    ]);
    expect(events[0].data).toMatchObject({ phaseId: w.phase.id, teamId: w.alpha.id });
    // The team's list.
    expect((await listFinalSelection(w.teammate.viewer, w.phase.id, w.alpha.id)).runs.map((r) => r.id)).toEqual([w.runs.alphaLow]);
    expect(await rejection(listFinalSelection(w.rival.viewer, w.phase.id, w.alpha.id))).toBeInstanceOf(NotFoundError);
  });

  it("refuses after the close, other teams, organizers outside the team, anonymous callers, and ineligible runs or phases", async () => {
    const w = await world({ selectionRule: "TEAM_SELECTED", finalRunLimit: 3 });
    const after = new Date(w.phase.closesAt.getTime() + 1000);
    const closed = await rejection(setFinalSelection(w.member.viewer, w.runs.alphaHigh, true, after));
    expect(closed).toBeInstanceOf(PhaseClosedError);
    expect(closed.httpStatus).toBe(409);
    expect(await rejection(setFinalSelection(w.rival.viewer, w.runs.alphaHigh, true))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(setFinalSelection(w.organizer.viewer, w.runs.alphaHigh, true))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(setFinalSelection(null, w.runs.alphaHigh, true))).toBeInstanceOf(UnauthorizedError);
    expect(await rejection(setFinalSelection(w.organizer.viewer, w.runs.baseline, true))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(setFinalSelection(w.member.viewer, "not-a-uuid", true))).toBeInstanceOf(NotFoundError);

    const failed = await w.run(w.alpha.id, w.member.id, null, 30, { status: "FAILED" });
    expect(await rejection(setFinalSelection(w.member.viewer, failed, true))).toBeInstanceOf(ConflictError);
    await withdrawSubmission(w.member.viewer, w.runs.alphaLow);
    expect(await rejection(setFinalSelection(w.member.viewer, w.runs.alphaLow, true))).toBeInstanceOf(ConflictError);
    await disqualifySubmission(w.organizer.viewer, w.runs.beta, "Late.");
    expect(await rejection(setFinalSelection(w.rival.viewer, w.runs.beta, true))).toBeInstanceOf(ConflictError);
    // A queued run may be chosen.
    const queued = await w.run(w.alpha.id, w.member.id, null, 31, { status: "QUEUED" });
    expect((await setFinalSelection(w.member.viewer, queued, true)).changed).toBe(true);

    const best = await world({ selectionRule: "BEST" });
    const wrongRule = await rejection(setFinalSelection(best.member.viewer, best.runs.alphaHigh, true));
    expect(wrongRule).toBeInstanceOf(ConflictError);
    expect(wrongRule.message).toContain("best run");
    expect(await w.db.auditEvent.count({ where: { action: "submission.final_select", targetId: { in: [w.runs.alphaHigh, w.runs.alphaLow, w.runs.beta, failed] } } })).toBe(0);
  });

  it("the run page's state: k of N chosen, what the team may do, nothing for others", async () => {
    const w = await world({ selectionRule: "TEAM_SELECTED", finalRunLimit: 1 });
    expect(await runFinalState(w.member.viewer, w.runs.alphaHigh)).toMatchObject({ selected: false, count: 0, limit: 1, canSelect: true, canUnselect: false, reason: null });
    await setFinalSelection(w.member.viewer, w.runs.alphaHigh, true);
    expect(await runFinalState(w.member.viewer, w.runs.alphaHigh)).toMatchObject({ selected: true, count: 1, canSelect: false, canUnselect: true });
    const other = await runFinalState(w.member.viewer, w.runs.alphaLow);
    expect(other).toMatchObject({ selected: false, count: 1, canSelect: false });
    expect(other?.reason).toContain("1 of 1");
    expect(await runFinalState(w.rival.viewer, w.runs.alphaHigh)).toBeNull();
    expect(await runFinalState(null, w.runs.alphaHigh)).toBeNull();
    expect(await runFinalState(w.organizer.viewer, w.runs.alphaHigh)).toBeNull();
  });
});

describe("the final board (getLeaderboard's `final` option)", () => {
  it("organizers only; timing lifted, hidden and withdrawn runs out, disqualified struck, no markers or own flags", async () => {
    const w = await world({ leaderboardTiming: "after_close" });
    const hidden = await w.run(w.beta.id, w.rival.id, 0.99, 5);
    await w.db.submission.update({ where: { id: hidden }, data: { hiddenAt: new Date() } });
    await withdrawSubmission(w.member.viewer, w.runs.alphaLow);
    await disqualifySubmission(w.organizer.viewer, w.runs.beta, "Used the test keys.");

    const board = await getLeaderboard(w.phase.id, w.organizer.viewer, { final: true, allRuns: true });
    expect(board.policy).toMatchObject({ final: true, organizerView: false, ownTeamOnly: false });
    expect(board.rows.map((r) => [r.submissionId, r.rank, r.disqualified?.reason ?? null, r.own, r.hidden, r.afterFreeze])).toEqual([
      [w.runs.alphaHigh, 1, null, false, false, false],
      [w.runs.beta, null, "Used the test keys.", false, false, false],
      [w.runs.baseline, null, null, false, false, false],
    ]);
    const json = leaderboardJson(board);
    for (const key of ["own", "hidden", "afterFreeze"]) expect(Object.keys((json.rows as Record<string, unknown>[])[0])).not.toContain(key);
    expect(csvRows(leaderboardCsv(board))[0].has("hidden")).toBe(false);

    for (const viewer of [null, w.member.viewer, w.reader.viewer]) {
      expect(await rejection(getLeaderboard(w.phase.id, viewer, { final: true }))).toBeInstanceOf(ForbiddenError);
    }
  });

  it("a frozen phase's final board ranks the runs made after the freeze too", async () => {
    const w = await world();
    await w.db.phase.update({ where: { id: w.phase.id }, data: { leaderboardTiming: "frozen", frozenAt: new Date(w.t0 + 10 * MINUTE) } });
    const late = await w.run(w.beta.id, w.rival.id, 0.9, 12);
    const board = await getLeaderboard(w.phase.id, w.organizer.viewer, { final: true });
    expect(board.rows.map((r) => [r.submissionId, r.rank, r.afterFreeze])).toEqual([
      [late, 1, false],
      [w.runs.alphaHigh, 2, false],
      [w.runs.baseline, null, false],
    ]);
  });
});

describe("drafts", () => {
  it("a draft task's board is a 404 for everyone but its organizers", async () => {
    const db = testDb.prisma;
    const organizer = await makeUser(db, "Organizer");
    const reader = await makeUser(db, "Reader");
    const { phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id], status: "DRAFT" });
    expect(await rejection(getLeaderboard(phase.id, null))).toBeInstanceOf(NotFoundError);
    expect(await rejection(getLeaderboard(phase.id, reader.viewer))).toBeInstanceOf(NotFoundError);
    expect((await getLeaderboard(phase.id, organizer.viewer)).rows).toEqual([]);
  });
});

describe("your standing", () => {
  it("getTaskStanding: the team's best score, runs left today and in total, time left; null without a team", async () => {
    const w = await world();
    const now = new Date();
    const standing = await getTaskStanding(w.member.viewer, w.task.id, now);
    expect(standing?.team).toEqual({ id: w.alpha.id, name: w.alpha.name });
    expect(standing?.metric).toBe("conll");
    expect(standing?.phases).toHaveLength(1);
    const p = standing!.phases[0];
    expect(p.state).toBe("open");
    expect(p.timeLeftMs).toBe(w.phase.closesAt.getTime() - now.getTime());
    expect(p.best).toEqual({ value: 0.8, submissionId: w.runs.alphaHigh, systemName: "run-1" });
    // Two runs of Alpha in the phase, made at t0 + 1 and t0 + 3 minutes (an hour ago): today's
    // are those made since 00:00 UTC (none, one or both when the test runs near 01:00 UTC).
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const today = [1, 3].filter((minute) => w.t0 + minute * MINUTE >= midnight).length;
    expect([p.quota.usedTotal, p.quota.remainingTotal, p.quota.usedToday, p.quota.remainingToday]).toEqual([2, 18, today, 5 - today]);

    // A withdrawn or disqualified run is not the best score.
    await disqualifySubmission(w.organizer.viewer, w.runs.alphaHigh, "No.");
    expect((await getTaskStanding(w.teammate.viewer, w.task.id, now))?.phases[0].best?.submissionId).toBe(w.runs.alphaLow);

    expect(await getTaskStanding(null, w.task.id)).toBeNull();
    expect(await getTaskStanding(w.reader.viewer, w.task.id)).toBeNull();
    expect(await getTaskStanding(w.organizer.viewer, w.task.id)).toBeNull();
    const closed = await getTaskStanding(w.rival.viewer, w.task.id, new Date(w.phase.closesAt.getTime() + 1))!;
    expect(closed?.phases[0]).toMatchObject({ state: "closed", timeLeftMs: 0, best: { value: 0.7 } });
  });

  it("getRunRank: the rank on the default board, the counted run for another run of the team, and why a run has none", async () => {
    const w = await world();
    const ranked = await getRunRank(null, w.runs.beta);
    expect(ranked).toEqual({ kind: "ranked", rank: 2, of: 2, metric: "conll", track: null });
    expect(runRankSentence(ranked)).toBe("Rank 2 of 2 by CoNLL F1.");

    const notCounted = await getRunRank(w.member.viewer, w.runs.alphaLow);
    expect(notCounted).toMatchObject({ kind: "not-counted", rule: "BEST", counted: { submissionId: w.runs.alphaHigh, systemName: "run-1", rank: 1 } });
    expect(runRankSentence(notCounted)).toBe('Not ranked: this is not the run that counts for its team. The team is represented by its best run, "run-1" (rank 1 by CoNLL F1).');

    expect(await getRunRank(null, w.runs.baseline)).toMatchObject({ kind: "unranked", reason: "baseline" });
    const queued = await w.run(w.alpha.id, w.member.id, null, 40, { status: "QUEUED" });
    expect(await getRunRank(w.member.viewer, queued)).toMatchObject({ kind: "unranked", reason: "not-scored" });
    await w.db.submission.update({ where: { id: w.runs.beta }, data: { hiddenAt: new Date() } });
    expect(await getRunRank(w.rival.viewer, w.runs.beta)).toMatchObject({ kind: "unranked", reason: "hidden" });
    expect(await rejection(getRunRank(null, w.runs.beta))).toBeInstanceOf(NotFoundError);
  });

  it("getRunRank on a board hidden until the close, and after a freeze", async () => {
    const w = await world({ leaderboardTiming: "after_close" });
    const hidden = await getRunRank(w.member.viewer, w.runs.alphaHigh);
    expect(hidden).toMatchObject({ kind: "unranked", reason: "hidden-until-close" });
    expect(runRankSentence(hidden)).toMatch(/^Ranks appear when the phase closes on /);
    expect(await getRunRank(w.organizer.viewer, w.runs.alphaHigh)).toMatchObject({ kind: "ranked", rank: 1, of: 2 });
    expect(await getRunRank(w.member.viewer, w.runs.alphaHigh, new Date(w.phase.closesAt.getTime() + 1000))).toMatchObject({ kind: "ranked", rank: 1 });

    const f = await world();
    await f.db.phase.update({ where: { id: f.phase.id }, data: { leaderboardTiming: "frozen", frozenAt: new Date(f.t0 + 10 * MINUTE) } });
    const late = await f.run(f.alpha.id, f.member.id, 0.99, 11);
    expect(await getRunRank(f.member.viewer, late)).toMatchObject({ kind: "unranked", reason: "after-freeze" });
    expect(await getRunRank(f.organizer.viewer, late)).toMatchObject({ kind: "ranked", rank: 1 });
  });

  it("getRunRank under TEAM_SELECTED names the chosen run", async () => {
    const w = await world({ selectionRule: "TEAM_SELECTED", finalRunLimit: 1 });
    await setFinalSelection(w.member.viewer, w.runs.alphaLow, true);
    expect(await getRunRank(w.member.viewer, w.runs.alphaLow)).toMatchObject({ kind: "ranked", rank: 2, of: 2 });
    const other = await getRunRank(w.member.viewer, w.runs.alphaHigh);
    expect(other).toMatchObject({ kind: "not-counted", rule: "TEAM_SELECTED", counted: { submissionId: w.runs.alphaLow, rank: 2 } });
    expect(runRankSentence(other)).toContain("final runs");
  });
});
