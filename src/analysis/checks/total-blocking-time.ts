/** total-blocking-time (rendered mode): scripts do not keep the main thread busy while the page loads. */

import { judgeMetric } from "../rendered-metric.js";
import type { CheckDefinition } from "./check.js";

export const totalBlockingTime: CheckDefinition = {
  id: "total-blocking-time",
  category: "performance",
  importance: "medium",
  title: "Total Blocking Time",
  description:
    "Main-thread tasks longer than 50 ms between first contentful paint and interactive block input for at most 200 ms in all.",
  howToFix:
    "Split long tasks, load less JavaScript (remove unused code, defer third-party scripts) and move heavy work off the main thread.",
  needs: ["rendered"],
  run(page, { totalBlockingTimeMs }) {
    return judgeMetric(
      page,
      (metrics) => metrics.totalBlockingTimeMs,
      totalBlockingTimeMs,
      "the total blocking time",
      (value) => `${Math.round(value)} ms`,
      (metrics) =>
        [...metrics.longTasks]
          .sort((a, b) => b.durationMs - a.durationMs)
          .slice(0, 10)
          .map((task) => ({
            start_ms: Math.round(task.startMs),
            duration_ms: Math.round(task.durationMs),
            // The scripts that ran in the task, most time first, space-separated (URLs hold no spaces).
            scripts: task.scripts.join(" "),
          })),
    );
  },
};
