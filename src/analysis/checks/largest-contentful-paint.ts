/** largest-contentful-paint (rendered mode): the page's main content appears quickly. */

import { metricCheck, seconds } from "./kinds/rendered-metric.js";

export const largestContentfulPaint = metricCheck({
  id: "largest-contentful-paint",
  importance: "high",
  title: "Largest Contentful Paint",
  description:
    "The largest image or text block in the viewport is painted within 2.5 s of navigation (lab measurement, unthrottled).",
  howToFix:
    "Serve the LCP image or text early: preload the LCP image with fetchpriority=high, avoid lazy-loading it, cut render-blocking CSS and scripts, and shorten server response time.",
  read: (metrics) => metrics.largestContentfulPaintMs,
  bands: (thresholds) => thresholds.largestContentfulPaintMs,
  name: "the largest contentful paint",
  describe: seconds,
  evidence: (metrics) =>
    metrics.largestContentfulPaintElement
      ? [
          {
            element: metrics.largestContentfulPaintElement.html,
            type: metrics.largestContentfulPaintType,
            image: metrics.largestContentfulPaintElement.imageUrl,
          },
        ]
      : [],
});
