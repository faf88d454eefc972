import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["scoring/**/*.test.ts", "lib/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**"],
    testTimeout: 30_000,
    pool: "forks",
    // Two files at a time on the 2-core CI machine: 304 s against 356 s for one (the default,
    // cores − 1) in a full run measured back to back.
    maxWorkers: 2,
    // One Postgres for the run, with a migrated template each file's database is copied from.
    globalSetup: ["lib/db/test-global-setup.ts"],
  },
});
