/**
 * Organizers and teams, end to end (the console is tabs: overview, phases, gold, teams, …):
 * - a site admin (made with the admin CLI) creates a draft task with two phases (the form
 *   starts with one; the second is added), uploads a valid gold key on the Gold tab (exact
 *   statistics shown) and an invalid one (line-numbered error, nothing stored), uploads a blind
 *   test input of its own (the gold key itself is refused as one), uploads the
 *   second phase's key and publishes the task from the overview's checklist; an anonymous
 *   visitor sees the task and its phases without any gold content;
 *   other users cannot create tasks or reach the manage page; the organizer sets a phase's
 *   participant analysis and team per-document scores, and changes the team a participant
 *   submits for in the task (one team per user per task);
 * - a user creates a team and a second user joins it with the join code (shown to owners only).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { bearer, createUser, signInPage, type TestUser } from "./helpers/accounts";
import { setupScenario } from "./helpers/scenario";
import { uniqueTag } from "./helpers/server";

const tag = uniqueTag();
const slug = `e2e-task-${tag}`;
const title = `E2E Coreference Task ${tag}`;

/** A tiny CoNLL-2012 key: 2 documents, 12 tokens, 5 mentions, 4 entities, 3 of them singletons. */
const GOLD = [
  "#begin document (doc1); part 000",
  "doc1\t0\t0\tJohn\t(0)",
  "doc1\t0\t1\tsaw\t-",
  "doc1\t0\t2\tMary\t(1)",
  "doc1\t0\t3\t.\t-",
  "",
  "doc1\t0\t0\tHe\t(0)",
  "doc1\t0\t1\twaved\t-",
  "doc1\t0\t2\tat\t-",
  "doc1\t0\t3\tthe\t(2",
  "doc1\t0\t4\tdog\t2)",
  "#end document",
  "#begin document (doc2); part 000",
  "doc2\t0\t0\tShe\t(3)",
  "doc2\t0\t1\tleft\t-",
  "doc2\t0\t2\t.\t-",
  "#end document",
  "",
].join("\n");
/** The same key with a bad chain item on line 8, column 16. */
const BAD_GOLD = GOLD.replace("doc1\t0\t1\twaved\t-", "doc1\t0\t1\twaved\t(x");

const goldSha256 = createHash("sha256").update(GOLD).digest("hex");
/** The key without its coreference: a blind input the organizers make themselves. */
const BLIND = GOLD.replace(/\t[^\t\n]*[()][^\t\n]*$/gm, "\t-");

// The files are written in the worker (not when Playwright merely lists the tests) and removed afterwards.
let dir = "";
let goldFile = "";
let badFile = "";
let blindFile = "";
test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "corefboard-e2e-gold-"));
  goldFile = path.join(dir, "key.conll");
  badFile = path.join(dir, "bad.conll");
  writeFileSync(goldFile, GOLD);
  writeFileSync(badFile, BAD_GOLD);
  blindFile = path.join(dir, "blind.conll");
  writeFileSync(blindFile, BLIND);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A UTC instant `days` from now as a `datetime-local` value ("YYYY-MM-DDTHH:mm"). */
function localInput(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 16);
}

/** Types `value` into the field labelled `label` (within `scope`), then presses the button named `button`. */
async function fillAndSubmit(scope: Page | Locator, label: string, value: string, button: string): Promise<void> {
  await scope.getByLabel(label).fill(value);
  await scope.getByRole("button", { name: button }).click();
}

/** A new browser context and page signed in as `user` (close the context when done). */
async function pageAs(browser: Browser, user: TestUser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInPage(page, user);
  return page;
}

test.describe.serial("an organizer creating a task and uploading gold", () => {
  let admin: TestUser;

  test.beforeAll(async () => {
    admin = await createUser({ admin: true, label: "organizer" });
  });

  test("a site admin creates a draft task with two phases (inline errors first)", async ({ page }) => {
    await signInPage(page, admin);
    await page.goto("/tasks/new");
    await expect(page.getByRole("heading", { name: "New task" })).toBeVisible();

    await page.getByLabel("Slug").fill("Not A Slug");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Description").fill("Resolve **all** mentions.\n\n- MUC\n- B³\n\n<script>alert(1)</script>");
    await page.getByLabel("Data licence").fill("CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)");
    await page.getByLabel("Data source").fill("LitBank (https://github.com/dbamman/litbank)");
    await page.getByLabel("Primary metric").selectOption("conll");

    const dev = page.getByRole("group", { name: "Phase 1" });
    await expect(dev.getByLabel("Phase name")).toHaveValue("development");
    // The form starts with one phase; the organizer adds a second.
    await expect(page.getByRole("group", { name: "Phase 2" })).toHaveCount(0);
    await page.getByRole("button", { name: "Add a phase" }).click();
    await dev.getByLabel("Opens").fill(localInput(-1));
    await dev.getByLabel("Closes").fill(localInput(30));
    await dev.getByLabel("Runs per team per day").fill("3");
    await dev.getByLabel("Runs per team in total").fill("");

    const testPhase = page.getByRole("group", { name: "Phase 2" });
    await expect(testPhase.getByLabel("Phase name")).toHaveValue("test");
    await testPhase.getByLabel("Display time zone").selectOption("AoE");
    await testPhase.getByLabel("Opens").fill(localInput(40));
    await testPhase.getByLabel("Closes").fill(localInput(35));
    await testPhase.getByLabel("Leaderboard visibility").selectOption("ORGANIZERS");

    await page.getByRole("button", { name: "Create task" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("Please correct the marked fields.");
    await expect(page.getByText("use lower-case letters, digits and single hyphens")).toBeVisible();
    await expect(testPhase.getByText("must be later than the opening time")).toBeVisible();
    // The typed values survive the failed attempt.
    await expect(page.getByLabel("Title")).toHaveValue(title);
    await expect(testPhase.getByLabel("Display time zone")).toHaveValue("AoE");

    await page.getByLabel("Slug").fill(slug);
    await testPhase.getByLabel("Closes").fill(localInput(50));
    await page.getByRole("button", { name: "Create task" }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${slug}/manage$`));
    await expect(page.getByRole("heading", { name: `Manage ${title}` })).toBeVisible();
    await expect(page.getByTestId("task-status-label")).toHaveText("Draft");
    await expect(page.getByTestId("publish-check-gold")).toHaveAttribute("data-ok", "false");
    await expect(page.getByRole("button", { name: "Publish task" })).toBeDisabled();
    await expect(page.getByTestId("organizer-list")).toContainText(admin.name);
    await page.goto(`/tasks/${slug}/manage/phases`);
    await expect(page.getByTestId("manage-phase")).toHaveCount(2);
  });

  test("uploads a valid gold key and sees its exact statistics, then an invalid one and its line number; publishes once both phases have gold", async ({ page }) => {
    await signInPage(page, admin);
    await page.goto(`/tasks/${slug}/manage/gold`);
    const dev = page.getByRole("region", { name: "Gold of phase development" });

    await dev.getByLabel("Gold key file").setInputFiles(goldFile);
    await dev.getByRole("button", { name: "Upload gold key" }).click();
    const stats = dev.getByTestId("gold-upload-stats");
    await expect(stats).toBeVisible();
    await expect(dev.getByText("Gold key version 1 (key.conll) is now active. 0 submissions were re-queued for scoring.")).toBeVisible();
    await expect(stats.getByTestId("gold-stat-documents")).toHaveText("2");
    await expect(stats.getByTestId("gold-stat-tokens")).toHaveText("12");
    await expect(stats.getByTestId("gold-stat-mentions")).toHaveText("5");
    await expect(stats.getByTestId("gold-stat-entities")).toHaveText("4");
    await expect(stats.getByTestId("gold-stat-singletons")).toHaveText("3");
    await expect(stats.getByTestId("gold-stat-sha256")).toHaveText(goldSha256);
    await expect(dev.getByTestId("gold-version-row")).toHaveCount(1);
    await expect(dev.getByTestId("gold-version-row")).toContainText("active");

    await dev.getByLabel("Gold key file").setInputFiles(badFile);
    await dev.getByRole("button", { name: "Upload gold key" }).click();
    const problems = dev.getByTestId("gold-format-errors");
    await expect(problems).toContainText("bad.conll:8:16");
    await expect(problems).toContainText("Line 8, column 16");
    await expect(problems).toContainText('found "(x"');
    await expect(dev.getByText("nothing was stored")).toBeVisible();

    // Nothing was stored: still one version, v1 active.
    await page.reload();
    await expect(dev.getByTestId("gold-version-row")).toHaveCount(1);
    await expect(dev.getByTestId("gold-version-row")).toContainText("v1");

    // The blind test input: the gold key uploaded as one is refused (nothing stored); the
    // organizers' own file without coreference is taken, and the list shows it.
    const blind = dev.getByTestId("blind-inputs");
    await expect(blind).toContainText("main: no blind input yet");
    await blind.getByLabel("Or upload your own").setInputFiles(goldFile);
    await blind.getByRole("button", { name: "Upload the blind input of main" }).click();
    await expect(blind.getByTestId("blind-upload-error")).toContainText("key.conll holds coreference annotation (5 mentions)");
    await page.reload();
    await expect(blind).toContainText("main: no blind input yet");
    await blind.getByLabel("Or upload your own").setInputFiles(blindFile);
    await blind.getByRole("button", { name: "Upload the blind input of main" }).click();
    await expect(blind.getByTestId("blind-upload-done")).toContainText(`${Buffer.byteLength(BLIND)} bytes`);
    await expect(blind).toContainText(`(uploaded, ${Buffer.byteLength(BLIND)} bytes, sha256 ${createHash("sha256").update(BLIND).digest("hex").slice(0, 12)}…)`);

    // The test phase's key too; then every publishing check passes and the task is published.
    const testGold = page.getByRole("region", { name: "Gold of phase test" });
    await testGold.getByLabel("Gold key file").setInputFiles(goldFile);
    await testGold.getByRole("button", { name: "Upload gold key" }).click();
    await expect(testGold.getByTestId("gold-version-row")).toHaveCount(1);
    await page.goto(`/tasks/${slug}/manage`);
    await expect(page.getByTestId("publish-check-gold")).toHaveAttribute("data-ok", "true");
    await page.getByRole("button", { name: "Publish task" }).click();
    await expect(page.getByText("The task is published: everyone can see it now.")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("task-status-label")).toHaveText("Published");
  });

  test("an organizer changes a phase's settings", async ({ page }) => {
    await signInPage(page, admin);
    await page.goto(`/tasks/${slug}/manage/phases`);
    const settings = page.getByRole("region", { name: "Phase development" }).getByRole("form", { name: "Phase settings" });
    await fillAndSubmit(settings, "Runs per team in total", "0", "Save settings");
    await expect(settings.getByText("must be at least 1 (or empty for no limit)")).toBeVisible();
    await fillAndSubmit(settings, "Runs per team in total", "10", "Save settings");
    await expect(settings.getByText("Settings saved.")).toBeVisible();
    await expect(settings.getByLabel("Runs per team in total")).toHaveValue("10");

    // Participant analysis: three levels whose labels say what they reveal; and the hidden-board switch.
    const analysis = settings.getByLabel("Participant analysis");
    await expect(analysis).toHaveValue("NONE");
    await expect(analysis.locator("option[value=PUBLIC]")).toHaveText(
      "Public: anyone, including anonymous readers, sees the error analysis — this publishes the gold key's mentions",
    );
    await analysis.selectOption("TEAMS");
    const perDocument = settings.getByLabel(/Per-document scores of a hidden test set let teams probe the gold, at least one bit per document per run/);
    await expect(perDocument).not.toBeChecked();
    await perDocument.check();
    // "Settings saved." is still shown from the first save: wait for this save's own answer
    // (the server action's POST) before reloading.
    const saving = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === `/tasks/${slug}/manage/phases`);
    await settings.getByRole("button", { name: "Save settings" }).click();
    expect((await saving).ok()).toBe(true);
    await expect(settings.getByText("Settings saved.")).toBeVisible();
    await page.reload();
    const saved = page.getByRole("region", { name: "Phase development" }).getByRole("form", { name: "Phase settings" });
    await expect(saved.getByLabel("Participant analysis")).toHaveValue("TEAMS");
    await expect(saved.getByLabel(/Per-document scores of a hidden test set/)).toBeChecked();
  });

  test("the Teams tab lists participants with their team; an organizer changes a participant's team", async ({ page, request }) => {
    const { users, teams } = await setupScenario({ users: { member: { token: true } }, teams: { "Org spec A": ["member"], "Org spec B": ["member"] } });
    const member = users.member;
    const [a, b] = [teams["Org spec A"]!, teams["Org spec B"]!];
    const tasks = (await (await request.get("/api/v1/tasks")).json()) as { tasks: { slug: string; phases: { id: string; name: string }[] }[] };
    const phaseId = tasks.tasks.find((t) => t.slug === slug)!.phases.find((p) => p.name === "development")!.id;
    const submit = (team?: string) =>
      request.post(`/api/v1/phases/${phaseId}/submissions`, {
        headers: bearer(member.token!),
        multipart: { file: { name: "run.conll", mimeType: "text/plain", buffer: Buffer.from(GOLD) }, systemName: "team switch", ...(team ? { team } : {}) },
      });
    expect((await submit(a.name)).status()).toBe(202);

    await signInPage(page, admin);
    await page.goto(`/tasks/${slug}/manage/teams`);
    const row = page.getByTestId("participant-row").filter({ hasText: member.name });
    await expect(row.getByTestId("participant-team")).toHaveText(a.name);
    await row.getByLabel(`Team of ${member.name} in this task`).selectOption(b.id);
    await row.getByRole("button", { name: "Change team" }).click();
    await expect(row.getByTestId("participant-team-result")).toHaveText(`Now submits for ${b.name}.`);
    await page.reload();
    await expect(page.getByTestId("participant-row").filter({ hasText: member.name }).getByTestId("participant-team")).toHaveText(b.name);

    const refused = await submit(a.name);
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(`You submit for team "${b.name}" in this task; ask the organizers to change it.`);
    expect((await submit()).status()).toBe(202);
  });

  test("an anonymous visitor sees the task and its phases, and no gold content", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`/tasks/${slug}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByTestId("task-title")).toHaveText(title);
    await expect(page.getByTestId("task-organizers")).toContainText(admin.name);
    await expect(page.getByTestId("task-data-license")).toContainText("CC BY 4.0");
    await expect(page.getByTestId("task-data-license").getByRole("link")).toHaveAttribute("href", "https://creativecommons.org/licenses/by/4.0/");
    await expect(page.getByTestId("task-data-source")).toContainText("LitBank");
    // Markdown is rendered; HTML in it is shown as text, not run.
    await expect(page.getByTestId("task-description").locator("strong")).toHaveText("all");
    await expect(page.getByTestId("task-description").locator("li")).toHaveText(["MUC", "B³"]);
    await expect(page.getByTestId("task-description")).toContainText("<script>alert(1)</script>");

    const phases = page.getByTestId("phase-card");
    await expect(phases).toHaveCount(2);
    const dev = phases.filter({ hasText: "development" });
    const testPhase = phases.filter({ hasText: "test" }).filter({ hasNotText: "development" });
    await expect(dev.getByTestId("phase-state")).toHaveText("open");
    await expect(dev.getByTestId("phase-limits")).toHaveText("3 runs per day (daily counts reset at 00:00 UTC) · 10 runs in total");
    await expect(dev.getByRole("link", { name: "Leaderboard" })).toHaveAttribute("href", new RegExp(`/tasks/${slug}/phases/[0-9a-f-]{36}/leaderboard$`));
    await expect(dev.getByRole("link", { name: "Sign in to submit" })).toBeVisible();
    await expect(dev.getByRole("link", { name: "Submit a run" })).toHaveCount(0);
    await expect(dev.getByText("ready", { exact: true })).toBeVisible();
    await expect(dev.getByTestId("local-time").first()).toBeVisible();
    await expect(testPhase.getByTestId("phase-state")).toHaveText("upcoming");
    await expect(testPhase).toContainText("AoE (UTC−12:00)");
    // ORGANIZERS-only leaderboard: no link for visitors.
    await expect(testPhase.getByRole("link", { name: "Leaderboard" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: /Manage/ })).toHaveCount(0);

    const html = await page.content();
    for (const secret of ["John", "waved", "doc1", "key.conll", goldSha256, "gold key v1"]) expect(html).not.toContain(secret);

    expect((await page.goto(`/tasks/${slug}/manage`))?.status()).toBe(404);
    expect((await page.goto(`/tasks/no-such-task-${tag}`))?.status()).toBe(404);
    await context.close();
  });

  test("the organizer sees Manage and Submit links; other users cannot create tasks or manage this one", async ({ browser }) => {
    const organizer = await pageAs(browser, admin);
    await organizer.goto(`/tasks/${slug}`);
    await expect(organizer.getByRole("link", { name: "Manage task" })).toBeVisible();
    const dev = organizer.getByTestId("phase-card").filter({ hasText: "development" });
    await expect(dev.getByRole("link", { name: "Submit a run" })).toHaveAttribute("href", new RegExp(`/tasks/${slug}/phases/[0-9a-f-]{36}/submit$`));
    await expect(dev.getByText("gold key v1 active")).toBeVisible();
    await organizer.context().close();

    const user = await createUser({ label: "participant" });
    const page = await pageAs(browser, user);
    await page.goto("/tasks/new");
    await expect(page.getByText("Only site admins and accounts with the organizer role can create tasks.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Create task" })).toHaveCount(0);
    expect((await page.goto(`/tasks/${slug}/manage`))?.status()).toBe(404);
    await page.goto(`/tasks/${slug}`);
    await expect(page.getByTestId("phase-card").filter({ hasText: "development" }).getByRole("link", { name: "Submit a run" })).toBeVisible();
    expect(await page.content()).not.toContain(goldSha256);
    await page.context().close();
  });
});

test.describe.serial("teams", () => {
  const teamName = `E2E Team ${tag}`;
  let joinCode = "";
  let owner: TestUser;
  let joiner: TestUser;

  test.beforeAll(async () => {
    [owner, joiner] = await Promise.all([createUser({ label: "owner" }), createUser({ label: "joiner" })]);
  });

  test("create a team and read its join code", async ({ page }) => {
    await signInPage(page, owner);
    await page.goto("/teams");
    await expect(page.getByText("You are not in a team yet.")).toBeVisible();

    await fillAndSubmit(page, "Team name", "x", "Create team");
    await expect(page.getByText("Team name: at least 2 characters.")).toBeVisible();

    await fillAndSubmit(page, "Team name", teamName, "Create team");
    await expect(page.getByText(`Team “${teamName}” created.`)).toBeVisible();
    const team = page.getByTestId("team-item").filter({ hasText: teamName });
    await expect(team).toContainText("you are an owner");
    await expect(team.getByTestId("join-code")).toHaveText(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    joinCode = (await team.getByTestId("join-code").textContent()) ?? "";

    // Team names are unique.
    await fillAndSubmit(page, "Team name", teamName.toUpperCase(), "Create team");
    await expect(page.getByText(`A team named "${teamName.toUpperCase()}" already exists.`)).toBeVisible();
  });

  test("a second user joins with the code (a wrong code first)", async ({ page }) => {
    expect(joinCode).not.toBe("");
    await signInPage(page, joiner);
    await page.goto("/teams");
    await fillAndSubmit(page, "Join code", "AAAA-AAAA-AAAA-AAAA", "Join team");
    await expect(page.getByText("No team has this join code.")).toBeVisible();
    await fillAndSubmit(page, "Join code", "short", "Join team");
    await expect(page.getByText("A join code has 16 letters and digits")).toBeVisible();

    await fillAndSubmit(page, "Join code", joinCode.toLowerCase(), "Join team");
    await expect(page.getByText(`You joined “${teamName}”.`)).toBeVisible();
    const team = page.getByTestId("team-item").filter({ hasText: teamName });
    await expect(team).toContainText("you are a member");
    await expect(team).toContainText("2 members");
    const rows = team.getByTestId("team-member-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByRole("cell").nth(0)).toHaveText(owner.name);
    await expect(rows.nth(0).getByRole("cell").nth(1)).toHaveText("owner");
    await expect(rows.nth(1).getByRole("cell").nth(0)).toHaveText(`${joiner.name} (you)`);
    await expect(rows.nth(1).getByRole("cell").nth(1)).toHaveText("member");
    // A plain member can leave, but cannot remove anyone, let people in, or see the join code (issue 23 F4).
    await expect(team.getByRole("button", { name: `Leave ${teamName}` })).toBeVisible();
    await expect(team.getByRole("button", { name: /^Remove: / })).toHaveCount(0);
    await expect(team.getByRole("button", { name: /^Make owner: / })).toHaveCount(0);
    await expect(team.getByRole("button", { name: `Create an invitation link for ${teamName}` })).toHaveCount(0);
    await expect(team.getByTestId("join-code")).toHaveCount(0);
  });

  test("the teams page asks anonymous visitors to sign in", async ({ page }) => {
    await page.goto("/teams");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fteams/);
  });
});
