/** The reliability and security suites: each has its own npm script and runs in .ci/run after the fast suite. */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/suites/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
