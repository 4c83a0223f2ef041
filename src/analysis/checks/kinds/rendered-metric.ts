/**
 * What the four lab-metric checks share: a check made from the metric's description. Each needs `rendered`, so
 * the judge has answered raw mode; the check is `na` when the trace did not yield the metric, else pass / warn /
 * fail by the metric's bands in the scoring thresholds (checks.md, "Rendered-only checks": the bands Lighthouse
 * and Core Web Vitals use).
 */

import type { Thresholds } from "../../scoring-config.js";
import type { PageSnapshot, RenderedFactsSnapshot } from "../../snapshot.js";
import type { CheckDefinition, CheckImportance, CheckOutcome, EvidenceItem } from "../check.js";
import { outcome } from "../check.js";

type RenderedMetrics = NonNullable<RenderedFactsSnapshot["metrics"]>;

export interface MetricBands {
  pass: number;
  warn: number;
}

/** One lab metric as a check: its catalogue texts, where to read it, its bands and how to word it. */
export interface MetricCheck {
  id: string;
  importance: CheckImportance;
  title: string;
  description: string;
  howToFix: string;
  read: (metrics: RenderedMetrics) => number | null;
  /** The thresholds entry holding the metric's bands. */
  bands: (thresholds: Thresholds) => MetricBands;
  /** The metric in a sentence ("the total blocking time"). */
  name: string;
  /** Words a value ("1.85 s"). */
  describe: (value: number) => string;
  evidence?: (metrics: RenderedMetrics) => EvidenceItem[];
}

/** The performance check that judges one lab metric of the rendered page. */
export function metricCheck(metric: MetricCheck): CheckDefinition {
  const { id, importance, title, description, howToFix } = metric;
  return {
    id,
    category: "performance",
    importance,
    title,
    description,
    howToFix,
    needs: ["rendered"],
    run: (page, thresholds) => judgeMetric(page, metric, metric.bands(thresholds)),
  };
}

function judgeMetric(page: PageSnapshot, metric: MetricCheck, bands: MetricBands): CheckOutcome {
  const { name, describe } = metric;
  const metrics = page.rendered?.metrics;
  const value = metrics ? metric.read(metrics) : null;
  if (!metrics || value === null) return outcome.na(`The browser recorded no ${name} for this page.`);
  const items = metric.evidence?.(metrics) ?? [];
  const shown = describe(value);
  if (value <= bands.pass) return outcome.pass(`${capitalise(name)} is ${shown}.`, value, items);
  if (value <= bands.warn) {
    return outcome.warn(
      `${capitalise(name)} is ${shown}; aim for at most ${describe(bands.pass)}.`,
      value,
      items,
    );
  }
  return outcome.fail(`${capitalise(name)} is ${shown}, more than ${describe(bands.warn)}.`, value, items);
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
