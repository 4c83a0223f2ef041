/** largest-contentful-paint (rendered mode): the page's main content appears quickly. */

import { judgeMetric, seconds } from "../rendered-metric.js";
import type { CheckDefinition } from "./check.js";

export const largestContentfulPaint: CheckDefinition = {
  id: "largest-contentful-paint",
  category: "performance",
  importance: "high",
  title: "Largest Contentful Paint",
  description:
    "The largest image or text block in the viewport is painted within 2.5 s of navigation (lab measurement, unthrottled).",
  howToFix:
    "Serve the LCP image or text early: preload the LCP image with fetchpriority=high, avoid lazy-loading it, cut render-blocking CSS and scripts, and shorten server response time.",
  needs: ["rendered"],
  run(page, { largestContentfulPaintMs }) {
    return judgeMetric(
      page,
      (metrics) => metrics.largestContentfulPaintMs,
      largestContentfulPaintMs,
      "the largest contentful paint",
      seconds,
      (metrics) =>
        metrics.largestContentfulPaintElement
          ? [
              {
                element: metrics.largestContentfulPaintElement.html,
                type: metrics.largestContentfulPaintType,
                image: metrics.largestContentfulPaintElement.imageUrl,
              },
            ]
          : [],
    );
  },
};
