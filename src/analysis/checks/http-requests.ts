/** http-requests: the page does not make the browser fetch too many resources. */
import type { PageSnapshot } from "../snapshot.js";
import { type CheckDefinition, outcome } from "./check.js";

export const httpRequests: CheckDefinition = {
  id: "http-requests",
  category: "performance",
  importance: "medium",
  title: "Resources to load",
  description:
    "The page references a moderate number of scripts, stylesheets, images, frames and media files.",
  howToFix:
    "Bundle scripts and styles, lazy-load images and frames below the fold, and drop third-party tags you do not need.",
  run(page, { httpRequests: limits }) {
    const { byType, urls } = referencedResources(page);
    const total = urls.size;
    const value = { total, ...byType };
    if (total <= limits.pass) return outcome.pass(`The page references ${total} resources.`, value);
    const message = `The page references ${total} resources, more than ${total <= limits.warn ? limits.pass : limits.warn}.`;
    return total <= limits.warn ? outcome.warn(message, value) : outcome.fail(message, value);
  },
};

/** Distinct URLs the browser fetches up front: scripts, stylesheets, eager images and frames, media. */
export function referencedResources(page: PageSnapshot): {
  byType: Record<string, number>;
  urls: Set<string>;
} {
  const urls = new Set<string>();
  const byType: Record<string, number> = { scripts: 0, stylesheets: 0, images: 0, frames: 0, media: 0 };
  const add = (type: string, url: string | null) => {
    if (url === null || url.startsWith("data:") || urls.has(url)) return;
    urls.add(url);
    byType[type] = (byType[type] ?? 0) + 1;
  };
  for (const script of page.document.scripts) add("scripts", script.src);
  for (const image of page.document.images) if (image.loading !== "lazy") add("images", image.src);
  for (const resource of page.document.resources) {
    if (resource.lazy) continue;
    const type =
      resource.tag === "link"
        ? "stylesheets"
        : resource.tag === "iframe" || resource.tag === "frame"
          ? "frames"
          : "media";
    add(type, resource.url);
  }
  return { byType, urls };
}
