/**
 * A project's dashboard: its reports by result and mean score, the score and the site findings by importance
 * over its last 20 complete crawls (server-drawn SVG like the report's score chart, each point a link to its
 * crawl), "fix first" (the latest crawl's page checks and site issues in one ranking: fix-first.ts), and what changed
 * in the latest crawl against the one before it (its change summary, crawl-change-summary.ts: counts, the first
 * new findings, and a link to the comparison page).
 */
import { checkTitle } from "../../analysis/check-titles.js";
import type { CrawlChangeSummary } from "../../crawls/crawl-change-summary.js";
import type { CrawlRow } from "../../crawls/crawl-store.js";
import type { Fix } from "../../crawls/fix-first.js";
import type { ProjectDetail } from "../../projects/project-service.js";
import { html, type SafeHtml } from "../html.js";
import { fixFirstList } from "./fix-first.js";
import { day, endLabels, lineColour } from "./history.js";

export interface ProjectDashboardView {
  project: ProjectDetail;
  /** Oldest first; the last is the latest complete crawl. */
  trend: CrawlRow[];
  /** The latest crawl's first fixes (fix-first.ts) and how many there are. */
  fixFirst: Fix[];
  fixFirstTotal: number;
  /** What changed in the latest crawl against the complete crawl before it (null when there is none). */
  changes: CrawlChangeSummary | null;
  /** A viewer of a team's workspace: no delete link. */
  readOnly?: boolean;
}

const chart = { width: 640, height: 180, left: 36, right: 16, top: 12, bottom: 28 };
const importances = [
  { key: "issues_high", name: "High", colour: "#b91c1c" },
  { key: "issues_medium", name: "Medium", colour: "#b45309" },
  { key: "issues_low", name: "Low", colour: "#5b6473" },
] as const;

export function projectDashboardBody({
  project,
  trend,
  fixFirst,
  fixFirstTotal,
  changes,
  readOnly,
}: ProjectDashboardView): SafeHtml {
  const latest = trend.at(-1);
  const name = encodeURIComponent(project.project);
  return html`<h1>${project.project}</h1>
<section class="card">
  <p>${project.reports} ${project.reports === 1 ? "report" : "reports"}${
    project.score === null
      ? ""
      : html`, mean score <span class="result-${project.result ?? ""}">${project.score} (${project.result ?? ""})</span>`
  }: ${project.results.good} good, ${project.results.decent} decent, ${project.results.bad} bad.</p>
  <p><a href="/reports?project=${name}">Reports</a> · <a href="/crawls?project=${name}">Crawls</a>${readOnly ? "" : html` · <a href="/projects/${name}/delete">Delete…</a>`}</p>
</section>
${
  latest
    ? html`<section class="card">
  <h2>Over ${trend.length === 1 ? "one crawl" : `the last ${trend.length} crawls`}</h2>
  ${crawlScoreChart(trend)}
  ${issuesChart(trend)}
</section>
<section class="card">
  <h2>Fix first</h2>
  ${fixFirstList(latest.id, fixFirst, fixFirstTotal)}
</section>
${changes ? latestCrawlChanges(changes) : ""}`
    : html`<section class="card"><p>No complete crawl yet: <a href="/crawls?project=${name}">crawl the site</a> to follow it over time.</p></section>`
}`;
}

/**
 * The latest crawl's changes against the crawl before it: findings new and resolved, page checks regressed and
 * fixed (pages), the first new findings, and the comparison page.
 */
export function latestCrawlChanges(
  summary: CrawlChangeSummary,
  comparisonHref: string | null = `/crawls/${summary.to.id}/diff`,
): SafeHtml {
  const scoreDelta =
    summary.from.score === null || summary.to.score === null ? null : summary.to.score - summary.from.score;
  return html`<section class="card" id="latest-changes" aria-labelledby="latest-changes-heading">
  <h2 id="latest-changes-heading">What changed in the latest crawl</h2>
  <p class="muted">Against the crawl finished ${day(summary.from.finished_at ?? "")}${scoreChange(scoreDelta)}.</p>
  <dl class="facts">
    <div><dt>New findings</dt><dd>${summary.new_findings}</dd></div>
    <div><dt>Resolved findings</dt><dd>${summary.resolved_findings}</dd></div>
    <div><dt>Pages regressed</dt><dd>${summary.pages_regressed}</dd></div>
    <div><dt>Pages fixed</dt><dd>${summary.pages_fixed}</dd></div>
  </dl>
  ${
    summary.first_new.length === 0
      ? ""
      : html`<h3>First new findings</h3>
  <ul class="new-findings">${summary.first_new.map(
    ({ check, importance, item }) =>
      html`<li><strong>${checkTitle(check)}</strong> <code class="muted check-id">${check}</code> <span class="muted">(${importance})</span>: <span class="key">${findingPlace(item)}</span></li>`,
  )}</ul>`
  }
  ${comparisonHref ? html`<p><a href="${comparisonHref}">Everything that changed since the previous crawl</a></p>` : ""}
</section>`;
}

/** Where a finding is: its URL, or its group's pages. */
function findingPlace(item: Record<string, unknown>): string {
  if (typeof item.url === "string") return item.url;
  return Array.isArray(item.pages) ? (item.pages as string[]).join(", ") : "";
}

function axis() {
  const plotWidth = chart.width - chart.left - chart.right;
  const plotHeight = chart.height - chart.top - chart.bottom;
  const x = (index: number, count: number) =>
    chart.left + (count === 1 ? plotWidth / 2 : (index / (count - 1)) * plotWidth);
  return { plotHeight, x };
}

function dates(trend: CrawlRow[]): SafeHtml {
  const first = trend[0] as CrawlRow;
  const last = trend.at(-1) as CrawlRow;
  return endLabels(first.finished_at ?? "", last.finished_at ?? "", chart);
}

function gridLine(value: number, y: number): SafeHtml {
  return html`<line x1="${chart.left}" x2="${chart.width - chart.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#dde2ea" stroke-width="1"/>
    <text x="${chart.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end" font-size="11" fill="#5b6473">${value}</text>`;
}

/** "; site score +5", "; site score −3", "; site score unchanged", or nothing when either crawl has no score. */
function scoreChange(change: number | null): string {
  if (change === null) return "";
  if (change === 0) return "; site score unchanged";
  return `; site score ${change > 0 ? "+" : "−"}${Math.abs(change)}`;
}

/**
 * The site score of each crawl (0–100, the bands drawn), each point a link to its crawl (`linked`), or not (a
 * shared audit links into no private page).
 */
export function crawlScoreChart(trend: CrawlRow[], linked = true): SafeHtml | "" {
  const scored = trend.filter((crawl) => crawl.score !== null);
  if (scored.length === 0) return "";
  const { plotHeight, x } = axis();
  const y = (score: number) => chart.top + ((100 - score) / 100) * plotHeight;
  const points = scored.map((crawl, index) => ({
    crawl,
    x: x(index, scored.length),
    y: y(crawl.score as number),
  }));
  const first = scored[0] as CrawlRow;
  const last = scored.at(-1) as CrawlRow;
  const label = `Site score over ${scored.length} crawls: from ${first.score} to ${last.score}.`;
  return html`<figure class="score-chart">
  <svg viewBox="0 0 ${chart.width} ${chart.height}" role="group" aria-labelledby="crawl-score-title">
    <title id="crawl-score-title">${label}</title>
    ${[0, 50, 80, 100].map((score) => gridLine(score, y(score)))}
    <polyline points="${points.map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(" ")}" fill="none" stroke="${lineColour}" stroke-width="2"/>
    ${points.map((point) => {
      const dot = html`<title>${(point.crawl.finished_at ?? "").slice(0, 16).replace("T", " ")} UTC: ${point.crawl.score} (${point.crawl.result ?? ""})</title>
      <circle cx="${point.x.toFixed(1)}" cy="${point.y.toFixed(1)}" r="4.5" fill="${lineColour}" stroke="#ffffff" stroke-width="1.5"/>`;
      return linked ? html`<a href="/crawls/${point.crawl.id}">${dot}</a>` : html`<g>${dot}</g>`;
    })}
    ${dates(scored)}
  </svg>
  <figcaption class="muted">Site score per crawl${linked ? "; each point opens that crawl" : ""}.</figcaption>
</figure>`;
}

/** The site findings of each crawl by importance, one line per importance, from 0 to the most found. */
function issuesChart(trend: CrawlRow[]): SafeHtml {
  const { plotHeight, x } = axis();
  const top = Math.max(1, ...trend.flatMap((crawl) => importances.map((level) => crawl[level.key])));
  const y = (count: number) => chart.top + ((top - count) / top) * plotHeight;
  const last = trend.at(-1) as CrawlRow;
  const label = `Site findings by importance over ${trend.length} crawls; latest: ${last.issues_high} high, ${last.issues_medium} medium, ${last.issues_low} low.`;
  return html`<figure class="score-chart">
  <svg viewBox="0 0 ${chart.width} ${chart.height}" role="group" aria-labelledby="crawl-issues-title">
    <title id="crawl-issues-title">${label}</title>
    ${gridLine(0, y(0))}
    ${gridLine(top, y(top))}
    ${importances.map(
      (level) => html`<polyline points="${trend
        .map((crawl, index) => `${x(index, trend.length).toFixed(1)},${y(crawl[level.key]).toFixed(1)}`)
        .join(" ")}" fill="none" stroke="${level.colour}" stroke-width="2"/>
    ${trend.map(
      (crawl, index) => html`<a href="/crawls/${crawl.id}">
      <title>${day(crawl.finished_at ?? "")}: ${crawl[level.key]} ${level.name.toLowerCase()}</title>
      <circle cx="${x(index, trend.length).toFixed(1)}" cy="${y(crawl[level.key]).toFixed(1)}" r="3.5" fill="${level.colour}"/>
    </a>`,
    )}`,
    )}
    ${dates(trend)}
  </svg>
  <figcaption class="muted">Site findings per crawl: ${importances.map(
    (level) =>
      html`<svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="${level.colour}"/></svg> ${level.name} `,
  )}</figcaption>
</figure>`;
}
