/**
 * Loading the leaderboard page's board (`loadPageBoard`): anonymous readers of the same address
 * whose requests overlap share one load (lib/http/coalesced.ts), signed-in viewers never do, and
 * nothing is kept once a load is done. Called as the page calls it, with the request's cookies
 * from the next/headers double (`withCookies`), against the file's test database, with runs
 * written scored straight to it (as lib/boards/leaderboard.test.ts does).
 */
import { describe, expect, it } from "vitest";

// Vitest project: site-app (its test doubles: app/api/v1/test-doubles.setup.ts).

import { useTestDatabase } from "@/lib/db/test-db";
import { insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser } from "@/lib/tasks/test-fixtures";
import { sessionCookie, withCookies } from "@/app/api/v1/test-helpers";
import { loadPageBoard } from "./load-board";

const testDb = useTestDatabase();

/** The board a load gave (the test's phases are public: never denied). */
function boardOf(page: Awaited<ReturnType<typeof loadPageBoard>>) {
  if (page.loaded.kind !== "board") throw new Error(`denied: ${page.loaded.message}`);
  return page.loaded;
}

describe("loadPageBoard", () => {
  it("anonymous readers loading the same address at once share one load; a signed-in viewer gets a load of their own; a later load reads again", async () => {
    const db = testDb.prisma;
    const member = await makeUser(db, "Board member");
    const team = await makeTeam(db, `Board team ${member.id}`, [member.id]);
    const phaseId = (await makeTaskWithPhase(db)).phase.id;
    const scored = async (systemName: string, conll: number) => {
      const run = await insertSubmission(db, { phaseId, teamId: team.id, submitterId: member.id, systemName });
      await insertScores(db, run.id, phaseId, { conll, muc: [1, 2, 1, 2] });
    };
    await scored("First", 0.5);

    const [a, b] = await withCookies(null, () => Promise.all([loadPageBoard(phaseId, "rp=1"), loadPageBoard(phaseId, "rp=1")]));
    // Each load builds its own board object around the kept rows: the same object means one load.
    expect(boardOf(b).board).toBe(boardOf(a).board);
    expect(boardOf(b).significance).toBe(boardOf(a).significance);
    expect(boardOf(a).board.rows.map((r) => r.systemName)).toEqual(["First"]);
    // Another address is another load.
    const [c, d] = await withCookies(null, () => Promise.all([loadPageBoard(phaseId, "rp=1"), loadPageBoard(phaseId, "")]));
    expect(boardOf(d).board).not.toBe(boardOf(c).board);

    // The member's own view (own rows marked) is never shared, not even with another request of theirs.
    const cookie = await sessionCookie(db, member.id);
    const [e, f] = await withCookies(cookie, () => Promise.all([loadPageBoard(phaseId, "rp=1"), loadPageBoard(phaseId, "rp=1")]));
    expect(boardOf(f).board).not.toBe(boardOf(e).board);
    expect(boardOf(e).board.rows.map((r) => r.own)).toEqual([true]);

    // Nothing is kept: a run scored after the load is on the next anonymous one.
    await scored("Second", 0.9);
    const later = await withCookies(null, () => loadPageBoard(phaseId, "rp=1"));
    expect(boardOf(later).board).not.toBe(boardOf(a).board);
    expect(boardOf(later).board.rows.map((r) => r.systemName)).toEqual(["Second"]);
  });
});
