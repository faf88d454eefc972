/**
 * Accounts: sign-up, sign-out, sign-in, a wrong password, and API tokens on the account page.
 */
import { expect, test, type Page } from "@playwright/test";

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const account = { name: `E2E User ${run}`, email: `e2e-${run}@example.org`, password: "a sturdy passphrase" };

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test.describe.serial("accounts", () => {
  test("sign up (with inline validation errors first), landing signed in on the account page", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Sign up" }).click();
    await expect(page).toHaveURL(/\/signup/);

    await page.getByLabel("Name").fill(account.name);
    await page.getByLabel("Email").fill(account.email.toUpperCase());
    await page.getByLabel("Password").fill("too short");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Passwords must be at least 10 characters.")).toBeVisible();
    await expect(page).toHaveURL(/\/signup/);

    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId("signed-in-as")).toContainText(account.name);
    await expect(page.getByTestId("profile-email")).toHaveText(account.email);
  });

  test("the same email cannot sign up twice", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel("Name").fill("Someone Else");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill("another passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("An account with this email address already exists.")).toBeVisible();
  });

  test("sign out, then sign in again with the new account", async ({ page }) => {
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("signed-in-as")).toContainText(account.name);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);

    // Signed out, the account page sends you to sign in, and back afterwards.
    await page.goto("/account");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faccount/);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId("profile-name")).toHaveText(account.name);
  });

  test("a wrong password shows an error and does not sign in", async ({ page }) => {
    await signIn(page, account.email, "not the passphrase");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
    await expect(page).toHaveURL(/\/signin/);
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);

    await signIn(page, `nobody-${run}@example.org`, account.password);
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
  });

  test("API token: created, shown once, listed, revoked", async ({ page }) => {
    await signIn(page, account.email, account.password);
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
    await page.goto("/account");

    await page.getByLabel("Token name").fill("e2e laptop");
    await page.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByTestId("new-token");
    await expect(shown).toHaveValue(/^cfb_[A-Za-z0-9_-]{43}$/);
    const token = await shown.inputValue();
    await expect(page.getByText("it will not be shown again")).toBeVisible();

    const row = page.getByTestId("token-row").filter({ hasText: "e2e laptop" });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("active");
    await expect(row).toContainText("never");

    // Shown once: after a reload the plaintext is gone from the page.
    await page.reload();
    await expect(page.getByTestId("new-token")).toHaveCount(0);
    expect(await page.content()).not.toContain(token);
    await expect(row).toContainText("active");

    await row.getByRole("button", { name: "Revoke e2e laptop" }).click();
    await expect(row).toContainText("revoked");
    await expect(row.getByRole("button")).toHaveCount(0);
  });
});
