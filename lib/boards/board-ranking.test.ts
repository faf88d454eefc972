/**
 * The SQL ranking (`board-ranking.ts`) against its specification, `rankRuns` (`ranking.ts`)
 * with the leaderboard's runs set apart, on random boards in a real database: every selection
 * rule, one run per team and all runs, the organizers' board and the others', ties, runs
 * without a value, disqualified, hidden and final-selected runs, baselines, equal submission
 * times; and the paging (cursor, team filter) against slices of the whole board.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("../queue");

import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { useTestDatabase } from "../db/test-db";
import { ValidationError } from "../errors";
import { rankBoard, type BoardRankingQuery } from "./board-ranking";
import { getLeaderboard } from "./leaderboard";
import { rankRuns, type Run, type SelectionRuleName } from "./ranking";
import { insertScores, insertSubmission, makeTaskWithPhase, makeTeam, makeUser } from "../tasks/test-fixtures";

const testDb = useTestDatabase();

/** A run as the specification sees it, plus what sets it apart on a board. */
type SpecRun = Run & { disqualified: boolean; hidden: boolean; teamName: string };

/**
 * The specification of a board: `rankRuns` over the runs not set apart; a run set apart is
 * listed, unranked, where `rankRuns` over all runs lists it (as `leaderboard.ts` did in JS).
 */
function specBoard(runs: readonly SpecRun[], rule: SelectionRuleName, allRuns: boolean, organizerView: boolean) {
  const onBoard = runs.filter((r) => organizerView || !r.hidden);
  const apart = (r: SpecRun) => r.disqualified || (organizerView && r.hidden);
  const ranked = rankRuns(onBoard.filter((r) => !apart(r)), "conll", rule, allRuns);
  const struck = rankRuns(onBoard, "conll", rule, allRuns)
    .filter(apart)
    .map((r) => ({ ...r, rank: null }));
  return [...ranked, ...struck]
    .sort((a, b) => {
      if (a.value !== b.value) return a.value === null ? 1 : b.value === null ? -1 : b.value - a.value;
      return a.submittedAt.getTime() - b.submittedAt.getTime() || (a.submissionId < b.submissionId ? -1 : 1);
    })
    .map((r) => ({ submissionId: r.submissionId, value: r.value, rank: r.rank, selection: r.selection }));
}

/** A random board: 6 teams, 0–5 runs each, values from a small set (ties), some without a value. */
async function randomBoard(seed: number) {
  const db = testDb.prisma;
  const rng = xoroshiro128plus(seed);
  const pick = (n: number) => uniformInt(rng, 0, n - 1);
  const organizer = await makeUser(db, `Organizer ${seed}`);
  const { phase } = await makeTaskWithPhase(db, { organizerIds: [organizer.id] });
  const t0 = Date.now() - 86_400_000;
  const runs: SpecRun[] = [];
  for (let t = 0; t < 6; t++) {
    const team = await makeTeam(db, `Team ${t} s${seed}`, [organizer.id]);
    const n = pick(6);
    for (let i = 0; i < n; i++) {
      const valueChoice = pick(6);
      const value = valueChoice === 0 ? null : [0.5, 0.6, 0.6, 0.7, 0.8][valueChoice - 1];
      // Few distinct times: equal submission times happen.
      const submittedAt = new Date(t0 + pick(5) * 60_000);
      const isBaseline = pick(10) === 0;
      const disqualified = pick(6) === 0;
      const hidden = pick(7) === 0;
      const finalSelected = pick(3) === 0;
      const s = await insertSubmission(db, { phaseId: phase.id, teamId: team.id, submitterId: organizer.id, systemName: `r${t}-${i}`, createdAt: submittedAt, isBaseline });
      await db.submission.update({
        where: { id: s.id },
        data: {
          ...(disqualified ? { disqualifiedAt: new Date(), disqualifiedReason: "rules" } : {}),
          ...(hidden ? { hiddenAt: new Date() } : {}),
          ...(finalSelected ? { finalSelectedAt: new Date() } : {}),
        },
      });
      if (value !== null) await insertScores(db, s.id, phase.id, { conll: value });
      runs.push({ submissionId: s.id, teamId: team.id, teamName: team.name, submittedAt, isBaseline, scores: value === null ? {} : { conll: { f1: value } }, finalSelected, disqualified, hidden });
    }
  }
  return { db, phase, runs };
}

function query(phaseId: string, rule: SelectionRuleName, allRuns: boolean, organizerView: boolean, page: BoardRankingQuery["page"] = { limit: null, cursor: null, team: null }): BoardRankingQuery {
  return { phaseId, setting: "", metric: "conll", datasetId: null, rule, allRuns, filters: { organizerView, madeBefore: null, trackId: null, onlyTeams: null }, page };
}

describe("rankBoard: the board's selection and ranking in SQL", () => {
  it("equals the specification (rankRuns with runs set apart) on 12 random boards, every rule, one run per team and all, organizers' board or not", async () => {
    let boards = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const { db, phase, runs } = await randomBoard(seed);
      for (const rule of ["BEST", "LATEST", "TEAM_SELECTED"] as const) {
        for (const allRuns of [false, true]) {
          for (const organizerView of [false, true]) {
            const got = await rankBoard(db, query(phase.id, rule, allRuns, organizerView));
            const expected = specBoard(runs, rule, allRuns, organizerView);
            expect(got.rows, `seed ${seed} ${rule} allRuns=${allRuns} organizers=${organizerView}`).toEqual(expected);
            expect(got.total).toBe(expected.length);
            boards++;
          }
        }
      }
    }
    expect(boards).toBe(144);
  });

  it("pages: the pages of any size, followed by their cursors, are the whole board in order; the team filter keeps the board's ranks", async () => {
    const { db, phase, runs } = await randomBoard(99);
    for (const rule of ["BEST", "TEAM_SELECTED"] as const) {
      const whole = await rankBoard(db, query(phase.id, rule, true, false));
      expect(whole.rows.length).toBeGreaterThan(6);
      for (const limit of [1, 3, 7]) {
        const seen: typeof whole.rows = [];
        let cursor: string | null = null;
        let offsets: number[] = [];
        do {
          const page = await rankBoard(db, query(phase.id, rule, true, false, { limit, cursor, team: null }));
          expect(page.total).toBe(whole.total);
          offsets.push(page.offset);
          seen.push(...page.rows);
          cursor = page.nextCursor;
        } while (cursor !== null);
        expect(seen).toEqual(whole.rows);
        expect(offsets).toEqual(offsets.map((_, i) => i * limit));
        offsets = [];
      }
      const teamName = runs.find((r) => whole.rows.some((w) => w.submissionId === r.submissionId))!.teamName;
      const filtered = await rankBoard(db, query(phase.id, rule, true, false, { limit: null, cursor: null, team: teamName.toUpperCase() }));
      const ofTeam = new Set(runs.filter((r) => r.teamName === teamName).map((r) => r.submissionId));
      expect(filtered.rows).toEqual(whole.rows.filter((r) => ofTeam.has(r.submissionId)));
    }
  });

  it("getLeaderboard pages with limit, cursor and team; a damaged cursor or a bad limit is a 422", async () => {
    const { phase } = await randomBoard(7);
    const whole = await getLeaderboard(phase.id, null, { allRuns: true });
    const first = await getLeaderboard(phase.id, null, { allRuns: true, limit: 2 });
    expect(first.rows.map((r) => r.submissionId)).toEqual(whole.rows.slice(0, 2).map((r) => r.submissionId));
    expect(first.page).toMatchObject({ total: whole.rows.length, offset: 0, limit: 2, cursor: null });
    const second = await getLeaderboard(phase.id, null, { allRuns: true, limit: 2, cursor: first.page.nextCursor });
    expect(second.rows.map((r) => r.submissionId)).toEqual(whole.rows.slice(2, 4).map((r) => r.submissionId));
    expect(second.page.offset).toBe(2);
    await expect(getLeaderboard(phase.id, null, { cursor: "not-a-cursor" })).rejects.toBeInstanceOf(ValidationError);
    await expect(getLeaderboard(phase.id, null, { limit: 0 })).rejects.toBeInstanceOf(ValidationError);
    await expect(getLeaderboard(phase.id, null, { limit: 501 })).rejects.toBeInstanceOf(ValidationError);
  });
});
