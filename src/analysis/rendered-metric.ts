/**
 * What the four lab-metric checks share (each needs `rendered`, so the judge has answered raw mode): `na` when
 * the trace did not yield the metric, else pass / warn / fail by the metric's bands (checks.md, "Rendered-only checks": the bands Lighthouse and
 * Core Web Vitals use).
 */

import { type CheckOutcome, type EvidenceItem, outcome } from "./checks/check.js";
import type { RenderedMetrics } from "./render/rendered-page.js";
import type { PageSnapshot } from "./snapshot.js";

export interface MetricBands {
  pass: number;
  warn: number;
}

/** Judges one metric: `describe` words the value ("1.85 s"), `name` the metric. */
export function judgeMetric(
  page: PageSnapshot,
  read: (metrics: RenderedMetrics) => number | null,
  bands: MetricBands,
  name: string,
  describe: (value: number) => string,
  evidence: (metrics: RenderedMetrics) => EvidenceItem[] = () => [],
): CheckOutcome {
  const metrics = page.rendered?.metrics;
  const value = metrics ? read(metrics) : null;
  if (!metrics || value === null) return outcome.na(`The browser recorded no ${name} for this page.`);
  const items = evidence(metrics);
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
