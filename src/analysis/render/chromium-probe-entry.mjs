// The start-up check of Chromium starts here (chromium-probe-process.ts). A child process is started with no
// flags of the parent's (no `--import tsx`). In dist/ (the compiled JavaScript, scripts/build.mjs) this file sits
// beside chromium-probe-process.js and loads it as it is; in src/ it registers tsx's loader for itself before
// loading its body.
import { existsSync } from "node:fs";

const compiled = new URL("./chromium-probe-process.js", import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./chromium-probe-process.ts");
}
