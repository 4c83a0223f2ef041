/** sitemap: search engines can find a sitemap of the site. */
import { answerOf } from "../page-facts.js";
import { type CheckDefinition, outcome } from "./check.js";

export const sitemap: CheckDefinition = {
  id: "sitemap",
  category: "seo",
  importance: "low",
  title: "Sitemap",
  description: "robots.txt names a sitemap, or /sitemap.xml serves one, so crawlers find every page.",
  howToFix:
    'Publish an XML sitemap and name it in robots.txt with a line such as "Sitemap: https://example.com/sitemap.xml".',
  needs: ["sitemap"],
  run(page) {
    const robots = page.probes.robotsTxt;
    if (
      robots.ok &&
      robots.value.status >= 200 &&
      robots.value.status < 300 &&
      robots.value.parsed.sitemaps.length > 0
    ) {
      const sitemaps = robots.value.parsed.sitemaps;
      return outcome.pass(
        `robots.txt declares ${sitemaps.length === 1 ? "a sitemap" : `${sitemaps.length} sitemaps`}.`,
        sitemaps,
      );
    }
    const answer = answerOf(page.probes.sitemap);
    const looksLikeXml =
      /xml/.test(answer.mediaType) || /^\s*(<\?xml|<urlset|<sitemapindex)/.test(answer.text);
    if (answer.status === 200 && looksLikeXml)
      return outcome.pass("/sitemap.xml serves a sitemap.", [answer.url]);
    return outcome.fail(
      `robots.txt declares no sitemap and /sitemap.xml answers HTTP ${answer.status}${answer.status === 200 ? " without XML" : ""}.`,
      null,
      [{ url: answer.url, status: answer.status, content_type: answer.mediaType }],
    );
  },
};
