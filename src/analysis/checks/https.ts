/** https: the page is served over HTTPS. */
import { type CheckDefinition, outcome } from "./check.js";

export const https: CheckDefinition = {
  id: "https",
  category: "security",
  importance: "high",
  title: "HTTPS",
  description: "The page is served over HTTPS, which protects visitors and is a ranking signal.",
  howToFix: "Install a TLS certificate (Let's Encrypt issues them free) and serve every page over https://.",
  run(page) {
    if (new URL(page.finalUrl).protocol === "https:")
      return outcome.pass("The page is served over HTTPS.", true);
    return outcome.fail("The page is served over plain HTTP.", false, [{ url: page.finalUrl }]);
  },
};
