/**
 * A check's title by its id, for pages that hold only the id: a page check's from the catalogue ("Meta
 * description"), a site check's from the site checks' titles ("Broken links"), and the id itself for a check
 * neither knows (one since removed, named by an old crawl).
 */
import { catalogue } from "./catalogue.js";
import { siteCheckTitles } from "./site-checks/titles.js";

const titles = new Map<string, string>([
  ...Object.entries(siteCheckTitles),
  ...catalogue.map((entry): [string, string] => [entry.id, entry.title]),
]);

export function checkTitle(check: string): string {
  return titles.get(check) ?? check;
}
