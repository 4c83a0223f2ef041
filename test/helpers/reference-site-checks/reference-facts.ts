/**
 * The types of the reference site checks (this folder: the site checks as they were when a judgement held the
 * whole crawl in memory, kept only to compare the streaming judgement with): the facts are the engine's own,
 * and a check was a synchronous function over all of them.
 */
import type { SiteFacts, SiteIssue } from "../../../src/analysis/site-checks/site-facts.js";

export type {
  SiteFacts,
  SiteIssue,
  SiteIssueItem,
  SitePage,
} from "../../../src/analysis/site-checks/site-facts.js";

export type SiteCheck = (site: SiteFacts) => SiteIssue | null;
