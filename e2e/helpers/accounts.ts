/**
 * Accounts for end-to-end tests: users (optionally site admins) and API tokens made with the
 * admin CLI against the server's database, and signed-in sessions (an API request context
 * holding the next-auth session cookie, or a browser page signed in through the form).
 */
import { expect, request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { confirmationLink } from "./mail";
import { BASE_URL, runScript, uniqueTag } from "./server";

/** A user created for a test; `password` lets it sign in. */
export interface TestUser {
  id: string;
  email: string;
  name: string;
  password: string;
  admin: boolean;
}

/**
 * Creates an account with `scripts/admin.ts create-user` (password through stdin).
 *
 * @param options `admin` for the ADMIN role; `name` (default "E2E <label> <tag>"); `label`
 *   a word for the default name and e-mail, e.g. "organizer"
 * @returns the user with its plaintext password
 */
export async function createUser(options: { admin?: boolean; name?: string; label?: string } = {}): Promise<TestUser> {
  const tag = uniqueTag();
  const label = options.label ?? (options.admin ? "admin" : "user");
  const email = `e2e-${label}-${tag}@example.org`;
  const name = options.name ?? `E2E ${label} ${tag}`;
  const password = `pass-${tag}-long enough`;
  const args = ["create-user", "--email", email, "--name", name, "--password-stdin", ...(options.admin ? ["--admin"] : [])];
  const { stdout } = await runScript("scripts/admin.ts", args, { stdin: `${password}\n` });
  const id = /\(id ([0-9a-f-]{36})\)/.exec(stdout)?.[1];
  if (!id) throw new Error(`create-user printed no id: ${stdout}`);
  return { id, email, name, password, admin: options.admin ?? false };
}

/**
 * Creates an API token for a user with `scripts/admin.ts create-token`.
 *
 * @param tokenName the token's label (default "e2e")
 * @returns the plaintext token (`cfb_…`)
 */
export async function createToken(user: Pick<TestUser, "email">, tokenName = "e2e"): Promise<string> {
  const { stdout } = await runScript("scripts/admin.ts", ["create-token", "--email", user.email, "--name", tokenName]);
  const token = stdout.trim().split("\n").pop() ?? "";
  if (!/^cfb_[A-Za-z0-9_-]{43}$/.test(token)) throw new Error(`create-token printed no token: ${stdout}`);
  return token;
}

/** The `Authorization` header for a token. */
export function bearer(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

/**
 * A new API request context (own cookie jar) for anonymous requests. Dispose it when done.
 */
export function anonymousContext(): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: BASE_URL });
}

/**
 * Signs a request client in as `user` through next-auth's credentials endpoint (the same
 * session cookie the sign-in form sets), and checks the session.
 *
 * @throws when the sign-in does not produce a session for the user
 */
async function signInRequest(request: APIRequestContext, user: Pick<TestUser, "email" | "password">): Promise<void> {
  const { csrfToken } = (await (await request.get(`${BASE_URL}/api/auth/csrf`)).json()) as { csrfToken: string };
  await request.post(`${BASE_URL}/api/auth/callback/credentials`, {
    form: { csrfToken, email: user.email, password: user.password, callbackUrl: `${BASE_URL}/`, json: "true" },
    maxRedirects: 0,
  });
  const session = (await (await request.get(`${BASE_URL}/api/auth/session`)).json()) as { user?: { email?: string } };
  expect(session.user?.email, `signed in as ${user.email}`).toBe(user.email);
}

/**
 * A new API request context signed in as `user` (own cookie jar). Dispose it when done.
 *
 * @throws when the sign-in does not produce a session for the user
 */
export async function signedInContext(user: Pick<TestUser, "email" | "password">): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL: BASE_URL });
  await signInRequest(context, user);
  return context;
}

/**
 * Signs a browser page's context in as `user` from the context's own request client (which
 * shares the browser's cookies), without rendering the sign-in form; the page stays where it
 * is. For tests of what comes after signing in: the form itself is tested in
 * e2e/auth.spec.ts and through {@link signInThroughForm}.
 *
 * @throws when the sign-in does not produce a session for the user
 */
export async function signInPage(page: Page, user: Pick<TestUser, "email" | "password">): Promise<void> {
  await signInRequest(page.context().request, user);
}

/**
 * Signs a browser page in through the sign-in form, and waits until the header shows it.
 */
export async function signInThroughForm(page: Page, user: Pick<TestUser, "email" | "password">): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
}

/**
 * Signs up a new account through the sign-up form, as a person does: the form answers "Check
 * your e-mail", the confirmation link is read from the test outbox (`e2e/helpers/mail.ts`),
 * opened and confirmed, then the account signs in through the sign-in form. Ends signed in on
 * the account page.
 *
 * @returns the new user (its id is not known to the form: empty)
 */
export async function signUpThroughUi(page: Page, options: { label?: string } = {}): Promise<TestUser> {
  const tag = uniqueTag();
  const user: TestUser = { id: "", email: `e2e-${options.label ?? "signup"}-${tag}@example.org`, name: `E2E ${options.label ?? "signup"} ${tag}`, password: `pass-${tag}-long enough`, admin: false };
  await page.goto("/signup");
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(/Check your e-mail\./)).toBeVisible();
  await page.goto(await confirmationLink(user.email));
  await page.getByRole("button", { name: "Confirm e-mail address" }).click();
  await expect(page.getByText(/is confirmed/)).toBeVisible();
  await signInThroughForm(page, user);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account$/);
  return user;
}
