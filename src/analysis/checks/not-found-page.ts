/** not-found-page: a path that does not exist answers 404 or 410, not a "soft 404". */
import { answerOf } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const notFoundPage: CheckDefinition = {
  id: "not-found-page",
  category: "seo",
  importance: "medium",
  title: "Not-found responses",
  description:
    "Pages that do not exist answer HTTP 404 or 410, so search engines drop them instead of indexing error pages.",
  howToFix:
    "Configure the server or application to answer unknown paths with status 404 (or 410), not 200 or a redirect to the home page.",
  needs: ["notFound"],
  run(page) {
    const answer = answerOf(page.probes.notFound);
    const probed = answer.redirects[0]?.url ?? answer.url;
    if (answer.status === 404 || answer.status === 410) {
      return outcome.pass(`A missing page answers HTTP ${answer.status}.`, answer.status);
    }
    if (answer.status >= 200 && answer.status < 300) {
      const via = answer.redirects.length > 0 ? ` after redirecting to ${answer.url}` : "";
      return outcome.fail(`A missing page answers HTTP ${answer.status}${via} (a soft 404).`, answer.status, [
        { url: probed, status: answer.status, final_url: answer.url },
      ]);
    }
    return outcome.warn(`A missing page answers HTTP ${answer.status} instead of 404.`, answer.status, [
      { url: probed, status: answer.status },
    ]);
  },
};
