/**
 * The frontier of a crawl and its politeness, shared by every part through the database, as one store for the
 * crawler: the three jobs live in their own modules, each with its PostgreSQL one-statement write beside the
 * portable one.
 * - `frontier-admission-store.ts`: URLs added within the crawl's bounds (`crawl-bounds.ts`);
 * - `frontier-claim-store.ts`: the claim of the next page (a fetch from the budget and a lease), its renewal,
 *   hand-back and requeueing, and the start of the next request to the site (starts `delay` apart across parts,
 *   a pause after a 429 or 503);
 * - `page-completion-store.ts`: an analysed page stored in one transaction with its links and the URLs it adds
 *   (on PostgreSQL one statement when its report is new; on SQLite, a savepoint of a commit shared with the
 *   pages analysed at about the same time).
 */
import type { Store } from "../store/store.js";
import { FrontierAdmission } from "./frontier-admission-store.js";
import { FrontierClaims } from "./frontier-claim-store.js";
import { PageCompletions } from "./page-completion-store.js";

// The frontier's shapes, where the crawler and its helpers have always imported them.
export type { FrontierEntry, PageLink } from "./frontier-admission-store.js";
export type { Claim } from "./frontier-claim-store.js";
export type { NewReportStatement, PageFacts } from "./page-completion-store.js";

export class FrontierStore {
  private readonly admission: FrontierAdmission;

  private readonly claims: FrontierClaims;

  private readonly completions: PageCompletions;

  constructor(store: Store) {
    this.admission = new FrontierAdmission(store.db, store.dialect);
    this.claims = new FrontierClaims(store.db, store.dialect);
    this.completions = new PageCompletions(store, this.admission);
  }

  /** See `FrontierAdmission.discover`. */
  discover(...args: Parameters<FrontierAdmission["discover"]>) {
    return this.admission.discover(...args);
  }

  /** See `FrontierClaims.requeueStale`. */
  requeueStale(...args: Parameters<FrontierClaims["requeueStale"]>) {
    return this.claims.requeueStale(...args);
  }

  /** See `FrontierClaims.claim`. */
  claim(...args: Parameters<FrontierClaims["claim"]>) {
    return this.claims.claim(...args);
  }

  /** See `FrontierClaims.claimSome`. */
  claimSome(...args: Parameters<FrontierClaims["claimSome"]>) {
    return this.claims.claimSome(...args);
  }

  /** See `FrontierClaims.renewClaim`. */
  renewClaim(...args: Parameters<FrontierClaims["renewClaim"]>) {
    return this.claims.renewClaim(...args);
  }

  /** See `FrontierClaims.unfinishedCount`. */
  unfinishedCount(...args: Parameters<FrontierClaims["unfinishedCount"]>) {
    return this.claims.unfinishedCount(...args);
  }

  /** See `FrontierClaims.nextRequestAt`. */
  nextRequestAt(...args: Parameters<FrontierClaims["nextRequestAt"]>) {
    return this.claims.nextRequestAt(...args);
  }

  /** See `FrontierClaims.handBack`. */
  handBack(...args: Parameters<FrontierClaims["handBack"]>) {
    return this.claims.handBack(...args);
  }

  /** See `FrontierClaims.pauseRequests`. */
  pauseRequests(...args: Parameters<FrontierClaims["pauseRequests"]>) {
    return this.claims.pauseRequests(...args);
  }

  /** See `FrontierClaims.settlePage`. */
  settlePage(...args: Parameters<FrontierClaims["settlePage"]>) {
    return this.claims.settlePage(...args);
  }

  /** See `FrontierClaims.excludeQueued`. */
  excludeQueued(...args: Parameters<FrontierClaims["excludeQueued"]>) {
    return this.claims.excludeQueued(...args);
  }

  /** See `PageCompletions.completePage`. */
  completePage(...args: Parameters<PageCompletions["completePage"]>) {
    return this.completions.completePage(...args);
  }

  /** See `PageCompletions.commitWaitingPages`. */
  commitWaitingPages() {
    return this.completions.commitWaitingPages();
  }

  /** See `PageCompletions.pagesAddingDepthsWait`. */
  pagesAddingDepthsWait() {
    return this.completions.pagesAddingDepthsWait();
  }
}
