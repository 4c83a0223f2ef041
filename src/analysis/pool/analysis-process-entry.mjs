// The analysis pool's processes start here. A child process is started with no flags of the parent's (no
// `--import tsx`: the pool gives it only its heap limit). In dist/ (the compiled JavaScript, scripts/build.mjs)
// this file sits beside analysis-process.js and loads it as it is; in src/ it registers tsx's loader for itself
// before loading the process's body.
import { existsSync } from "node:fs";

const compiled = new URL("./analysis-process.js", import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./analysis-process.ts");
}
