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
  indexable: "no major search engine may index the page",
  https: "the page is not served over HTTPS",
  title: "the page has no usable title",
  viewport: "the page does not declare a mobile viewport",
};

export function scoreSummary(report: { summary?: ScoreSummaryFacts | null }): SafeHtml | "" {
  const gates = report.summary?.gates ?? [];
  const costliest = report.summary?.costliest ?? [];
  if (gates.length === 0 && costliest.length === 0) return "";
  return html`<section class="card score-summary" aria-label="What holds the score back">
  ${
    gates.length > 0
      ? html`<p class="gate"><strong>Held below good:</strong> ${gates.map((gate, index) => html`${index > 0 ? "; " : ""}<a href="#check-${gate}">${gateReasons[gate] ?? gate}</a>`)}. A page that fails this cannot score above 79.</p>`
      : ""
  }
  ${
    costliest.length > 0
      ? html`<p><strong>Fix these first:</strong></p>
  <ol class="costliest">${costliest.map(
    (entry) =>
      html`<li><a href="#check-${entry.check}">${titles.get(entry.check) ?? entry.check}</a> <span class="muted">+${entry.points} ${entry.points === 1 ? "point" : "points"}</span></li>`,
  )}</ol>`
      : ""
  }
</section>`;
}
