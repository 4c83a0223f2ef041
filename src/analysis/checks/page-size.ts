/** page-size: the HTML itself is not bloated. */
import { type CheckDefinition, outcome } from "./check.js";

export const pageSize: CheckDefinition = {
  id: "page-size",
  category: "performance",
  importance: "medium",
  title: "HTML size",
  description: "The decoded HTML is small enough to download and parse quickly on a phone.",
  howToFix:
    "Move inline scripts, styles and data into cacheable files, paginate long lists, and remove unused markup.",
  run(page, { pageSizeBytes }) {
    const bytes = page.response.htmlBytes;
    const kb = Math.round(bytes / 1000);
    if (bytes <= pageSizeBytes.pass) return outcome.pass(`The HTML is ${kb} KB.`, bytes);
    if (bytes <= pageSizeBytes.warn)
      return outcome.warn(`The HTML is ${kb} KB, more than ${pageSizeBytes.pass / 1000} KB.`, bytes);
    return outcome.fail(`The HTML is ${kb} KB, more than ${pageSizeBytes.warn / 1000} KB.`, bytes);
  },
};
