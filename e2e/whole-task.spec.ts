/**
 * A whole shared task, from draft to final results (issue 11's acceptance test), through the
 * browser wherever a person would use it:
 * - a site admin creates a draft task (one phase, "dev"), adds a team-selected phase "test"
 *   (up to 2 final runs per team), uploads both gold keys and publishes the task;
 * - two teams submit (their scripts use the API): Alpha "alpha-first", "alpha-best" (the gold
 *   key itself) and "alpha-oops"; Beta "beta-a" and "beta-b" (the gold key itself);
 * - Alpha withdraws "alpha-oops" on its run page (not without ticking the confirmation), which
 *   then says so, and the board, all runs included, no longer lists it; Beta's latest run
 *   stands for it on the board, marked "latest run: no final run chosen", until Beta marks a run
 *   final on its run page, which then stands for Beta instead; then Beta marks its other run
 *   final too, and the board ranks Beta by the better of the two;
 * - the organizer disqualifies "beta-b" with a public reason in the console, closes the phase
 *   and publishes the final results with a note (publishing without the confirmation box
 *   publishes nothing);
 * - an anonymous reader opens the final results from the task page: the note, the changes and
 *   the gold version; Alpha's latest remaining run ranks first (Alpha chose no final run),
 *   Beta's other final run second, "beta-b" struck through with the reason and no rank, listed
 *   after them under a "Disqualified" heading (though its score is the best); the CSV
 *   downloaded has the sha256 the page shows, as does the CSV route's `X-Content-SHA256`.
 *
 * (This is also the final-results and run-controls test: the page checks of
 * e2e/snapshots.spec.ts and e2e/run-controls.spec.ts, and board-policy.spec.ts's final runs,
 * joined it; the rules behind them, who may
 * withdraw or disqualify what and what the API answers, are lib/runs/controls.test.ts's.)
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { signInPage } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL, uniqueTag } from "./helpers/server";
import { postRun, SMALL_KEY, SMALL_RESPONSE, waitScored } from "./helpers/tasks";

type Users = "admin" | "alpha" | "beta";
let scenario: Scenario<Users>;
const tag = uniqueTag();
const slug = `e2e-whole-${tag}`;
const title = `Whole task ${tag}`;
const REASON = "The run was trained on the test documents.";
const NOTE = "Final ranking of the test phase.";
const runs = { alphaFirst: "", alphaBest: "", alphaOops: "", betaA: "", betaB: "" };
let testPhaseId = "";

/** A `datetime-local` value in UTC, `ms` from now. */
function utcInput(ms: number): string {
  return new Date(Date.now() + ms).toISOString().slice(0, 16);
}

/** Uploads a gold key on the console's gold tab for one phase. */
async function uploadGoldInConsole(page: Page, phase: string): Promise<void> {
  const section = page.getByRole("region", { name: `Gold of phase ${phase}` });
  const form = section.getByRole("form", { name: "Upload gold key" });
  await form.getByLabel("Gold key file").setInputFiles({ name: "key.conll", mimeType: "text/plain", buffer: Buffer.from(SMALL_KEY) });
  await form.getByRole("button", { name: "Upload gold key" }).click();
  await expect(section.getByTestId("gold-upload-stats").getByTestId("gold-stat-documents")).toHaveText("2");
  await expect(section.getByTestId("gold-version-row")).toHaveCount(1);
}

test.describe.serial("a shared task from draft to final results", () => {
  test.beforeAll(async () => {
    scenario = await setupScenario<Users>({
      users: { admin: { admin: true }, alpha: { token: true }, beta: { token: true } },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"] },
    });
  });

  test("an organizer creates a draft, adds a team-selected phase, uploads the gold keys and publishes", async ({ page }) => {
    test.setTimeout(120_000);
    await signInPage(page, scenario.users.admin);
    await page.goto("/tasks/new");
    await page.getByLabel("Slug").fill(slug);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Description").fill("Resolve the coreference of every mention.");
    await page.getByRole("group", { name: "Phase 1" }).getByLabel("Phase name").fill("dev");
    await page.getByRole("button", { name: "Create task" }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${slug}/manage$`));
    await expect(page.getByTestId("task-status-label")).toHaveText("Draft");

    await page.goto(`/tasks/${slug}/manage/phases`);
    await page.getByTestId("add-phase-toggle").click();
    const add = page.getByRole("form", { name: "Add phase" });
    await add.getByLabel("Phase name").fill("test");
    await add.getByLabel("Opens").fill(utcInput(-3600_000));
    await add.getByLabel("Closes").fill(utcInput(7 * 24 * 3600_000));
    await add.getByLabel("Runs per team per day").fill("");
    await add.getByLabel("Runs per team in total").fill("");
    await add.getByLabel("Selection rule").selectOption("TEAM_SELECTED");
    await add.getByLabel("Final runs per team").fill("2");
    await add.getByRole("button", { name: "Add phase" }).click();
    const testPhase = page.getByRole("region", { name: "Phase test" });
    await expect(testPhase).toBeVisible();
    testPhaseId = (await testPhase.getAttribute("id"))!.replace(/^phase-/, "");

    await page.goto(`/tasks/${slug}/manage/gold`);
    await uploadGoldInConsole(page, "dev");
    await uploadGoldInConsole(page, "test");

    await page.goto(`/tasks/${slug}/manage`);
    await expect(page.getByTestId("publish-check-gold")).toHaveAttribute("data-ok", "true");
    await page.getByRole("button", { name: "Publish task" }).click();
    await expect(page.getByText("The task is published: everyone can see it now.")).toBeVisible();
  });

  test("two teams submit; Alpha withdraws a run; Beta chooses its final runs", async ({ browser }) => {
    test.setTimeout(120_000);
    const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
    const alpha = scenario.users.alpha.token!;
    const beta = scenario.users.beta.token!;
    runs.alphaFirst = await postRun(api, testPhaseId, alpha, SMALL_RESPONSE, "alpha-first");
    runs.alphaBest = await postRun(api, testPhaseId, alpha, SMALL_KEY, "alpha-best");
    runs.alphaOops = await postRun(api, testPhaseId, alpha, SMALL_RESPONSE, "alpha-oops");
    runs.betaA = await postRun(api, testPhaseId, beta, SMALL_RESPONSE, "beta-a");
    runs.betaB = await postRun(api, testPhaseId, beta, SMALL_KEY, "beta-b");
    for (const [id, token] of [
      [runs.alphaFirst, alpha],
      [runs.alphaBest, alpha],
      [runs.alphaOops, alpha],
      [runs.betaA, beta],
      [runs.betaB, beta],
    ] as const)
      await waitScored(api, id, token);
    await api.dispose();

    const alphaContext = await browser.newContext();
    const alphaPage = await alphaContext.newPage();
    await signInPage(alphaPage, scenario.users.alpha);
    await alphaPage.goto(`/submissions/${runs.alphaOops}`);
    const withdraw = alphaPage.getByTestId("withdraw-form");
    await withdraw.getByRole("button", { name: "Withdraw this run" }).click();
    // Without the confirmation nothing happens but a message under the checkbox.
    await expect(withdraw.getByText(/Tick the box to confirm/)).toBeVisible();
    await expect(alphaPage.getByTestId("withdrawn-badge")).toHaveCount(0);
    await withdraw.getByLabel(/I understand/).check();
    await withdraw.getByRole("button", { name: "Withdraw this run" }).click();
    await expect(alphaPage.getByTestId("withdrawn-badge")).toHaveText("withdrawn");
    await expect(alphaPage.getByTestId("withdrawn-notice")).toContainText("Your team withdrew this run");
    // The board, all runs included, no longer lists it.
    await alphaPage.goto(`/tasks/${slug}/phases/${testPhaseId}/leaderboard?all=1`);
    await expect(alphaPage.getByTestId("board-row").filter({ hasText: "alpha-first" })).toHaveCount(1);
    await expect(alphaPage.getByTestId("board-row").filter({ hasText: "alpha-oops" })).toHaveCount(0);
    await alphaContext.close();

    const betaContext = await browser.newContext();
    const betaPage = await betaContext.newPage();
    await signInPage(betaPage, scenario.users.beta);
    const board = `/tasks/${slug}/phases/${testPhaseId}/leaderboard`;
    const row = (id: string) => betaPage.locator(`[data-testid="board-row"][data-submission-id="${id}"]`);
    // Before Beta chooses, its latest run stands for it, marked as such.
    await betaPage.goto(board);
    await expect(row(runs.betaB).getByTestId("selection-fallback")).toHaveText("latest run: no final run chosen");
    await expect(row(runs.betaA)).toHaveCount(0);
    for (const [id, count] of [
      [runs.betaA, "1 of 2"],
      [runs.betaB, "2 of 2"],
    ] as const) {
      await betaPage.goto(`/submissions/${id}`);
      const form = betaPage.getByTestId("final-run-form");
      await form.getByRole("button", { name: "Count as final", exact: true }).click();
      await expect(form.getByText("This run now counts as one of your team's final runs.")).toBeVisible();
      await expect(form.getByTestId("final-run-count")).toContainText(`${count} final runs chosen, this one included`);
      await expect(form.getByRole("button", { name: "Remove from final runs", exact: true })).toBeVisible();
      if (id === runs.betaA) {
        // Its one final run now stands for Beta instead of its latest run.
        await betaPage.goto(board);
        await expect(row(runs.betaA)).toHaveAttribute("data-selection", "final");
        await expect(row(runs.betaB)).toHaveCount(0);
      }
    }
    // The board now ranks Beta by the better of its final runs, marked as a final run.
    await betaPage.goto(board);
    await expect(row(runs.betaB)).toHaveAttribute("data-selection", "final");
    await expect(row(runs.betaB).getByTestId("selection-fallback")).toHaveCount(0);
    await betaContext.close();
  });

  test("the organizer disqualifies a run with a reason, closes the phase and publishes the final results", async ({ page }) => {
    await signInPage(page, scenario.users.admin);
    await page.goto(`/tasks/${slug}/manage/submissions?phase=${testPhaseId}`);
    const row = page.getByTestId("phase-submission-row").filter({ hasText: "beta-b" });
    await row.locator("summary").click();
    await row.getByLabel("Public reason (shown on the board)").fill(REASON);
    await row.getByRole("button", { name: /^Disqualify run beta-b/ }).click();
    await expect(row.getByTestId("disqualified-label")).toHaveText(`disqualified: ${REASON}`);

    // ?phase= renders that phase's section open (the dev phase, open too, comes first).
    await page.goto(`/tasks/${slug}/manage/phases?phase=${testPhaseId}`);
    const phase = page.getByRole("region", { name: "Phase test" });
    await phase.getByRole("button", { name: "Close now" }).click();
    await phase.getByRole("button", { name: "Yes, close it now" }).click();
    await expect(phase.getByRole("button", { name: "Close now" })).toHaveCount(0);

    // The final results have their own console tab; the phase's section links there.
    await phase.getByRole("link", { name: "Final results of the test phase" }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${slug}/manage/results#results-${testPhaseId}$`));
    const card = page.getByTestId("snapshot-publish-card").filter({ hasText: "Final results: test phase" });
    await expect(card.getByTestId("snapshot-none")).toBeVisible();
    await expect(card.getByTestId("snapshot-problems")).toHaveCount(0);
    await card.getByLabel(/^Note/).fill(NOTE);
    await card.getByRole("button", { name: "Publish final results", exact: true }).click();
    // Without the confirmation nothing is published.
    await expect(card.getByText(/Tick the box to confirm/)).toBeVisible();
    await expect(card.getByTestId("snapshot-published-link")).toHaveCount(0);
    await card.getByLabel(/I understand/).check();
    await card.getByRole("button", { name: "Publish final results", exact: true }).click();
    await expect(card.getByTestId("snapshot-published-link")).toHaveText("Snapshot #1");
    expect(await card.getByTestId("snapshot-published-link").getAttribute("href")).toBe(`/tasks/${slug}/phases/${testPhaseId}/results/1`);
  });

  test("a reader sees the final ranking and downloads the CSV, whose checksum matches", async ({ page, request }) => {
    await page.goto(`/tasks/${slug}`);
    await page.getByTestId("phase-results-link").getByRole("link", { name: "Final results", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${slug}/phases/${testPhaseId}/results/1$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Final results: test phase");
    await expect(page.getByTestId("snapshot-note")).toContainText(NOTE);
    await expect(page.getByTestId("snapshot-changes-list")).toHaveText("First published results.");
    await expect(page.getByTestId("snapshot-gold")).toHaveText("main: version 1");

    const row = (id: string) => page.locator(`[data-testid="board-row"][data-submission-id="${id}"]`);
    await expect(row(runs.alphaBest).getByTestId("board-rank")).toHaveText("1");
    await expect(row(runs.betaA).getByTestId("board-rank")).toHaveText("2");
    await expect(row(runs.betaB).locator("s")).toHaveText("beta-b");
    await expect(row(runs.betaB).getByTestId("disqualified-reason")).toHaveText(`disqualified: ${REASON}`);
    await expect(row(runs.betaB).getByTestId("board-rank")).toHaveText("—");
    // "beta-b" (the gold key itself, the top score) is listed after the ranked runs, under its own heading.
    const disqualified = page.getByTestId("snapshot-disqualified");
    await expect(disqualified.getByText("Disqualified", { exact: true })).toBeVisible();
    await expect(disqualified.getByTestId("board-row")).toHaveCount(1);
    await expect(disqualified.locator(`[data-testid="board-row"][data-submission-id="${runs.betaB}"]`)).toHaveCount(1);
    const order = await page.getByTestId("board-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-submission-id")));
    expect(order).toEqual([runs.alphaBest, runs.betaA, runs.betaB]);
    // Withdrawn runs and runs that do not count for their team are not on the board.
    await expect(row(runs.alphaOops)).toHaveCount(0);
    await expect(row(runs.alphaFirst)).toHaveCount(0);

    const shown = (await page.getByTestId("csv-sha256").textContent())!.trim();
    expect(shown).toMatch(/^[0-9a-f]{64}$/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-csv").click()]);
    expect(download.suggestedFilename()).toBe(`${slug}-test-results-1.csv`);
    const bytes = await readFile((await download.path())!);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(shown);
    const csv = bytes.toString("utf8");
    expect(csv).toContain("alpha-best");
    expect(csv).toContain(REASON);
    // The route's own checksum header says the same.
    const answer = await request.get(`/api/v1/phases/${testPhaseId}/results/1/csv`);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["x-content-sha256"]).toBe(shown);
    expect(createHash("sha256").update(await answer.body()).digest("hex")).toBe(shown);
  });
});
