/**
 * redirect-chains: redirects of two or more hops before a page, and redirect loops. Only the redirecting pages
 * are held (each URL and its next hop), not the crawl.
 */
import { groupMembers } from "./finding-fingerprint.js";
import type { SiteCheckDefinition } from "./site-check.js";
import { issueOf, plural } from "./site-issue.js";

export const redirectChains: SiteCheckDefinition = {
  id: "redirect-chains",
  category: "seo",
  importance: "medium",
  title: "Redirect chains and loops",
  description: "Every redirect reaches its page in one hop, and none loops.",
  howToFix: "Redirect straight to the final address in one hop, and break any loop.",
  async run(site) {
    const next = new Map<string, string>();
    const order: string[] = [];
    for await (const batch of site.pages("redirects")) {
      for (const page of batch) {
        next.set(page.url, page.redirectTo as string);
        order.push(page.url);
      }
    }
    const targets = new Set(next.values());
    const findings: Array<{ url: string; chain: string[]; loop: boolean }> = [];
    const reportedLoops = new Set<string>();
    for (const url of order) {
      const chain = [url];
      let hop: string | null = next.get(url) ?? null;
      let loop = false;
      while (hop !== null) {
        if (chain.includes(hop)) {
          loop = true;
          chain.push(hop);
          break;
        }
        chain.push(hop);
        hop = next.get(hop) ?? null;
      }
      const hops = chain.length - 1;
      if (loop) {
        const members = [...new Set(chain)].sort().join(" ");
        if (reportedLoops.has(members)) continue;
        reportedLoops.add(members);
        findings.push({ url, chain, loop: true });
      } else if (hops >= 2 && !targets.has(url)) {
        // Reported once, from where the chain starts.
        findings.push({ url, chain, loop: false });
      }
    }
    return issueOf(
      redirectChains,
      findings,
      (count) =>
        `${plural(count, "redirect")} ${count === 1 ? "takes" : "take"} two or more hops or ${count === 1 ? "loops" : "loop"}.`,
      (item) => (item.loop ? ["loop", ...groupMembers(item.chain)] : [item.url]),
    );
  },
};
