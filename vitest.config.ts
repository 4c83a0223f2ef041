/**
 * Test runner settings: the fast suite (`npm test`). Slow suites have their own configs and scripts.
 *
 * Its files run in parallel, each in a process of its own (the forks pool), as many at once as the machine has
 * cores and at least two (vitest's own default, one less than the cores, is one file at a time on two cores).
 * They are independent: each test opens its own SQLite file, PostgreSQL schema and Redis key prefix, and its
 * servers listen on ports the system picks. Files listed in `sequentialFiles` run after the others, one at a
 * time, each with why another file beside it could fail it. None needs to today: the suite passed whole with
 * two files at once on a 2-core machine at a load of 10 to 17 (other work beside it). What parallel runs did
 * show, a migration failing when another file dropped its PostgreSQL schema meanwhile, was fixed in the
 * migrator (src/store/migrations.ts) rather than by running files apart.
 */
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** The settings every configuration of the fast suite shares (vitest.node-versions.config.ts too). */
export const fastSuiteSettings = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: "forks" as const,
  maxWorkers: Math.max(2, availableParallelism()),
};

/** Files that must not share the machine with another test file, each with its reason. */
export const sequentialFiles: Record<string, string> = {};

const excluded = ["test/browser/**", "test/suites/**", "node_modules/**"];
const sequential = Object.keys(sequentialFiles);

export default defineConfig({
  test: {
    ...fastSuiteSettings,
    projects: [
      {
        extends: true,
        test: {
          name: "parallel",
          include: ["test/**/*.test.ts"],
          // The browser suite and the reliability/security suites have their own scripts and configs.
          exclude: [...excluded, ...sequential],
        },
      },
      // One file at a time, after the parallel ones (vitest runs a project of one worker last).
      ...(sequential.length === 0
        ? []
        : [
            {
              extends: true as const,
              test: { name: "sequential", include: sequential, fileParallelism: false },
            },
          ]),
    ],
  },
});
