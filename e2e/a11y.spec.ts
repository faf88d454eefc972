/**
 * Accessibility as a test (issue 12 §7) and phones (§3): every page kind, at desktop width
 * (1280 px) and on a phone (390 px), signed out and signed in, has 0 WCAG 2.1 A/AA violations
 * by axe-core, and no page scrolls sideways at 390 px.
 *
 * Page kinds: home, task list, task page, leaderboard, submit page, run page, error-analysis
 * document view, compare (pickers and two runs), metrics list and one metric, final results
 * (list and one snapshot), team progress, account, teams, new task, the organizer's console
 * (six tabs), sign-in, sign-up, forgot password.
 */
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { documentHref } from "../lib/hrefs";
import { bearer, signInPage } from "./helpers/accounts";
import { expectNoAxeViolations, expectNoSidewaysScroll } from "./helpers/a11y";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL } from "./helpers/server";
import { openPhase, postRun, SMALL_KEY, SMALL_RESPONSE, waitScored } from "./helpers/tasks";

type Users = "organizer" | "alpha" | "beta";
let scenario: Scenario<Users>;
let pages: { signedOut: string[]; alpha: string[]; organizer: string[] };

const WIDTHS = [1280, 390] as const;

/** Opens `path`, expects a 200, then checks axe and (on a phone) the page width. */
async function check(page: Page, path: string, width: number): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), `${path} at ${width} px`).toBe(200);
  await expectNoAxeViolations(page, `${path} at ${width} px`);
  if (width < 640) await expectNoSidewaysScroll(page, `${path} at ${width} px`);
}

test.describe.serial("every page kind: axe finds no WCAG 2.1 AA violation; nothing scrolls sideways at 390 px", () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    scenario = await setupScenario<Users>({
      users: { organizer: { token: true }, alpha: { token: true }, beta: { token: true } },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"] },
      task: { phases: [openPhase("test")], organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    const slug = scenario.task!.slug;
    const phaseId = scenario.task!.phases.test.id;
    const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
    const alphaRun = await postRun(api, phaseId, scenario.users.alpha.token!, SMALL_RESPONSE, "alpha-system");
    const betaRun = await postRun(api, phaseId, scenario.users.beta.token!, SMALL_KEY, "beta-system");
    await waitScored(api, alphaRun, scenario.users.alpha.token!);
    await waitScored(api, betaRun, scenario.users.beta.token!);
    // The phase closes and its final results are published (the submit page then says it is closed).
    const organizer = bearer(scenario.users.organizer.token!);
    const closed = await api.patch(`/api/v1/phases/${phaseId}`, { headers: organizer, data: { closesAt: new Date(Date.now() - 60_000).toISOString() } });
    expect(closed.status(), await closed.text()).toBe(200);
    const published = await api.post(`/api/v1/phases/${phaseId}/results`, { headers: organizer, data: { note: "Final." } });
    expect(published.status(), await published.text()).toBe(201);
    await api.dispose();

    const task = `/tasks/${slug}`;
    const phase = `${task}/phases/${phaseId}`;
    const common = [
      "/",
      "/tasks",
      task,
      `${phase}/leaderboard`,
      `/submissions/${betaRun}`,
      "/compare",
      `/compare?a=${alphaRun}&b=${betaRun}`,
      "/metrics",
      "/metrics/muc",
      `${phase}/teams/${scenario.teams["Team Beta"].id}`,
      `${phase}/results`,
      `${phase}/results/1`,
    ];
    pages = {
      signedOut: [...common, "/signin", "/signup", "/forgot-password"],
      // (The error analysis is the organizers' by default: the document view is checked as an organizer.)
      alpha: [...common, `${phase}/submit`, `/submissions/${alphaRun}`, "/account", "/teams"],
      organizer: [
        `${phase}/leaderboard`,
        documentHref(betaRun, "beta/part 0"),
        "/tasks/new",
        `${task}/manage`,
        `${task}/manage/phases`,
        `${task}/manage/gold`,
        `${task}/manage/submissions`,
        `${task}/manage/teams`,
        `${task}/manage/audit`,
      ],
    };
  });

  for (const width of WIDTHS) {
    test(`signed out, ${width} px`, async ({ page }) => {
      test.setTimeout(240_000);
      await page.setViewportSize({ width, height: 900 });
      for (const path of pages.signedOut) await check(page, path, width);
    });

    test(`signed in as a participant, ${width} px`, async ({ page }) => {
      test.setTimeout(240_000);
      await signInPage(page, scenario.users.alpha);
      await page.setViewportSize({ width, height: 900 });
      for (const path of pages.alpha) await check(page, path, width);
    });

    test(`signed in as an organizer, ${width} px`, async ({ page }) => {
      test.setTimeout(240_000);
      await signInPage(page, scenario.users.organizer);
      await page.setViewportSize({ width, height: 900 });
      for (const path of pages.organizer) await check(page, path, width);
    });
  }
});
