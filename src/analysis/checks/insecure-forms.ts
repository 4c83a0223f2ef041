/** insecure-forms: no form sends its data, or a password, in the clear. */
import { type CheckDefinition, every, outcome, plural, verb } from "./check.js";

export const insecureForms: CheckDefinition = {
  id: "insecure-forms",
  category: "security",
  importance: "medium",
  title: "Secure forms",
  description: "Forms submit over HTTPS and password fields appear only on HTTPS pages.",
  howToFix:
    "Serve the page over HTTPS and point every form action at an https:// URL (or a relative path on an HTTPS page).",
  run(page) {
    const { forms, passwordFields } = page.document;
    const pageIsHttp = new URL(page.finalUrl).protocol === "http:";
    if (forms.length === 0 && passwordFields === 0) return outcome.na("The page has no forms.");
    const problems: Array<{ problem: string; html: string; action: string | null }> = [];
    for (const form of forms) {
      const action = form.action ?? page.finalUrl;
      if (action.startsWith("http:"))
        problems.push({ problem: "submits over HTTP", html: form.html, action });
    }
    if (pageIsHttp && passwordFields > 0) {
      problems.push({
        problem: `${plural(passwordFields, "password field")} on an HTTP page`,
        html: "",
        action: null,
      });
    }
    if (problems.length > 0) {
      return outcome.fail(
        `${plural(problems.length, "form")} ${verb(problems.length, "is", "are")} insecure: ${problems[0]?.problem}.`,
        problems.length,
        problems,
      );
    }
    return outcome.pass(
      `${every(forms.length, "form")} ${verb(forms.length, "submits", "submit")} securely.`,
      0,
    );
  },
};
