/**
 * Leaderboard policy and final runs end to end (issue 11 §2, §4):
 * - a phase whose board is hidden until it closes ("after_close"): before the close, team Beta
 *   does not see team Alpha's row, and Alpha sees its own row, highlighted ("your team",
 *   `data-own="true"`), with the notice "The leaderboard is hidden until the phase closes …";
 *   anonymous readers see no runs;
 * - a team-selected phase (one final run per team): Alpha's latest run represents it at first,
 *   marked "latest run: no final run chosen"; Alpha marks its other run final on the run page
 *   ("Count as final", then "1 of 1 final run chosen"), and the board shows that run instead.
 *
 * Runs (uploaded through the API with tokens): phase "hidden": Alpha "alpha-hidden" (the gold
 * key itself), Beta "beta-hidden"; phase "chosen": Alpha "alpha-strong" (the gold key), then
 * "alpha-weak" (a partial response, Alpha's latest run).
 */
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { signInPage } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL } from "./helpers/server";
import { openPhase, postRun, SMALL_KEY, SMALL_RESPONSE, waitScored, type TestPhaseInput } from "./helpers/tasks";

type Users = "organizer" | "alpha" | "beta";
let scenario: Scenario<Users>;
const boards = { hidden: "", chosen: "" };
const runs = { alphaHidden: "", betaHidden: "", alphaStrong: "", alphaWeak: "" };

/** Phase settings beyond {@link TestPhaseInput}'s (the phase schema accepts them). */
function phase(name: string, policy: Record<string, unknown>): TestPhaseInput {
  return { ...openPhase(name), ...policy } as TestPhaseInput;
}

test.describe.serial("leaderboard policy and final runs", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    scenario = await setupScenario<Users>({
      users: { organizer: { token: true }, alpha: { token: true }, beta: { token: true } },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"] },
      task: {
        phases: [phase("hidden", { leaderboardTiming: "after_close" }), phase("chosen", { selectionRule: "TEAM_SELECTED", finalRunLimit: 1 })],
        organizers: ["organizer"],
        gold: [
          { phase: "hidden", text: SMALL_KEY, as: "organizer" },
          { phase: "chosen", text: SMALL_KEY, as: "organizer" },
        ],
      },
    });
    const task = scenario.task!;
    const hiddenId = task.phases.hidden.id;
    const chosenId = task.phases.chosen.id;
    boards.hidden = `/tasks/${task.slug}/phases/${hiddenId}/leaderboard`;
    boards.chosen = `/tasks/${task.slug}/phases/${chosenId}/leaderboard`;
    const alpha = scenario.users.alpha.token!;
    const beta = scenario.users.beta.token!;
    const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
    runs.alphaHidden = await postRun(api, hiddenId, alpha, SMALL_KEY, "alpha-hidden");
    runs.betaHidden = await postRun(api, hiddenId, beta, SMALL_RESPONSE, "beta-hidden");
    runs.alphaStrong = await postRun(api, chosenId, alpha, SMALL_KEY, "alpha-strong");
    runs.alphaWeak = await postRun(api, chosenId, alpha, SMALL_RESPONSE, "alpha-weak");
    await waitScored(api, runs.alphaHidden, alpha);
    await waitScored(api, runs.betaHidden, beta);
    await waitScored(api, runs.alphaStrong, alpha);
    await waitScored(api, runs.alphaWeak, alpha);
    await api.dispose();
  });

  test("hidden until the close: another team does not see Alpha's row; anonymous readers see no runs", async ({ page }) => {
    await page.goto(boards.hidden);
    await expect(page.getByTestId("board-row")).toHaveCount(0);
    await expect(page.getByTestId("board-policy")).toContainText("The leaderboard is hidden until the phase closes on");

    await signInPage(page, scenario.users.beta);
    await page.goto(boards.hidden);
    const rows = page.getByTestId("board-row");
    await expect(rows.filter({ hasText: "beta-hidden" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "alpha-hidden" })).toHaveCount(0);
    await expect(page.getByTestId("board-policy")).toContainText("you see only your team's runs");
  });

  test("hidden until the close: Alpha sees its own row, highlighted", async ({ page }) => {
    await signInPage(page, scenario.users.alpha);
    await page.goto(boards.hidden);
    const own = page.locator(`[data-testid="board-row"][data-submission-id="${runs.alphaHidden}"]`);
    await expect(own).toHaveAttribute("data-own", "true");
    await expect(own.getByTestId("board-team")).toContainText("your team");
    await expect(page.getByTestId("board-row").filter({ hasText: "beta-hidden" })).toHaveCount(0);
    await page.goto(`/submissions/${runs.alphaHidden}`);
    await expect(page.getByTestId("run-rank")).toContainText("Ranks appear when the phase closes");
  });

  test("team-selected: Alpha marks a run final on the run page, and the board shows that run", async ({ page }) => {
    await page.goto(boards.chosen);
    const weak = page.locator(`[data-testid="board-row"][data-submission-id="${runs.alphaWeak}"]`);
    await expect(weak.getByTestId("selection-fallback")).toHaveText("latest run: no final run chosen");
    await expect(page.locator(`[data-testid="board-row"][data-submission-id="${runs.alphaStrong}"]`)).toHaveCount(0);

    await signInPage(page, scenario.users.alpha);
    await page.goto(`/submissions/${runs.alphaStrong}`);
    const form = page.getByTestId("final-run-form");
    await expect(form.getByTestId("final-run-count")).toContainText("0 of 1 final run chosen");
    await form.getByRole("button", { name: "Count as final", exact: true }).click();
    await expect(form.getByText("This run now counts as one of your team's final runs.")).toBeVisible();
    await expect(form.getByTestId("final-run-count")).toContainText("1 of 1 final run chosen, this one included");
    await expect(form.getByRole("button", { name: "Remove from final runs", exact: true })).toBeVisible();

    await page.goto(boards.chosen);
    const strong = page.locator(`[data-testid="board-row"][data-submission-id="${runs.alphaStrong}"]`);
    await expect(strong).toHaveAttribute("data-selection", "final");
    await expect(strong.getByTestId("board-rank")).toHaveText("1");
    await expect(page.locator(`[data-testid="board-row"][data-submission-id="${runs.alphaWeak}"]`)).toHaveCount(0);
  });
});
