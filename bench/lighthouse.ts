/**
 * `npm run bench:lighthouse`: agreement with Google Lighthouse's SEO verdicts on the 300 corpus pages (see
 * lighthouse-agreement.ts for how pages are served and compared). Raw mode by default; `-- --mode rendered` (or
 * BENCH_MODE=rendered) judges the rendered documents instead, without bench:render's speed and metrics parts.
 */
import { agreementWithLighthouse } from "./lighthouse-agreement.js";

const modeFlag = process.argv.indexOf("--mode");
const mode = (modeFlag >= 0 ? process.argv[modeFlag + 1] : process.env.BENCH_MODE) ?? "raw";
if (mode !== "raw" && mode !== "rendered") {
  console.error(`unknown mode "${mode}": raw or rendered`);
  process.exit(2);
}
// Rendered mode runs a browser per page: two at once, as bench:render does.
await agreementWithLighthouse(mode, mode === "rendered" ? 2 : 4);
process.exit(0);
