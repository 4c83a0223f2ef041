/** hsts: browsers are told to use HTTPS for the site for at least a year. */
import { type CheckDefinition, outcome } from "./check.js";

export const hsts: CheckDefinition = {
  id: "hsts",
  category: "security",
  importance: "low",
  title: "Strict Transport Security",
  description: "A Strict-Transport-Security header with a max-age of a year or more keeps browsers on HTTPS.",
  howToFix: 'Send "Strict-Transport-Security: max-age=31536000; includeSubDomains" on HTTPS responses.',
  run(page, { hstsMinMaxAge }) {
    if (new URL(page.finalUrl).protocol !== "https:") return outcome.na("The page is not served over HTTPS.");
    const header = page.response.headers["strict-transport-security"];
    if (!header) return outcome.fail("The page sends no Strict-Transport-Security header.", null);
    const maxAge = Number(header.match(/max-age\s*=\s*"?(\d+)"?/i)?.[1] ?? Number.NaN);
    if (Number.isNaN(maxAge))
      return outcome.warn(`The Strict-Transport-Security header has no valid max-age: "${header}".`, header);
    if (maxAge < hstsMinMaxAge) {
      return outcome.warn(
        `Strict-Transport-Security max-age is ${maxAge} seconds, less than a year.`,
        maxAge,
      );
    }
    return outcome.pass(`Strict-Transport-Security max-age is ${maxAge} seconds.`, maxAge);
  },
};
