/**
 * What the checks over link targets share (broken, redirected, insecure and nofollow links): the source finds
 * the targets of their kind with their first sources (site-source.ts, `linkTargets`); each target is a finding,
 * its URL, the facts the check adds, then its sources, identified by its URL.
 */
import type { SiteIssue, SiteIssueItem } from "./site-facts.js";
import { byUrl, issueOf, listedSources, type SiteCheckInfo } from "./site-issue.js";
import type { LinkedTarget, LinkTargetKind, SiteSource } from "./site-source.js";

export async function linkTargetIssue(
  check: SiteCheckInfo,
  site: SiteSource,
  kind: LinkTargetKind,
  message: (count: number) => string,
  facts: (target: LinkedTarget) => SiteIssueItem = () => ({}),
): Promise<SiteIssue | null> {
  const findings = (await site.linkTargets(kind, listedSources)).map((target) => ({
    url: target.url,
    ...facts(target),
    sources: target.sources,
  }));
  return issueOf(check, findings, message, byUrl);
}
