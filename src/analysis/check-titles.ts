/**
 * A check's title by its id, for pages that hold only the id: a page check's from the catalogue ("Meta
 * description"), a site check's from its definition (site-checks/index.ts) ("Broken links"), and the id itself for a check
 * neither knows (one since removed, named by an old crawl).
 */
import { catalogue } from "./catalogue.js";
import { siteChecks } from "./site-checks/index.js";

const titles = new Map<string, string>([
  ...siteChecks.map((check): [string, string] => [check.id, check.title]),
  ...catalogue.map((entry): [string, string] => [entry.id, entry.title]),
]);

export function checkTitle(check: string): string {
  return titles.get(check) ?? check;
}
