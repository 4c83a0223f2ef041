/**
 * The start-up check of Chromium runs in a child process: Debian's Chromium launched for real there, its outcome
 * carried back (ready; refused as root with the sandbox on, with Chromium's own line; an executable that exits
 * at once), and the process that asked has not loaded Playwright, while one that renders has (the control that
 * shows the test can tell). Each case runs in a fresh Node.js process, since a test process may have loaded
 * Playwright already.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { chromiumPath } from "../helpers/browser.js";

const run = promisify(execFile);
const root = new URL("../..", import.meta.url).pathname;
const status = new URL("../../src/analysis/render/chromium-status.ts", import.meta.url).pathname;
const asRoot = process.getuid?.() === 0;
const dir = mkdtempSync(join(tmpdir(), "pagegrade-probe-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome {
  result: { state: string; problem?: string; launchError?: string };
  /** Whether playwright-core is among the CommonJS modules this process loaded. */
  playwrightLoaded: boolean;
}

/** Probes (or launches, then closes) Chromium with the setting in a fresh process, and says what it loaded. */
async function inFreshProcess(
  setting: { executablePath: string; sandbox: boolean },
  action: "probe" | "launch",
): Promise<Outcome> {
  const script = join(dir, `${action}-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    script,
    `import { createRequire } from "node:module";
     import { chromiumStatus } from ${JSON.stringify(status)};
     const chromium = chromiumStatus(${JSON.stringify(setting)});
     let result;
     if (${JSON.stringify(action)} === "probe") result = await chromium.probe();
     else {
       const browser = await chromium.launch({ fallbackProxyUrl: "http://127.0.0.1:9", jsHeapMiB: 64 });
       await browser.close();
       result = chromium.state();
     }
     const loaded = Object.keys(createRequire(import.meta.url).cache);
     console.log(JSON.stringify({ result, playwrightLoaded: loaded.some((path) => path.includes("/playwright-core/")) }));`,
  );
  const { stdout } = await run(process.execPath, ["--import", "tsx", script], { cwd: root, timeout: 90_000 });
  return JSON.parse(stdout.trim().split("\n").pop() as string) as Outcome;
}

describe("the start-up check of Chromium", () => {
  it("finds Chromium ready without loading Playwright in the process that asked", {
    timeout: 120_000,
  }, async () => {
    const probed = await inFreshProcess({ executablePath: chromiumPath, sandbox: false }, "probe");
    expect(probed).toEqual({ result: { state: "ready" }, playwrightLoaded: false });
    // The control: a process that renders loads it.
    const launched = await inFreshProcess({ executablePath: chromiumPath, sandbox: false }, "launch");
    expect(launched).toEqual({ result: { state: "ready" }, playwrightLoaded: true });
  });

  it.runIf(asRoot)(
    "carries back the refusal as root with the sandbox on, with Chromium's own line for the log",
    { timeout: 120_000 },
    async () => {
      const probed = await inFreshProcess({ executablePath: chromiumPath, sandbox: true }, "probe");
      expect(probed.playwrightLoaded).toBe(false);
      expect(probed.result.state).toBe("unavailable");
      expect(probed.result.problem).toContain("Chromium does not run as root with its sandbox on");
      expect(probed.result.launchError).toContain("Running as root without --no-sandbox is not supported");
    },
  );

  it("says an executable that exits at once failed to start", { timeout: 120_000 }, async () => {
    const probed = await inFreshProcess({ executablePath: "/bin/false", sandbox: false }, "probe");
    expect(probed.playwrightLoaded).toBe(false);
    expect(probed.result.state).toBe("unavailable");
    expect(probed.result.problem).toContain("Chromium failed to start");
    expect(probed.result.launchError).not.toBe("");
  });
});
