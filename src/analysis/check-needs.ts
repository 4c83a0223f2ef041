/**
 * What a check needs beyond the served document, and the verdict when the snapshot does not have it. A check
 * declares its needs (`needs: ["rendered"]`, `needs: ["robotsTxt"]`, …) and the judge decides before the check
 * runs, as Lighthouse's runner does for an audit's required artifacts: `na` when the analysis mode did not
 * collect the fact (rendered-only checks in raw mode), `error` when a host probe the check reads failed or was
 * refused ("Could not check: …"; our access problems are never the page's fault). A probe the collector chose
 * not to make (null: the page declares an icon, robots.txt declares a sitemap, the page is served over http)
 * is no failure: the check runs and says why it needed no answer.
 */
import { type CheckNeed, type CheckOutcome, outcome } from "./checks/check.js";
import { probeAnswer, robotsVerdict } from "./page-facts.js";
import type { HostProbes, PageSnapshot } from "./snapshot.js";

export const notRendered = "Measured only in rendered mode (the page loaded in a browser).";

/** How a failed probe's message begins, per probe. */
const couldNotCheck: Record<keyof HostProbes, string> = {
  robotsTxt: "Could not check",
  notFound: "Could not check",
  httpVariant: "Could not check",
  favicon: "Could not check /favicon.ico",
  sitemap: "Could not check /sitemap.xml",
  llmsTxt: "Could not check /llms.txt",
};

/** The verdict for the first need the snapshot does not meet, or null when the check may run. */
export function unmetNeed(page: PageSnapshot, needs: readonly CheckNeed[]): CheckOutcome | null {
  for (const need of needs) {
    const reason = missingBecause(page, need);
    if (reason !== null) return reason;
  }
  return null;
}

function missingBecause(page: PageSnapshot, need: CheckNeed): CheckOutcome | null {
  if (need === "rendered") return page.rendered ? null : outcome.na(notRendered);
  if (need === "robotsTxt") {
    const verdict = robotsVerdict(page, []);
    return verdict.kind === "unreachable" ? outcome.error(`${couldNotCheck[need]}: ${verdict.reason}`) : null;
  }
  const answer = probeAnswer(page.probes[need]);
  return answer !== null && "error" in answer
    ? outcome.error(`${couldNotCheck[need]}: ${answer.error}`)
    : null;
}
