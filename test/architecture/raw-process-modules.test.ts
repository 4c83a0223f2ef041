/**
 * A service that only ever analyses raw pages never loads playwright-core: the app is built and started in a
 * process of its own (test/helpers/raw-app-modules.ts), which reports the playwright-core files it loaded.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;

describe("a raw-only service process", () => {
  it("builds, starts and answers without loading playwright-core (it loads on the first PDF or rendered analysis)", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "test/helpers/raw-app-modules.ts"],
      { cwd: root, env: { ...process.env, LOG_LEVEL: "warn" }, timeout: 60_000 },
    );
    const { statuses, loaded, afterImport } = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
      statuses: number[];
      loaded: string[];
      afterImport: number;
    };
    expect(statuses).toEqual([200, 200, 200, 404, 404]);
    expect(loaded).toEqual([]);
    // The control: the same count sees playwright-core once it is imported.
    expect(afterImport).toBeGreaterThan(0);
  }, 90_000);
});
