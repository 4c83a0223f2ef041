/**
 * The site checks' titles, as the site issues carry them ("Broken links") and every page that names a site check
 * shows it: the checks take theirs from here, so a page naming a check by id alone (a comparison of two crawls, a
 * project's latest changes) finds the same title.
 */
export const siteCheckTitles = {
  "broken-links": "Broken links",
  "canonical-targets": "Broken canonicals",
  "click-depth": "Deep pages",
  "duplicate-content": "Duplicate content",
  "duplicate-meta-description": "Duplicate meta descriptions",
  "duplicate-title": "Duplicate titles",
  "hreflang-reciprocity": "hreflang alternates",
  "insecure-links": "Links to http://",
  "nofollow-internal-links": "Nofollow internal links",
  "orphan-pages": "Orphan pages",
  "redirect-chains": "Redirect chains and loops",
  "redirected-links": "Links to redirects",
  "sitemap-errors": "Sitemap errors",
} as const satisfies Readonly<Record<string, string>>;
