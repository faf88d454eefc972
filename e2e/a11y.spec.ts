/**
 * Accessibility as a test (issue 12 §7) and phones (§3): every page kind, at desktop width
 * (1280 px) and on a phone (390 px), signed out and signed in, in the light and the dark
 * colour scheme (issue 24 §5), has 0 WCAG 2.1 A/AA violations by axe-core, and no page
 * scrolls sideways at 390 px. Each page has one `<main id="main">` and, as the first thing
 * Tab reaches, the link "Skip to main content" to it; the keyboard is tried on it once.
 *
 * Page kinds: home, task list, task page, leaderboard, submit page (of an open and of a closed
 * phase), run page (also with its raw fractions open), error-analysis document view (in
 * e2e/document-view.spec.ts), compare
 * (pickers and two runs), metrics list and two metrics (LEA has the widest formulas), final results (list and one snapshot),
 * team progress, account, teams, new task, the organizer's console (six tabs; its tab bar
 * reaches the last tab on a phone), sign-in, sign-up, forgot password.
 *
 * The names are long where a phone could be made to scroll sideways by them: the task's title,
 * the participant's display name, a team's name and a run's system name.
 */
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { bearer, signInPage } from "./helpers/accounts";
import { DESKTOP_AND_PHONE, expectAccessibleAtWidths, MAIN_ID, SKIP_LINK_TEXT } from "./helpers/a11y";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL } from "./helpers/server";
import { openPhase, seedScoredRuns, SMALL_KEY, SMALL_RESPONSE } from "./helpers/tasks";

type Users = "organizer" | "alpha" | "beta";
let scenario: Scenario<Users>;
let pages: { signedOut: string[]; alpha: string[]; organizer: string[] };

test.describe.serial("every page kind: axe finds no WCAG 2.1 AA violation; nothing scrolls sideways at 390 px", () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    scenario = await setupScenario<Users>({
      users: { organizer: { token: true }, alpha: { name: "E2E participant with a rather long display name for a phone" }, beta: {} },
      teams: { "Team Alpha with a long name that must wrap": ["alpha"], "Team Beta": ["beta"] },
      task: {
        title: "A shared task with a long title to see how it wraps on a phone",
        phases: [openPhase("test"), openPhase("dev")],
        organizers: ["organizer"],
        gold: [
          { phase: "test", text: SMALL_KEY, as: "organizer" },
          { phase: "dev", text: SMALL_KEY, as: "organizer" },
        ],
      },
    });
    const slug = scenario.task!.slug;
    const phaseId = scenario.task!.phases.test.id;
    const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
    const [alphaRun, betaRun] = await seedScoredRuns(phaseId, [
      { teamId: scenario.teams["Team Alpha with a long name that must wrap"]!.id, submitterId: scenario.users.alpha.id, systemName: "a-system-with-a-rather-long-name-v2-final-really", fileName: "out.conll", text: SMALL_RESPONSE },
      { teamId: scenario.teams["Team Beta"]!.id, submitterId: scenario.users.beta.id, systemName: "beta-system", fileName: "out.conll", text: SMALL_KEY },
    ]);
    // The phase closes and its final results are published (the submit page then says it is closed).
    const organizer = bearer(scenario.users.organizer.token!);
    const closed = await api.patch(`/api/v1/phases/${phaseId}`, { headers: organizer, data: { closesAt: new Date(Date.now() - 60_000).toISOString() } });
    expect(closed.status(), await closed.text()).toBe(200);
    const published = await api.post(`/api/v1/phases/${phaseId}/results`, { headers: organizer, data: { note: "Final." } });
    expect(published.status(), await published.text()).toBe(201);
    await api.dispose();

    const task = `/tasks/${slug}`;
    const phase = `${task}/phases/${phaseId}`;
    const openSubmit = `${task}/phases/${scenario.task!.phases.dev.id}/submit`;
    // The leaderboard, signed out and as a participant of a team on it, at both widths, and the
    // document view as an organizer: e2e/leaderboard-ui.spec.ts (a 60-run board, its widest
    // and paged views) and e2e/document-view.spec.ts check them, with the same viewers.
    const common = [
      "/",
      "/tasks",
      task,
      `/submissions/${betaRun}`,
      "/compare",
      `/compare?a=${alphaRun}&b=${betaRun}`,
      `${phase}/teams/${scenario.teams["Team Beta"].id}`,
      `${phase}/results`,
      `${phase}/results/1`,
    ];
    // The metric pages are the same for every viewer but for the page frame's header, which
    // the participant's other pages check signed in: they are checked signed out only.
    const metrics = ["/metrics", "/metrics/muc", "/metrics/lea"];
    pages = {
      signedOut: [...common, ...metrics, openSubmit, "/signin", "/signup", "/forgot-password"],
      alpha: [...common, `${phase}/submit`, openSubmit, `/submissions/${alphaRun}`, `/submissions/${alphaRun}?fractions=1`, "/account", "/teams"],
      organizer: [
        `${phase}/leaderboard`,
        "/tasks/new",
        `${task}/manage`,
        `${task}/manage/phases`,
        `${task}/manage/results`,
        `${task}/manage/gold`,
        `${task}/manage/submissions`,
        `${task}/manage/teams`,
        `${task}/manage/audit`,
      ],
    };
  });

  test("the skip link: the first Tab reaches it, visibly; Enter moves the focus to the main content", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/tasks/${scenario.task!.slug}`);
    const skip = page.getByRole("link", { name: SKIP_LINK_TEXT });
    // Out of sight until it has the focus.
    await expect(skip).not.toBeInViewport();
    await page.keyboard.press("Tab");
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport({ ratio: 1 });
    expect((await skip.boundingBox())!.width).toBeGreaterThan(50);
    // Its focus ring (a box shadow: Tailwind's ring).
    expect(await skip.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe("none");

    await page.keyboard.press("Enter");
    await expect(page.locator(`main#${MAIN_ID}`)).toBeFocused();
    expect(new URL(page.url()).hash).toBe(`#${MAIN_ID}`);
    // The next Tab goes on inside the main content, past the header's links.
    await page.keyboard.press("Tab");
    expect(await page.evaluate((id) => document.activeElement?.closest(`main#${id}`) !== null, MAIN_ID)).toBe(true);
  });

  // Each page is opened once at 1280 px and checked there, then narrowed to 390 px and checked
  // again (e2e/helpers/a11y.ts): the same page states as loading it at each width. At each
  // width axe runs in the light and the dark colour scheme, on the same page.
  test(`signed out, ${DESKTOP_AND_PHONE.join(" and ")} px`, async ({ page }) => {
    test.setTimeout(240_000);
    for (const path of pages.signedOut) await expectAccessibleAtWidths(page, path);
  });

  test(`signed in as a participant, ${DESKTOP_AND_PHONE.join(" and ")} px`, async ({ page }) => {
    test.setTimeout(240_000);
    await signInPage(page, scenario.users.alpha);
    for (const path of pages.alpha) await expectAccessibleAtWidths(page, path);
  });

  test(`signed in as an organizer, ${DESKTOP_AND_PHONE.join(" and ")} px`, async ({ page }) => {
    test.setTimeout(240_000);
    await signInPage(page, scenario.users.organizer);
    for (const path of pages.organizer) await expectAccessibleAtWidths(page, path);
    // On a phone the console's tab bar scrolls sideways inside itself, and reaches its last tab.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/tasks/${scenario.task!.slug}/manage`);
    const audit = page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit", exact: true });
    await audit.scrollIntoViewIfNeeded();
    await expect(audit).toBeInViewport();
  });
});
