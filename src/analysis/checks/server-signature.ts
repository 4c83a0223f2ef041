/** server-signature: response headers do not announce software versions. */
import { type CheckDefinition, outcome } from "./check.js";

const versionHeaders = ["x-aspnet-version", "x-aspnetmvc-version"];
/**
 * A product token followed by a version: "nginx/1.25.3", "PHP/8.2.1", "Apache/2.4.57 (Debian)". A digit, a dot
 * and a digit say as much as /\d+\.\d+/ does, without its quadratic retries along a long run of digits.
 */
const versioned = /\d\.\d|\/\s*\d/;

export const serverSignature: CheckDefinition = {
  id: "server-signature",
  category: "security",
  importance: "medium",
  title: "Server signature",
  description:
    "Server and X-Powered-By headers name no version numbers that would tell attackers which exploits to try.",
  howToFix:
    "Hide versions: server_tokens off (nginx), ServerTokens Prod (Apache), expose_php = Off (PHP), and remove X-Powered-By and X-AspNet-Version headers.",
  run(page) {
    const headers = page.response.headers;
    const leaks: Array<{ header: string; value: string }> = [];
    for (const name of ["server", "x-powered-by"]) {
      const value = headers[name];
      if (value && versioned.test(value)) leaks.push({ header: name, value });
    }
    for (const name of versionHeaders) {
      const value = headers[name];
      if (value) leaks.push({ header: name, value });
    }
    if (leaks.length > 0) {
      return outcome.fail(
        `The ${leaks[0]?.header} header discloses a version: "${leaks[0]?.value}".`,
        leaks[0]?.value,
        leaks,
      );
    }
    return outcome.pass("No response header discloses a software version.", headers.server ?? null);
  },
};
