/**
 * Lighthouse as a benchmark tool: installed on demand into $TMPDIR/pagegrade-lighthouse (outside the repository,
 * never a dependency of pagegrade), pinned to the version the corpus verdicts were recorded with.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const lighthouseVersion = "12.8.2";
export const lighthouseDir = join(process.env.TMPDIR ?? tmpdir(), "pagegrade-lighthouse");
export const lighthousePackage = join(lighthouseDir, "node_modules", "lighthouse");
export const lighthouseCli = join(lighthousePackage, "cli", "index.js");

/** Installs Lighthouse once; later calls find it in place. */
export function ensureLighthouse(): void {
  if (existsSync(lighthouseCli)) return;
  console.log(`Installing Lighthouse ${lighthouseVersion} into ${lighthouseDir} (once) …`);
  execFileSync(
    "npm",
    ["install", "--prefix", lighthouseDir, "--no-save", `lighthouse@${lighthouseVersion}`],
    {
      stdio: "inherit",
    },
  );
}
