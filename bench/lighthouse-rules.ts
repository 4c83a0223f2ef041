/**
 * Lighthouse's own SEO rules applied to what Chromium showed of a page here (lighthouse-probe.ts): the audits'
 * code is loaded from the installed Lighthouse package (lighthouse-install.ts) and given artifacts built from the
 * probed facts, so a cause is checked against the rule Lighthouse really runs rather than a restatement of it.
 * document-title (axe's rule) and meta-description are one-line rules, stated here with their source.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureLighthouse, lighthousePackage } from "./lighthouse-install.js";
import type { PageFacts, ProbedAnchor } from "./lighthouse-probe.js";

type Verdict = "pass" | "fail";

interface AuditProduct {
  score: number | null;
  details?: { items?: Array<Record<string, unknown>> };
}
interface Audit {
  audit(artifacts: Record<string, unknown>): AuditProduct;
}

export interface LighthouseRules {
  /** The links Lighthouse's link-text audit fails on this page (href, text, textLang). */
  linkText(facts: PageFacts, finalUrl: string): Array<{ href: string; text: string; textLang?: string }>;
  /** The anchors Lighthouse's crawlable-anchors audit fails on this page, as probed. */
  crawlableAnchors(facts: PageFacts, finalUrl: string): ProbedAnchor[];
  /** Lighthouse's meta-description rule: the first description in the <head> has non-blank content. */
  metaDescription(facts: PageFacts): Verdict;
  /** axe's document-title rule (Lighthouse's document-title audit): document.title is not blank. */
  documentTitle(facts: PageFacts): Verdict;
  /** Each audit's verdict under these rules. */
  verdict(audit: string, facts: PageFacts, finalUrl: string): Verdict | null;
}

export async function loadLighthouseRules(): Promise<LighthouseRules> {
  ensureLighthouse();
  const load = async (file: string): Promise<Audit> =>
    (await import(pathToFileURL(join(lighthousePackage, "core", "audits", "seo", file)).href)).default;
  const linkTextAudit = await load("link-text.js");
  const crawlableAudit = await load("crawlable-anchors.js");

  const rules: LighthouseRules = {
    linkText(facts, finalUrl) {
      const product = linkTextAudit.audit({
        URL: { finalDisplayedUrl: finalUrl },
        AnchorElements: facts.anchors.map((anchor) => ({
          href: anchor.href,
          rawHref: anchor.rawHref,
          text: anchor.renderedText,
          textLang: anchor.textLang ?? undefined,
          rel: anchor.rel,
          node: { snippet: anchor.html },
        })),
      });
      return (product.details?.items ?? []) as Array<{ href: string; text: string; textLang?: string }>;
    },
    crawlableAnchors(facts, finalUrl) {
      const product = crawlableAudit.audit({
        URL: { finalDisplayedUrl: finalUrl },
        AnchorElements: facts.anchors.map((anchor, index) => ({
          ...anchor,
          listeners: anchor.listeners,
          ancestorListeners: anchor.ancestorListeners,
          node: { snippet: anchor.html, lhId: String(index) },
        })),
      });
      return (product.details?.items ?? []).map(
        (item) => facts.anchors[Number((item.node as { lhId: string }).lhId)] as ProbedAnchor,
      );
    },
    metaDescription(facts) {
      const first = facts.metaDescriptions.find((meta) => meta.inHead);
      return (first?.content ?? "").trim() === "" ? "fail" : "pass";
    },
    documentTitle(facts) {
      return facts.documentTitle.trim() === "" ? "fail" : "pass";
    },
    verdict(audit, facts, finalUrl) {
      switch (audit) {
        case "link-text":
          return rules.linkText(facts, finalUrl).length > 0 ? "fail" : "pass";
        case "crawlable-anchors":
          return rules.crawlableAnchors(facts, finalUrl).length > 0 ? "fail" : "pass";
        case "meta-description":
          return rules.metaDescription(facts);
        case "document-title":
          return rules.documentTitle(facts);
        default:
          return null;
      }
    },
  };
  return rules;
}
