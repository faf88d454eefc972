/**
 * Security headers on the real server (`proxy.ts`, rules in `lib/http/security-headers.ts`):
 *
 * - a page (`/`), an API route (`/api/v1/tasks`), the CSV export of a leaderboard, a static
 *   file, the manage page and 404 answers carry the headers; the server runs `next start`
 *   (production), so the policy has no `'unsafe-eval'`, and over http there is no HSTS (the
 *   https case is unit-tested in `lib/http/security-headers.test.ts`);
 * - the nonce of the policy is on every `<script>` of the page, and new for every request;
 * - pages still run their scripts and hydrate under the policy, with no CSP violation
 *   reported by the browser: home, sign-in (the form signs in), a leaderboard with charts
 *   (recharts draws them in the browser), the manage page, a not-found page;
 * - no link is prefetched on those pages (app/_components/link.tsx);
 * - no page can be framed, the signed-in manage page included (`frame-ancestors 'none'`);
 * - malformed path segments (`%00`, `%ZZ`, truncated UTF-8, …) answer 404: the site's
 *   not-found page, or the API's JSON 404; never 500.
 */
import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { anonymousContext, signInPage, signInThroughForm } from "./helpers/accounts";
import { setupScenario, type Scenario } from "./helpers/scenario";
import { BASE_URL } from "./helpers/server";
import { openPhase, seedScoredRuns, SMALL_KEY, SMALL_RESPONSE } from "./helpers/tasks";

/** Headers every answer carries, with their exact values (the server runs over http). */
const FIXED_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

/** The directives of a Content-Security-Policy value, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

/**
 * Checks an answer's security headers and returns the nonce of its policy.
 *
 * @param headers the answer's headers (lower-case names)
 */
function expectSecurityHeaders(headers: Record<string, string>, what: string): string {
  for (const [name, value] of Object.entries(FIXED_HEADERS)) expect(headers[name], `${name} of ${what}`).toBe(value);
  expect(headers["strict-transport-security"], `no HSTS over http (${what})`).toBeUndefined();
  const policy = headers["content-security-policy"];
  expect(policy, `Content-Security-Policy of ${what}`).toBeTruthy();
  const csp = directives(policy!);
  const scriptSrc = csp.get("script-src") ?? [];
  const nonce = scriptSrc.map((source) => /^'nonce-([A-Za-z0-9+/]{22}==)'$/.exec(source)?.[1]).find(Boolean);
  expect(nonce, `a 16-byte nonce in script-src of ${what}: ${policy}`).toBeTruthy();
  expect(scriptSrc, what).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
  expect(Object.fromEntries(csp), what).toEqual({
    "default-src": ["'self'"],
    "script-src": scriptSrc,
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  });
  return nonce!;
}

/** The nonce attribute of every `<script>` tag of an HTML text (null for a tag without one). */
function scriptNonces(html: string): (string | null)[] {
  return [...html.matchAll(/<script\b[^>]*>/g)].map((m) => /\snonce="([^"]*)"/.exec(m[0])?.[1] ?? null);
}

/**
 * Collects what the browser reports about the Content-Security-Policy on a page: the
 * `securitypolicyviolation` events of every document (listened to before any of the page's
 * scripts run) and console messages naming the policy.
 */
async function watchCsp(page: Page): Promise<{ violations: () => Promise<string[]>; console: string[] }> {
  const consoleMessages: string[] = [];
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) consoleMessages.push(`${message.type()}: ${message.text()}`);
  });
  // Awaited: until the browser has the script, a navigation may run without it (it did, once,
  // on a loaded machine: "(the watcher did not run)").
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`));
  });
  return {
    console: consoleMessages,
    violations: () => page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? ["(the watcher did not run)"]),
  };
}

/**
 * Expects the page's scripts to have run and React to have hydrated it: Next's inline bootstrap
 * scripts (`self.__next_f`), its webpack chunks (`self.webpackChunk_N_E`), and React's fiber on
 * `<body>` (set when hydration reaches it), polled until all three are there (at most the
 * expect timeout); then every `<script>` must carry `nonce`.
 *
 * Polled rather than after `waitForLoadState("networkidle")`: that wait has no bound of its own
 * and once hung until the test's time limit in CI, with nothing said of what it waited for.
 */
async function expectScriptsRanAndHydrated(page: Page, nonce: string, what: string): Promise<void> {
  const state = () =>
    page.evaluate(() => ({
      flight: Array.isArray((self as unknown as { __next_f?: unknown }).__next_f),
      chunks: Array.isArray((self as unknown as { webpackChunk_N_E?: unknown }).webpackChunk_N_E),
      hydrated: Object.keys(document.body).some((key) => key.startsWith("__reactFiber$")),
    }));
  await expect.poll(state, `Next's inline scripts and chunks ran and React hydrated ${what}`).toEqual({ flight: true, chunks: true, hydrated: true });
  // The nonce *property*: browsers hide the attribute's value once the page has loaded.
  const nonces = await page.evaluate(() => [...document.querySelectorAll("script")].map((s) => s.nonce));
  expect(nonces.length).toBeGreaterThan(0);
  expect(new Set(nonces), `the nonce of every script of ${what}`).toEqual(new Set([nonce]));
}

/** The nonce of a page answer's policy. */
function nonceOf(response: { headers(): Record<string, string> } | null, what: string): string {
  expect(response, what).not.toBeNull();
  return expectSecurityHeaders(response!.headers(), what);
}

let scenario: Scenario<"organizer" | "participant">;
let phaseId: string;
let boardPath: string;
let managePath: string;
let runPath = "";

test.describe.serial("security headers", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    scenario = await setupScenario({
      users: { organizer: {}, participant: {} },
      teams: { "Headers team": ["participant"] },
      task: { phases: [openPhase("test")], organizers: ["organizer"], gold: [{ phase: "test", text: SMALL_KEY, as: "organizer" }] },
    });
    const task = scenario.task!;
    phaseId = task.phases.test!.id;
    boardPath = `/tasks/${task.slug}/phases/${phaseId}/leaderboard`;
    managePath = `/tasks/${task.slug}/manage`;
    const [id] = await seedScoredRuns(phaseId, [{ teamId: scenario.teams["Headers team"]!.id, submitterId: scenario.users.participant.id, systemName: "headers-system", fileName: "out.conll", text: SMALL_RESPONSE }]);
    runPath = `/submissions/${id}`;
  });

  test("a page, an API route, the CSV export and a static file carry the headers", async () => {
    const api = await anonymousContext();
    try {
      const home = await api.get("/");
      expect(home.status()).toBe(200);
      expectSecurityHeaders(home.headers(), "GET /");

      const tasks = await api.get("/api/v1/tasks");
      expect(tasks.status()).toBe(200);
      expect(tasks.headers()["content-type"]).toMatch(/^application\/json/);
      expectSecurityHeaders(tasks.headers(), "GET /api/v1/tasks");

      // The export link of the leaderboard page.
      const csv = await api.get(`/api/v1/phases/${phaseId}/leaderboard?metric=conll&format=csv`);
      expect(csv.status()).toBe(200);
      expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
      expect(await csv.text()).toContain("headers-system");
      expectSecurityHeaders(csv.headers(), "the leaderboard CSV export");

      // Static files: the headers without a policy (a policy on a script does nothing).
      const chunk = /<script\b[^>]*\ssrc="(\/_next\/static\/[^"]+\.js)"/.exec(await home.text())?.[1];
      expect(chunk, "a script chunk on the home page").toBeTruthy();
      const file = await api.get(chunk!);
      expect(file.status()).toBe(200);
      for (const [name, value] of Object.entries(FIXED_HEADERS)) expect(file.headers()[name], `${name} of ${chunk}`).toBe(value);
      expect(file.headers()["content-security-policy"]).toBeUndefined();
    } finally {
      await api.dispose();
    }
  });

  test("the policy's nonce is on every script of the page, and new for every request", async () => {
    const api = await anonymousContext();
    try {
      const nonces: string[] = [];
      for (let i = 0; i < 2; i++) {
        const home: APIResponse = await api.get("/");
        const nonce = expectSecurityHeaders(home.headers(), "GET /");
        const onScripts = scriptNonces(await home.text());
        expect(onScripts.length, "script tags on the home page").toBeGreaterThan(1);
        expect(new Set(onScripts), "every script tag carries the policy's nonce").toEqual(new Set([nonce]));
        nonces.push(nonce);
      }
      expect(nonces[0]).not.toBe(nonces[1]);
    } finally {
      await api.dispose();
    }
  });

  test("pages run their scripts and hydrate with no CSP violation", async ({ page }) => {
    test.setTimeout(90_000);
    const csp = await watchCsp(page);
    // Links do not prefetch (app/_components/link.tsx): none of these pages' links is fetched
    // before it is followed.
    const prefetched: string[] = [];
    page.on("request", (request) => {
      if (request.headers()["next-router-prefetch"]) prefetched.push(request.url());
    });
    const visit = async (path: string, status = 200): Promise<string> => {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(status);
      const nonce = nonceOf(response, path);
      await expectScriptsRanAndHydrated(page, nonce, path);
      return nonce;
    };
    const expectNoViolation = async (where: string) => {
      expect(await csp.violations(), `CSP violations on ${where}`).toEqual([]);
      expect(csp.console, `CSP console messages on ${where}`).toEqual([]);
    };

    await visit("/");
    await expectNoViolation("the home page");

    // Sign-in: the form signs in through next-auth's client code, which needs hydration.
    await visit("/signin");
    await signInThroughForm(page, scenario.users.organizer);
    await expectNoViolation("the sign-in page");

    // A leaderboard with charts: recharts draws its SVG in the browser.
    await visit(boardPath);
    await expect(page.getByTestId("leaderboard-f1-chart-drawing").locator("svg").first()).toBeVisible();
    await expectNoViolation("the leaderboard");

    // The manage page (the organizer's), with its client forms.
    await visit(managePath);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Manage");
    await expectNoViolation("the manage page");

    // A run's page (the organizer's view), with its per-document table: a client component.
    await visit(runPath);
    await expect(page.getByTestId("run-status")).toHaveText("SCORED");
    await expectNoViolation("the run page");

    // The not-found page of a malformed path renders and hydrates too.
    await visit("/tasks/%00", 404);
    await expect(page.getByText("This page could not be found.")).toBeVisible();
    await expectNoViolation("the not-found page");

    // The watcher does see a violation when there is one: an image from another site.
    await page.evaluate(() => {
      const img = document.createElement("img");
      img.src = "http://blocked.test/pixel.png";
      document.body.append(img);
    });
    await expect.poll(async () => (await csp.violations()).join("\n")).toContain("img-src blocked http://blocked.test/pixel.png");
    expect(prefetched, "links prefetched on the pages visited").toEqual([]);
  });

  test("the manage page cannot be framed, not even for its signed-in organizer", async ({ page }) => {
    const manageUrl = `${BASE_URL}${managePath}`;
    await signInPage(page, scenario.users.organizer);
    const direct = await page.goto(managePath);
    expect(direct?.status()).toBe(200);
    expect(direct!.headers()["x-frame-options"]).toBe("DENY");
    expect(directives(direct!.headers()["content-security-policy"]!).get("frame-ancestors")).toEqual(["'none'"]);

    // Chromium replaces a document it refuses to frame by its error page.
    const REFUSED = "chrome-error://chromewebdata/";
    const frameUrl = (name: string) => page.frame({ name })?.url();
    // Another site frames the manage page. Controls: a page of that site, and a page of the
    // server's origin served by the test without the headers; both load.
    const controlUrl = `${BASE_URL}/__frame-control`;
    await page.route(controlUrl, (route) => route.fulfill({ contentType: "text/html", body: "<p>control frame</p>" }));
    await page.route("http://framer.test/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body:
          new URL(route.request().url()).pathname === "/inner"
            ? "<p>inner frame</p>"
            : `<iframe name="own" src="/inner"></iframe><iframe name="control" src="${controlUrl}"></iframe><iframe name="target" src="${manageUrl}"></iframe>`,
      }),
    );
    await page.goto("http://framer.test/");
    await expect(page.frameLocator("iframe[name=own]").getByText("inner frame")).toBeVisible();
    await expect(page.frameLocator("iframe[name=control]").getByText("control frame")).toBeVisible();
    await expect.poll(() => frameUrl("target"), { message: "the browser refuses to frame the manage page" }).toBe(REFUSED);

    // The site framing itself is refused too: frame-ancestors 'none' allows no one.
    await page.goto("/");
    await page.evaluate((src) => {
      const frame = document.createElement("iframe");
      frame.name = "self-framed";
      frame.src = src;
      document.body.append(frame);
    }, managePath);
    await expect.poll(() => frameUrl("self-framed"), { message: "the browser refuses to frame the manage page in the site itself" }).toBe(REFUSED);
  });

  test("malformed path segments answer 404, never 500", async () => {
    const pages = [
      "/tasks/%00",
      "/tasks/abc%00def",
      "/tasks/%ZZ",
      "/tasks/%E0%A4%A",
      "/tasks/%FF",
      "/tasks/%C0%AF",
      "/tasks/%ED%A0%80",
      "/tasks/%0A",
      "/tasks/%7F",
      "/submissions/%ZZ",
      "/submissions/%E0%A4%A",
      "/submissions/00000000-0000-4000-8000-000000000000/documents/%00",
      "/submissions/00000000-0000-4000-8000-000000000000/documents/%E0%A4%A",
      `/tasks/${scenario.task!.slug}/phases/%ZZ/leaderboard`,
      "/metrics/%ZZ",
      "/%ZZ",
    ];
    const apis = [
      "/api/v1/submissions/%ZZ",
      "/api/v1/submissions/%00",
      "/api/v1/submissions/%E0%A4%A",
      `/api/v1/phases/%ZZ/leaderboard?format=csv`,
      "/api/v1/phases/%00",
      "/api/v1/submissions/00000000-0000-4000-8000-000000000000/documents/%FF",
      "/api/v1/%ZZ",
    ];
    const api = await anonymousContext();
    try {
      for (const path of pages) {
        const response = await api.get(path);
        expect(response.status(), path).toBe(404);
        expect(response.headers()["content-type"], path).toMatch(/^text\/html/);
        expect(await response.text(), path).toContain("This page could not be found.");
        expectSecurityHeaders(response.headers(), path);
      }
      for (const path of apis) {
        for (const method of ["GET", "POST"] as const) {
          const response = await api.fetch(path, { method });
          expect(response.status(), `${method} ${path}`).toBe(404);
          expect(response.headers()["content-type"], path).toBe("application/json; charset=utf-8");
          const body = (await response.json()) as { error: { code: string; message: string } };
          expect(body.error.code, path).toBe("not_found");
          expect(body.error.message, path).toMatch(/^No API route (GET|POST) \/api\/\S+\. The path segment ".+" (is not valid percent-encoded UTF-8|contains a control character)\.$/);
          expectSecurityHeaders(response.headers(), path);
        }
      }
      // Well-formed neighbours still reach the routes (an unknown slug or id is a plain 404).
      expect((await api.get("/tasks/%C3%A9t%C3%A9")).status()).toBe(404);
      expect((await api.get(`/tasks/${scenario.task!.slug}`)).status()).toBe(200);
      const unknown = await api.get("/api/v1/submissions/not-a-uuid");
      expect(unknown.status()).toBe(404);
      expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("not_found");
    } finally {
      await api.dispose();
    }
  });
});
