/** first-contentful-paint (rendered mode): something appears quickly. */

import { judgeMetric, seconds } from "../rendered-metric.js";
import type { CheckDefinition } from "./check.js";

export const firstContentfulPaint: CheckDefinition = {
  id: "first-contentful-paint",
  category: "performance",
  importance: "medium",
  title: "First Contentful Paint",
  description:
    "The first text or image is painted within 1.8 s of navigation (lab measurement, unthrottled).",
  howToFix:
    "Shorten the server response, inline the critical CSS, defer scripts that block rendering and make sure web fonts do not hide text (font-display: swap).",
  needs: ["rendered"],
  run(page, { firstContentfulPaintMs }) {
    return judgeMetric(
      page,
      (metrics) => metrics.firstContentfulPaintMs,
      firstContentfulPaintMs,
      "the first contentful paint",
      seconds,
    );
  },
};
