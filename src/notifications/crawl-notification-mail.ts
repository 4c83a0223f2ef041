/**
 * The mail that tells a recipient how a crawl of a project went (contract part 4, "Crawl notifications"): the
 * score and its change since the previous complete crawl, the regressions by importance (the comparison's,
 * crawl-diff.ts, with its coverage rule: findings only one crawl could see are neither), the first ten new
 * findings, a link to the comparison and one to the site audit, and an unsubscribe link. Pure: the links come
 * made.
 */
import { catalogue } from "../analysis/catalogue.js";
import { siteChecks } from "../analysis/site-checks/index.js";
import type { CrawlDiff } from "../crawls/crawl-diff.js";
import { itemUrls } from "../crawls/crawl-diff.js";
import type { MailContent } from "../mail/mail-message.js";
import type { NotificationTrigger } from "../store/schema.js";

/** How many new findings a mail lists. */
export const listedNewFindings = 10;

const titles = new Map<string, string>([
  ...catalogue.map((entry) => [entry.id, entry.title] as const),
  ...siteChecks.map((check) => [check.id, check.title] as const),
]);
const importanceOrder = ["high", "medium", "low"];
const byImportance = (a: { importance: string }, b: { importance: string }) =>
  importanceOrder.indexOf(a.importance) - importanceOrder.indexOf(b.importance);
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export interface CrawlNotificationLinks {
  comparison: string;
  audit: string;
  unsubscribe: string;
}

export function crawlNotificationMail(options: {
  to: string;
  diff: CrawlDiff;
  regressed: boolean;
  emailOn: NotificationTrigger;
  links: CrawlNotificationLinks;
}): MailContent {
  const { diff, regressed, links } = options;
  const project = diff.project;
  const score = diff.to.score === null ? "no score" : `a score of ${Math.round(diff.to.score)}`;
  const change =
    diff.from === null
      ? "its first complete crawl, so there is nothing to compare with yet"
      : diff.score_change === null
        ? "no score change to report"
        : `${diff.score_change > 0 ? "+" : ""}${Math.round(diff.score_change)} since the previous crawl`;
  const { high, medium, low } = diff.regressions;
  const paragraphs = [
    `The crawl of ${project} is complete: ${score} (${change}).`,
    `Regressions by importance: ${high} high, ${medium} medium, ${low} low.`,
  ];
  const { newly_checked, no_longer_checked } = diff.coverage;
  if (newly_checked + no_longer_checked > 0) {
    paragraphs.push(
      `${newly_checked + no_longer_checked} findings concern pages only one of the two crawls reached; they count as neither new nor fixed.`,
    );
  }
  const regressions = [
    ...diff.site_issues
      .filter((issue) => issue.new_count > 0)
      .map((issue) => ({
        importance: issue.importance,
        text: `${title(issue.check)}: ${issue.new_count} new`,
      })),
    ...diff.page_checks
      .filter((check) => check.regressed > 0)
      .map((check) => ({
        importance: check.importance,
        text: `${title(check.check)}: regressed on ${check.regressed} ${check.regressed === 1 ? "page" : "pages"}`,
      })),
  ].sort(byImportance);
  const findings = [
    ...diff.site_issues.flatMap((issue) =>
      issue.new.map((item) => ({
        importance: issue.importance,
        text: `${title(issue.check)}: ${itemUrls(item).slice(0, 3).join(", ")}`,
      })),
    ),
    ...diff.page_checks.flatMap((check) =>
      check.pages
        .filter((page) => page.to !== "pass")
        .map((page) => ({ importance: check.importance, text: `${title(check.check)}: ${page.url}` })),
    ),
  ].sort(byImportance);
  const lists = [
    ...(regressions.length > 0
      ? [
          {
            title: "Regressions by importance",
            items: regressions.map((entry) => `${capitalised(entry.importance)}: ${entry.text}`),
          },
        ]
      : []),
    ...(findings.length > 0
      ? [
          {
            title:
              findings.length > listedNewFindings
                ? `New findings (the first ${listedNewFindings})`
                : "New findings",
            items: findings.slice(0, listedNewFindings).map((entry) => entry.text),
          },
        ]
      : []),
  ];
  return {
    to: options.to,
    subject: `${regressed ? "Regressed" : "Crawl complete"}: ${project} (${score})`,
    paragraphs,
    lists,
    link: { label: "See what changed", url: links.comparison },
    links: [{ label: "Open the site audit", url: links.audit }],
    footer: `You get this mail because the notifications of ${project} on pagegrade are set to "${options.emailOn}".`,
    unsubscribeUrl: links.unsubscribe,
  };
}

function title(check: string): string {
  return titles.get(check) ?? check;
}
