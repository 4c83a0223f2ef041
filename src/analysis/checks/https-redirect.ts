/** https-redirect: the http:// address of an https page redirects to https. */
import { answerOf } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const httpsRedirect: CheckDefinition = {
  id: "https-redirect",
  category: "security",
  importance: "medium",
  title: "HTTP to HTTPS redirect",
  description: "Visitors who type or follow an http:// address are redirected to the secure version.",
  howToFix:
    "Redirect every http:// request to the same path on https:// with a 301 in the web server or CDN.",
  needs: ["httpVariant"],
  run(page) {
    if (new URL(page.finalUrl).protocol !== "https:") return outcome.na("The page is not served over HTTPS.");
    const answer = answerOf(page.probes.httpVariant);
    const start = answer.redirects[0]?.url ?? answer.url;
    if (answer.redirects.length > 0 && new URL(answer.url).protocol === "https:") {
      return outcome.pass(`${start} redirects to ${answer.url}.`, answer.url);
    }
    return outcome.fail(`${start} answers HTTP ${answer.status} without redirecting to HTTPS.`, answer.url, [
      { url: start, status: answer.status },
    ]);
  },
};
