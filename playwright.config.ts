/**
 * End-to-end tests (Playwright) against a real server: `scripts/serve.ts` with a throwaway
 * embedded Postgres, on a fixed port, with one host name (127.0.0.1) throughout so cookies and
 * NEXTAUTH_URL agree. The first run builds the app (`next build`) if .next is stale.
 *
 * Browser: Debian's Chromium, as its headless shell when installed (`apt-get install -y
 * chromium-headless-shell`, which CI does), else the full browser (`apt-get install -y
 * chromium`); see e2e/helpers/chromium.mjs. `npx playwright install` does not work offline.
 * CHROMIUM_PATH overrides the path, E2E_PORT the port (default 3100).
 *
 * Test setup that needs an admin or the database (e2e/helpers/) runs `scripts/admin.ts`
 * against the server's throwaway database: serve.ts writes its URL to E2E_STATE_FILE
 * (default: a per-port file in the temp folder, see e2e/helpers/server.ts).
 *
 * Uploads are limited to 2 MB on this server (UPLOAD_MAX_BYTES), so that the size-limit
 * tests send small bodies.
 */
import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./e2e/helpers/chromium.mjs";
import { BASE_URL, E2E_PORT as PORT, E2E_UPLOAD_MAX_BYTES, e2eOutboxFile, e2eStateFile } from "./e2e/helpers/server";

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  // Two spec files at a time: each test makes its own users, teams and tasks (unique tags), and
  // a spec's tests run in order in one worker. One worker waits on the browser, the server and
  // the database in turn and keeps about 1.4 of the 2 cores busy: the suite alone took 390 s on
  // one worker and 288 s on two, back to back on the 2-core CI machine.
  workers: 2,
  retries: 0,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: "test-results/e2e",
  reporter: [["list"], ["json", { outputFile: "playwright-report/e2e.json" }], ["./e2e/summary-reporter.ts"]],
  use: {
    baseURL: BASE_URL,
    browserName: "chromium",
    // A trace records screenshots and DOM snapshots of every test, kept only when it fails:
    // 10-20 % of the browser tests' time on the 2-core CI machine (the same specs side by side,
    // traced and not: 204 s against 168 s, 218 s against 196 s). CI keeps only the log, so it
    // runs without; locally a failing test leaves its trace (or: npx playwright test --trace on).
    trace: process.env.CI ? "off" : "retain-on-failure",
    // A navigation (goto, reload, waitForURL, waitForLoadState) that does not end fails with
    // its own message after 30 s, not silently at the test's time limit. The slowest seen take
    // a few seconds on the loaded 2-core CI machine.
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    // One web process: the browser tests share the 2 cores with the site's unit tests, and a
    // second Next process would only add its start-up and memory (the several processes of
    // --web-processes are tested in scripts/serve/web-cluster.test.ts).
    command: "node --import tsx scripts/serve.ts --no-demo --fresh-data-dir --hostname 127.0.0.1 --web-processes 1",
    url: `${BASE_URL}/`,
    reuseExistingServer: false,
    // Includes `next build` when .next is stale (about 40 s on 2 cores).
    timeout: 300_000,
    // serve.ts stops the web server and worker, then Postgres, and deletes the temp data.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      NEXTAUTH_URL: BASE_URL,
      DATABASE_URL: "",
      LOG_LEVEL: "info",
      // serve.ts writes the throwaway database's URL here, for e2e setup (admin CLI).
      E2E_STATE_FILE: e2eStateFile(PORT),
      UPLOAD_MAX_BYTES: String(E2E_UPLOAD_MAX_BYTES),
      // Mail goes to the log (no SMTP) and to this file, where e2e/accounts.spec.ts reads links.
      MAIL_OUTBOX_FILE: e2eOutboxFile(PORT),
    },
  },
});
