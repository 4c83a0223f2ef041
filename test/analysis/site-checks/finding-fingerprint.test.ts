/**
 * Each site check's fingerprint rule on crafted facts: a finding's fingerprint is the hash of its check and what
 * identifies it (link findings: the target; groups: the group's key, or its pages when it has none; single
 * pages: the page); the same site judged from facts in another order, with more sources and other counts, gives
 * the same fingerprints; two findings of one crawl never share one; a finding about another URL gets another.
 */
import { describe, expect, it } from "vitest";
import { fingerprintOf } from "../../../src/analysis/site-checks/finding-fingerprint.js";
import { judgeSite, siteChecks } from "../../../src/analysis/site-checks/index.js";
import type { SiteFacts, SiteLink, SitePage } from "../../../src/analysis/site-checks/site-facts.js";
import { factsSource } from "../../../src/analysis/site-checks/site-source.js";
import { sitePage } from "../../helpers/site-page.js";

const origin = "https://shop.example";
const at = (path: string) => `${origin}${path}`;

function pageAt(path: string, facts: Partial<SitePage> = {}): SitePage {
  return sitePage(at(path), {
    title: `Page ${path}`,
    metaDescription: `About ${path}`,
    text: { hash: `hash ${path}`, minhash: Array.from({ length: 64 }, (_, i) => i + path.length * 1000) },
    ...facts,
  });
}

const link = (from: string, to: string, nofollow = false): SiteLink => ({ from: at(from), to, nofollow });
const sameText = { hash: "same", minhash: Array.from({ length: 64 }, (_, i) => i) };
const redirecting = (to: string): Partial<SitePage> => ({
  statusCode: 301,
  redirectTo: at(to),
  indexable: false,
  text: null,
  contentType: null,
});

/** A site on which every site check finds something. */
function site(): SiteFacts {
  return {
    startUrl: at("/"),
    pages: [
      pageAt("/", { depth: 0 }),
      pageAt("/gone", { statusCode: 404, indexable: false, inSitemap: true, text: null }),
      pageAt("/missing", { statusCode: 410, indexable: false, text: null }),
      pageAt("/a", {
        title: "Same  Title",
        metaDescription: "Shared",
        text: sameText,
        hreflang: [
          { lang: "de", url: at("/b") },
          { lang: "fr", url: at("/c") },
        ],
      }),
      pageAt("/b", { title: "same title", metaDescription: "shared", text: sameText }),
      pageAt("/c", { canonical: at("/gone") }),
      pageAt("/r1", redirecting("/r2")),
      pageAt("/r2", redirecting("/r3")),
      pageAt("/r3"),
      pageAt("/l1", redirecting("/l2")),
      pageAt("/l2", redirecting("/l1")),
      pageAt("/orphan", { inSitemap: true, depth: null }),
      pageAt("/deep", { depth: 6 }),
    ],
    links: [
      link("/", at("/gone")),
      link("/a", at("/gone")),
      link("/", at("/missing")),
      link("/", at("/a")),
      link("/", at("/c")),
      link("/", at("/r1")),
      link("/", at("/l1")),
      link("/", at("/deep")),
      link("/a", at("/b"), true),
      link("/", "http://shop.example/a"),
    ],
  };
}

/** The same site as another crawl could have found it: pages and links in another order, one more source. */
function reordered(): SiteFacts {
  const facts = site();
  return {
    ...facts,
    pages: [...facts.pages].reverse(),
    links: [...facts.links, link("/deep", at("/gone")), link("/b", "http://shop.example/a")].reverse(),
  };
}

/** Every finding's fingerprint by check. */
async function fingerprints(facts: SiteFacts): Promise<Map<string, string[]>> {
  const { issues, errors } = await judgeSite(factsSource(facts));
  expect(errors).toEqual([]);
  return new Map(
    issues.map((issue) => [issue.check, issue.findings.map((item) => String(item.fingerprint)).sort()]),
  );
}

/** What identifies each expected finding, by check: the rule under test. */
const expected: Record<string, string[][]> = {
  "broken-links": [[at("/gone")], [at("/missing")]],
  "canonical-targets": [[at("/c")]],
  "duplicate-title": [["same title"]],
  "duplicate-meta-description": [["shared"]],
  "duplicate-content": [[at("/a"), at("/b")]],
  "redirect-chains": [[at("/r1")], ["loop", at("/l1"), at("/l2")]],
  "orphan-pages": [[at("/orphan")]],
  "sitemap-errors": [[at("/gone")]],
  "insecure-links": [["http://shop.example/a"]],
  "redirected-links": [[at("/l1")], [at("/r1")]],
  "hreflang-reciprocity": [
    [at("/a"), "de", at("/b")],
    [at("/a"), "fr", at("/c")],
  ],
  "click-depth": [[at("/deep")]],
  "nofollow-internal-links": [[at("/b")]],
};

const found = await fingerprints(site());

describe("finding fingerprints", () => {
  it.each(siteChecks.map((check) => check.id))(
    "%s: the fingerprint is its check and what the finding is about",
    (id) => {
      const parts = expected[id] ?? [];
      expect(parts.length, `a finding of ${id} on the crafted site`).toBeGreaterThan(0);
      expect(found.get(id)).toEqual(parts.map((identity) => fingerprintOf(id, identity)).sort());
    },
  );

  it("does not depend on the order of pages and links, nor on counts of sources", async () => {
    expect(await fingerprints(reordered())).toEqual(found);
  });

  it("never gives two findings of a crawl the same fingerprint", () => {
    const all = [...found.values()].flat();
    expect(new Set(all).size).toBe(all.length);
  });

  it("gives a finding about another URL, or of another check, another fingerprint", () => {
    expect(fingerprintOf("broken-links", [at("/gone")])).not.toBe(
      fingerprintOf("broken-links", [at("/gone2")]),
    );
    expect(fingerprintOf("broken-links", [at("/gone")])).not.toBe(
      fingerprintOf("orphan-pages", [at("/gone")]),
    );
    expect(fingerprintOf("broken-links", ["a b", "c"])).not.toBe(fingerprintOf("broken-links", ["a", "b c"]));
    expect(fingerprintOf("broken-links", [at("/gone")])).toMatch(/^[0-9a-f]{32}$/);
  });

  it("lists the first items with the same fingerprints as the stored findings", async () => {
    for (const issue of (await judgeSite(factsSource(site()))).issues) {
      expect(issue.items).toEqual(issue.findings.slice(0, issue.items.length));
    }
  });
});
