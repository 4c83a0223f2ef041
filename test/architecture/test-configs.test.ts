/**
 * The fast suite's file lists stay true: every file vitest.config.ts runs alone (`sequentialFiles`) and every
 * file .ci/node-suite runs on Node.js 22 and 24 (`versionDependentFiles`) exists, belongs to the fast suite and
 * says why it is listed. A file renamed or moved out of the suite fails here instead of silently leaving a run.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sequentialFiles } from "../../vitest.config.ts";
import { versionDependentFiles } from "../../vitest.node-versions.config.ts";

const root = new URL("../..", import.meta.url).pathname;
const inFastSuite = (file: string) =>
  /^test\/.+\.test\.ts$/.test(file) && !/^test\/(browser|suites)\//.test(file);

describe("the fast suite's file lists", () => {
  it.each([
    ["sequentialFiles (vitest.config.ts)", sequentialFiles],
    ["versionDependentFiles (vitest.node-versions.config.ts)", versionDependentFiles],
  ])("%s: existing fast-suite files, each with its reason", (_name, files) => {
    for (const [file, reason] of Object.entries(files)) {
      expect(existsSync(join(root, file)), file).toBe(true);
      expect(inFastSuite(file), file).toBe(true);
      expect(reason.trim().length, file).toBeGreaterThan(10);
    }
  });

  it("lists the version-dependent files the issue names: the driver, processes, zstd, TLS, heap, the command", () => {
    for (const file of [
      "test/store/sqlite-driver.test.ts",
      "test/analysis/analysis-pool.test.ts",
      "test/analysis/fetch/zstd.test.ts",
      "test/analysis/fetch/tls-and-http2.test.ts",
      "test/runtime/heap-growth.test.ts",
      "test/cli/analyze-command.test.ts",
    ]) {
      expect(Object.keys(versionDependentFiles)).toContain(file);
    }
  });
});
