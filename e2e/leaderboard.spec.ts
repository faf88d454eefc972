/**
 * The leaderboard page: re-ranking through the visible "Rank by" control (order and URL
 * change), the recall/precision toggle, shared ranks for exact ties, "All runs" versus
 * "Best run per team", the tie policy, and the JSON/CSV links.
 *
 * Runs (one team each, made in this order, written scored through the database by the worker's
 * own job: `seedScoredRuns`):
 * - A "merge-all": every mention in one chain → best MUC, worst B³;
 * - B "singletons": every mention alone → MUC 0, B³ above A;
 * - C "partial": two chains right; D "partial-copy": the same file from another team (a tie);
 * - A2 "draft": team A's second run, with no mentions (hidden by "best run per team").
 * Every expected order and number is computed here with the scorer library.
 */
import { expect, test, type Page } from "@playwright/test";
import { evaluate, readConll2012, type MetricScores } from "../scoring/index";
import { setupScenario } from "./helpers/scenario";
import { conll, createTask, openPhase, seedScoredRuns, waitForSignificance, type TestTask } from "./helpers/tasks";

/** Words of the single document; "" is a sentence break. Every 2nd word is a mention. */
const WORDS = ["Anna", "met", "Ben", ".", "", "She", "thanked", "him", ";", "Carl", "and", "Dora", "saw", "her", ".", "", "Ben", "left", "Carl", "."];

/** A document whose k-th word (blank lines skipped) gets `cells[k]` (default "-"). */
function doc(cells: (string | null)[]): string {
  let i = 0;
  return conll(["d1", WORDS.map((w) => (w === "" ? "" : `${w}\t${cells[i++] ?? "-"}`))]);
}
const chains = (ids: (number | null)[]) => doc(ids.flatMap((id) => [id === null ? null : `(${id})`, null]));

// Mentions at words 0,2,4,…,16: chain ids per mention.
const KEY = chains([1, 2, 1, 2, 3, 4, 1, 2, 3]);
const RUNS = {
  A: { system: "merge-all", file: chains([1, 1, 1, 1, 1, 1, 1, 1, 1]) },
  B: { system: "singletons", file: chains([1, 2, 3, 4, 5, 6, 7, 8, 9]) },
  C: { system: "partial", file: chains([1, 2, 1, 2, 3, 4, 5, 6, 3]) },
  D: { system: "partial-copy", file: chains([1, 2, 1, 2, 3, 4, 5, 6, 3]) },
  A2: { system: "draft", file: chains([null, null, null, null, null, null, null, null, null]) },
} as const;
type RunKey = keyof typeof RUNS;

const pct = (x: number) => (x * 100).toFixed(2);
const key = readConll2012(KEY, "key.conll");
const scores = Object.fromEntries(
  Object.entries(RUNS).map(([k, r]) => [k, evaluate(key, readConll2012(r.file, `${k}.conll`)).metrics]),
) as Record<RunKey, MetricScores>;

type BoardMetric = "muc" | "bcub" | "ceafe" | "conll";
const f1 = (k: RunKey, metric: BoardMetric) => (metric === "conll" ? scores[k].conll!.f1 : scores[k][metric]!.f1);

/** Expected board (best run per team): runs by F1 descending, earlier first; competition ranks. */
function expectedBoard(metric: BoardMetric, runs: RunKey[] = ["A", "B", "C", "D"]): { systems: string[]; ranks: string[] } {
  const sorted = [...runs].sort((x, y) => f1(y, metric) - f1(x, metric) || runs.indexOf(x) - runs.indexOf(y));
  const ranks = sorted.map((k) => String(1 + sorted.filter((o) => f1(o, metric) > f1(k, metric)).length));
  return { systems: sorted.map((k) => RUNS[k].system), ranks };
}

let task: TestTask;
let phaseId: string;
let boardPath: string;

async function expectBoard(page: Page, metric: BoardMetric) {
  const { systems, ranks } = expectedBoard(metric);
  await expect(page.getByTestId("board-system")).toHaveText(systems);
  await expect(page.getByTestId("board-rank")).toHaveText(ranks);
}

test.describe.serial("leaderboard", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    // The design of the runs: MUC and B³ order A, B and C differently, and C = D.
    expect(f1("A", "muc")).toBeGreaterThan(f1("C", "muc"));
    expect(f1("C", "bcub")).toBeGreaterThan(f1("B", "bcub"));
    expect(f1("B", "bcub")).toBeGreaterThan(f1("A", "bcub"));
    expect(expectedBoard("muc").systems).not.toEqual(expectedBoard("bcub").systems);

    const scenario = await setupScenario({
      users: { a: {}, b: {}, c: {}, d: {} },
      teams: { "Board A": ["a"], "Board B": ["b"], "Board C": ["c"], "Board D": ["d"] },
      task: { phases: [openPhase("test")], gold: [{ phase: "test", text: KEY }] },
    });
    task = scenario.task!;
    phaseId = task.phases.test.id;
    boardPath = `/tasks/${task.slug}/phases/${phaseId}/leaderboard`;
    const order: [RunKey, "a" | "b" | "c" | "d"][] = [["A", "a"], ["B", "b"], ["C", "c"], ["D", "d"], ["A2", "a"]];
    await seedScoredRuns(
      phaseId,
      order.map(([run, who]) => ({ teamId: scenario.teams[`Board ${who.toUpperCase()}`]!.id, submitterId: scenario.users[who].id, systemName: RUNS[run].system, fileName: `${run}.conll`, text: RUNS[run].file })),
    );
  });

  test("default ranking, ties sharing a rank, tie policy and export links", async ({ page }) => {
    await page.goto(boardPath);
    await expect(page.getByTestId("ranked-by")).toHaveText("CoNLL F1");
    await expectBoard(page, "conll");
    // C and D are identical: same rank, the earlier submission (C) first.
    const { ranks } = expectedBoard("conll");
    expect(ranks[0]).toBe(ranks[1]);
    // The tied copy cannot differ significantly from the run above it: p = 1, marked "≈"
    // (the worker computes and stores the markers once the runs are scored).
    await waitForSignificance(page);
    const second = page.getByTestId("board-row").nth(1);
    await expect(second).toHaveAttribute("data-p-value", "1");
    await expect(second.getByTestId("not-significant")).toHaveCount(1);
    await expect(page.getByTestId("board-row").first().getByTestId("not-significant")).toHaveCount(0);
    await expect(page.getByTestId("tie-policy")).toContainText("share a rank");
    await expect(page.getByRole("link", { name: "CSV", exact: true })).toHaveAttribute("href", `/api/v1/phases/${phaseId}/leaderboard?metric=conll&format=csv`);
    await expect(page.getByRole("link", { name: "JSON", exact: true })).toHaveAttribute("href", `/api/v1/phases/${phaseId}/leaderboard?metric=conll`);
    // Exact numbers, with the exact value on hover.
    const first = page.getByTestId("board-row").first();
    await expect(first.getByTestId("cell-muc-f1")).toHaveText(pct(f1("C", "muc")));
    await expect(first.getByTestId("cell-conll-f1").locator("[title]")).toHaveAttribute("title", new RegExp(`${String(f1("C", "conll")).replace(".", "\\.")}$`));
  });

  test("re-ranking through the Rank by control changes the order and the URL", async ({ page }) => {
    await page.goto(boardPath);
    const control = page.getByLabel("Rank by");
    await control.selectOption("muc");
    await expect(page).toHaveURL(/[?&]metric=muc(&|$)/);
    await expect(page.getByTestId("ranked-by")).toHaveText("MUC F1");
    await expectBoard(page, "muc");
    // "1224": the tie (C, D) below A shares rank 2, the next run is 4th.
    expect(expectedBoard("muc").ranks).toEqual(["1", "2", "2", "4"]);
    await expect(page.getByTestId("col-muc")).toHaveAttribute("aria-sort", "descending");

    await page.getByLabel("Rank by").selectOption("bcub");
    await expect(page).toHaveURL(/[?&]metric=bcub(&|$)/);
    await expectBoard(page, "bcub");
    await expect(page.getByTestId("board-system").first()).toHaveText(RUNS.C.system);
    await expect(page.getByTestId("board-system").last()).toHaveText(RUNS.A.system);
  });

  test("the R/P toggle shows recall and precision columns", async ({ page }) => {
    await page.goto(`${boardPath}?metric=muc`);
    await expect(page.getByTestId("col-muc-recall")).toHaveCount(0);
    await page.getByTestId("toggle-rp").click();
    await expect(page).toHaveURL(/[?&]rp=1/);
    await expect(page).toHaveURL(/[?&]metric=muc/);
    await expect(page.getByTestId("col-muc-recall")).toBeVisible();
    await expect(page.getByTestId("col-bcub-precision")).toBeVisible();
    const first = page.getByTestId("board-row").first();
    const a = scores.A.muc!;
    await expect(first.getByTestId("board-system")).toHaveText(RUNS.A.system);
    // The value itself (a column's best also says so, in words for screen readers).
    await expect(first.getByTestId("cell-muc-recall").locator("[data-exact]")).toHaveText(pct(a.recall));
    await expect(first.getByTestId("cell-muc-precision").locator("[data-exact]")).toHaveText(pct(a.precision));
    await expect(first.getByTestId("cell-muc-recall").locator("[title]")).toHaveAttribute("title", `MUC recall ${a.recallNum}/${a.recallDen} = ${a.recall}`);
    await page.getByTestId("toggle-rp").click();
    await expect(page.getByTestId("col-muc-recall")).toHaveCount(0);
  });

  test("All runs lists a team's other runs; Best run per team hides them", async ({ page }) => {
    await page.goto(boardPath);
    await expect(page.getByTestId("board-row")).toHaveCount(4);
    await page.getByRole("link", { name: "All runs" }).click();
    await expect(page).toHaveURL(/[?&]all=1/);
    await expect(page.getByTestId("board-row")).toHaveCount(5);
    await expect(page.getByTestId("board-system").last()).toHaveText(RUNS.A2.system);
    // The metric control keeps "all runs".
    await page.getByLabel("Rank by").selectOption("lea");
    await expect(page).toHaveURL(/metric=lea/);
    await expect(page).toHaveURL(/all=1/);
    await expect(page.getByTestId("board-row")).toHaveCount(5);
    await page.getByRole("link", { name: "Best run per team" }).click();
    await expect(page.getByTestId("board-row")).toHaveCount(4);
  });

  test("an empty board says so", async ({ page }) => {
    const empty = await createTask({ phases: [openPhase("dev")] });
    await page.goto(`/tasks/${empty.slug}/phases/${empty.phases.dev.id}/leaderboard`);
    await expect(page.getByTestId("board-empty")).toContainText("No scored runs yet");
  });
});
