/**
 * The organizer's console and the pages issue 11 added, on a phone (390 px wide): no page
 * scrolls sideways (wide tables scroll inside their own container), and the console's tab bar
 * reaches every tab.
 */
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { bearer, signInPage } from "./helpers/accounts";
import { expectNoSidewaysScroll } from "./helpers/a11y";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL } from "./helpers/server";
import { openPhase, postRun, SMALL_KEY, SMALL_RESPONSE, waitScored } from "./helpers/tasks";

type Users = "organizer" | "alpha";
let scenario: Scenario<Users>;
let slug = "";
let phaseId = "";
let runId = "";

/** Signs in (the header shows who is signed in at desktop widths only), then narrows the window to a phone's. */
async function signInOnPhone(page: Page, user: Scenario<Users>["users"][Users]): Promise<void> {
  await signInPage(page, user);
  await page.setViewportSize({ width: 390, height: 844 });
}

test.describe.serial("issue 11's pages on a phone", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    scenario = await setupScenario<Users>({
      users: { organizer: { token: true }, alpha: { token: true } },
      teams: { "Team Alpha with a rather long name": ["alpha"] },
      task: { phases: [openPhase("test")], organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    slug = scenario.task!.slug;
    phaseId = scenario.task!.phases.test.id;
    const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
    runId = await postRun(api, phaseId, scenario.users.alpha.token!, SMALL_RESPONSE, "a-system-with-a-long-name-v2");
    await waitScored(api, runId, scenario.users.alpha.token!);
    const closed = await api.patch(`/api/v1/phases/${phaseId}`, { headers: bearer(scenario.users.organizer.token!), data: { closesAt: new Date(Date.now() - 60_000).toISOString() } });
    expect(closed.status(), await closed.text()).toBe(200);
    const published = await api.post(`/api/v1/phases/${phaseId}/results`, { headers: bearer(scenario.users.organizer.token!), data: { note: "Final." } });
    expect(published.status(), await published.text()).toBe(201);
    await api.dispose();
  });

  test("the console's tabs do not scroll sideways, and the tab bar reaches every tab", async ({ page }) => {
    await signInOnPhone(page, scenario.users.organizer);
    for (const tab of ["", "/phases", "/gold", "/submissions", "/teams", "/audit"]) {
      const path = `/tasks/${slug}/manage${tab}`;
      expect((await page.goto(path))?.status(), path).toBe(200);
      await expectNoSidewaysScroll(page, path);
    }
    const tabs = page.getByRole("navigation", { name: "Console" });
    await tabs.getByRole("link", { name: "Audit", exact: true }).scrollIntoViewIfNeeded();
    await expect(tabs.getByRole("link", { name: "Audit", exact: true })).toBeInViewport();
  });

  test("the task page, the task list, the run page and the final results do not scroll sideways", async ({ page }) => {
    await signInOnPhone(page, scenario.users.alpha);
    for (const path of [`/tasks/${slug}`, "/tasks", `/submissions/${runId}`, `/tasks/${slug}/phases/${phaseId}/results`, `/tasks/${slug}/phases/${phaseId}/results/1`, "/account", "/teams"]) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      await expectNoSidewaysScroll(page, path);
    }
  });
});
