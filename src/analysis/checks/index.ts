/**
 * The ordered registry of checks. Order here is the order of a report's results: by category, then roughly by
 * importance. Adding a check: write checks/<id>.ts, list it here, add its tests (see docs/checks.md).
 */
import { accessibilityChecks } from "./accessibility/axe-checks.js";
import { aiCrawlersCheck } from "./ai-crawlers.js";
import { canonical } from "./canonical.js";
import { charset } from "./charset.js";
import type { CheckDefinition } from "./check.js";
import { consoleErrors } from "./console-errors.js";
import { contentKeywords } from "./content-keywords.js";
import { contentLength } from "./content-length.js";
import { contentSecurityPolicy } from "./content-security-policy.js";
import { contentTypeOptions } from "./content-type-options.js";
import { crawlableLinks } from "./crawlable-links.js";
import { crossOriginLinks } from "./cross-origin-links.js";
import { cumulativeLayoutShift } from "./cumulative-layout-shift.js";
import { deprecatedHtml } from "./deprecated-html.js";
import { doctype } from "./doctype.js";
import { domSize } from "./dom-size.js";
import { failedRequests } from "./failed-requests.js";
import { favicon } from "./favicon.js";
import { firstContentfulPaint } from "./first-contentful-paint.js";
import { frameProtection } from "./frame-protection.js";
import { friendlyUrl } from "./friendly-url.js";
import { h1 } from "./h1.js";
import { headingOrder } from "./heading-order.js";
import { hreflang } from "./hreflang.js";
import { hsts } from "./hsts.js";
import { httpRequests } from "./http-requests.js";
import { https } from "./https.js";
import { httpsRedirect } from "./https-redirect.js";
import { imageAlt } from "./image-alt.js";
import { imageDimensions } from "./image-dimensions.js";
import { imageFormat } from "./image-format.js";
import { indexable } from "./indexable.js";
import { inlineCss } from "./inline-css.js";
import { insecureForms } from "./insecure-forms.js";
import { language } from "./language.js";
import { largestContentfulPaint } from "./largest-contentful-paint.js";
import { linkCount } from "./link-count.js";
import { linkText } from "./link-text.js";
import { llmsTxt } from "./llms-txt.js";
import { loadTime } from "./load-time.js";
import { metaDescription } from "./meta-description.js";
import { metaRefresh } from "./meta-refresh.js";
import { mixedContent } from "./mixed-content.js";
import { modernHttp } from "./modern-http.js";
import { notFoundPage } from "./not-found-page.js";
import { pageSize } from "./page-size.js";
import { plaintextEmail } from "./plaintext-email.js";
import { redirects } from "./redirects.js";
import { renderBlockingScripts } from "./render-blocking-scripts.js";
import { renderingChanges } from "./rendering-changes.js";
import { richResults } from "./rich-results.js";
import { robotsTxt } from "./robots-txt.js";
import { serverResponseTime } from "./server-response-time.js";
import { serverSignature } from "./server-signature.js";
import { sitemap } from "./sitemap.js";
import { socialLinks } from "./social-links.js";
import { socialPreview } from "./social-preview.js";
import { structuredData } from "./structured-data.js";
import { textCompression } from "./text-compression.js";
import { textHtmlRatio } from "./text-html-ratio.js";
import { title } from "./title.js";
import { totalBlockingTime } from "./total-blocking-time.js";
import { viewport } from "./viewport.js";

export const checks: readonly CheckDefinition[] = [
  // SEO
  title,
  metaDescription,
  h1,
  headingOrder,
  contentKeywords,
  imageAlt,
  friendlyUrl,
  notFoundPage,
  robotsTxt,
  indexable,
  canonical,
  hreflang,
  linkCount,
  linkText,
  crawlableLinks,
  language,
  favicon,
  sitemap,
  structuredData,
  richResults,
  renderingChanges,
  // Performance
  textCompression,
  serverResponseTime,
  loadTime,
  pageSize,
  httpRequests,
  imageFormat,
  imageDimensions,
  renderBlockingScripts,
  domSize,
  doctype,
  modernHttp,
  redirects,
  largestContentfulPaint,
  cumulativeLayoutShift,
  totalBlockingTime,
  firstContentfulPaint,
  failedRequests,
  // Security
  https,
  httpsRedirect,
  mixedContent,
  hsts,
  serverSignature,
  contentSecurityPolicy,
  contentTypeOptions,
  frameProtection,
  insecureForms,
  crossOriginLinks,
  plaintextEmail,
  // Miscellaneous
  socialPreview,
  viewport,
  charset,
  socialLinks,
  contentLength,
  textHtmlRatio,
  inlineCss,
  deprecatedHtml,
  metaRefresh,
  llmsTxt,
  aiCrawlersCheck,
  consoleErrors,
  // Accessibility (rendered mode)
  ...accessibilityChecks,
];
