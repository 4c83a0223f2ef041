/**
 * rich-results: every item of a type Google shows as a rich result (Article, Product, BreadcrumbList, FAQPage,
 * Recipe, Event, JobPosting, …) has the properties Google requires, with valid values, and those it
 * recommends. The rules, each with its Google Search Central source, are in
 * src/analysis/structured-data/rich-result-rules.ts.
 */
import { auditRichResults } from "../structured-data/rich-result-audit.js";
import { type CheckDefinition, outcome, plural } from "./check.js";

export const richResults: CheckDefinition = {
  id: "rich-results",
  category: "seo",
  importance: "medium",
  title: "Rich result eligibility",
  description:
    "Every item of a type Google offers a rich result for (Article, Product, Review, BreadcrumbList, FAQPage, QAPage, Recipe, Event, JobPosting, LocalBusiness, Organization, VideoObject, SoftwareApplication, Course, Dataset, HowTo) has the properties Google requires, with valid values, and the ones it recommends.",
  howToFix:
    "Add each listed property to the item named, in the form given (see the linked Google Search Central page for the rich result).",
  run(page) {
    const audit = auditRichResults(page.document.structuredData.items);
    if (audit.judged.length === 0)
      return outcome.na("The page has no item of a type Google shows as a rich result.");
    const kinds = [...new Set(audit.judged.map((judged) => judged.type))].slice(0, 5).join(", ");
    const required = audit.findings.filter((finding) => finding.level === "required");
    const recommended = audit.findings.filter((finding) => finding.level === "recommended");
    const items = [...required, ...recommended].map((finding) => ({
      level: finding.level,
      type: finding.type,
      path: finding.path,
      problem: finding.problem,
      fix: finding.fix,
      source: finding.source,
    }));
    if (required.length > 0)
      return outcome.fail(
        `${plural(required.length, "required property", "required properties")} missing or invalid in ${kinds}: ${required[0]?.path}.`,
        required.length,
        items,
      );
    if (recommended.length > 0)
      return outcome.warn(
        `${plural(recommended.length, "recommended property", "recommended properties")} missing in ${kinds}: ${recommended[0]?.path}.`,
        recommended.length,
        items,
      );
    return outcome.pass(
      `${kinds} ${audit.judged.length === 1 ? "has" : "have"} every property Google requires and recommends.`,
      0,
    );
  },
};
