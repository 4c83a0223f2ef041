/** first-contentful-paint (rendered mode): something appears quickly. */

import { metricCheck, seconds } from "./kinds/rendered-metric.js";

export const firstContentfulPaint = metricCheck({
  id: "first-contentful-paint",
  importance: "medium",
  title: "First Contentful Paint",
  description:
    "The first text or image is painted within 1.8 s of navigation (lab measurement, unthrottled).",
  howToFix:
    "Shorten the server response, inline the critical CSS, defer scripts that block rendering and make sure web fonts do not hide text (font-display: swap).",
  read: (metrics) => metrics.firstContentfulPaintMs,
  bands: (thresholds) => thresholds.firstContentfulPaintMs,
  name: "the first contentful paint",
  describe: seconds,
});
