/**
 * Next to a report's score: the gate that held it below `good` (not indexable, or failing https, title or
 * viewport), and the three failed checks that cost the most, each with the points fixing it would bring back and
 * a link to its finding on the page. Read from the analysis's summary (score.ts); an analysis made before these
 * were recorded shows nothing here.
 */
import { catalogue } from "../../analysis/catalogue.js";
import { html, type SafeHtml } from "../html.js";

export interface ScoreSummaryFacts {
  gates?: string[];
  costliest?: Array<{ check: string; points: number }>;
}

const titles = new Map(catalogue.map((entry) => [entry.id, entry.title]));

const gateReasons: Record<string, string> = {
  indexable: "not indexable",
  https: "not served over HTTPS",
  title: "no usable title",
  viewport: "no mobile viewport",
};

/**
 * Two short lines right under the score, no card of their own, so the first failure below still shows in the
 * first screen on a phone: what caps the score, then the three fixes worth the most points.
 */
export function scoreSummary(report: { summary?: ScoreSummaryFacts | null }): SafeHtml | "" {
  const gates = report.summary?.gates ?? [];
  const costliest = report.summary?.costliest ?? [];
  if (gates.length === 0 && costliest.length === 0) return "";
  return html`<section class="score-summary" aria-label="What holds the score back">
  ${
    gates.length > 0
      ? html`<p class="gate"><strong>Held below good:</strong> ${gates.map((gate, index) => html`${index > 0 ? ", " : ""}<a href="#check-${gate}">${gateReasons[gate] ?? gate}</a>`)} <span class="muted">(79 at most)</span></p>`
      : ""
  }
  ${
    costliest.length > 0
      ? html`<div class="fix-line"><strong>Fix first:</strong> <ol class="costliest">${costliest.map(
          (entry) =>
            html`<li><a href="#check-${entry.check}">${titles.get(entry.check) ?? entry.check}</a> <span class="muted">+${entry.points} ${entry.points === 1 ? "point" : "points"}</span></li>`,
        )}</ol></div>`
      : ""
  }
</section>`;
}
