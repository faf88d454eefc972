/**
 * Board versions (`board-cache.ts`, migrations 0010 and 0016) against a real database: every
 * change a board shows moves its phase's version (the phase's and its task's settings too), a
 * heartbeat does not, two changes committed out of
 * order still move it, pruning keeps it moving; and a kept board is read again only for its version.
 */
import pg from "pg";
import { describe, expect, it, vi } from "vitest";

vi.mock("../queue");

import { useTestDatabase } from "../db/test-db";
import { BOARD_CHANGES_KEPT, boardVersion, pruneBoardChanges } from "./cache";
import { getLeaderboard } from "./leaderboard";
import { insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

async function phaseWithRun() {
  const db = testDb.prisma;
  const user = await makeUser(db, "Member");
  const { phase } = await makeTaskWithPhase(db, { organizerIds: [user.id] });
  const team = await makeTeam(db, "Cache team", [user.id]);
  const run = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: user.id, systemName: "first" });
  await insertScores(db, run.id, phase.id, { conll: 0.5 });
  return { db, user, phase, team, run };
}

/**
 * Two changes of the phase's board committed out of their numbers' order: on one connection a
 * run's change is numbered and left uncommitted, on another a later-numbered change commits;
 * `during` runs then, and commits the earlier one with `commitEarlier`.
 */
async function outOfOrderChanges(phaseId: string, runId: string, during: (commitEarlier: () => Promise<void>) => Promise<void>): Promise<void> {
  const a = new pg.Client({ connectionString: testDb.connectionString });
  const b = new pg.Client({ connectionString: testDb.connectionString });
  await a.connect();
  await b.connect();
  try {
    await a.query("BEGIN");
    await a.query("UPDATE submissions SET system_name = 'a' WHERE id = $1", [runId]);
    await b.query("INSERT INTO board_changes (phase_id) VALUES ($1)", [phaseId]);
    await during(async () => void (await a.query("COMMIT")));
  } finally {
    await a.end();
    await b.end();
  }
}

describe("board versions", () => {
  it("move with every change a board shows, not with a heartbeat", async () => {
    const { db, phase, team, run } = await phaseWithRun();
    const moves = async (what: string, change: () => Promise<unknown>, expected = true) => {
      const before = await boardVersion(db, phase.id);
      await change();
      expect(await boardVersion(db, phase.id) !== before, what).toBe(expected);
    };
    await moves("a run's status", () => db.submission.update({ where: { id: run.id }, data: { status: "SCORED", scoredAt: new Date() } }));
    await moves("hiding", () => db.submission.update({ where: { id: run.id }, data: { hiddenAt: new Date() } }));
    await moves("a withdrawal", () => db.submission.update({ where: { id: run.id }, data: { withdrawnAt: new Date() } }));
    await moves("a system name", () => db.submission.update({ where: { id: run.id }, data: { systemName: "renamed" } }));
    await moves("a team's name", () => db.team.update({ where: { id: team.id }, data: { name: "Cache team renamed" } }));
    await moves("a track", () => db.track.create({ data: { phaseId: phase.id, name: "open", position: 0 } }));
    await moves("a score row", () => db.score.updateMany({ where: { submissionId: run.id }, data: { f1: 0.6 } }));
    await moves("the phase's settings", () => db.phase.update({ where: { id: phase.id }, data: { leaderboardVisibility: "ORGANIZERS" } }));
    await moves("its task's settings", () => db.task.update({ where: { id: phase.taskId }, data: { primaryMetric: "muc" } }));
    await moves("a task update that changes nothing", () => db.$executeRaw`UPDATE tasks SET title = title WHERE id = ${phase.taskId}::uuid`, false);
    await moves("another phase of the task", () => db.phase.create({ data: { taskId: phase.taskId, name: "second", opensAt: new Date(), closesAt: new Date(Date.now() + 3600_000) } }), false);
    await moves("a heartbeat", () => db.submission.update({ where: { id: run.id }, data: { heartbeatAt: new Date() } }), false);
    const pruned = await pruneBoardChanges(db, 1);
    expect(pruned).toBeGreaterThan(0);
    await moves("nothing (pruned already)", () => pruneBoardChanges(db, 1), false);
    await moves("a new run", () => insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: run.submitterId }));
  });

  it("moves when a change numbered earlier commits after one numbered later", async () => {
    const { phase, run } = await phaseWithRun();
    await outOfOrderChanges(phase.id, run.id, async (commitEarlier) => {
      const between = await boardVersion(testDb.prisma, phase.id);
      await commitEarlier();
      expect(await boardVersion(testDb.prisma, phase.id)).not.toBe(between);
    });
  });

  it("moves for each phase of a changed task, and for a deleted phase", async () => {
    const { db, phase } = await phaseWithRun();
    const second = await db.phase.create({ data: { taskId: phase.taskId, name: "second", opensAt: new Date(), closesAt: new Date(Date.now() + 3600_000) } });
    const before = [await boardVersion(db, phase.id), await boardVersion(db, second.id)];
    await db.task.update({ where: { id: phase.taskId }, data: { status: "DRAFT" } });
    const after = [await boardVersion(db, phase.id), await boardVersion(db, second.id)];
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    await db.phase.delete({ where: { id: second.id } });
    expect(await boardVersion(db, second.id)).not.toBe(after[1]);
  });

  it("the next read of a board sees its phase's and its task's new settings (the phase is kept per version)", async () => {
    const { db, phase, run } = await phaseWithRun();
    await db.submission.update({ where: { id: run.id }, data: { status: "SCORED" } });
    expect((await getLeaderboard(phase.id, null, { limit: 50 })).rows).toHaveLength(1);
    expect((await getLeaderboard(phase.id, null, { limit: 50 })).metric).toBe("conll");
    await db.task.update({ where: { id: phase.taskId }, data: { primaryMetric: "muc" } });
    expect((await getLeaderboard(phase.id, null, { limit: 50 })).metric).toBe("muc");
    await db.phase.update({ where: { id: phase.id }, data: { leaderboardVisibility: "ORGANIZERS" } });
    await expect(getLeaderboard(phase.id, null, { limit: 50 })).rejects.toMatchObject({ httpStatus: 401 });
    await db.phase.update({ where: { id: phase.id }, data: { leaderboardVisibility: "PUBLIC" } });
    expect((await getLeaderboard(phase.id, null, { limit: 50 })).rows).toHaveLength(1);
    await db.task.update({ where: { id: phase.taskId }, data: { status: "DRAFT" } });
    await expect(getLeaderboard(phase.id, null, { limit: 50 })).rejects.toMatchObject({ httpStatus: 404 });
    await db.task.update({ where: { id: phase.taskId }, data: { status: "PUBLISHED" } });
    await db.phase.delete({ where: { id: phase.id } });
    await expect(getLeaderboard(phase.id, null, { limit: 50 })).rejects.toMatchObject({ httpStatus: 404 });
  });

  it("pruning replaces the rows of a phase with more than 64 by one, and leaves the others", async () => {
    const { db, phase } = await phaseWithRun();
    const quiet = (await phaseWithRun()).phase;
    const rows = async (id: string) => (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM board_changes WHERE phase_id = ${id}::uuid`)[0]!.n;
    await db.$executeRaw`INSERT INTO board_changes (phase_id) SELECT ${phase.id}::uuid FROM generate_series(1, ${BOARD_CHANGES_KEPT + 1})`;
    const [busy, calm] = [await rows(phase.id), await rows(quiet.id)];
    expect(calm).toBeLessThanOrEqual(BOARD_CHANGES_KEPT);
    const before = await boardVersion(db, phase.id);
    // Other phases' rows from earlier tests may be pruned too: count this phase's.
    expect(await pruneBoardChanges(db)).toBeGreaterThanOrEqual(busy - 1);
    expect([await rows(phase.id), await rows(quiet.id)]).toEqual([1, calm]);
    expect(await boardVersion(db, phase.id)).not.toBe(before);
  });

  it("never repeats when pruning runs between a change's numbering and its commit", async () => {
    const { db, phase, run } = await phaseWithRun();
    await pruneBoardChanges(db, 1); // one row left: the counts below are the scenario's
    await outOfOrderChanges(phase.id, run.id, async (commitEarlier) => {
      const seen = new Set([await boardVersion(db, phase.id)]);
      expect(await pruneBoardChanges(db, 1)).toBe(1);
      const pruned = await boardVersion(db, phase.id);
      expect(seen.has(pruned)).toBe(false);
      seen.add(pruned);
      await commitEarlier();
      // Keeping the latest row instead, the count would be back to one seen before the earlier change.
      expect(seen.has(await boardVersion(db, phase.id))).toBe(false);
    });
  });

  it("a board read again after a change shows the change (kept boards are per version)", async () => {
    const { db, phase, run } = await phaseWithRun();
    await db.submission.update({ where: { id: run.id }, data: { status: "SCORED" } });
    const first = await getLeaderboard(phase.id, null, { limit: 50 });
    expect(first.rows.map((r) => r.systemName)).toEqual(["first"]);
    expect((await getLeaderboard(phase.id, null, { limit: 50 })).rows).toEqual(first.rows);
    await db.submission.update({ where: { id: run.id }, data: { systemName: "second" } });
    expect((await getLeaderboard(phase.id, null, { limit: 50 })).rows.map((r) => r.systemName)).toEqual(["second"]);
    await db.team.update({ where: { id: first.rows[0].team.id }, data: { name: "Another name" } });
    expect((await getLeaderboard(phase.id, null, { limit: 50 })).rows[0].team.name).toBe("Another name");
  });
});
