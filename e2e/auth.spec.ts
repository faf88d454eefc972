/**
 * Accounts: sign-up (one answer for new and registered addresses, the confirmation link from
 * the test outbox, the resend button), sign-out (a copied session cookie dies with it), sign-in, a wrong
 * password, the lockout after too many wrong passwords, the password change, "sign out
 * everywhere" (which revokes the API tokens too), and API tokens on the account page (created
 * with the current password, last use listed, revoked).
 */
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { anonymousContext, createToken, createUser } from "./helpers/accounts";
import { confirmationLink, outboxMails } from "./helpers/mail";

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const account = { name: `E2E User ${run}`, email: `e2e-${run}@example.org`, password: "a sturdy passphrase" };

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The next-auth session cookie(s) of a browser context, to replay later. */
async function sessionCookies(context: BrowserContext) {
  const cookies = (await context.cookies()).filter((c) => c.name.includes("next-auth.session-token"));
  expect(cookies.length, "a session cookie").toBeGreaterThan(0);
  return cookies;
}

/** Whether the site's header shows someone signed in, for a page at `/`. */
async function expectSignedOut(page: Page) {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faccount/);
}

test.describe.serial("accounts", () => {
  test("sign up (with inline validation errors first): check your e-mail, nobody signed in; unconfirmed on the account page until the mailed link is confirmed", async ({ page }) => {
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
    await expect(page.getByText(/Check your e-mail\./)).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
    const first = await confirmationLink(account.email);

    // Unconfirmed: signing in works, and the account page asks to confirm (a new link on request).
    await signIn(page, account.email, account.password);
    await expect(page.getByTestId("signed-in-as")).toContainText(account.name);
    await page.goto("/account");
    const notice = page.getByTestId("confirm-email-notice");
    await expect(notice).toContainText("Please confirm your e-mail address");
    await notice.getByRole("button", { name: "Send a new confirmation link" }).click();
    await expect(notice.getByText(/We have sent a new confirmation link/)).toBeVisible();
    await expect.poll(() => confirmationLink(account.email)).not.toBe(first);
    const link = await confirmationLink(account.email);

    // The earlier link no longer works; the new one confirms once.
    await page.goto(first);
    await expect(page.getByText(/This confirmation link is invalid, already used or expired/)).toBeVisible();
    await page.goto(link);
    await page.getByRole("button", { name: "Confirm e-mail address" }).click();
    await expect(page.getByText(`Your e-mail address ${account.email} is confirmed`)).toBeVisible();
    await page.goto(link);
    await expect(page.getByText(/This confirmation link is invalid, already used or expired/)).toBeVisible();

    await page.goto("/account");
    await expect(page.getByTestId("profile-email")).toHaveText(account.email);
    await expect(page.getByTestId("confirm-email-notice")).toHaveCount(0);
  });

  test("the same answer twice, and the owner gets a notice; the account is unchanged", async ({ page }) => {
    const noticesBefore = (await outboxMails()).filter((m) => m.to === account.email && m.links.some((l) => l.endsWith("/forgot-password"))).length;
    await page.goto("/signup");
    await page.getByLabel("Name").fill("Someone Else");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill("another passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText(/Check your e-mail\./)).toBeVisible();
    await expect(page.getByText("An account with this email address already exists.")).toHaveCount(0);
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
    // The owner is told, with a sign-in and a password-reset link.
    await expect
      .poll(async () => (await outboxMails()).filter((m) => m.to === account.email && m.links.some((l) => l.endsWith("/forgot-password"))).length)
      .toBe(noticesBefore + 1);
    const notice = (await outboxMails()).filter((m) => m.to === account.email).at(-1)!;
    expect(notice.subject).toBe("Someone tried to sign up to Corefboard with your e-mail address");
    expect(notice.links.map((l) => new URL(l).pathname)).toEqual(["/signin", "/forgot-password"]);
    // The second sign-up's password does not sign in (the next test signs in with the first).
    await signIn(page, account.email, "another passphrase");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
  });

  test("sign out, then sign in again with the new account", async ({ page, browser }) => {
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("signed-in-as")).toContainText(account.name);
    const copied = await sessionCookies(page.context());

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);

    // A copy of the session cookie taken before signing out no longer signs anyone in.
    const thief = await browser.newContext();
    await thief.addCookies(copied);
    await expectSignedOut(await thief.newPage());
    const api = await thief.request.get("/api/auth/session");
    expect(await api.json()).not.toHaveProperty("user");
    await thief.close();

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

  test("too many wrong passwords lock the account, with the time to try again", async ({ page }) => {
    const user = await createUser({ label: "lockout" });
    // 10 failures straight to next-auth's endpoint (as a script would), the 11th through the form.
    const client = await anonymousContext();
    try {
      for (let i = 0; i < 10; i++) {
        const { csrfToken } = (await (await client.get("/api/auth/csrf")).json()) as { csrfToken: string };
        const answer = await client.post("/api/auth/callback/credentials", {
          form: { csrfToken, email: user.email, password: `wrong guess ${i}`, json: "true" },
          maxRedirects: 0,
        });
        expect(((await answer.json()) as { url: string }).url).toContain("error=CredentialsSignin");
      }
    } finally {
      await client.dispose();
    }
    // Locked: even the right password is refused, and the form says until when.
    await signIn(page, user.email, user.password);
    const alert = page.getByRole("main").getByRole("alert");
    // The time alone when it is today, with the date when the lock ends after midnight.
    await expect(alert).toHaveText(/^Too many sign-in attempts for this email address\. Try again at (\d{4}-\d\d-\d\d )?\d\d:\d\d \(UTC\)\.$/);
    const shown = /(\d\d):(\d\d) \(UTC\)/.exec((await alert.textContent()) ?? "")!;
    const minutesAhead = (Number(shown[1]) * 60 + Number(shown[2]) - (new Date().getUTCHours() * 60 + new Date().getUTCMinutes()) + 1440) % 1440;
    expect(minutesAhead).toBeGreaterThanOrEqual(14);
    expect(minutesAhead).toBeLessThanOrEqual(16);
    await expect(page).toHaveURL(/\/signin/);
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
  });

  test("password change: this browser stays signed in, other sessions end, only the new password works", async ({ page, browser }) => {
    const user = await createUser({ label: "passwd" });
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, user.email, user.password);
    await expect(otherPage.getByTestId("signed-in-as")).toBeVisible();

    await signIn(page, user.email, user.password);
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
    await page.goto("/account");

    // A wrong current password and a mismatch are refused inline.
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
    await page.getByLabel("New password again").fill("a brand new passphrase");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("That is not your current password.")).toBeVisible();
    await page.getByLabel("Current password").fill(user.password);
    await page.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
    await page.getByLabel("New password again").fill("a brand new passphras");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("The two new passwords do not match.")).toBeVisible();

    await page.getByLabel("Current password").fill(user.password);
    await page.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
    await page.getByLabel("New password again").fill("a brand new passphrase");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Your password was changed. Every other session has been signed out.")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("profile-email")).toHaveText(user.email);

    // The other browser's session has ended.
    await expectSignedOut(otherPage);
    await other.close();

    // Only the new password signs in.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await signIn(page, user.email, user.password);
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
    await signIn(page, user.email, "a brand new passphrase");
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
  });

  test("sign out everywhere ends the sessions of every browser and revokes the API tokens", async ({ page, browser }) => {
    const user = await createUser({ label: "everywhere" });
    const token = await createToken(user, "e2e everywhere");
    const bearer = { Authorization: `Bearer ${token}` };
    expect((await page.request.get("/api/v1/tasks", { headers: bearer })).status()).toBe(200);
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, user.email, user.password);
    await expect(otherPage.getByTestId("signed-in-as")).toBeVisible();
    const copied = await sessionCookies(other);

    await signIn(page, user.email, user.password);
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
    await page.goto("/account");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/signin/);
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);

    await expectSignedOut(otherPage);
    await other.close();
    const replay = await browser.newContext();
    await replay.addCookies(copied);
    await expectSignedOut(await replay.newPage());
    await replay.close();
    expect((await page.request.get("/api/v1/tasks", { headers: bearer })).status()).toBe(401);
  });

  test("API token: created, shown once, listed, revoked", async ({ page }) => {
    await signIn(page, account.email, account.password);
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
    await page.goto("/account");

    // The session alone is not enough: creating a token asks for the current password.
    await page.getByLabel("Token name").fill("e2e laptop");
    await page.getByLabel("Your password, to confirm the token").fill("not my password");
    await page.getByRole("button", { name: "Create token" }).click();
    await expect(page.getByText("That is not your current password.")).toBeVisible();
    await expect(page.getByTestId("new-token")).toHaveCount(0);
    await expect(page.getByTestId("token-row")).toHaveCount(0);
    // The name is kept, the password field emptied.
    await expect(page.getByLabel("Token name")).toHaveValue("e2e laptop");
    await expect(page.getByLabel("Your password, to confirm the token")).toHaveValue("");

    await page.getByLabel("Your password, to confirm the token").fill(account.password);
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

    // A request with the token is its last use, listed on the page.
    const bearer = { Authorization: `Bearer ${token}` };
    expect((await page.request.get("/api/v1/tasks", { headers: bearer })).status()).toBe(200);
    await page.reload();
    await expect(row).not.toContainText("never");

    await row.getByRole("button", { name: "Revoke e2e laptop" }).click();
    await expect(row).toContainText("revoked");
    await expect(row.getByRole("button")).toHaveCount(0);
    expect((await page.request.get("/api/v1/tasks", { headers: bearer })).status()).toBe(401);
  });
});

// Issue 23 F9, through next-auth's own routes (proxy.ts repairs what next-auth would refuse) (lib/auth/redirect.ts is unit-tested; next-auth's
// handler itself only runs in the real server): a foreign or malformed callbackUrl is never a
// 500, and never leads off the site.
test("next-auth's sign-in route reduces a foreign or malformed callbackUrl to the site, never a 500", async ({ request, baseURL }) => {
  for (const callbackUrl of ["https://evil.example/steal", "//evil.example", "/。evil", "/tasks?x=%E2%80%A8", "javascript:alert(1)"]) {
    const response = await request.get(`/api/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`, { maxRedirects: 0 });
    expect(response.status(), `${callbackUrl}: ${await response.text()}`).toBeLessThan(500);
    const location = response.headers()["location"];
    if (location) expect(new URL(location, baseURL).origin, `${callbackUrl} → ${location}`).toBe(new URL(baseURL!).origin);
  }
  // The same value in next-auth's callback-URL cookie (which a page on a sibling domain could set).
  const withCookie = await request.get("/api/auth/csrf", { headers: { cookie: "next-auth.callback-url=javascript%3Aalert(1)" } });
  expect(withCookie.status(), await withCookie.text()).toBe(200);
});
