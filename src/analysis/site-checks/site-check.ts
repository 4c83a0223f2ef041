/**
 * The contract of a site check, shaped as a page check's (checks/check.ts): an id, the texts the catalogue, the
 * views and the API show (title, description, how to fix), what it needs, and `run(site)`, which reads the
 * crawl from its source (site-source.ts), never all of it at once, writes nothing but to the sink it may be
 * given (where a check with many findings may put them as it finds them: site-issue.ts), and answers the
 * issue, or null when it found nothing.
 */
import type { SiteIssue } from "./site-facts.js";
import type { FindingSink, SiteCheckInfo } from "./site-issue.js";
import type { SiteSource } from "./site-source.js";

/**
 * A fact of the crawl a check cannot judge fully without: `links`, the links the crawl recorded. A crawl's link
 * bounds may leave some out (`SiteSource.linksLeftOut`); the judgement then says so in the check's message.
 */
export type SiteCheckNeed = "links";

export interface SiteCheckDefinition extends SiteCheckInfo {
  /** Stable id, a kebab-case noun; also the file name. */
  id: string;
  /** What passes, in a sentence or two. */
  description: string;
  /** What to do about the findings, in a sentence (shown beside the issue in the "fix first" ranking). */
  howToFix: string;
  needs?: readonly SiteCheckNeed[];
  run(site: SiteSource, sink?: FindingSink): Promise<SiteIssue | null>;
}
