/**
 * The compiled JavaScript in dist/ (scripts/build.mjs, run by `npm install`'s `prepare`) runs only while it is
 * current (bin/compiled.js): an edited, added, moved or deleted source, or a missing or half-written stamp, sends
 * the command back to the sources through tsx. A child process's entry (the analysis pool's, the Chromium
 * check's) loads the compiled body beside it when there is one, and otherwise registers tsx for the sources.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript without declarations, run by bin/pagegrade.js
import { compiledIsCurrent, newestSourceTime } from "../../bin/compiled.js";

const dir = mkdtempSync(join(tmpdir(), "pagegrade-compiled-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A source tree of two files, its times set one second apart in the past, and a stamp of its newest time. */
function builtTree(name: string): { sources: string; stamp: string } {
  const sources = join(dir, name, "src");
  mkdirSync(join(sources, "cli"), { recursive: true });
  writeFileSync(join(sources, "main.ts"), "export {};\n");
  writeFileSync(join(sources, "cli", "main.ts"), "export {};\n");
  const past = Date.now() / 1000 - 60;
  for (const path of [
    join(sources, "main.ts"),
    join(sources, "cli", "main.ts"),
    join(sources, "cli"),
    sources,
  ])
    utimesSync(path, past, past);
  const stamp = join(dir, name, "build-stamp.json");
  writeFileSync(stamp, JSON.stringify({ sources: newestSourceTime(sources) }));
  return { sources, stamp };
}

describe("the compiled build", () => {
  it("is current until a source is edited, added, moved or deleted, and never without its stamp", () => {
    const unchanged = builtTree("unchanged");
    expect(compiledIsCurrent(unchanged.sources, unchanged.stamp)).toBe(true);

    const edited = builtTree("edited");
    writeFileSync(join(edited.sources, "cli", "main.ts"), "export const changed = 1;\n");
    expect(compiledIsCurrent(edited.sources, edited.stamp)).toBe(false);

    const added = builtTree("added");
    writeFileSync(join(added.sources, "cli", "new.ts"), "export {};\n");
    expect(compiledIsCurrent(added.sources, added.stamp)).toBe(false);

    const moved = builtTree("moved");
    renameSync(join(moved.sources, "cli", "main.ts"), join(moved.sources, "cli", "entry.ts"));
    expect(compiledIsCurrent(moved.sources, moved.stamp)).toBe(false);

    const deleted = builtTree("deleted");
    rmSync(join(deleted.sources, "cli", "main.ts"));
    expect(compiledIsCurrent(deleted.sources, deleted.stamp)).toBe(false);

    const unstamped = builtTree("unstamped");
    rmSync(unstamped.stamp);
    expect(compiledIsCurrent(unstamped.sources, unstamped.stamp)).toBe(false);
    writeFileSync(unstamped.stamp, '{"sour');
    expect(compiledIsCurrent(unstamped.sources, unstamped.stamp)).toBe(false);
  });

  it("starts a child process's compiled body, beside its entry, without tsx", () => {
    for (const [entry, body] of [
      ["analysis/pool/analysis-process-entry.mjs", "analysis-process.js"],
      ["analysis/render/chromium-probe-entry.mjs", "chromium-probe-process.js"],
    ] as const) {
      // Outside the checkout, where no tsx can be found: the entry would fail if it tried to register it.
      const copy = join(dir, "dist", entry);
      mkdirSync(join(copy, ".."), { recursive: true });
      copyFileSync(new URL(`../../src/${entry}`, import.meta.url), copy);
      const loader = join(dir, "dist", "runtime", "load-body.mjs");
      mkdirSync(join(loader, ".."), { recursive: true });
      copyFileSync(new URL("../../src/runtime/load-body.mjs", import.meta.url), loader);
      const run = () => spawnSync(process.execPath, [copy], { encoding: "utf8" });
      // The control: without its compiled body beside it, the entry reaches for tsx (and the sources).
      expect(run().stderr).toContain("Cannot find package 'tsx'");
      writeFileSync(join(copy, "..", body), 'process.stdout.write("compiled body");\n');
      expect(run()).toMatchObject({ status: 0, stdout: "compiled body", stderr: "" });
    }
  });
});
