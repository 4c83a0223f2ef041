/**
 * Facts derived from a snapshot that several checks (and the scorer's gate) share: meta lookups, whether a
 * URL is internal, where a noindex comes from, and what robots.txt allows the major crawlers.
 */
import { isAllowed } from "./robots/robots-txt.js";
import type { PageSnapshot, ProbeResponse, ProbeResult } from "./snapshot.js";

/** Contents of the <meta name=…> (or property=…) elements with that name, lower-case name. */
export function metaContents(page: PageSnapshot, name: string): string[] {
  const out: string[] = [];
  for (const meta of page.document.metas) {
    if ((meta.name === name || meta.property === name) && meta.content !== null) out.push(meta.content);
  }
  return out;
}

export function metaHttpEquiv(page: PageSnapshot, name: string): string[] {
  const out: string[] = [];
  for (const meta of page.document.metas)
    if (meta.httpEquiv === name && meta.content !== null) out.push(meta.content);
  return out;
}

const hostPattern = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/?#:]*)/;

/**
 * The host of an absolute URL as the URL serializer writes it (lower-case, punycode). Snapshot URLs are
 * already serialized, so a pattern reads the host much faster than parsing each URL again.
 */
export function hostOf(href: string): string | null {
  return hostPattern.exec(href)?.[1] ?? null;
}

/** Host of the page without "www.", for telling internal links from external ones. */
export function siteHost(url: string): string {
  const host = hostOf(url) ?? "";
  return host.startsWith("www.") ? host.slice(4) : host;
}

export function isInternal(href: string, site: string): boolean {
  return siteHost(href) === site;
}

export const majorCrawlers = ["Googlebot", "Bingbot", "*"] as const;

/** Where a noindex (or none) directive for the major crawlers comes from; empty when indexable. */
export function noindexSources(page: PageSnapshot): string[] {
  const sources: string[] = [];
  for (const name of ["robots", "googlebot", "bingbot"]) {
    for (const content of metaContents(page, name)) {
      if (hasNoindex(content)) sources.push(`<meta name="${name}" content="${content}">`);
    }
  }
  const header = page.response.headers["x-robots-tag"];
  if (header && xRobotsTagBlocks(header)) sources.push(`X-Robots-Tag: ${header}`);
  return sources;
}

function hasNoindex(directives: string): boolean {
  return directives
    .toLowerCase()
    .split(/[,\s]+/)
    .some((directive) => directive === "noindex" || directive === "none");
}

const xRobotsDirectivesWithColon = new Set([
  "unavailable_after",
  "max-snippet",
  "max-image-preview",
  "max-video-preview",
]);

/** X-Robots-Tag may scope directives to a crawler ("otherbot: noindex"); only major crawlers count here. */
function xRobotsTagBlocks(header: string): boolean {
  let agent: string | null = null;
  for (const part of header.split(",")) {
    let directive = part.trim().toLowerCase();
    const scoped = directive.match(/^([a-z0-9_-]+)\s*:\s*(.*)$/);
    if (scoped && !xRobotsDirectivesWithColon.has(scoped[1] as string)) {
      agent = scoped[1] as string;
      directive = (scoped[2] as string).trim();
    }
    const appliesToMajor = agent === null || agent === "googlebot" || agent === "bingbot" || agent === "*";
    if (appliesToMajor && (directive === "noindex" || directive === "none")) return true;
  }
  return false;
}

export type RobotsVerdict =
  | { kind: "missing"; status: number }
  | { kind: "unreachable"; reason: string }
  | { kind: "server-error"; status: number }
  | { kind: "rules"; allowed: Record<string, boolean> };

const blockedStatuses = new Set([401, 403, 429]);

/** What robots.txt says about the page for the given crawlers. */
export function robotsVerdict(
  page: PageSnapshot,
  crawlers: readonly string[] = majorCrawlers,
): RobotsVerdict {
  const robots = page.probes.robotsTxt;
  if (!robots.ok) return { kind: "unreachable", reason: robots.reason };
  const { status } = robots.value;
  // A firewall refusing pagegrade says nothing about what crawlers may do.
  if (blockedStatuses.has(status))
    return { kind: "unreachable", reason: `robots.txt answered HTTP ${status}.` };
  if (status >= 500) return { kind: "server-error", status };
  if (status >= 400) return { kind: "missing", status };
  if (status < 200 || status > 299)
    return { kind: "unreachable", reason: `robots.txt answered HTTP ${status}.` };
  const url = new URL(page.finalUrl);
  const allowed: Record<string, boolean> = {};
  for (const crawler of crawlers) allowed[crawler] = isAllowed(robots.value.parsed, crawler, url);
  return { kind: "rules", allowed };
}

/** Whether no major crawler may index the page: the gate that keeps such a page from a good result. */
export function isNotIndexable(page: PageSnapshot): boolean {
  if (noindexSources(page).length > 0) return true;
  const verdict = robotsVerdict(page);
  return verdict.kind === "rules" && majorCrawlers.every((crawler) => !verdict.allowed[crawler]);
}

/** robotsVerdict for a check that needs `robotsTxt`: the judge has already answered an unreadable file. */
export function readRobots(
  page: PageSnapshot,
  crawlers: readonly string[] = majorCrawlers,
): Exclude<RobotsVerdict, { kind: "unreachable" }> {
  const verdict = robotsVerdict(page, crawlers);
  if (verdict.kind === "unreachable") throw new Error(`robots.txt was not read: ${verdict.reason}`);
  return verdict;
}

/** A probe's answer for a check that needs the probe: the judge has already answered a failed one. */
export function answerOf(probe: ProbeResult<ProbeResponse> | null): ProbeResponse {
  const answer = probeAnswer(probe);
  if (answer === null || "error" in answer) throw new Error(`the probe has no answer: ${answer?.error}`);
  return answer;
}

/** A probe's response when it came back with a status that says something about the site. */
export function probeAnswer(
  probe: ProbeResult<ProbeResponse> | null,
): ProbeResponse | { error: string } | null {
  if (probe === null) return null;
  if (!probe.ok) return { error: probe.reason };
  if (blockedStatuses.has(probe.value.status)) {
    return {
      error: `The server answered HTTP ${probe.value.status} to pagegrade (a firewall or rate limit).`,
    };
  }
  return probe.value;
}
