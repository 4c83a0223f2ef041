/** content-type-options: browsers are told not to guess content types. */
import { type CheckDefinition, outcome } from "./check.js";

export const contentTypeOptions: CheckDefinition = {
  id: "content-type-options",
  category: "security",
  importance: "low",
  title: "X-Content-Type-Options",
  description: "X-Content-Type-Options: nosniff stops browsers from treating uploads or data as scripts.",
  howToFix: 'Send "X-Content-Type-Options: nosniff" with every response.',
  run(page) {
    const value = page.response.headers["x-content-type-options"];
    if (value?.trim().toLowerCase() === "nosniff")
      return outcome.pass("The page sends X-Content-Type-Options: nosniff.", value);
    return outcome.warn(
      value
        ? `X-Content-Type-Options is "${value}", not "nosniff".`
        : "The page does not send X-Content-Type-Options: nosniff.",
      value ?? null,
    );
  },
};
