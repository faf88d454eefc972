/**
 * Password reset by email: "Forgot your password?" on the sign-in page, the same answer for
 * an unknown address, the link (printed by `scripts/admin.ts reset-link`, as the server has no
 * SMTP and only logs the mail), setting a new password on /reset-password, signing in with
 * it while the old one fails, and the link failing a second time (opened again, and a form
 * opened before the first use).
 */
import { expect, test } from "@playwright/test";
import { createUser, signInPage } from "./helpers/accounts";
import { BASE_URL, runScript, uniqueTag } from "./helpers/server";

const REQUESTED =
  "If an account uses this email address, we have sent it a link to set a new password. The link works once, within one hour.";
const INVALID = "This reset link is invalid or has expired; ask for a new one.";

test("reset a forgotten password with a one-time link", async ({ page, browser }) => {
  const user = await createUser({ label: "reset" });
  const newPassword = `new-${uniqueTag()}-long enough`;

  // Ask for a link from the sign-in page; an unknown address gets the same answer.
  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email").fill(`e2e-nobody-${uniqueTag()}@example.org`);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(REQUESTED);
  await page.goto("/forgot-password");
  await expect(page.getByRole("main").getByRole("status")).toHaveCount(0);
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(REQUESTED);

  // Without SMTP the mail only goes to the server log; the admin CLI prints a fresh link.
  const { stdout } = await runScript("scripts/admin.ts", ["reset-link", "--email", user.email], { env: { NEXTAUTH_URL: BASE_URL } });
  const link = stdout.trim().split("\n").pop() ?? "";
  expect(link).toMatch(new RegExp(`^${BASE_URL.replace(/\./g, "\\.")}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));

  // A second tab opens the form before the link is used.
  const earlyTab = await page.context().newPage();
  await earlyTab.goto(link);
  await expect(earlyTab.getByLabel("New password", { exact: true })).toBeVisible();

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("New password again").fill(newPassword);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Your password has been changed, and every session of your account has been signed out.");
  await page.getByRole("link", { name: "Sign in with your new password" }).click();
  await expect(page).toHaveURL(/\/signin$/);

  // The new password signs in; the old one no longer does.
  await signInPage(page, { email: user.email, password: newPassword });
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto("/signin");
  await otherPage.getByLabel("Email").fill(user.email);
  await otherPage.getByLabel("Password").fill(user.password);
  await otherPage.getByRole("button", { name: "Sign in" }).click();
  await expect(otherPage.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
  await other.close();

  // The link works once: opened again it shows the error, and the early form is refused.
  await page.goto(link);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(INVALID);
  await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");

  await earlyTab.getByLabel("New password", { exact: true }).fill("yet another password");
  await earlyTab.getByLabel("New password again").fill("yet another password");
  await earlyTab.getByRole("button", { name: "Set new password" }).click();
  await expect(earlyTab.getByRole("main").getByRole("alert")).toContainText(INVALID);
  await earlyTab.close();
});
