// `npm run build` (and `npm install`'s `prepare`): compiles src/ to dist/ as plain JavaScript, which
// bin/pagegrade.js (so `pagegrade worker` too), `npm start` (bin/start.js) and the analysis processes then run
// without tsx's loader (bin/compiled.js says when dist/ is current). tsc (tsconfig.build.json) only strips the types (no type check: `npm run typecheck` and
// CI do that); the sources' other files (the usage text and the child processes' entries, the web's assets, the
// schema vocabulary) are copied beside the output; the stamp is written last. Where TypeScript is not installed
// (an install without dev dependencies) nothing is built and everything runs through tsx, as before.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { compiledDir, newestSourceTime, root, sourceDir, stampFile } from "../bin/compiled.js";

let tsc;
try {
  tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
} catch {
  console.log("pagegrade: TypeScript is not installed, so nothing is compiled; the sources run through tsx.");
  process.exit(0);
}

const started = performance.now();
// Read before compiling: a source changed during the build is newer than the stamp, so the build is stale.
const sources = newestSourceTime();
rmSync(compiledDir, { recursive: true, force: true });
const compiled = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
  cwd: root,
  stdio: "inherit",
});
if (compiled.status !== 0) {
  rmSync(compiledDir, { recursive: true, force: true });
  console.error("pagegrade: compiling src/ to dist/ failed (above)");
  process.exit(1);
}
let copied = 0;
for (const entry of readdirSync(sourceDir, { recursive: true })) {
  const from = join(sourceDir, entry);
  if (/\.(?:ts|d\.mts)$|(?:^|\/)README\.md$/.test(entry) || !statSync(from).isFile()) continue;
  mkdirSync(dirname(join(compiledDir, entry)), { recursive: true });
  copyFileSync(from, join(compiledDir, entry));
  copied++;
}
writeFileSync(stampFile, `${JSON.stringify({ sources })}\n`);
console.log(
  `pagegrade: compiled src/ to dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s (${copied} other files copied)`,
);
