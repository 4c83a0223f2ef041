/** cumulative-layout-shift (rendered mode): the page does not jump about while it loads. */

import { judgeMetric } from "../rendered-metric.js";
import type { CheckDefinition } from "./check.js";

export const cumulativeLayoutShift: CheckDefinition = {
  id: "cumulative-layout-shift",
  category: "performance",
  importance: "high",
  title: "Cumulative Layout Shift",
  description:
    "Visible content stays in place while the page loads: the largest session window of layout shifts (1 s gap, 5 s cap) scores at most 0.1.",
  howToFix:
    "Give images, videos, ads and embeds their width and height (or aspect-ratio), reserve space for content inserted by scripts, and avoid web fonts that change text size when they arrive.",
  needs: ["rendered"],
  run(page, { cumulativeLayoutShift }) {
    return judgeMetric(
      page,
      (metrics) => metrics.cumulativeLayoutShift,
      cumulativeLayoutShift,
      "the cumulative layout shift",
      (value) => value.toFixed(3),
      (metrics) =>
        metrics.layoutShifts.flatMap((shift) =>
          shift.elements.map((element) => ({
            element: element.html,
            shift: Number(shift.score.toFixed(4)),
            at_ms: Math.round(shift.atMs),
          })),
        ),
    );
  },
};
