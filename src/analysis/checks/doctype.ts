/** doctype: the page renders in standards mode. */
import { type CheckDefinition, outcome } from "./check.js";

export const doctype: CheckDefinition = {
  id: "doctype",
  category: "performance",
  importance: "medium",
  title: "Doctype",
  description:
    "The page starts with <!DOCTYPE html>, so browsers render it in standards mode rather than quirks mode.",
  howToFix: "Put <!DOCTYPE html> on the very first line of the document.",
  run(page) {
    const { doctype: declared, mode } = page.document;
    const shown = declared
      ? `<!DOCTYPE ${declared.name}${declared.publicId ? ` PUBLIC "${declared.publicId}"` : ""}>`
      : null;
    if (mode === "no-quirks") return outcome.pass("The page renders in standards mode.", shown);
    if (mode === "limited-quirks") {
      return outcome.warn(`The doctype ${shown} puts the page in almost-standards mode.`, shown);
    }
    return outcome.fail(
      declared
        ? `The doctype ${shown} puts the page in quirks mode.`
        : "The page has no doctype, so it renders in quirks mode.",
      shown,
    );
  },
};
