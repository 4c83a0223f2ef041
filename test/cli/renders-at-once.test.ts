import { describe, expect, it } from "vitest";
import { commandAnalysisConfig } from "../../src/cli/renders-at-once.js";

describe("pages a command renders at once", () => {
  it("follows --concurrency when PAGEGRADE_MAX_CONCURRENT_RENDERS is not set (not the server's 2)", () => {
    expect(commandAnalysisConfig(4, {}).maxConcurrentRenders).toBe(4);
    expect(commandAnalysisConfig(1, {}).maxConcurrentRenders).toBe(1);
  });

  it("is capped by PAGEGRADE_MAX_CONCURRENT_RENDERS when it is set", () => {
    expect(commandAnalysisConfig(4, { PAGEGRADE_MAX_CONCURRENT_RENDERS: "3" }).maxConcurrentRenders).toBe(3);
    expect(commandAnalysisConfig(2, { PAGEGRADE_MAX_CONCURRENT_RENDERS: "3" }).maxConcurrentRenders).toBe(2);
  });
});
