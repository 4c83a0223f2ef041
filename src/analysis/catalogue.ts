/** The catalogue of checks as clients see it: ids, categories and texts, for GET /api/v1/checks and docs. */
import { checks } from "./checks/index.js";

export interface CatalogueEntry {
  id: string;
  category: string;
  importance: string;
  title: string;
  description: string;
  how_to_fix: string;
}

export const catalogue: readonly CatalogueEntry[] = checks.map((check) => ({
  id: check.id,
  category: check.category,
  importance: check.importance,
  title: check.title,
  description: check.description,
  how_to_fix: check.howToFix,
}));
