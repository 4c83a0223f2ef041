/** Test runner settings: the fast suite (`npm test`). Slow suites have their own configs and scripts. */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The browser suite and the reliability/security suites have their own scripts and configs.
    exclude: ["test/browser/**", "test/suites/**", "node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
