/**
 * A crawled page's facts as the site checks read them (`SitePage`), for facts built by hand: an indexable page
 * at depth 1 that answered 200 as HTML, with no title, description, text, canonical or alternates, outside any
 * sitemap, and whatever `facts` say instead.
 */
import type { SitePage } from "../../src/analysis/site-checks/site-facts.js";

export function sitePage(url: string, facts: Partial<SitePage> = {}): SitePage {
  return {
    url,
    depth: 1,
    statusCode: 200,
    error: null,
    redirectTo: null,
    contentType: "text/html",
    inSitemap: false,
    disallowed: false,
    excluded: null,
    indexable: true,
    noindex: false,
    canonical: null,
    title: null,
    metaDescription: null,
    text: null,
    hreflang: [],
    ...facts,
  };
}
