/**
 * scripts/ensure-test-deps.sh, which `npm run test:all` runs first: on this machine (everything present,
 * PostgreSQL and Redis answering) it changes nothing and succeeds; a missing package is installed with apt-get
 * as root, and named with the command to run (nothing attempted) for anyone else. Which package is missing is
 * what dpkg-query says, so those cases put a dpkg-query (and an apt-get that only records its arguments) first
 * on the PATH (so the test does not depend on what this machine has installed): installing or removing
 * packages for real is not for a test. PostgreSQL and Redis are the machine's own, as the fast suite needs.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const script = new URL("../../scripts/ensure-test-deps.sh", import.meta.url).pathname;
const packageJson = new URL("../../package.json", import.meta.url).pathname;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pagegrade-test-deps-"));
  chmodSync(dir, 0o755);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A PATH whose dpkg-query says every package is installed but `absent`, and whose apt-get records its
 * arguments.
 */
function pathWithout(absent: string | null): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, { mode: 0o755 });
  writeFileSync(
    join(bin, "dpkg-query"),
    `#!/bin/sh\nfor last; do :; done\n[ "$last" = "${absent}" ] && echo "unknown ok not-installed" || echo "install ok installed"\n`,
  );
  writeFileSync(join(bin, "apt-get"), `#!/bin/sh\necho "$*" >> ${join(dir, "apt-get.log")}\n`);
  chmodSync(join(bin, "dpkg-query"), 0o755);
  chmodSync(join(bin, "apt-get"), 0o755);
  return `${bin}:${process.env.PATH}`;
}

function aptGetCalls(): string[] {
  const log = join(dir, "apt-get.log");
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
}

describe("scripts/ensure-test-deps.sh", () => {
  it("is what npm run test:all runs first (scripts/test-all.sh, before any suite)", () => {
    const scripts = (JSON.parse(readFileSync(packageJson, "utf8")) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts["test:all"]).toBe("bash scripts/test-all.sh");
    const testAll = readFileSync(new URL("../../scripts/test-all.sh", import.meta.url), "utf8");
    const readied = testAll.indexOf("\nbash scripts/ensure-test-deps.sh\n");
    expect(readied).toBeGreaterThan(0);
    expect(readied).toBeLessThan(testAll.indexOf('run_lane "main:"'));
    expect(readied).toBeLessThan(testAll.indexOf('run_lane "side:"'));
  });

  it("succeeds and installs nothing when every package is installed and PostgreSQL and Redis answer", () => {
    const run = spawnSync("bash", [script], {
      encoding: "utf8",
      env: { ...process.env, PATH: pathWithout(null) },
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Test dependencies ready");
    expect(aptGetCalls()).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)("installs a missing package with apt-get as root", () => {
    const run = spawnSync("bash", [script], {
      encoding: "utf8",
      env: { ...process.env, PATH: pathWithout("fonts-noto-cjk") },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Installing fonts-noto-cjk with apt-get");
    expect(aptGetCalls()).toEqual(["update -qq", "install -y -qq fonts-noto-cjk"]);
  });

  it.runIf(process.getuid?.() === 0)("names the command and fails, attempting nothing, when not root", () => {
    // The script as another user reads: a copy in the scratch folder.
    const copy = join(dir, "ensure-test-deps.sh");
    copyFileSync(script, copy);
    chmodSync(copy, 0o755);
    const run = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "bash", copy], {
      encoding: "utf8",
      env: { ...process.env, PATH: pathWithout("poppler-utils"), HOME: dir },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("not installed: poppler-utils");
    expect(run.stderr).toContain("apt-get update && apt-get install -y poppler-utils");
    expect(aptGetCalls()).toEqual([]);
  });
});
