/**
 * End-to-end tests (Playwright) against a real server: `scripts/serve.ts` with a throwaway
 * embedded Postgres, on a fixed port, with one host name (127.0.0.1) throughout so cookies and
 * NEXTAUTH_URL agree. The first run builds the app (`next build`) if .next is stale.
 *
 * Browser: Debian's Chromium (`apt-get install -y chromium`); `npx playwright install` does
 * not work offline. CHROMIUM_PATH overrides the path, E2E_PORT the port (default 3100).
 */
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  workers: 1,
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
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
    command: "node --import tsx scripts/serve.ts --no-demo --fresh-data-dir --hostname 127.0.0.1",
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
    },
  },
});
