/** friendly-url: the page's address is short and readable. */
import { type CheckDefinition, outcome } from "./check.js";

export const friendlyUrl: CheckDefinition = {
  id: "friendly-url",
  category: "seo",
  importance: "medium",
  title: "Readable URL",
  description: "The address is short and readable: words separated by hyphens, few query parameters.",
  howToFix:
    "Use lower-case words separated by hyphens in the path, avoid underscores and spaces, and keep tracking or session parameters out of the canonical address.",
  run(page, { urlMaxQueryParameters, urlMaxLength }) {
    const url = new URL(page.finalUrl);
    const problems: string[] = [];
    if (url.pathname.includes("_")) problems.push("the path contains underscores");
    if (/%20|\+/.test(url.pathname)) problems.push("the path contains encoded spaces");
    const parameters = [...url.searchParams.keys()].length;
    if (parameters > urlMaxQueryParameters) problems.push(`it has ${parameters} query parameters`);
    if (page.finalUrl.length > urlMaxLength) problems.push(`it is ${page.finalUrl.length} characters long`);
    if (problems.length > 0) {
      return outcome.warn(
        `The URL is hard to read: ${problems.join("; ")}.`,
        page.finalUrl,
        problems.map((problem) => ({ problem })),
      );
    }
    return outcome.pass("The URL is short and readable.", page.finalUrl);
  },
};
