/**
 * Final results snapshots end to end (issue 11 §2):
 * - two teams' runs are scored; the organizer closes the phase (PATCH closesAt to a minute ago,
 *   through the API);
 * - the organizer publishes the final results in the console's card (a note, the confirmation
 *   checkbox, then "Publish final results"); publishing without the confirmation changes nothing;
 * - an anonymous reader opens the permalink, sees the ranking and the note, downloads the CSV,
 *   and its sha256 equals the one shown on the page (and the route's `X-Content-SHA256`).
 *
 * Assumes the console renders `SnapshotPublishCard` for the phase on {@link consoleTab} (the
 * phases tab), and the task page renders `PhaseResultsLink` for it.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { bearer, signInPage } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL } from "./helpers/server";
import { openPhase, postRun, SMALL_KEY, SMALL_RESPONSE, waitScored } from "./helpers/tasks";

type Users = "organizer" | "alpha" | "beta";
let scenario: Scenario<Users>;
let phaseId = "";
let slug = "";
let permalink = "";

const NOTE = "Final ranking of the test phase.";

/** The console tab that holds the phase's final results card. */
const consoleTab = () => `/tasks/${slug}/manage/phases`;

test.describe.serial("final results snapshots", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    scenario = await setupScenario<Users>({
      users: { organizer: { token: true }, alpha: { token: true }, beta: { token: true } },
      teams: { "Team Alpha": ["alpha"], "Team Beta": ["beta"] },
      task: { phases: [openPhase("test")], organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    phaseId = scenario.task!.phases.test.id;
    slug = scenario.task!.slug;
    const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
    const alpha = await postRun(api, phaseId, scenario.users.alpha.token!, SMALL_KEY, "alpha-best");
    const beta = await postRun(api, phaseId, scenario.users.beta.token!, SMALL_RESPONSE, "beta-run");
    await waitScored(api, alpha, scenario.users.alpha.token!);
    await waitScored(api, beta, scenario.users.beta.token!);
    // The organizer closes the phase.
    const closed = await api.patch(`/api/v1/phases/${phaseId}`, {
      headers: bearer(scenario.users.organizer.token!),
      data: { closesAt: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(closed.status(), await closed.text()).toBe(200);
    await api.dispose();
  });

  test("the organizer publishes the final results with a note in the console", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInPage(page, scenario.users.organizer);
    await page.goto(consoleTab());
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
    const published = card.getByTestId("snapshot-published-link");
    await expect(published).toHaveText("Snapshot #1");
    permalink = (await published.getAttribute("href"))!;
    expect(permalink).toBe(`/tasks/${slug}/phases/${phaseId}/results/1`);
    await context.close();
  });

  test("an anonymous reader opens the permalink, sees the ranking, and downloads the CSV whose sha256 is the one shown", async ({ page, request }) => {
    expect(permalink, "the previous test published the snapshot").not.toBe("");
    await page.goto(`/tasks/${slug}`);
    await expect(page.getByTestId("phase-results-link").getByRole("link", { name: "Final results", exact: true })).toHaveAttribute("href", permalink);

    await page.goto(permalink);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Final results: test phase");
    await expect(page.getByTestId("snapshot-note")).toContainText(NOTE);
    await expect(page.getByTestId("snapshot-changes-list")).toHaveText("First published results.");
    const rows = page.getByTestId("board-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByTestId("board-system")).toContainText("alpha-best");
    await expect(rows.nth(0).getByTestId("board-rank")).toHaveText("1");
    await expect(rows.nth(1).getByTestId("board-system")).toContainText("beta-run");
    await expect(rows.nth(1).getByTestId("board-rank")).toHaveText("2");
    await expect(page.getByTestId("snapshot-gold")).toHaveText("main: version 1");

    const shown = (await page.getByTestId("csv-sha256").textContent())!.trim();
    expect(shown).toMatch(/^[0-9a-f]{64}$/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-csv").click()]);
    expect(download.suggestedFilename()).toBe(`${slug}-test-results-1.csv`);
    const bytes = await readFile((await download.path())!);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(shown);
    expect(bytes.toString("utf8")).toContain("alpha-best");

    const answer = await request.get(`/api/v1/phases/${phaseId}/results/1/csv`);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["x-content-sha256"]).toBe(shown);
    expect(createHash("sha256").update(await answer.body()).digest("hex")).toBe(shown);
  });
});
