/**
 * A board's JSON text, serialized once per board version (leaderboard-json-text.ts): exactly what
 * serializing the board's JSON gives, with each answer's own generation time, reused while the
 * board version holds and made again once it changes.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../db/test-db";
import { insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser } from "../tasks/test-fixtures";
import { getLeaderboard, leaderboardJson } from "./leaderboard";
import { leaderboardJsonText } from "./leaderboard-json-text";

const testDb = useTestDatabase();

/** The answer's bytes as text. */
const textOf = (answer: { bytes: Uint8Array }) => Buffer.from(answer.bytes).toString("utf8");

describe("leaderboardJsonText", () => {
  it("is the board's JSON with each answer's generatedAt, one text per board version, a new one when a run is scored", async () => {
    const db = testDb.prisma;
    const user = await makeUser(db, "U");
    const { phase } = await makeTaskWithPhase(db, {});
    const team = await makeTeam(db, "Alpha", [user.id]);
    const add = async (systemName: string, conll: number) => {
      const s = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: user.id, systemName });
      await insertScores(db, s.id, phase.id, { conll, muc: [1, 2, 1, 2] });
    };
    await add("first", 0.5);

    const one = await getLeaderboard(phase.id, null, { allRuns: true, now: new Date("2026-01-01T00:00:00Z") });
    const two = await getLeaderboard(phase.id, null, { allRuns: true, now: new Date("2026-01-02T00:00:00Z") });
    expect(two.rows).toBe(one.rows); // the same version: the rows are shared
    const [a, b] = [leaderboardJsonText(one), leaderboardJsonText(two)];
    expect(textOf(a)).toBe(JSON.stringify(leaderboardJson(one)));
    expect(textOf(b)).toBe(JSON.stringify(leaderboardJson(two)));
    expect(JSON.parse(textOf(b)).generatedAt).toBe("2026-01-02T00:00:00.000Z");
    expect(b.digest).toBe(a.digest);
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
    // Another view of the same rows (another metric) is another text.
    const muc = await getLeaderboard(phase.id, null, { allRuns: true, metric: "muc" });
    expect(textOf(leaderboardJsonText(muc))).toBe(JSON.stringify(leaderboardJson(muc)));

    await add("second", 0.7);
    const three = await getLeaderboard(phase.id, null, { allRuns: true });
    const c = leaderboardJsonText(three);
    expect(textOf(c)).toBe(JSON.stringify(leaderboardJson(three)));
    expect(c.digest).not.toBe(a.digest);
    expect((JSON.parse(textOf(c)) as { rows: { systemName: string }[] }).rows.map((r) => r.systemName)).toEqual(["second", "first"]);
  });
});
