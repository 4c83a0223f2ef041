/** meta-refresh: the page does not redirect or reload itself with <meta http-equiv=refresh>. */
import { metaHttpEquiv } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const metaRefresh: CheckDefinition = {
  id: "meta-refresh",
  category: "miscellaneous",
  importance: "low",
  title: "Meta refresh",
  description:
    'The page does not use <meta http-equiv="refresh">, which confuses visitors, search engines and screen readers.',
  howToFix: "Use a server-side 301 redirect instead of a meta refresh; let visitors reload pages themselves.",
  run(page) {
    const refreshes = metaHttpEquiv(page, "refresh");
    if (refreshes.length > 0) {
      return outcome.fail(
        `The page has a meta refresh ("${refreshes[0]}").`,
        refreshes[0],
        refreshes.map((content) => ({ content })),
      );
    }
    return outcome.pass("The page has no meta refresh.", null);
  },
};
