import { defineConfig } from "vitest/config";

export default defineConfig({
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
          include: ["lib/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
          // One Postgres for the run, with a migrated template each file's database is copied from.
          globalSetup: ["lib/db/test-global-setup.ts"],
        },
      },
    ],
  },
});
