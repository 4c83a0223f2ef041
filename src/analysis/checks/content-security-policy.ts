/** content-security-policy: the page limits where scripts and other content may come from. */
import { metaHttpEquiv } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const contentSecurityPolicy: CheckDefinition = {
  id: "content-security-policy",
  category: "security",
  importance: "low",
  title: "Content Security Policy",
  description: "A Content-Security-Policy (header or meta) limits the damage an injected script can do.",
  howToFix:
    "Send a Content-Security-Policy header; start with Content-Security-Policy-Report-Only to find what would break, then enforce it.",
  run(page) {
    const header = page.response.headers["content-security-policy"];
    if (header) return outcome.pass("The page sends a Content-Security-Policy header.", header);
    const meta = metaHttpEquiv(page, "content-security-policy")[0];
    if (meta) return outcome.pass("The page declares a Content-Security-Policy in a meta element.", meta);
    return outcome.warn("The page has no Content-Security-Policy.", null);
  },
};
