/**
 * Pages on a phone (390 px wide, issue 12 §3): what scrolls sideways inside a page is a named,
 * keyboard-reachable region; and the header folds its links and account controls into a "Menu"
 * disclosure that opens with a click or the keyboard, shows "Sign out" on the screen when
 * signed in, and links to /tasks.
 *
 * That no page itself scrolls sideways, signed out and signed in, with long names, is checked
 * on every page kind by e2e/a11y.spec.ts.
 */
import { expect, test, type Page } from "@playwright/test";
import { signInPage } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL } from "./helpers/server";
import { openPhase, seedScoredRuns, SMALL_KEY, SMALL_RESPONSE } from "./helpers/tasks";

type Users = "alpha";
let scenario: Scenario<Users>;
let slug = "";
let phaseId = "";
let runId = "";

const PHONE = { width: 390, height: 844 };

/** Every scroll region of the page is reachable with the keyboard and named. */
async function expectScrollRegionsReachable(page: Page, path: string): Promise<void> {
  const regions = await page.evaluate(() =>
    Array.from(document.querySelectorAll("main *"))
      .filter((el) => {
        const style = getComputedStyle(el);
        return (style.overflowX === "auto" || style.overflowX === "scroll") && el.scrollWidth > el.clientWidth;
      })
      .map((el) => ({ tabIndex: (el as HTMLElement).tabIndex, role: el.getAttribute("role"), label: el.getAttribute("aria-label"), tag: el.tagName.toLowerCase() })),
  );
  for (const r of regions) {
    expect(r.tabIndex, `${path}: a <${r.tag}> that scrolls sideways is keyboard-reachable`).toBe(0);
    expect(r.role, `${path}: a <${r.tag}> that scrolls sideways is a region`).toBe("region");
    expect(r.label, `${path}: a <${r.tag}> that scrolls sideways is named`).toBeTruthy();
  }
}

/** Signs in at the desktop width (the sign-in helper waits for the desktop header), then narrows the window to a phone's. */
async function signInOnPhone(page: Page): Promise<void> {
  await signInPage(page, scenario.users.alpha);
  await page.setViewportSize(PHONE);
}

/** The page kinds a signed-in participant reaches (the run page with its raw fractions open too), with account and teams. */
function signedInPaths(): string[] {
  return [
    "/",
    "/tasks",
    `/tasks/${slug}`,
    `/tasks/${slug}/phases/${phaseId}/submit`,
    `/submissions/${runId}`,
    `/submissions/${runId}?fractions=1`,
    "/metrics/muc",
    "/account",
    "/teams",
  ];
}

test.describe.serial("every page kind on a phone", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    scenario = await setupScenario<Users>({
      users: { alpha: { name: "E2E participant with a rather long display name for a phone" } },
      teams: { "Team Alpha with a long name that must wrap": ["alpha"] },
      task: { title: "A shared task with a long title to see how it wraps on a phone", phases: [openPhase("test")], gold: [{ phase: "test", text: SMALL_KEY }] },
    });
    slug = scenario.task!.slug;
    phaseId = scenario.task!.phases.test.id;
    const teamId = scenario.teams["Team Alpha with a long name that must wrap"]!.id;
    [runId] = await seedScoredRuns(phaseId, [{ teamId, submitterId: scenario.users.alpha.id, systemName: "a-system-with-a-rather-long-name-v2-final-really", fileName: "out.conll", text: SMALL_RESPONSE }]);
  });

  test("what scrolls sideways inside a page is a named region reachable with the keyboard", async ({ page }) => {
    await signInOnPhone(page);
    for (const path of signedInPaths()) {
      await page.goto(path);
      await expectScrollRegionsReachable(page, path);
    }
  });

  test("signed in, the header menu opens and shows Sign out on the screen; it links to /tasks", async ({ page }) => {
    await signInOnPhone(page);
    await page.goto(`/submissions/${runId}`);
    const nav = page.getByRole("navigation", { name: "Main" });
    const menu = nav.locator("summary", { hasText: "Menu" });
    await expect(menu).toBeVisible();
    await expect(menu).toBeInViewport();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toHaveAttribute("aria-controls", /.+/);
    // Closed, the menu's links and "Sign out" are not shown.
    await expect(nav.getByRole("button", { name: "Sign out", exact: true })).toBeHidden();

    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const panel = page.locator(`#${await menu.getAttribute("aria-controls")}`);
    await expect(panel).toBeVisible();
    const signOut = panel.getByRole("button", { name: "Sign out", exact: true });
    await expect(signOut).toBeVisible();
    await expect(signOut).toBeInViewport({ ratio: 1 });
    await expect(panel.getByTestId("menu-signed-in-as")).toContainText(scenario.users.alpha.name);
    await expect(panel.getByRole("link", { name: "Tasks", exact: true })).toHaveAttribute("href", "/tasks");
    for (const name of ["Metrics", "Teams", "Account"]) await expect(panel.getByRole("link", { name, exact: true })).toBeVisible();
    // Opening the menu widens nothing.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    // A link in the menu leads to its page and the menu closes there.
    await panel.getByRole("link", { name: "Tasks", exact: true }).click();
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(page.getByRole("heading", { level: 1, name: "Tasks" })).toBeVisible();
    await expect(nav.locator("summary", { hasText: "Menu" })).toHaveAttribute("aria-expanded", "false");
  });

  test("the header menu works with the keyboard: Enter opens it, Escape closes it and returns the focus", async ({ page }) => {
    await signInOnPhone(page);
    await page.goto("/tasks");
    const menu = page.getByRole("navigation", { name: "Main" }).locator("summary", { hasText: "Menu" });
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const panel = page.locator(`#${await menu.getAttribute("aria-controls")}`);
    await expect(panel.getByRole("button", { name: "Sign out", exact: true })).toBeInViewport({ ratio: 1 });
    await page.keyboard.press("Tab");
    await expect(panel.getByRole("link", { name: "Tasks", exact: true })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await expect(panel.getByRole("button", { name: "Sign out", exact: true })).toBeHidden();
  });

  test("signed out, the header menu offers Sign in and Sign up", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/");
    const menu = page.getByRole("navigation", { name: "Main" }).locator("summary", { hasText: "Menu" });
    await menu.click();
    const panel = page.locator(`#${await menu.getAttribute("aria-controls")}`);
    await expect(panel.getByRole("link", { name: "Sign in", exact: true })).toBeInViewport({ ratio: 1 });
    await expect(panel.getByRole("link", { name: "Sign up", exact: true })).toBeInViewport({ ratio: 1 });
    await expect(panel.getByRole("link", { name: "Tasks", exact: true })).toHaveAttribute("href", "/tasks");
  });

  test("at desktop width the header is one row without the menu", async ({ page }) => {
    await signInPage(page, scenario.users.alpha);
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.locator("summary", { hasText: "Menu" })).toBeHidden();
    await expect(nav.getByRole("button", { name: "Sign out", exact: true })).toBeInViewport();
    await expect(nav.getByRole("link", { name: "Tasks", exact: true })).toHaveAttribute("href", "/tasks");
  });

  test("without JavaScript the menu still opens (a <details>)", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE, baseURL: BASE_URL });
    const page = await context.newPage();
    await page.goto("/tasks");
    const menu = page.getByRole("navigation", { name: "Main" }).locator("summary", { hasText: "Menu" });
    await menu.click();
    const panel = page.locator(`#${await menu.getAttribute("aria-controls")}`);
    await expect(panel.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
    await context.close();
  });
});
