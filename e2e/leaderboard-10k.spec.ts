/**
 * Paging the 10,000-run board (issue 12 acceptance): 1,000 teams with 10 scored runs each,
 * seeded as the worker writes them (`seed-board`, lib/bench/seed-board.ts, with 4 documents a
 * run instead of the benchmark's 20 to seed in seconds). One run per team (BEST), so the board
 * has 1,000 rows:
 *
 * - the JSON API's cursor pages the whole board (500 rows a page): every team once, values
 *   never rising, competition ranks of the whole board (a tie shares the rank of the first run
 *   with that value), and the seeder's own order (its `boardIndex`, computed from the generated
 *   scores) puts its chosen runs' teams where the board does;
 * - the page shows 50 rows at a time: "Next" walks the first pages, each saying which rows it
 *   holds, with the same teams and ranks in the same places; a cursor opens the last page
 *   (rows 951–1,000), which has no "Next";
 * - the team search finds a team from deep in the board with the rank it has there.
 */
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import type { SeededBoard } from "../lib/bench/seed-board";
import { BASE_URL, runScript, uniqueTag } from "./helpers/server";

const TEAMS = 1000;
const RUNS_PER_TEAM = 10;
const PAGE_SIZE = 50;

test.describe.configure({ mode: "serial" });

let board: SeededBoard;
/** The board in order as the JSON API gives it: team name, rank, CoNLL F1. */
const order: { team: string; rank: number | null; value: number }[] = [];

/** One page of the JSON API: its rows and the cursor of the next page. */
async function apiPage(limit: number, cursor: string | null): Promise<{ rows: typeof order; total: number; nextCursor: string | null }> {
  const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
  try {
    const response = await api.get(`${board.paths.leaderboardJson}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { rows: { rank: number | null; value: number; team: { name: string } }[]; page: { total: number; nextCursor: string | null } };
    return { rows: body.rows.map((r) => ({ team: r.team.name, rank: r.rank, value: r.value })), total: body.page.total, nextCursor: body.page.nextCursor };
  } finally {
    await api.dispose();
  }
}

/** The rows of the page on screen: rank, team (as in `order`) and CoNLL F1, read in one round trip. */
function pageRows(page: Page) {
  return page.getByTestId("board-row").evaluateAll((els) =>
    els.map((row) => ({
      team: row.querySelector('[data-testid="board-team"] a')?.textContent ?? "",
      rank: Number(row.querySelector('[data-testid="board-rank"]')?.textContent),
      value: Number(row.querySelector('[data-testid="cell-conll-f1"] [data-exact]')?.getAttribute("data-exact")),
    })),
  );
}

const count = (n: number) => n.toLocaleString("en");

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const tag = uniqueTag();
  const args = ["--slug", `board-10k-${tag}`, "--team-prefix", `${tag} `, "--teams", String(TEAMS), "--runs-per-team", String(RUNS_PER_TEAM), "--documents", "4"];
  const { stdout } = await runScript("e2e/helpers/seed.ts", ["seed-board", ...args]);
  board = JSON.parse(stdout) as SeededBoard;
  expect(board.runs).toBe(TEAMS * RUNS_PER_TEAM);
});

test("the JSON API's cursor pages the whole board with its competition ranks, in the seeder's order", async () => {
  let cursor: string | null = null;
  for (let p = 0; p < 2; p++) {
    const page = await apiPage(500, cursor);
    expect(page.total).toBe(TEAMS);
    expect(page.rows).toHaveLength(500);
    order.push(...page.rows);
    cursor = page.nextCursor;
    if (p === 0) expect(cursor).not.toBeNull();
  }
  expect(cursor).toBeNull();
  expect(new Set(order.map((r) => r.team)).size).toBe(TEAMS);
  order.forEach((row, i) => {
    const previous = order[i - 1];
    if (previous === undefined) expect(row.rank).toBe(1);
    else {
      expect(row.value, `row ${i + 1}`).toBeLessThanOrEqual(previous.value);
      expect(row.rank, `rank of row ${i + 1}`).toBe(row.value === previous.value ? previous.rank : i + 1);
    }
  });
  // The seeder ordered the teams by their best run's CoNLL F1 itself (ties: the earlier run first).
  for (const run of [board.midRun, board.compare.a, board.compare.b]) {
    expect(order[run.boardIndex].team, `the team at place ${run.boardIndex + 1}`).toBe(run.teamName);
    expect(order[run.boardIndex].value).toBeCloseTo(run.conllF1, 12);
  }
});

test("the page shows 50 rows at a time: Next walks the first pages, a cursor opens the last", async ({ page }) => {
  expect(order).toHaveLength(TEAMS);
  await page.goto(board.paths.leaderboard);
  for (let p = 0; p < 3; p++) {
    const first = p * PAGE_SIZE;
    await expect(page.getByTestId("board-page-summary")).toHaveText(`Rows ${count(first + 1)}–${count(first + PAGE_SIZE)} of ${count(TEAMS)}`);
    expect(await pageRows(page)).toEqual(order.slice(first, first + PAGE_SIZE));
    await page.getByTestId("board-next").click();
    await expect(page).toHaveURL(/[?&]cursor=/);
  }
  // The cursor after row 950, as the JSON API gives it (the page and the API share the query).
  const after500 = (await apiPage(500, null)).nextCursor;
  const after950 = (await apiPage(TEAMS - 500 - PAGE_SIZE, after500)).nextCursor;
  expect(after950).not.toBeNull();
  await page.goto(`${board.paths.leaderboard}?cursor=${encodeURIComponent(after950!)}`);
  await expect(page.getByTestId("board-page-summary")).toHaveText(`Rows ${count(TEAMS - PAGE_SIZE + 1)}–${count(TEAMS)} of ${count(TEAMS)}`);
  expect(await pageRows(page)).toEqual(order.slice(TEAMS - PAGE_SIZE));
  await expect(page.getByTestId("board-next")).toHaveCount(0);
});

test("the team search finds a team from deep in the board with its rank there", async ({ page }) => {
  const deep = order[TEAMS - 7];
  await page.goto(board.paths.leaderboard);
  await page.getByLabel("Team", { exact: true }).fill(deep.team);
  await page.getByRole("button", { name: "Find", exact: true }).click();
  await expect(page).toHaveURL(/[?&]team=/);
  await expect(page.getByTestId("board-row")).toHaveCount(1);
  await expect(page.getByTestId("board-team")).toHaveText(deep.team);
  await expect(page.getByTestId("board-rank")).toHaveText(String(deep.rank));
});
