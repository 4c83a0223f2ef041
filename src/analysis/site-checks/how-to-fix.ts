/**
 * How to fix what each site check finds, one sentence each (the page checks carry theirs in their definitions):
 * shown beside the site issues in the "fix first" ranking.
 */
export const siteCheckFixes: Readonly<Record<string, string>> = {
  "broken-links":
    "Point each link at a page that exists, or remove it; restore or redirect pages that are still linked.",
  "canonical-targets":
    "Make every canonical name an indexable page that answers 200 and names itself as canonical.",
  "click-depth":
    "Link deep pages from the home page, a section page or the navigation so they are a few clicks away.",
  "duplicate-content": "Merge pages with the same text, or name one of them as canonical on the others.",
  "duplicate-meta-description": "Write a description of its own for each page.",
  "duplicate-title": "Give each page a title of its own that says what is on it.",
  "hreflang-reciprocity":
    "Make each alternate a valid page that links back with its own hreflang, and names itself as canonical.",
  "insecure-links": "Link to the https:// address of each internal page.",
  "nofollow-internal-links": "Remove rel=nofollow from links to your own pages.",
  "orphan-pages":
    "Link to each orphan page from a related page, or remove it from the sitemap if it is gone.",
  "redirect-chains": "Redirect straight to the final address in one hop, and break any loop.",
  "redirected-links": "Link straight to the final address instead of one that redirects.",
  "sitemap-errors": "List only indexable pages that answer 200 at their final address in the sitemap.",
};
