/** frame-protection: other sites cannot frame the page for clickjacking. */
import { type CheckDefinition, outcome } from "./check.js";

export const frameProtection: CheckDefinition = {
  id: "frame-protection",
  category: "security",
  importance: "low",
  title: "Frame protection",
  description:
    "X-Frame-Options or the CSP frame-ancestors directive controls which sites may embed the page.",
  howToFix: 'Send "Content-Security-Policy: frame-ancestors \'self\'" (or "X-Frame-Options: SAMEORIGIN").',
  run(page) {
    const headers = page.response.headers;
    const ancestors = headers["content-security-policy"]
      ?.match(/(?:^|;)\s*frame-ancestors\s+[^;]*/i)?.[0]
      ?.replace(/^;\s*/, "");
    if (ancestors)
      return outcome.pass(`The page restricts framing with ${ancestors.trim()}.`, ancestors.trim());
    const xfo = headers["x-frame-options"];
    if (xfo && /^(deny|sameorigin)$/i.test(xfo.trim()))
      return outcome.pass(`The page sends X-Frame-Options: ${xfo}.`, xfo);
    return outcome.warn("The page does not restrict who may frame it.", xfo ?? null);
  },
};
