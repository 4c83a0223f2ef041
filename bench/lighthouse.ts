/**
 * `npm run bench:lighthouse`: agreement with Google Lighthouse's SEO verdicts on the 300 corpus pages in raw mode
 * (see lighthouse-agreement.ts for how pages are served and compared).
 */
import { agreementWithLighthouse } from "./lighthouse-agreement.js";

await agreementWithLighthouse("raw", 4);
process.exit(0);
