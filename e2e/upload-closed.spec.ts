/**
 * With no runs left today, the submit page's upload form is closed before anything is sent: it
 * says when the next upload is possible, and its controls are disabled (the API refuses too).
 */
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { signInPage } from "./helpers/accounts";
import { setupScenario } from "./helpers/scenario";
import { BASE_URL } from "./helpers/server";
import { openPhase, postRun, SMALL_KEY, SMALL_RESPONSE } from "./helpers/tasks";

test("no runs left today: the upload form says when the next is possible and is disabled", async ({ page }) => {
  const scenario = await setupScenario<"alpha">({
    users: { alpha: { token: true } },
    teams: { "Team Alpha": ["alpha"] },
    task: { phases: [openPhase("test", { dailyLimit: 1 })], gold: [{ phase: "test", text: SMALL_KEY }] },
  });
  const phaseId = scenario.task!.phases.test.id;
  const submit = `/tasks/${scenario.task!.slug}/phases/${phaseId}/submit`;
  await signInPage(page, scenario.users.alpha);
  await page.goto(submit);
  await expect(page.getByTestId("upload-closed")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Upload and score" })).toBeEnabled();

  const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
  await postRun(api, phaseId, scenario.users.alpha.token!, SMALL_RESPONSE, "only-run-today");
  await api.dispose();

  await page.goto(submit);
  await expect(page.getByTestId("upload-closed")).toContainText("no runs left today; the next upload is possible from");
  await expect(page.getByTestId("upload-closed")).toContainText("00:00 UTC");
  await expect(page.getByRole("button", { name: "Upload and score" })).toBeDisabled();
  await expect(page.getByLabel("System output file")).toBeDisabled();
});
