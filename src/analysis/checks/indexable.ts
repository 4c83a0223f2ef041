/** indexable: no noindex directive keeps the page out of search results. */
import { noindexSources } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const indexable: CheckDefinition = {
  id: "indexable",
  category: "seo",
  importance: "high",
  title: "Indexable",
  description:
    "No meta robots tag or X-Robots-Tag header tells search engines to leave the page out of their index.",
  howToFix:
    'Remove "noindex" (or "none") from the robots meta tags and the X-Robots-Tag header if the page should be found.',
  run(page) {
    const sources = noindexSources(page);
    if (sources.length > 0) {
      return outcome.fail(
        `The page tells search engines not to index it (${sources[0]}).`,
        false,
        sources.map((source) => ({ source })),
      );
    }
    return outcome.pass("No directive keeps search engines from indexing the page.", true);
  },
};
