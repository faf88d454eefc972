/**
 * Paging the 10,000-run board (issue 12 acceptance): 1,000 teams with 10 scored runs each,
 * seeded as the worker writes them (`seed-board`, lib/bench/seed-board.ts, with 4 documents a
 * run instead of the benchmark's 20 to seed in seconds). One run per team (BEST), so the board
 * has 1,000 rows, 50 a page:
 *
 * - "Next" walks all 20 pages: each says which rows it holds, the values never rise, the ranks
 *   are competition ranks of the whole board (a tie shares the rank of the first run with
 *   that value), every team appears exactly once, the last page has no "Next", and the seeder's
 *   own order (its `boardIndex`, computed from the generated scores) puts its chosen runs'
 *   teams where the board does;
 * - the team search finds a team from deep in the board with the rank it has there;
 * - the JSON API pages the same board with its cursor (500 rows a page) in the same order.
 */
import { expect, request as playwrightRequest, test } from "@playwright/test";
import type { SeededBoard } from "../lib/bench/seed-board";
import { BASE_URL, runScript, uniqueTag } from "./helpers/server";

const TEAMS = 1000;
const RUNS_PER_TEAM = 10;
const PAGE_SIZE = 50;
const PAGES = TEAMS / PAGE_SIZE;

test.describe.configure({ mode: "serial" });

let board: SeededBoard;
/** The board in order as the page walk saw it: team name, rank, exact CoNLL F1. */
const walked: { team: string; rank: number; value: number }[] = [];

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const tag = uniqueTag();
  const args = ["--slug", `board-10k-${tag}`, "--team-prefix", `${tag} `, "--teams", String(TEAMS), "--runs-per-team", String(RUNS_PER_TEAM), "--documents", "4"];
  const { stdout } = await runScript("e2e/helpers/seed.ts", ["seed-board", ...args]);
  board = JSON.parse(stdout) as SeededBoard;
  expect(board.runs).toBe(TEAMS * RUNS_PER_TEAM);
});

test("Next walks the 1,000 rows of the 10,000-run board, 50 a page, with the whole board's ranks", async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto(board.paths.leaderboard);
  for (let p = 0; p < PAGES; p++) {
    const first = p * PAGE_SIZE + 1;
    const n = (x: number) => x.toLocaleString("en");
    await expect(page.getByTestId("board-page-summary")).toHaveText(`Rows ${n(first)}–${n(first + PAGE_SIZE - 1)} of ${n(TEAMS)}`);
    // Each row's rank, exact CoNLL F1 and team, read in one round trip.
    const rows = await page.getByTestId("board-row").evaluateAll((els) =>
      els.map((row) => ({
        rank: Number(row.querySelector('[data-testid="board-rank"]')?.textContent),
        value: Number(row.querySelector('[data-testid="cell-conll-f1"] [data-exact]')?.getAttribute("data-exact")),
        team: row.querySelector('[data-testid="board-team"] a')?.textContent ?? "",
      })),
    );
    expect(rows).toHaveLength(PAGE_SIZE);
    const ranks = rows.map((r) => r.rank);
    const values = rows.map((r) => r.value);
    const teams = rows.map((r) => r.team);
    for (let i = 0; i < PAGE_SIZE; i++) {
      const previous = walked[walked.length - 1];
      const place = walked.length + 1;
      if (previous === undefined) expect(ranks[i]).toBe(1);
      else {
        expect(values[i], `row ${place}`).toBeLessThanOrEqual(previous.value);
        expect(ranks[i], `rank of row ${place}`).toBe(values[i] === previous.value ? previous.rank : place);
      }
      walked.push({ team: teams[i], rank: ranks[i], value: values[i] });
    }
    if (p < PAGES - 1) {
      await page.getByTestId("board-next").click();
      await expect(page).toHaveURL(/[?&]cursor=/);
    } else {
      await expect(page.getByTestId("board-next")).toHaveCount(0);
    }
  }
  expect(new Set(walked.map((r) => r.team)).size).toBe(TEAMS);
  // The seeder ordered the teams by their best run's CoNLL F1 itself (ties: the earlier run first).
  for (const run of [board.midRun, board.compare.a, board.compare.b]) {
    expect(walked[run.boardIndex].team, `the team at place ${run.boardIndex + 1}`).toBe(run.teamName);
    expect(walked[run.boardIndex].value).toBeCloseTo(run.conllF1, 12);
  }
});

test("the team search finds a team from deep in the board with its rank there", async ({ page }) => {
  const deep = walked[TEAMS - 7];
  await page.goto(board.paths.leaderboard);
  await page.getByLabel("Team", { exact: true }).fill(deep.team);
  await page.getByRole("button", { name: "Find", exact: true }).click();
  await expect(page).toHaveURL(/[?&]team=/);
  await expect(page.getByTestId("board-row")).toHaveCount(1);
  await expect(page.getByTestId("board-team")).toHaveText(deep.team);
  await expect(page.getByTestId("board-rank")).toHaveText(String(deep.rank));
});

test("the JSON API pages the same board with its cursor", async () => {
  const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
  const seen: { team: string; rank: number | null }[] = [];
  let cursor: string | null = null;
  for (let p = 0; p < 2; p++) {
    const response = await api.get(`${board.paths.leaderboardJson}?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { rows: { rank: number | null; team: { name: string } }[]; page: { total: number; nextCursor: string | null } };
    expect(body.page.total).toBe(TEAMS);
    expect(body.rows).toHaveLength(500);
    seen.push(...body.rows.map((r) => ({ team: r.team.name, rank: r.rank })));
    cursor = body.page.nextCursor;
    if (p === 0) expect(cursor).not.toBeNull();
  }
  expect(cursor).toBeNull();
  expect(seen).toEqual(walked.map(({ team, rank }) => ({ team, rank })));
  await api.dispose();
});
