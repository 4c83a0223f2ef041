// How a child process's entry file (a plain .mjs, started with no flags of its parent's: no `--import tsx`)
// loads its body, a module beside it: in dist/ (the compiled JavaScript, scripts/build.mjs) the body's .js is
// there and is loaded as it is; in src/ only its .ts is, and tsx's loader is registered first.
import { existsSync } from "node:fs";

/** Loads the module `<name>.js` beside `entryUrl` when it exists (dist/), else `<name>.ts` through tsx (src/). */
export async function loadBody(entryUrl, name) {
  const compiled = new URL(`./${name}.js`, entryUrl);
  if (existsSync(compiled)) return import(compiled.href);
  const { register } = await import("tsx/esm/api");
  register();
  return import(new URL(`./${name}.ts`, entryUrl).href);
}
