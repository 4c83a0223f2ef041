/**
 * scripts/test-all.sh, the README's test command: every suite's npm script is in one of its lanes (none dropped
 * when the suites were split into lanes, none added to package.json and forgotten there), once; and a failing
 * stage fails the run, in either lane, with the stages' lines printed.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const testAll = readFileSync(new URL("../../scripts/test-all.sh", import.meta.url), "utf8");
const scripts = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;

/** The commands of a lane's array in the script (`main_lane=(…)`), in order. */
function lane(name: string): string[] {
  const found = new RegExp(`\\n${name}=\\(([^)]*)\\)`).exec(testAll);
  if (!found?.[1]) throw new Error(`scripts/test-all.sh has no ${name}`);
  return [...found[1].matchAll(/"([^"$]+)"/g)].map((match) => match[1] as string);
}

describe("scripts/test-all.sh", () => {
  it("runs every suite's npm script once, in one of its lanes", () => {
    const run = [...lane("first"), ...lane("main_lane"), ...lane("side_lane"), ...lane("alone")];
    const suites = [
      "npm test",
      ...Object.keys(scripts)
        // test:soak is test:load for ten minutes, run by hand; test:all is this script.
        .filter((name) => name.startsWith("test:") && name !== "test:soak" && name !== "test:all")
        .map((name) => `npm run ${name}`),
    ];
    expect([...run].sort()).toEqual([...suites].sort());
    expect(new Set(run).size).toBe(run.length);
  });

  it("fails when a stage of the side lane fails, and prints its output and each stage's line", () => {
    // The script's stages, replaced by commands that finish at once: an extra side stage that fails.
    const quick = testAll
      .replace(/\nbash scripts\/ensure-test-deps\.sh\n/, "\n")
      .replace(/\nfirst=\([^)]*\)/, '\nfirst=("echo first one")')
      .replace(/\nmain_lane=\([^)]*\)/, '\nmain_lane=("echo main one" "echo main two")')
      .replace(/\nside_lane=\([^)]*\)/s, '\nside_lane=("echo side one" "$@")')
      .replace(/\nalone=\([^)]*\)/, '\nalone=("echo alone one")');
    const failing = spawnSync("bash", ["-c", quick, "test-all", "echo side output; exit 3"], {
      encoding: "utf8",
    });
    expect(failing.status).toBe(3);
    expect(failing.stdout).toContain("side output");
    expect(failing.stdout).toMatch(/== main: +echo main two +\d+ s/);
    expect(failing.stderr).toContain("The side lane failed (exit code 3)");
    expect(failing.stdout).not.toContain("alone one");

    const passing = spawnSync("bash", ["-c", quick, "test-all", "echo side two"], { encoding: "utf8" });
    expect(passing.status).toBe(0);
    expect(passing.stdout).toMatch(/== side: +echo side two +\d+ s/);
    expect(passing.stdout).toMatch(/== alone: +echo alone one +\d+ s/);
    expect(passing.stdout).toMatch(/all tests +\d+ s/);
  });

  it("deals extra stages to the lanes in turn, the side lane first", () => {
    const quick = testAll
      .replace(/\nbash scripts\/ensure-test-deps\.sh\n/, "\n")
      .replace(/\nfirst=\([^)]*\)/, '\nfirst=("echo first one")')
      .replace(/"npm run test:[a-z]+"/g, '"true"')
      .replace(/\nalone=\([^)]*\)/, '\nalone=("echo alone one")');
    const run = spawnSync(
      "bash",
      ["-c", quick, "test-all", "echo extra one", "echo extra two", "echo extra three"],
      {
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/== side: +echo extra one +\d+ s/);
    expect(run.stdout).toMatch(/== main: +echo extra two +\d+ s/);
    expect(run.stdout).toMatch(/== side: +echo extra three +\d+ s/);
  });

  it("fails at once when a stage of the main lane fails, and stops the side lane", () => {
    const quick = testAll
      .replace(/\nbash scripts\/ensure-test-deps\.sh\n/, "\n")
      .replace(/\nfirst=\([^)]*\)/, '\nfirst=("echo first one")')
      .replace(/\nmain_lane=\([^)]*\)/, '\nmain_lane=("exit 4")')
      .replace(/\nside_lane=\([^)]*\)/s, '\nside_lane=("sleep 30" "echo side finished")')
      .replace(/\nalone=\([^)]*\)/, '\nalone=("echo alone one")');
    const started = Date.now();
    const run = spawnSync("bash", ["-c", quick, "test-all"], { encoding: "utf8", timeout: 20_000 });
    expect(run.status).toBe(4);
    expect(run.stdout).not.toContain("side finished");
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
