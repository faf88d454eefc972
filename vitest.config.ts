import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

/** Where the site's test files live. */
const SITE_DIRS = ["lib", "app", "scripts"];

/**
 * What makes a test file leave state in the modules or the process for the next file: module
 * mocks, fake timers, stubbed globals, and assignments to process.env. Spies (`vi.spyOn`) and
 * `vi.stubEnv` are not: the projects whose files share module instances undo them after each
 * test ({@link UNDO_AFTER_EACH_TEST}).
 */
const CHANGES_SHARED_STATE = /\bvi\.(?:mock|doMock|stubGlobal|useFakeTimers)\(|process\.env(?:\.[A-Za-z_]\w*|\[[^\]]+\])\s*=(?!=)|delete process\.env/;

/**
 * The module mocks that files may share, as every such file writes them: `lib/queue.ts`'s test
 * double (lib/__mocks__/queue.ts, a `vi.fn` per export), asked for with
 * `vi.mock("<relative path>/queue")` or `vi.mock("@/lib/queue")` and no factory; and a request without cookies for route
 * handlers called outside a request (`next/headers`' `cookies()`).
 */
const SHARED_MOCKS = /\bvi\.mock\("(?:(?:\.\.?\/)+|@\/)(?:lib\/)?queue"\);|\bvi\.mock\("next\/headers", \(\) => \(\{ cookies: async \(\) => \(\{ getAll: \(\) => \[\] \}\) \}\)\);/g;

/**
 * The line by which a test file says that it runs with the test doubles of
 * app/api/v1/test-doubles.setup.ts (the app's server code called outside Next), in the
 * `site-app` project.
 */
const APP_DOUBLES_MARKER = /^\/\/ Vitest project: site-app\b/m;

/**
 * What every project whose files share module instances sets: environment variables set with
 * `vi.stubEnv` and spies made with `vi.spyOn` are undone after each test. A file that sets them
 * for more than one test (in `beforeAll`, or outside any hook) must not rely on them past its
 * first test.
 */
const UNDO_AFTER_EACH_TEST = { unstubEnvs: true, restoreMocks: true } as const;

/**
 * The site's test files (`*.test.ts` under {@link SITE_DIRS}), split by
 * {@link CHANGES_SHARED_STATE}: those that change
 * nothing (`shared`), those whose only changes are {@link SHARED_MOCKS} (`sharedMocks`), those
 * with {@link APP_DOUBLES_MARKER} that change nothing else (`app`), and the rest (`isolated`).
 */
function siteTestFiles(): { shared: string[]; sharedMocks: string[]; app: string[]; isolated: string[] } {
  const shared: string[] = [];
  const sharedMocks: string[] = [];
  const app: string[] = [];
  const isolated: string[] = [];
  for (const dir of SITE_DIRS) {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".test.ts")) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (file.split(path.sep).includes("node_modules") || file.startsWith(path.join("lib", "generated"))) continue;
      const text = readFileSync(file, "utf8");
      const withoutSharedMocks = text.replace(SHARED_MOCKS, "");
      if (APP_DOUBLES_MARKER.test(text) && !CHANGES_SHARED_STATE.test(text)) app.push(file);
      else if (!CHANGES_SHARED_STATE.test(text)) shared.push(file);
      else if (withoutSharedMocks !== text && !CHANGES_SHARED_STATE.test(withoutSharedMocks)) sharedMocks.push(file);
      else isolated.push(file);
    }
  }
  return { shared, sharedMocks, app, isolated };
}
const site = siteTestFiles();

export default defineConfig({
  // The `@/` import alias of tsconfig.json (`@/lib/…`, `@/app/…`, `@/scoring/…`).
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    exclude: ["node_modules/**", "e2e/**"],
    testTimeout: 30_000,
    pool: "forks",
    // Two files at a time on the 2-core CI machine: 304 s against 356 s for one (the default,
    // cores − 1) in a full run measured back to back.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "scoring",
          include: ["scoring/**/*.test.ts"],
          // The scoring library is pure (no mocks, no database, no environment changes in its
          // tests): its files share module instances in each worker instead of importing
          // everything afresh per file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "site",
          include: site.shared,
          // One Postgres for the run, with a migrated template each file's database is copied from.
          globalSetup: ["lib/db/test-global-setup.ts"],
          ...UNDO_AFTER_EACH_TEST,
          // Files that use no mock, fake timer, global stub or direct environment change (spies
          // and vi.stubEnv are undone after each test: UNDO_AFTER_EACH_TEST) share module
          // instances in each worker, as the scoring files do, instead of importing Prisma,
          // next-auth and the scorer afresh for every file and warming them up again (the
          // site's 85 files back to back on 2 workers: 231 s with this split, 279 s all isolated).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The site's files whose only changes are SHARED_MOCKS: they share module instances,
          // the mocks included, as `site` does; the doubles' calls are cleared before each test.
          name: "site-mocked",
          include: site.sharedMocks,
          globalSetup: ["lib/db/test-global-setup.ts"],
          isolate: false,
          clearMocks: true,
          ...UNDO_AFTER_EACH_TEST,
        },
      },
      {
        extends: true,
        test: {
          // The files that run the app's server code (route handlers, server actions, pages, the
          // account services) with one set of test doubles (APP_DOUBLES_MARKER): they share
          // module instances, the doubles included. They were site-isolated files, each importing
          // Next's server, next-auth, Prisma and the scorer afresh (2-4 s of CPU a file).
          name: "site-app",
          include: site.app,
          setupFiles: ["app/api/v1/test-doubles.setup.ts"],
          globalSetup: ["lib/db/test-global-setup.ts"],
          isolate: false,
          clearMocks: true,
          ...UNDO_AFTER_EACH_TEST,
        },
      },
      {
        extends: true,
        test: {
          // The site's files that do (CHANGES_SHARED_STATE): each gets fresh modules.
          name: "site-isolated",
          include: site.isolated,
          globalSetup: ["lib/db/test-global-setup.ts"],
        },
      },
    ],
  },
});
