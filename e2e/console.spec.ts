/**
 * The organizer's console, submissions tab (issue 11 §3), in the browser: the organizer
 * - filters the runs by team (a part of the team's name) and sees that team's run only;
 * - hides a run: the public board (JSON, all runs) no longer lists it;
 * - disqualifies another run with a reason: the board shows it struck through with the reason;
 * - re-scores a third run: it is queued and scored again;
 * - downloads the phase's archive: a gzip file whose tar holds the runs.csv manifest.
 *
 * Runs (written scored through the database by the worker's own job: `seedScoredRuns`): Alpha "alpha-hide" (the gold key itself) and "alpha-rescore"
 * (a partial response); Beta "beta-run"; Gamma "gamma-dq".
 */
import { gunzipSync } from "node:zlib";
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { bearer, signInPage } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { openPhase, seedScoredRuns, SMALL_KEY, SMALL_RESPONSE, waitScored } from "./helpers/tasks";

type Users = "organizer" | "alpha" | "beta" | "gamma";
let scenario: Scenario<Users>;
let phaseId = "";
let board = "";
let tab = "";
const runs = { alphaHide: "", alphaRescore: "", beta: "", gammaDq: "" };

const REASON = "Used the test documents for training.";

test.describe.serial("the organizer's console: submissions tab", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    scenario = await setupScenario<Users>({
      users: { organizer: { token: true }, alpha: {}, beta: {}, gamma: {} },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"], "Team Gamma": ["gamma"] },
      task: { phases: [openPhase("test")], organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    phaseId = scenario.task!.phases.test.id;
    board = `/tasks/${scenario.task!.slug}/phases/${phaseId}/leaderboard`;
    tab = `/tasks/${scenario.task!.slug}/manage/submissions`;
    const run = (user: "alpha" | "beta" | "gamma", team: string, text: string, systemName: string) => ({ teamId: scenario.teams[team]!.id, submitterId: scenario.users[user].id, systemName, fileName: "out.conll", text });
    [runs.alphaHide, runs.alphaRescore, runs.beta, runs.gammaDq] = await seedScoredRuns(phaseId, [
      run("alpha", "Team Alpha", SMALL_KEY, "alpha-hide"),
      run("alpha", "Team Alpha", SMALL_RESPONSE, "alpha-rescore"),
      run("beta", "Team Beta", SMALL_RESPONSE, "beta-run"),
      run("gamma", "Team Gamma", SMALL_RESPONSE, "gamma-dq"),
    ]);
  });

  test("filters by team, hides a run, disqualifies one with a reason, re-scores one", async ({ page, request }) => {
    await signInPage(page, scenario.users.organizer);
    await page.goto(tab);
    const rows = page.getByTestId("phase-submission-row");
    await expect(rows).toHaveCount(4);

    // Filter by a part of Team Beta's name.
    const search = page.getByRole("search", { name: "Filter the runs" });
    await search.getByLabel("Team", { exact: true }).fill(scenario.teams["Team Beta"].name.slice(2));
    await search.getByRole("button", { name: "Filter", exact: true }).click();
    await expect(page).toHaveURL(/team=/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("beta-run");
    await page.getByRole("link", { name: "Clear", exact: true }).click();
    await expect(rows).toHaveCount(4);

    // Hide: the run leaves the public board.
    const hideRow = rows.filter({ hasText: "alpha-hide" });
    await hideRow.getByRole("button", { name: /^Hide run alpha-hide/ }).click();
    await expect(hideRow.getByTestId("console-run-result")).toContainText("The run is hidden");
    await expect(hideRow.getByTestId("hidden-label")).toBeVisible();
    const publicRows = async () => ((await (await request.get(`/api/v1/phases/${phaseId}/leaderboard?all=1`)).json()) as { rows: { submissionId: string }[] }).rows.map((r) => r.submissionId);
    expect(await publicRows()).not.toContain(runs.alphaHide);
    expect(await publicRows()).toContain(runs.alphaRescore);

    // Disqualify with a reason: struck through on the board, with the reason.
    const dqRow = rows.filter({ hasText: "gamma-dq" });
    await dqRow.locator("summary").click();
    await dqRow.getByLabel("Public reason (shown on the board)").fill(REASON);
    await dqRow.getByRole("button", { name: /^Disqualify run gamma-dq/ }).click();
    await expect(dqRow.getByTestId("console-run-result")).toContainText("disqualified");
    await expect(dqRow.getByTestId("disqualified-label")).toHaveText(`disqualified: ${REASON}`);
    await page.goto(board);
    const boardRow = page.locator(`[data-testid="board-row"][data-submission-id="${runs.gammaDq}"]`);
    await expect(boardRow.locator("s")).toHaveText("gamma-dq");
    await expect(boardRow.getByTestId("disqualified-reason")).toHaveText(`disqualified: ${REASON}`);

    // Re-score: queued again, then scored again by the worker.
    await page.goto(tab);
    const rescoreRow = page.getByTestId("phase-submission-row").filter({ hasText: "alpha-rescore" });
    await rescoreRow.getByRole("button", { name: /^Re-score run alpha-rescore/ }).click();
    await expect(rescoreRow.getByTestId("console-run-result")).toContainText("queued to be scored again");
    const status = await request.get(`/api/v1/submissions/${runs.alphaRescore}`, { headers: bearer(scenario.users.organizer.token!) });
    expect(["QUEUED", "SCORING", "SCORED"]).toContain(((await status.json()) as { status: string }).status);
    await waitScored(request, runs.alphaRescore, scenario.users.organizer.token!);
  });

  test("downloads every run of the phase as a .tar.gz with the runs.csv manifest", async ({ page }) => {
    await signInPage(page, scenario.users.organizer);
    await page.goto(tab);
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download all runs (.tar.gz)", exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/-runs\.tar\.gz$/);
    const bytes = await readFile((await download.path())!);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const tar = gunzipSync(bytes).toString("latin1");
    expect(tar).toContain("runs.csv");
    expect(tar).toContain("id,team,system,track,status,submitted,primary_score,baseline,withdrawn,hidden,disqualified,path,sha256,size");
    for (const id of Object.values(runs)) expect(tar).toContain(id);
  });
});
