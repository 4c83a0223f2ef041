/**
 * `npm run screenshots`: regenerates docs/screenshots/ — the report, crawl, project and shared audit pages (and the rest of the
 * app with `--all`) at a desk's 1350×940 and a phone's 390×844, over realistic data (test/helpers/realistic-app.ts:
 * a rendered report of a page failing many checks, a crawl of a few hundred pages). Prints each page's size.
 * Each picture is the page's first screen (what a visitor sees before scrolling, and small enough to keep in
 * git); `--full` takes whole pages instead, `--out DIR` writes elsewhere (e.g. /tmp, to look without touching
 * the repository).
 */
import { mkdirSync } from "node:fs";
import { launchBrowser } from "../test/helpers/browser.js";
import { startRealisticApp } from "../test/helpers/realistic-app.js";

const sizes = [
  { width: 1350, height: 940 },
  { width: 390, height: 844 },
];
const argv = process.argv.slice(2);
const outAt = argv.indexOf("--out");
const out = outAt >= 0 ? (argv[outAt + 1] as string) : "docs/screenshots";
const kept = argv.includes("--all") ? null : ["report", "crawl", "project", "audit"];
const fullPage = argv.includes("--full");

/** The innermost elements that reach past the screen's right edge, as tag.class (for a sideways scroll). */
const widestElements = `[...document.querySelectorAll("body *")]
  .filter((element) => element.getBoundingClientRect().right > innerWidth + 1)
  .slice(-6)
  .map((element) => element.tagName.toLowerCase() + "." + [...element.classList].join(".") + " in " + element.parentElement.tagName.toLowerCase() + "." + [...element.parentElement.classList].join("."))
  .join(", ")`;

mkdirSync(out, { recursive: true });
const browser = await launchBrowser();
const app = await startRealisticApp(browser);
try {
  for (const [name, path] of Object.entries(app.paths)) {
    if (kept && !kept.includes(name)) continue;
    for (const size of sizes) {
      const page = await app.signedIn.newPage();
      await page.setViewportSize(size);
      await page.goto(`${app.service.url}${path}`);
      await page.waitForLoadState("networkidle");
      const [width, height] = (await page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]",
      )) as [number, number];
      await page.screenshot({ path: `${out}/${name}-${size.width}.png`, fullPage });
      console.log(`${name.padEnd(18)} ${String(size.width).padStart(4)}: ${width} × ${height} px  ${path}`);
      if (width > size.width) console.log(`  wider than the screen: ${await page.evaluate(widestElements)}`);
      await page.close();
    }
  }
} finally {
  await app.close();
  await browser.close();
}
