/**
 * Run controls end to end (issue 11 §3, §4):
 * - a team withdraws its best run on the run page (confirmation checkbox, then "Withdraw this
 *   run"); the page marks it "withdrawn", the board (best run per team and all runs) no longer
 *   lists it and shows the team's other run instead, and anonymous readers get a 404 for it;
 * - an organizer disqualifies another team's run through the API with a reason (the team's own
 *   token is refused with 403); the board still lists the run, struck through, unranked, with
 *   "disqualified: <reason>" under the system name, and the JSON row carries the reason.
 *
 * Runs (uploaded through the API with tokens): Alpha "alpha-best" (the gold key itself, F1 1)
 * and "alpha-second" (a partial response); Beta "beta-run" (a partial response).
 */
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { bearer, signInPage } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL } from "./helpers/server";
import { openPhase, postRun, SMALL_KEY, SMALL_RESPONSE, waitScored } from "./helpers/tasks";

type Users = "organizer" | "alpha" | "beta";
let scenario: Scenario<Users>;
let phaseId = "";
let board = "";
const runs = { alphaBest: "", alphaSecond: "", beta: "" };

const REASON = "Trained on the test documents.";

test.describe.serial("withdrawing and disqualifying runs", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    scenario = await setupScenario<Users>({
      users: { organizer: { token: true }, alpha: { token: true }, beta: { token: true } },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"] },
      task: { phases: [openPhase("test")], organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    phaseId = scenario.task!.phases.test.id;
    board = `/tasks/${scenario.task!.slug}/phases/${phaseId}/leaderboard`;
    const alpha = scenario.users.alpha.token!;
    const beta = scenario.users.beta.token!;
    const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
    runs.alphaBest = await postRun(api, phaseId, alpha, SMALL_KEY, "alpha-best");
    runs.alphaSecond = await postRun(api, phaseId, alpha, SMALL_RESPONSE, "alpha-second");
    runs.beta = await postRun(api, phaseId, beta, SMALL_RESPONSE, "beta-run");
    await waitScored(api, runs.alphaBest, alpha);
    await waitScored(api, runs.alphaSecond, alpha);
    await waitScored(api, runs.beta, beta);
    await api.dispose();
  });

  test("a team withdraws its run on the run page, and the board no longer lists it", async ({ page, request }) => {
    await page.goto(board);
    await expect(page.getByTestId("board-row").filter({ hasText: "alpha-best" })).toHaveCount(1);

    await signInPage(page, scenario.users.alpha);
    await page.goto(`/submissions/${runs.alphaBest}`);
    const form = page.getByTestId("withdraw-form");
    await form.getByRole("button", { name: "Withdraw this run" }).click();
    // Without the confirmation nothing happens but a message under the checkbox.
    await expect(form.getByText(/Tick the box to confirm/)).toBeVisible();
    await expect(page.getByTestId("withdrawn-badge")).toHaveCount(0);
    await form.getByLabel(/I understand/).check();
    await form.getByRole("button", { name: "Withdraw this run" }).click();
    await expect(page.getByTestId("withdrawn-badge")).toHaveText("withdrawn");
    await expect(page.getByTestId("withdrawn-notice")).toContainText("Your team withdrew this run");

    for (const path of [board, `${board}?all=1`]) {
      await page.goto(path);
      const rows = page.getByTestId("board-row");
      await expect(rows.filter({ hasText: "alpha-second" }), path).toHaveCount(1);
      await expect(rows.filter({ hasText: "alpha-best" }), path).toHaveCount(0);
    }
    const json = (await (await request.get(`/api/v1/phases/${phaseId}/leaderboard?all=1`)).json()) as { rows: { submissionId: string }[] };
    expect(json.rows.map((r) => r.submissionId)).not.toContain(runs.alphaBest);
    expect((await request.get(`/api/v1/submissions/${runs.alphaBest}`)).status()).toBe(404);
    const own = await request.get(`/api/v1/submissions/${runs.alphaBest}`, { headers: bearer(scenario.users.alpha.token!) });
    expect(own.status()).toBe(200);
    expect(((await own.json()) as { withdrawnAt: string | null }).withdrawnAt).not.toBeNull();
  });

  test("an organizer disqualifies a run through the API with a reason, and the board shows it struck through with the reason", async ({ page, request }) => {
    const path = `/api/v1/submissions/${runs.beta}/disqualify`;
    const byTeam = await request.post(path, { headers: bearer(scenario.users.beta.token!), data: { reason: "Mine." } });
    expect(byTeam.status()).toBe(403);
    const empty = await request.post(path, { headers: bearer(scenario.users.organizer.token!), data: { reason: "" } });
    expect(empty.status()).toBe(422);

    const answer = await request.post(path, { headers: bearer(scenario.users.organizer.token!), data: { reason: REASON } });
    expect(answer.status(), await answer.text()).toBe(200);
    expect(((await answer.json()) as { submission: { disqualified: { reason: string } } }).submission.disqualified.reason).toBe(REASON);

    await page.goto(board);
    const row = page.locator(`[data-testid="board-row"][data-submission-id="${runs.beta}"]`);
    await expect(row.locator("s")).toHaveText("beta-run");
    await expect(row.getByTestId("disqualified-reason")).toHaveText(`disqualified: ${REASON}`);
    await expect(row.getByTestId("board-rank")).toHaveText("—");
    // Alpha's remaining run is ranked first; the disqualified run takes no rank.
    await expect(page.locator(`[data-testid="board-row"][data-submission-id="${runs.alphaSecond}"]`).getByTestId("board-rank")).toHaveText("1");

    const json = (await (await request.get(`/api/v1/phases/${phaseId}/leaderboard`)).json()) as {
      rows: { submissionId: string; rank: number | null; disqualified: { reason: string; at: string } | null }[];
    };
    const struck = json.rows.find((r) => r.submissionId === runs.beta);
    expect(struck).toMatchObject({ rank: null, disqualified: { reason: REASON } });
  });
});
