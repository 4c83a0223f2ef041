/** total-blocking-time (rendered mode): scripts do not keep the main thread busy while the page loads. */

import { metricCheck } from "./kinds/rendered-metric.js";

export const totalBlockingTime = metricCheck({
  id: "total-blocking-time",
  importance: "medium",
  title: "Total Blocking Time",
  description:
    "Main-thread tasks longer than 50 ms between first contentful paint and interactive block input for at most 200 ms in all.",
  howToFix:
    "Split long tasks, load less JavaScript (remove unused code, defer third-party scripts) and move heavy work off the main thread.",
  read: (metrics) => metrics.totalBlockingTimeMs,
  bands: (thresholds) => thresholds.totalBlockingTimeMs,
  name: "the total blocking time",
  describe: (value) => `${Math.round(value)} ms`,
  evidence: (metrics) =>
    [...metrics.longTasks]
      .sort((a, b) => b.durationMs - a.durationMs)
      .slice(0, 10)
      .map((task) => ({
        start_ms: Math.round(task.startMs),
        duration_ms: Math.round(task.durationMs),
        // The scripts that ran in the task, most time first, space-separated (URLs hold no spaces).
        scripts: task.scripts.join(" "),
      })),
});
