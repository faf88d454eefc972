/**
 * A task's lifecycle end to end (issue 11 §1): a site admin creates a draft on the new-task
 * form; an anonymous reader gets a 404 for it (page and API) and does not find it in /tasks;
 * the overview's publishing checklist names the missing gold key; the organizer uploads it
 * (seed helper), edits the title and the rules, adds a second phase and deletes it, and
 * publishes; the reader then sees the task with its rules; archiving shows the banner.
 *
 * Assumes the task page renders `TaskRules` (testid "task-rules", heading "Rules") and
 * `TaskStatusBanner` (testid "task-status-banner").
 */
import { expect, test } from "@playwright/test";
import { bearer, createToken, createUser, signInPage, type TestUser } from "./helpers/accounts";
import { uniqueTag } from "./helpers/server";
import { SMALL_KEY, uploadGold } from "./helpers/tasks";

const tag = uniqueTag();
const slug = `e2e-life-${tag}`;
const title = `Lifecycle task ${tag}`;
const newTitle = `Lifecycle task ${tag} (2026)`;

test.describe.serial("a task from draft to archive", () => {
  let admin: TestUser;

  test.beforeAll(async () => {
    admin = await createUser({ admin: true, label: "lifecycle" });
  });

  test("a site admin creates a draft that anonymous readers cannot see", async ({ page, browser }) => {
    await signInPage(page, admin);
    await page.goto("/tasks/new");
    await page.getByLabel("Slug").fill(slug);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Description").fill("Resolve every mention.");
    await expect(page.getByRole("group", { name: "Phase 1" }).getByLabel("Phase name")).toHaveValue("development");
    await page.getByRole("button", { name: "Create task" }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${slug}/manage$`));
    await expect(page.getByTestId("task-status-label")).toHaveText("Draft");

    const reader = await browser.newContext();
    const anonymous = await reader.newPage();
    expect((await anonymous.goto(`/tasks/${slug}`))?.status()).toBe(404);
    expect((await anonymous.request.get(`/api/v1/tasks/${slug}`)).status()).toBe(404);
    await anonymous.goto("/tasks");
    await expect(anonymous.getByRole("heading", { level: 1, name: "Tasks" })).toBeVisible();
    await expect(anonymous.getByRole("link", { name: title, exact: true })).toHaveCount(0);
    await reader.close();
  });

  test("the checklist names the missing gold; the organizer uploads it, edits the task, adds and deletes a phase, and publishes", async ({ page, request }) => {
    await signInPage(page, admin);
    await page.goto(`/tasks/${slug}/manage`);
    const gold = page.getByTestId("publish-check-gold");
    await expect(gold).toHaveAttribute("data-ok", "false");
    await expect(gold).toContainText('No active gold key for phase "development"');
    await expect(page.getByTestId("publish-check-description")).toHaveAttribute("data-ok", "true");
    await expect(page.getByRole("button", { name: "Publish task" })).toBeDisabled();

    const token = await createToken(admin);
    const view = (await (await request.get(`/api/v1/tasks/${slug}`, { headers: bearer(token) })).json()) as { task: { status: string; phases: { id: string; name: string }[] } };
    expect(view.task.status).toBe("DRAFT");
    await uploadGold(view.task.phases[0].id, SMALL_KEY, { as: admin });

    // Title and rules.
    const details = page.getByRole("form", { name: "Task details" });
    await details.getByLabel("Title").fill(newTitle);
    await details.getByLabel("Rules").fill("- One team per person.\n- **No** manual annotation of the test data.");
    await details.getByRole("button", { name: "Save details" }).click();
    await expect(details.getByText("Details saved.")).toBeVisible();

    // A second phase, added and deleted on the Phases tab.
    await page.goto(`/tasks/${slug}/manage/phases`);
    // The form is behind the "Add a phase" disclosure.
    const add = page.getByRole("form", { name: "Add phase" });
    await expect(add).toBeHidden();
    await page.getByTestId("add-phase-toggle").click();
    await add.getByLabel("Phase name").fill("extra");
    await expect(add.getByTestId("phase-date-preview")).toContainText("Opens in");
    await add.getByRole("button", { name: "Add phase" }).click();
    const extra = page.getByRole("region", { name: "Phase extra" });
    await expect(extra).toBeVisible();
    await expect(page.getByTestId("manage-phase")).toHaveCount(2);
    // The new phase is not open yet, so its section is collapsed: open it.
    await expect(extra.getByRole("button", { name: "Delete phase" })).toBeHidden();
    await extra.getByTestId("manage-phase-summary").click();
    await extra.getByRole("button", { name: "Delete phase" }).click();
    await extra.getByRole("button", { name: "Yes, delete it" }).click();
    // The page is refreshed by the action: the phase's section goes away.
    await expect(extra).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("manage-phase")).toHaveCount(1);

    await page.goto(`/tasks/${slug}/manage`);
    await expect(page.getByTestId("publish-check-gold")).toHaveAttribute("data-ok", "true");
    await page.getByRole("button", { name: "Publish task" }).click();
    await expect(page.getByText("The task is published: everyone can see it now.")).toBeVisible();
  });

  test("the reader now sees the task with its new title and rules; archiving shows the banner", async ({ page, browser }) => {
    const reader = await browser.newContext();
    const anonymous = await reader.newPage();
    expect((await anonymous.goto(`/tasks/${slug}`))?.status()).toBe(200);
    await expect(anonymous.getByTestId("task-title")).toHaveText(newTitle);
    const rules = anonymous.getByTestId("task-rules");
    await expect(rules.getByRole("heading", { name: "Rules", exact: true })).toBeVisible();
    await expect(rules.locator("li")).toHaveText(["One team per person.", "No manual annotation of the test data."]);
    await expect(anonymous.getByTestId("task-status-banner")).toHaveCount(0);
    await anonymous.goto("/tasks");
    await expect(anonymous.getByRole("link", { name: newTitle, exact: true })).toBeVisible();

    await signInPage(page, admin);
    await page.goto(`/tasks/${slug}/manage`);
    await page.getByRole("button", { name: "Archive task" }).click();
    await expect(page.getByText("The task is archived: it is still public, and read-only.")).toBeVisible();

    await anonymous.goto(`/tasks/${slug}`);
    await expect(anonymous.getByTestId("task-status-banner")).toContainText("this task is read-only");
    await reader.close();
  });
});
