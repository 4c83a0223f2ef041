/**
 * robots.txt as search engines read it (RFC 9309 and Google's documented behaviour): rules are grouped by
 * user agent, a crawler obeys the groups naming it (all of them, merged) or else the "*" groups, and among the
 * rules that match a path the longest pattern wins, Allow winning a tie. Patterns support "*" and a final "$"
 * (path-pattern.ts, linear-time). Crawl-delay is read from the same groups.
 *
 * Cost is bounded whatever the file says: only the first `robotsTxtMaxBytes` (500 KiB, Google's limit) are read;
 * the same text is parsed once (a small cache keyed by the text, so every analysis of a host reuses it); and a
 * crawler's rules are compiled and ordered once per parsed file and group choice, with the verdicts per path
 * cached, so the dozen crawlers an analysis asks about (most of them falling back to "*") cost one pass.
 */
import { compilePathPattern, type PathPattern, pathPatternMatches } from "./path-pattern.js";

export interface RobotsRule {
  allow: boolean;
  pattern: string;
}

export interface RobotsGroup {
  /** User-agent tokens, lower-cased. */
  agents: string[];
  rules: RobotsRule[];
  /** The group's last valid Crawl-delay in seconds, or null. */
  crawlDelay: number | null;
}

export interface RobotsTxt {
  groups: RobotsGroup[];
  sitemaps: string[];
}

/** How much of a robots.txt is read (Google's limit); what follows is ignored. */
export const robotsTxtMaxBytes = 500 * 1024;
/** The longest Crawl-delay honoured, in seconds. */
const maxCrawlDelaySeconds = 60;

const parsedTexts = new Map<string, RobotsTxt>();
const parsedTextsMaxChars = 4 * robotsTxtMaxBytes;
let parsedTextsChars = 0;

/** The parsed file; the same text parsed again is answered from a small cache (treat the result as read-only). */
export function parseRobotsTxt(text: string): RobotsTxt {
  const cached = parsedTexts.get(text);
  if (cached) return cached;
  const robots = parse(text);
  if (parsedTextsChars + text.length > parsedTextsMaxChars) {
    parsedTexts.clear();
    parsedTextsChars = 0;
  }
  parsedTexts.set(text, robots);
  parsedTextsChars += text.length;
  return robots;
}

function parse(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let current: RobotsGroup | null = null;
  let lastWasAgent = false;
  // A UTF-8 character is at least a byte, so this keeps at least the first 500 KiB of the file.
  const read = text.length > robotsTxtMaxBytes ? text.slice(0, robotsTxtMaxBytes) : text;
  for (const rawLine of read.split(/\r\n|\r|\n/)) {
    const hash = rawLine.indexOf("#");
    const line = (hash === -1 ? rawLine : rawLine.slice(0, hash)).trim();
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelay: null };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (key === "allow" || key === "disallow") {
      // A rule before any user-agent line belongs to no group; an empty Disallow allows everything.
      if (current && value !== "") current.rules.push({ allow: key === "allow", pattern: value });
    } else if (key === "sitemap") {
      if (value) sitemaps.push(value);
    } else if (key === "crawl-delay") {
      if (current && /^\d+(\.\d+)?$/.test(value))
        current.crawlDelay = Math.min(Number(value), maxCrawlDelaySeconds);
    }
  }
  return { groups, sitemaps };
}

/** The indexes of the groups a crawler obeys: those naming its product token, else the "*" groups. */
function groupIndexesFor(robots: RobotsTxt, userAgent: string): number[] {
  const token = userAgent.toLowerCase();
  const naming = (name: string) =>
    robots.groups.flatMap((group, index) => (group.agents.includes(name) ? [index] : []));
  const named = naming(token);
  return named.length > 0 ? named : naming("*");
}

function groupsFor(robots: RobotsTxt, userAgent: string): RobotsGroup[] {
  return groupIndexesFor(robots, userAgent).map((index) => robots.groups[index] as RobotsGroup);
}

/** The rules a crawler obeys, in file order. */
export function rulesFor(robots: RobotsTxt, userAgent: string): RobotsRule[] {
  return groupsFor(robots, userAgent).flatMap((group) => group.rules);
}

/** The Crawl-delay in seconds the crawler is asked for (its groups' last valid one, capped at a minute), or 0. */
export function crawlDelayFor(robots: RobotsTxt, userAgent: string): number {
  let delay = 0;
  for (const group of groupsFor(robots, userAgent)) if (group.crawlDelay !== null) delay = group.crawlDelay;
  return delay;
}

/** Whether the crawler may fetch the URL's path (path and query, as in the request line). */
export function isAllowed(robots: RobotsTxt, userAgent: string, url: URL): boolean {
  if (url.pathname === "/robots.txt") return true;
  return compiledFor(robots, userAgent).verdict(url.pathname + url.search);
}

/** Whether a robots.txt pattern matches the path (compiled each call: for one-off use and tests). */
export function patternMatches(pattern: string, path: string): boolean {
  return pathPatternMatches(compilePathPattern(pattern), path);
}

interface CompiledRule {
  allow: boolean;
  pattern: PathPattern;
}

/** One choice of groups, its rules compiled and ordered by precedence, and the verdicts it gave. */
class RuleSet {
  private readonly verdicts = new Map<string, boolean>();

  /** Longest pattern first, Allow first among equals: the first rule that matches decides. */
  constructor(private readonly rules: CompiledRule[]) {}

  verdict(path: string): boolean {
    const known = this.verdicts.get(path);
    if (known !== undefined) return known;
    const rule = this.rules.find((candidate) => pathPatternMatches(candidate.pattern, path));
    const allowed = rule === undefined || rule.allow;
    if (this.verdicts.size >= maxCachedVerdicts) this.verdicts.clear();
    this.verdicts.set(path, allowed);
    return allowed;
  }
}

const maxCachedVerdicts = 1000;

interface Compiled {
  /** Rule sets by the indexes of the groups chosen, shared by the crawlers that choose the same groups. */
  byGroups: Map<string, RuleSet>;
  byAgent: Map<string, RuleSet>;
}

const compiledFiles = new WeakMap<RobotsTxt, Compiled>();

function compiledFor(robots: RobotsTxt, userAgent: string): RuleSet {
  let compiled = compiledFiles.get(robots);
  if (!compiled) {
    compiled = { byGroups: new Map(), byAgent: new Map() };
    compiledFiles.set(robots, compiled);
  }
  const agent = userAgent.toLowerCase();
  const known = compiled.byAgent.get(agent);
  if (known) return known;
  const indexes = groupIndexesFor(robots, agent);
  const key = indexes.join(",");
  let rules = compiled.byGroups.get(key);
  if (!rules) {
    rules = new RuleSet(
      indexes
        .flatMap((index) => (robots.groups[index] as RobotsGroup).rules)
        .map((rule) => ({
          allow: rule.allow,
          pattern: compilePathPattern(rule.pattern),
          length: rule.pattern.length,
        }))
        .sort((a, b) => b.length - a.length || Number(b.allow) - Number(a.allow)),
    );
    compiled.byGroups.set(key, rules);
  }
  compiled.byAgent.set(agent, rules);
  return rules;
}
