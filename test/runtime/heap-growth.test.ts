import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config.js";
import { heapGrowthFlag } from "../../src/runtime/heap-growth.js";

const root = new URL("../..", import.meta.url).pathname;

describe("heap growth", () => {
  it("asks V8 for 1.6× by default, or the percentage given; 0 leaves V8's own heuristics", () => {
    expect(heapGrowthFlag({}, [])).toBe("--heap-growing-percent=60");
    expect(heapGrowthFlag({ PAGEGRADE_HEAP_GROWTH_PERCENT: " 100 " }, [])).toBe("--heap-growing-percent=100");
    expect(heapGrowthFlag({ PAGEGRADE_HEAP_GROWTH_PERCENT: "10" }, [])).toBe("--heap-growing-percent=10");
    expect(heapGrowthFlag({ PAGEGRADE_HEAP_GROWTH_PERCENT: "0" }, [])).toBeNull();
  });

  it("leaves a --heap-growing-percent given to Node itself alone", () => {
    expect(heapGrowthFlag({}, ["--heap-growing-percent=30"])).toBeNull();
    expect(
      heapGrowthFlag({ NODE_OPTIONS: "--max-old-space-size=512 --heap_growing_percent=30" }, []),
    ).toBeNull();
    expect(heapGrowthFlag({ NODE_OPTIONS: "--max-old-space-size=512" }, [])).toBe(
      "--heap-growing-percent=60",
    );
  });

  it("refuses anything but 0 or a whole number from 10 to 300, naming the setting", () => {
    for (const bad of ["abc", "5", "301", "-1", "1.5", "60%"]) {
      expect(() => heapGrowthFlag({ PAGEGRADE_HEAP_GROWTH_PERCENT: bad }, []), bad).toThrow(ConfigError);
      expect(() => heapGrowthFlag({ PAGEGRADE_HEAP_GROWTH_PERCENT: bad }, []), bad).toThrow(
        `PAGEGRADE_HEAP_GROWTH_PERCENT must be 0 (V8's own heuristics) or a whole number from 10 to 300, got "${bad}"`,
      );
    }
  });

  it("stops the service and the command with that message, not a stack trace", { timeout: 30_000 }, () => {
    const env = { ...process.env, PAGEGRADE_HEAP_GROWTH_PERCENT: "lots", DATABASE_URL: "sqlite::memory:" };
    const service = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], { cwd: root, env });
    expect(service.status).toBe(1);
    expect(service.stderr.toString()).toBe(
      `pagegrade: cannot start: configuration: PAGEGRADE_HEAP_GROWTH_PERCENT must be 0 (V8's own heuristics) or a whole number from 10 to 300, got "lots"\n`,
    );
    // Any command but help (which bin/pagegrade.js prints itself, before any setting is read).
    const command = spawnSync(process.execPath, ["bin/pagegrade.js", "analyze"], { cwd: root, env });
    expect(command.status).toBe(2);
    expect(command.stderr.toString()).toBe(
      `pagegrade: configuration: PAGEGRADE_HEAP_GROWTH_PERCENT must be 0 (V8's own heuristics) or a whole number from 10 to 300, got "lots"\n`,
    );
  });
});
