/**
 * robots.txt as search engines read it (RFC 9309 and Google's documented behaviour): rules are grouped by
 * user agent, a crawler obeys the groups naming it (all of them, merged) or else the "*" groups, and among the
 * rules that match a path the longest pattern wins, Allow winning a tie. Patterns support "*" and a final "$".
 */

export interface RobotsRule {
  allow: boolean;
  pattern: string;
}

export interface RobotsGroup {
  /** User-agent tokens, lower-cased. */
  agents: string[];
  rules: RobotsRule[];
}

export interface RobotsTxt {
  groups: RobotsGroup[];
  sitemaps: string[];
}

export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let current: RobotsGroup | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else if (key === "allow" || key === "disallow") {
      lastWasAgent = false;
      // A rule before any user-agent line belongs to no group; an empty Disallow allows everything.
      if (current && value !== "") current.rules.push({ allow: key === "allow", pattern: value });
    } else if (key === "sitemap") {
      if (value) sitemaps.push(value);
    } else {
      lastWasAgent = false;
    }
  }
  return { groups, sitemaps };
}

/** The rules a crawler obeys: the groups naming its product token, else the "*" groups. */
export function rulesFor(robots: RobotsTxt, userAgent: string): RobotsRule[] {
  const token = userAgent.toLowerCase();
  const named = robots.groups.filter((group) => group.agents.includes(token));
  const chosen = named.length > 0 ? named : robots.groups.filter((group) => group.agents.includes("*"));
  return chosen.flatMap((group) => group.rules);
}

/** Whether the crawler may fetch the URL's path (path and query, as in the request line). */
export function isAllowed(robots: RobotsTxt, userAgent: string, url: URL): boolean {
  const path = url.pathname + url.search;
  if (url.pathname === "/robots.txt") return true;
  let best: RobotsRule | null = null;
  for (const rule of rulesFor(robots, userAgent)) {
    if (!patternMatches(rule.pattern, path)) continue;
    if (
      !best ||
      rule.pattern.length > best.pattern.length ||
      (rule.pattern.length === best.pattern.length && rule.allow)
    ) {
      best = rule;
    }
  }
  return best === null || best.allow;
}

const normalised = new Map<string, string>();

/**
 * Matches a robots.txt pattern against a path: "*" matches any run of characters, a final "$" anchors the end,
 * otherwise the pattern is a prefix. A greedy two-pointer matcher (backtracking only to the last "*") runs in
 * O(pattern × path) time, so hostile patterns such as "/*a*a*a*a*b" cannot stall it the way a regex would.
 */
export function patternMatches(rawPattern: string, path: string): boolean {
  let pattern = normalised.get(rawPattern);
  if (pattern === undefined) {
    pattern = normaliseEncoding(rawPattern);
    if (normalised.size > 10_000) normalised.clear();
    normalised.set(rawPattern, pattern);
  }
  const anchored = pattern.endsWith("$");
  const end = anchored ? pattern.length - 1 : pattern.length;
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < path.length) {
    if (p < end && pattern[p] === "*") {
      star = p++;
      resume = t;
    } else if (p < end && pattern[p] === path[t]) {
      p++;
      t++;
    } else if (p >= end && !anchored) {
      return true; // the whole pattern matched a prefix of the path
    } else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < end && pattern[p] === "*") p++;
  return p >= end;
}

/** Percent-encodes what a URL path would encode, so "/café" in robots.txt matches "/caf%C3%A9". */
function normaliseEncoding(part: string): string {
  return part.replace(/[^\x21-\x7e]+/g, (chars) => encodeURIComponent(chars));
}
