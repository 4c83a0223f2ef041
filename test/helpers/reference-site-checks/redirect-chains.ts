/** redirect-chains: redirects of two or more hops before a page, and redirect loops. */
import { groupMembers } from "../../../src/analysis/site-checks/finding-fingerprint.js";
import type { SiteCheck } from "./reference-facts.js";
import { issueOf, pagesByUrl, plural } from "./site-issue.js";

export const redirectChains: SiteCheck = (site) => {
  const pages = pagesByUrl(site);
  const targets = new Set(
    site.pages.map((page) => page.redirectTo).filter((url): url is string => url !== null),
  );
  const findings: Array<{ url: string; chain: string[]; loop: boolean }> = [];
  const reportedLoops = new Set<string>();
  for (const page of site.pages) {
    if (page.redirectTo === null) continue;
    const chain = [page.url];
    let next: string | null = page.redirectTo;
    let loop = false;
    while (next !== null) {
      if (chain.includes(next)) {
        loop = true;
        chain.push(next);
        break;
      }
      chain.push(next);
      next = pages.get(next)?.redirectTo ?? null;
    }
    const hops = chain.length - 1;
    if (loop) {
      const members = [...new Set(chain)].sort().join(" ");
      if (reportedLoops.has(members)) continue;
      reportedLoops.add(members);
      findings.push({ url: page.url, chain, loop: true });
    } else if (hops >= 2 && !targets.has(page.url)) {
      // Reported once, from where the chain starts.
      findings.push({ url: page.url, chain, loop: false });
    }
  }
  return issueOf(
    { check: "redirect-chains", category: "seo", importance: "medium", title: "Redirect chains and loops" },
    findings,
    (count) =>
      `${plural(count, "redirect")} ${count === 1 ? "takes" : "take"} two or more hops or ${count === 1 ? "loops" : "loop"}.`,
    (item) => (item.loop ? ["loop", ...groupMembers(item.chain)] : [item.url]),
  );
};
