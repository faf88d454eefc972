import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["scoring/**/*.test.ts", "lib/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
