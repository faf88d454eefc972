/**
 * Invitations and account changes (issue 11 §1, §4, §5), end to end:
 * - a team owner makes an invitation link for two people on /teams; a second user opens it
 *   signed out, signs in, comes back and joins; the owner revokes the link and a third user is
 *   refused;
 * - a single-use link (the default) lets one person in and then refuses the next; the owner
 *   removes that member (confirming first) and, alone again, leaves the team (issue 23 F4);
 * - an organizer invites a co-organizer by email from the console's Organizers card; the
 *   invitee opens the mailed link, accepts, and sees the "Manage task" link;
 * - a user changes their email address through the mailed confirmation link and signs in with
 *   the new address (the old one no longer works);
 * - a user deletes their account and can no longer sign in.
 *
 * Mail: the server has no SMTP, so `lib/accounts/mail.ts` logs each mail and, with `MAIL_OUTBOX_FILE`
 * set, appends it to that file as a JSON line; this spec reads the links from there. The
 * server must be started with `MAIL_OUTBOX_FILE` = `e2eOutboxFile()` (playwright.config.ts);
 * `e2e/helpers/mail.ts` reads it.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createUser, signInPage, type TestUser } from "./helpers/accounts";
import { addOrganizer, createTask } from "./helpers/tasks";
import { mailedLink } from "./helpers/mail";
import { BASE_URL, uniqueTag } from "./helpers/server";

/** A page in a fresh browser context (its own cookies), signed in as `user` unless null. */
async function pageFor(browser: Browser, user: TestUser | null): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (user) await signInPage(page, user);
  return page;
}

/** Tries to sign in and expects the form's refusal. */
async function expectSignInRefused(browser: Browser, email: string, password: string): Promise<void> {
  const page = await pageFor(browser, null);
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
  await page.context().close();
}

test("a team invitation link lets a second user join; once revoked, a third user is refused", async ({ page, browser }) => {
  const owner = await createUser({ label: "teamowner" });
  const second = await createUser({ label: "joiner" });
  const third = await createUser({ label: "latecomer" });
  const teamName = `E2E crew ${uniqueTag()}`;

  await signInPage(page, owner);
  await page.goto("/teams");
  await page.getByLabel("Team name").fill(teamName);
  await page.getByRole("button", { name: "Create team" }).click();
  const team = page.getByRole("listitem", { name: `Team ${teamName}` });
  await expect(team).toBeVisible();
  // Single-use unless the owner says otherwise: this link is for up to two people.
  await team.getByLabel(`How many people can use the new invitation link for ${teamName}`).fill("2");
  await team.getByRole("button", { name: `Create an invitation link for ${teamName}` }).click();
  const linkField = team.getByTestId("new-invitation-link");
  await expect(linkField).toBeVisible();
  const link = await linkField.inputValue();
  expect(link).toMatch(new RegExp(`^${BASE_URL.replace(/\./g, "\\.")}/invite/team/[A-Za-z0-9_-]{43}$`));

  // The second user opens it signed out, signs in from there and comes back.
  const joiner = await pageFor(browser, null);
  await joiner.goto(link);
  await expect(joiner.getByTestId("invitation-team")).toHaveText(teamName);
  await joiner.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).click();
  await joiner.getByLabel("Email").fill(second.email);
  await joiner.getByLabel("Password").fill(second.password);
  await joiner.getByRole("button", { name: "Sign in" }).click();
  await expect(joiner).toHaveURL(new RegExp(`/invite/team/`));
  await joiner.getByRole("button", { name: "Join team" }).click();
  await expect(joiner).toHaveURL(/\/teams$/);
  await expect(joiner.getByRole("listitem", { name: `Team ${teamName}` })).toBeVisible();
  await joiner.context().close();

  // The owner sees one use, then revokes the link.
  await page.reload();
  const row = team.getByTestId("team-invitation-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(3)).toHaveText("1 of 2");
  await expect(row.getByRole("cell").nth(4)).toHaveText("active");
  await expect(team.getByTestId("team-members")).toContainText(second.name);
  await row.getByRole("button", { name: /^Revoke the invitation link/ }).click();
  await expect(row.getByRole("cell").nth(4)).toHaveText("revoked");

  // A third user, signed in, is refused.
  const late = await pageFor(browser, third);
  await late.goto(link);
  await expect(late.getByRole("main").getByRole("alert")).toHaveText("This team invitation link was revoked by the team. Ask a member for a new one.");
  await expect(late.getByRole("button", { name: "Join team" })).toHaveCount(0);
  await late.goto("/teams");
  await expect(late.getByRole("listitem", { name: `Team ${teamName}` })).toHaveCount(0);
  await late.context().close();
});

test("a single-use link lets one person in and refuses the next; the owner removes the member, then leaves", async ({ page, browser }) => {
  const owner = await createUser({ label: "singleowner" });
  const second = await createUser({ label: "singlejoiner" });
  const third = await createUser({ label: "singlelate" });
  const teamName = `E2E single ${uniqueTag()}`;

  await signInPage(page, owner);
  await page.goto("/teams");
  await page.getByLabel("Team name").fill(teamName);
  await page.getByRole("button", { name: "Create team" }).click();
  const team = page.getByRole("listitem", { name: `Team ${teamName}` });
  await expect(team).toBeVisible();
  await expect(team.getByLabel(`How many people can use the new invitation link for ${teamName}`)).toHaveValue("1");
  await team.getByRole("button", { name: `Create an invitation link for ${teamName}` }).click();
  const linkField = team.getByTestId("new-invitation-link");
  await expect(linkField).toBeVisible();
  const link = await linkField.inputValue();

  const joiner = await pageFor(browser, second);
  await joiner.goto(link);
  await joiner.getByRole("button", { name: "Join team" }).click();
  await expect(joiner).toHaveURL(/\/teams$/);
  await expect(joiner.getByRole("listitem", { name: `Team ${teamName}` })).toBeVisible();
  await joiner.context().close();

  const late = await pageFor(browser, third);
  await late.goto(link);
  await expect(late.getByRole("main").getByRole("alert")).toHaveText(
    "This team invitation link has already been used as many times as it allows. Ask an owner of the team for a new one.",
  );
  await expect(late.getByRole("button", { name: "Join team" })).toHaveCount(0);
  await late.context().close();

  await page.reload();
  const row = team.getByTestId("team-invitation-row");
  await expect(row.getByRole("cell").nth(3)).toHaveText("1 of 1");
  await expect(row.getByRole("cell").nth(4)).toHaveText("used up");

  // Remove asks first; Cancel keeps the member.
  const members = team.getByTestId("team-member-row");
  await expect(members).toHaveCount(2);
  await team.getByRole("button", { name: `Remove: ${second.name}` }).click();
  await expect(team.getByText(`Remove ${second.name} from ${teamName}? Their runs stay the team's.`)).toBeVisible();
  await team.getByRole("button", { name: "Cancel" }).click();
  await expect(members).toHaveCount(2);
  await team.getByRole("button", { name: `Remove: ${second.name}` }).click();
  await team.getByRole("button", { name: "Yes, remove" }).click();
  await expect(members).toHaveCount(1);
  await expect(team.getByTestId("team-members")).not.toContainText(second.name);

  // Alone in the team, the owner may leave it.
  await team.getByRole("button", { name: `Leave ${teamName}` }).click();
  await team.getByRole("button", { name: "Yes, leave" }).click();
  await expect(page.getByRole("listitem", { name: `Team ${teamName}` })).toHaveCount(0);
});

test("an organizer invites a co-organizer by email, who accepts and can manage the task", async ({ page, browser }) => {
  const organizer = await createUser({ label: "inviter" });
  const invitee = await createUser({ label: "coorg" });
  const task = await createTask();
  await addOrganizer(task, organizer);

  await signInPage(page, organizer);
  await page.goto(`/tasks/${task.slug}/manage`);
  await page.getByLabel("Co-organizer's email address").fill(invitee.email);
  await page.getByRole("button", { name: "Invite by email" }).click();
  await expect(page.getByRole("status").filter({ hasText: `We mailed an invitation to ${invitee.email}` })).toBeVisible();
  await expect(page.getByTestId("organizer-invitation-row").filter({ hasText: invitee.email })).toBeVisible();
  const link = await mailedLink(invitee.email, /\/invite\/organizer\/[A-Za-z0-9_-]{43}$/);

  const coorg = await pageFor(browser, invitee);
  await coorg.goto(`/tasks/${task.slug}`);
  await expect(coorg.getByRole("link", { name: "Manage task", exact: true })).toHaveCount(0);
  await coorg.goto(link);
  await expect(coorg.getByTestId("invitation-task")).toBeVisible();
  await coorg.getByRole("button", { name: "Accept invitation" }).click();
  await expect(coorg).toHaveURL(new RegExp(`/tasks/${task.slug}$`));
  await coorg.getByRole("link", { name: "Manage task", exact: true }).click();
  await expect(coorg).toHaveURL(new RegExp(`/tasks/${task.slug}/manage$`));
  await expect(coorg.getByTestId("organizer-list")).toContainText(invitee.name);

  // The link works once.
  await coorg.goto(link);
  await expect(coorg.getByRole("main").getByRole("alert")).toHaveText("This invitation was already accepted; it works once.");
  await coorg.context().close();
});

test("a user changes their email address through the confirmation link and signs in with the new one", async ({ page, browser }) => {
  const user = await createUser({ label: "mover" });
  const newEmail = `e2e-moved-${uniqueTag()}@example.org`;

  await signInPage(page, user);
  await page.goto("/account");
  await page.getByLabel("New email address").fill(newEmail);
  await page.getByLabel("Your password, to confirm the change").fill(user.password);
  await page.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(page.getByRole("status").filter({ hasText: `We sent a confirmation link to ${newEmail}` })).toBeVisible();
  await expect(page.getByTestId("profile-email")).toHaveText(user.email);

  const link = await mailedLink(newEmail, /\/account\/confirm-email\?token=[A-Za-z0-9_-]{43}$/);
  await page.goto(link);
  await expect(page.getByRole("main")).toContainText(newEmail);
  await page.getByRole("button", { name: "Confirm new email address" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Your email address is now ${newEmail}.` })).toBeVisible();

  const again = await pageFor(browser, { ...user, email: newEmail });
  await again.goto("/account");
  await expect(again.getByTestId("profile-email")).toHaveText(newEmail);
  await again.context().close();
  await expectSignInRefused(browser, user.email, user.password);
});

test("a user deletes their account and can no longer sign in", async ({ page, browser }) => {
  const user = await createUser({ label: "leaver" });
  await signInPage(page, user);
  await page.goto("/account");
  await page.getByLabel("Your password, to confirm the deletion").fill(user.password);
  await page.getByLabel("I understand that my account is deleted for good").check();
  await page.getByRole("button", { name: "Delete account", exact: true }).click();
  await expect(page).toHaveURL(`${BASE_URL}/`);
  await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
  await expectSignInRefused(browser, user.email, user.password);
});
