// Whether the compiled JavaScript in dist/ may run instead of the TypeScript sources through tsx. `npm install`
// builds dist/ (its `prepare` script runs scripts/build.mjs: tsc with tsconfig.build.json, then the sources'
// other files copied beside the output) and writes dist/build-stamp.json last, holding the newest modification
// time of src/ (every file and folder) when the build read it. dist/ is used only while nothing in src/ is newer:
// an edit, a new, moved or deleted file, a `git checkout` or `git pull` (which touch what they write) makes it
// stale, and the command, the worker and their child processes run the sources through tsx again until the next
// `npm install` or `npm run build`. A half-built dist/ has no stamp yet, so it is never used.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const sourceDir = join(root, "src");
export const compiledDir = join(root, "dist");
export const stampFile = join(compiledDir, "build-stamp.json");

/**
 * The newest modification time (ms) of a folder (src/) and everything in it, files and folders. An entry that
 * vanishes while it is read (an editor's temporary file, a `git checkout` under way) makes it Infinity: the
 * sources are changing, so dist/ is not taken as current.
 */
export function newestSourceTime(folder = sourceDir) {
  try {
    let newest = statSync(folder).mtimeMs;
    for (const entry of readdirSync(folder, { recursive: true })) {
      const time = statSync(join(folder, entry)).mtimeMs;
      if (time > newest) newest = time;
    }
    return newest;
  } catch (error) {
    if (error?.code === "ENOENT") return Number.POSITIVE_INFINITY;
    throw error;
  }
}

/** Whether dist/ holds a finished build of the sources as they are now (the folders: for the tests). */
export function compiledIsCurrent(folder = sourceDir, stamp = stampFile) {
  let built;
  try {
    built = JSON.parse(readFileSync(stamp, "utf8"));
  } catch {
    return false;
  }
  return typeof built.sources === "number" && newestSourceTime(folder) <= built.sources;
}

/**
 * Imports an entry module (`main`, `cli/main`): dist/'s JavaScript while it is current, else the TypeScript
 * source through tsx's loader (registered first). What `bin/pagegrade.js` and `bin/start.js` run.
 */
export async function importCompiledOrSource(entry) {
  if (compiledIsCurrent()) return import(pathToFileURL(join(compiledDir, `${entry}.js`)).href);
  const { register } = await import("tsx/esm/api");
  register();
  return import(pathToFileURL(join(sourceDir, `${entry}.ts`)).href);
}
