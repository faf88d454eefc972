/**
 * Leaderboard policy end to end (issue 11 §2):
 * - a phase whose board is hidden until it closes ("after_close"): before the close, team Beta
 *   does not see team Alpha's row, and Alpha sees its own row, highlighted ("your team",
 *   `data-own="true"`), with the notice "The leaderboard is hidden until the phase closes …";
 *   anonymous readers see no runs.
 *
 * (Final runs of a team-selected phase, chosen on the run page, are e2e/whole-task.spec.ts's.)
 *
 * Runs (written scored through the database by the worker's own job: `seedScoredRuns`): Alpha "alpha-hidden" (the gold key itself),
 * Beta "beta-hidden".
 */
import { expect, test } from "@playwright/test";
import { signInPage } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { openPhase, seedScoredRuns, SMALL_KEY, SMALL_RESPONSE, type TestPhaseInput } from "./helpers/tasks";

type Users = "organizer" | "alpha" | "beta";
let scenario: Scenario<Users>;
const boards = { hidden: "" };
const runs = { alphaHidden: "", betaHidden: "" };

/** Phase settings beyond {@link TestPhaseInput}'s (the phase schema accepts them). */
function phase(name: string, policy: Record<string, unknown>): TestPhaseInput {
  return { ...openPhase(name), ...policy } as TestPhaseInput;
}

test.describe.serial("leaderboard policy", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    scenario = await setupScenario<Users>({
      users: { organizer: {}, alpha: {}, beta: {} },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"] },
      task: {
        phases: [phase("hidden", { leaderboardTiming: "after_close" })],
        organizers: ["organizer"],
        gold: [
          { phase: "hidden", text: SMALL_KEY, as: "organizer" },
        ],
      },
    });
    const task = scenario.task!;
    const hiddenId = task.phases.hidden.id;
    boards.hidden = `/tasks/${task.slug}/phases/${hiddenId}/leaderboard`;
    [runs.alphaHidden, runs.betaHidden] = await seedScoredRuns(hiddenId, [
      { teamId: scenario.teams["Team Alpha"]!.id, submitterId: scenario.users.alpha.id, systemName: "alpha-hidden", fileName: "out.conll", text: SMALL_KEY },
      { teamId: scenario.teams["Team Beta"]!.id, submitterId: scenario.users.beta.id, systemName: "beta-hidden", fileName: "out.conll", text: SMALL_RESPONSE },
    ]);
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
});
