/**
 * The organizers' audit log (issue 11 §3 "Audit"), end to end: an organizer changes a
 * phase's daily limit on the console's Phases tab, the admin uploads a gold key; the organizer
 * opens the console's Audit tab, sees who changed what ("dailyLimit: 2 → 4"), filters
 * by action; the API answers the same events to the organizer's token and 403 to a
 * participant-less outsider.
 */
import { expect, test } from "@playwright/test";
import { bearer, createToken, createUser, signInPage, type TestUser } from "./helpers/accounts";
import { addOrganizer, createTask, openPhase, SMALL_KEY, uploadGold, type TestTask } from "./helpers/tasks";

let organizer: TestUser;
let outsider: TestUser;
let task: TestTask;

test.beforeAll(async () => {
  organizer = await createUser({ label: "auditorg" });
  outsider = await createUser({ label: "auditout" });
  task = await createTask({ phases: [openPhase("test", { dailyLimit: 2 })] });
  await addOrganizer(task, organizer);
  await uploadGold(task.phases.test.id, SMALL_KEY);
});

test("an organizer sees a phase change in the audit log, with who and what changed, and filters by action", async ({ page }) => {
  await signInPage(page, organizer);
  await page.goto(`/tasks/${task.slug}/manage/phases`);
  const settings = page.getByRole("region", { name: "Phase test" }).getByRole("form", { name: "Phase settings" });
  await settings.getByLabel("Runs per team per day").fill("4");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByText("Settings saved.")).toBeVisible();

  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${task.slug}/manage/audit$`));
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const rows = page.getByTestId("audit-row");
  // Newest first: the phase change is the first row.
  await expect(rows.first().getByTestId("audit-action")).toHaveText("phase.update");
  await expect(rows.first()).toContainText(organizer.name);
  await expect(rows.first()).toContainText("test");
  await expect(rows.first().getByTestId("audit-changes")).toContainText("dailyLimit: 2 → 4");
  await expect(page.getByTestId("audit-action").filter({ hasText: "gold.upload" })).toHaveCount(1);

  await page.getByLabel("Action").selectOption("gold.upload");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=gold\.upload/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId("audit-action")).toHaveText("gold.upload");
  await expect(page.getByTestId("audit-action").filter({ hasText: "phase.update" })).toHaveCount(0);
});

test("the API lists the task's events to an organizer's token; 403 to an outsider, 422 for an unknown action", async ({ request }) => {
  const token = await createToken(organizer);
  const answer = await request.get(`/api/v1/tasks/${task.slug}/audit?action=gold.upload`, { headers: bearer(token) });
  expect(answer.status()).toBe(200);
  const body = (await answer.json()) as { events: { action: string; target: { type: string } }[]; next: string | null };
  expect(body.events.map((e) => [e.action, e.target.type])).toEqual([["gold.upload", "gold_key"]]);
  expect(body.next).toBeNull();

  const unknown = await request.get(`/api/v1/tasks/${task.slug}/audit?action=nope`, { headers: bearer(token) });
  expect(unknown.status()).toBe(422);

  const outsiderToken = await createToken(outsider);
  expect((await request.get(`/api/v1/tasks/${task.slug}/audit`, { headers: bearer(outsiderToken) })).status()).toBe(403);
});
