/** cumulative-layout-shift (rendered mode): the page does not jump about while it loads. */

import { metricCheck } from "./kinds/rendered-metric.js";

export const cumulativeLayoutShift = metricCheck({
  id: "cumulative-layout-shift",
  importance: "high",
  title: "Cumulative Layout Shift",
  description:
    "Visible content stays in place while the page loads: the largest session window of layout shifts (1 s gap, 5 s cap) scores at most 0.1.",
  howToFix:
    "Give images, videos, ads and embeds their width and height (or aspect-ratio), reserve space for content inserted by scripts, and avoid web fonts that change text size when they arrive.",
  read: (metrics) => metrics.cumulativeLayoutShift,
  bands: (thresholds) => thresholds.cumulativeLayoutShift,
  name: "the cumulative layout shift",
  describe: (value) => value.toFixed(3),
  evidence: (metrics) =>
    metrics.layoutShifts.flatMap((shift) =>
      shift.elements.map((element) => ({
        element: element.html,
        shift: Number(shift.score.toFixed(4)),
        at_ms: Math.round(shift.atMs),
      })),
    ),
});
