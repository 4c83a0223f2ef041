/**
 * Crawl notifications by e-mail with a real SMTP server in this process, on SQLite and PostgreSQL: the settings
 * are validated and stored (also without mail set up, which the answer says plainly); a crawl of a site that
 * regresses mails each recipient once, with both parts, the regressions, the links to the comparison and the
 * audit and a one-click `List-Unsubscribe`; announcing the same crawl's end again sends nothing more;
 * `completed`, `regressed` and `never` decide which crawls are mailed; the unsubscribe link works without
 * signing in (GET confirms, POST unsubscribes) and stops the next mails to that address only. Also with the
 * jobs on BullMQ (Redis). And the project page's form.
 */
import { randomBytes } from "node:crypto";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Analyzer } from "../../src/analysis/analyse.js";
import { loadAnalysisConfig, loadServiceConfig } from "../../src/config.js";
import { DatabaseJobQueue } from "../../src/jobs/database-job-queue.js";
import { createServices } from "../../src/services.js";
import { call, databaseKinds, startApi, type TestApi, testServiceSettings } from "../helpers/api.js";
import { type ChangingSite, startChangingSite } from "../helpers/changing-site.js";
import { endedCrawl, endedCrawlPage, signedInClient } from "../helpers/crawl-api.js";
import { eventually } from "../helpers/job-queues.js";
import { dropRedisKeys, redisUrl } from "../helpers/redis.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";
import { WebClient } from "../helpers/web-client.js";

const mailSettings = (smtp: TestSmtp) => ({
  PAGEGRADE_SMTP_URL: smtp.url,
  PAGEGRADE_MAIL_FROM: "pagegrade@example.com",
  PAGEGRADE_PUBLIC_URL: "https://pagegrade.test/",
  PAGEGRADE_SMTP_TIMEOUT_SECONDS: "2",
  PAGEGRADE_MAIL_RETRY_SCHEDULE: "1,1,1,1",
});

const owner = "owner@example.com";
const colleague = "colleague@example.com";
const recipientOf = (mail: ParsedMail) => (mail.to as { text: string } | undefined)?.text;
/** A header's value as it arrived, unfolded (mailparser folds the List-* headers into one object). */
const header = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((line) => line.key === name)
    ?.line.slice(name.length + 1)
    .replace(/\r?\n[ \t]+/g, " ")
    .trim();
/** The unsubscribe link's path and query, from the List-Unsubscribe header. */
const unsubscribePath = (mail: ParsedMail) => {
  const url = new URL(String(header(mail, "list-unsubscribe")?.replace(/^<|>$/g, "")));
  return `${url.pathname}${url.search}`;
};

/** Both databases with the embedded queue, and SQLite with BullMQ (Redis) running the jobs. */
const variants = [
  ...databaseKinds.map((kind) => ({ kind, bullmq: false })),
  { kind: "sqlite" as const, bullmq: true },
];

describe.each(variants)("crawl notifications ($kind, BullMQ: $bullmq)", ({ kind, bullmq }) => {
  const redisPrefix = `pagegrade-test-notifications-${randomBytes(4).toString("hex")}:`;
  let smtp: TestSmtp;
  let api: TestApi;
  let site: ChangingSite;
  let key: string;
  let other: string;
  let project: string;
  const crawls: number[] = [];

  beforeAll(async () => {
    smtp = await startTestSmtp();
    site = await startChangingSite();
    api = await startApi(kind, {
      ...mailSettings(smtp),
      PAGEGRADE_CRAWL_DELAY_MS: "0",
      ...(bullmq ? { PAGEGRADE_QUEUE_URL: redisUrl, PAGEGRADE_REDIS_KEY_PREFIX: redisPrefix } : {}),
    });
    key = (await api.accounts.createUser(owner, null)).key;
    other = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await site.close();
    await smtp.close();
    if (bullmq) await dropRedisKeys(redisPrefix);
  });

  const crawl = async (version: 1 | 2) => {
    site.version = version;
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: site.url("/"), sitemaps: 0 },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().data.id as number;
    project = created.json().data.project;
    expect((await endedCrawl(api, key, id, 60_000)).status).toBe("complete");
    crawls.push(id);
    return id;
  };
  const settingsPath = () => `/api/v1/projects/${encodeURIComponent(project)}/notifications`;
  const put = (json: unknown, as = key) => call(api, "PUT", settingsPath(), { key: as, json });
  const outbox = async (crawlId: number) =>
    api.database.store.db
      .selectFrom("mail_messages")
      .selectAll()
      .where("dedupe_key", "like", `crawl-notification:${crawlId}:%`)
      .execute();

  it("mails nobody by default for a project without a schedule, and validates its settings", async () => {
    await crawl(1);
    const shown = await call(api, "GET", settingsPath(), { key });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data).toEqual({
      object: "notification_settings",
      project,
      email_on: "never",
      recipients: [owner],
      default: true,
      unsubscribed: [],
      mail_set_up: true,
      message: null,
    });
    expect((await call(api, "GET", settingsPath(), { key: other })).statusCode).toBe(404);
    expect((await put({ email_on: "completed" }, other)).statusCode).toBe(404);

    const badTrigger = await put({ email_on: "sometimes" });
    expect(badTrigger.statusCode).toBe(422);
    expect(badTrigger.body).toContain("email_on");
    const badAddress = await put({ recipients: [owner, "someone@example.com\r\nBcc: x@evil.test"] });
    expect(badAddress.statusCode).toBe(422);
    expect(badAddress.json().errors.recipients[0]).toBe(
      "recipients[1] is not one plain e-mail address such as name@example.com.",
    );
    const many = Array.from({ length: 21 }, (_, index) => `r${index}@example.com`);
    expect((await put({ recipients: many.join(",") })).statusCode).toBe(422);
    expect((await put({ recipients: [] })).statusCode).toBe(422);
    // Nothing half-written: the refused changes left the defaults.
    expect((await call(api, "GET", settingsPath(), { key })).json().data.default).toBe(true);

    const saved = await put({
      email_on: "completed",
      recipients: `${owner}, ${colleague.toUpperCase()}, ${owner}`,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      email_on: "completed",
      recipients: [owner, colleague],
      default: false,
    });
    expect(smtp.received).toHaveLength(0);
  });

  it("mails each recipient once about a crawl that regressed, with both parts and a one-click unsubscribe", async () => {
    const first = crawls[0] as number;
    const second = await crawl(2);
    await eventually(() => smtp.received.length === 2, "two notification mails", 20_000);
    expect(smtp.received.map(recipientOf).sort()).toEqual([colleague, owner]);
    for (const mail of smtp.received) {
      expect(mail.subject).toMatch(/^Regressed: /);
      expect(mail.subject).toContain(project);
      expect(mail.text).toContain("Regressions by importance: 2 high, 0 medium, 0 low.");
      expect(mail.text).toContain("High: Broken links: 1 new");
      expect(mail.text).toContain("New findings");
      expect(mail.text).toContain("/gone2");
      expect(mail.text).toContain(`https://pagegrade.test/crawls/${second}/diff?from=${first}`);
      expect(mail.text).toContain(`https://pagegrade.test/crawls/${second}/audit`);
      expect(mail.html).toContain(`href="https://pagegrade.test/crawls/${second}/diff?from=${first}"`);
      expect(mail.html).toContain("<li>High: Broken links: 1 new</li>");
      expect(header(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      const link = header(mail, "list-unsubscribe");
      expect(link).toMatch(/^<https:\/\/pagegrade\.test\/unsubscribe\?token=[A-Za-z0-9_.%-]+>$/);
      expect(mail.text).toContain(`Unsubscribe: ${link?.slice(1, -1)}`);
    }

    // The crawl's end announced again (a retried job, another process): no second mail.
    const analyzer = new Analyzer(loadAnalysisConfig({}));
    try {
      const config = loadServiceConfig({
        DATABASE_URL: api.database.url,
        ...testServiceSettings,
        ...mailSettings(smtp),
      });
      const jobs = new DatabaseJobQueue(api.database.store, { workers: 1 });
      const services = createServices({ store: api.database.store, analyzer, config, jobs });
      const userId = (await api.accounts.findByEmail(owner))?.id as number;
      await services.events.crawlFinished({ userId, crawlId: second, status: "complete" });
      await services.events.crawlFinished({ userId, crawlId: second, status: "complete" });
    } finally {
      await analyzer.close();
    }
    const stored = await outbox(second);
    expect(stored).toHaveLength(2);
    await eventually(
      async () => (await outbox(second)).every((mail) => mail.status === "sent"),
      "both mails sent",
    );
    expect((await outbox(second)).map((mail) => mail.attempts)).toEqual([1, 1]);
  });

  it("unsubscribes without signing in and stops that address's next mails only", async () => {
    const mail = smtp.received.find((received) => recipientOf(received) === colleague) as ParsedMail;
    const path = unsubscribePath(mail);
    const page = await api.app.inject({ method: "GET", url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(colleague);
    expect(page.body).toContain(`action="${path.replace(/&/g, "&amp;")}"`);
    // A forged token is refused.
    const forged = await api.app.inject({ method: "GET", url: `${path.slice(0, -3)}AAA` });
    expect(forged.statusCode).toBe(404);
    // One click, as a mail client sends it: no session, no form token.
    const clicked = await api.app.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(clicked.statusCode, clicked.body).toBe(200);
    expect(clicked.body).toContain("Unsubscribed");
    const shown = (await call(api, "GET", settingsPath(), { key })).json().data;
    expect(shown.unsubscribed).toEqual([colleague]);

    const before = smtp.received.length;
    const third = await crawl(2);
    await eventually(() => smtp.received.length === before + 1, "the next notification", 20_000);
    const next = smtp.received.at(-1) as ParsedMail;
    expect(recipientOf(next)).toBe(owner);
    expect(next.subject).toMatch(/^Crawl complete: /);
    expect(await outbox(third)).toHaveLength(1);

    // The project page shows the latest mails' delivery states.
    const userId = (await api.accounts.findByEmail(owner))?.id as number;
    await api.accounts.setPassword(userId, "correct horse battery");
    const web = new WebClient(api.app);
    await web.post("/login", { email: owner, password: "correct horse battery" });
    await eventually(async () => (await outbox(third))[0]?.status === "sent", "the mail recorded as sent");
    const projectPage = await web.get(`/projects/${encodeURIComponent(project)}`);
    expect(projectPage.body).toContain("Latest mails");
    expect(projectPage.body).toContain(`${owner}: sent`);
    expect(projectPage.body).toContain(`Unsubscribed: ${colleague}`);
  });

  it("mails under `regressed` only a crawl that regressed, and under `never` none", async () => {
    expect((await put({ email_on: "regressed" })).json().data.recipients).toEqual([owner, colleague]);
    const before = smtp.received.length;
    const unchanged = await crawl(2);
    const regressedAgain = await (async () => {
      await put({ email_on: "never" });
      return crawl(1);
    })();
    await put({ email_on: "regressed" });
    // Crawling version 2 after version 1 regresses again: mailed to the owner (the colleague unsubscribed).
    const regressed = await crawl(2);
    await eventually(() => smtp.received.length === before + 1, "the regression's mail", 20_000);
    expect(await outbox(unchanged)).toHaveLength(0);
    expect(await outbox(regressedAgain)).toHaveLength(0);
    expect(await outbox(regressed)).toHaveLength(1);
    expect(recipientOf(smtp.received.at(-1) as ParsedMail)).toBe(owner);
  });
});

describe("crawl notification settings without mail set up", () => {
  it("default to `regressed` for a scheduled crawl's project, and are stored saying plainly that mail is not set up", async () => {
    const api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    const site = await startChangingSite();
    try {
      const key = await api.newUser();
      const created = await call(api, "POST", "/api/v1/crawls", {
        key,
        json: { url: site.url("/"), sitemaps: 0, schedule: "daily" },
      });
      const project = created.json().data.project as string;
      const id = created.json().data.id as number;
      expect((await endedCrawl(api, key, id, 60_000)).status).toBe("complete");
      const path = `/api/v1/projects/${encodeURIComponent(project)}/notifications`;
      expect((await call(api, "GET", path, { key })).json().data).toMatchObject({
        email_on: "regressed",
        default: true,
      });
      const saved = await call(api, "PUT", path, { key, json: { email_on: "completed" } });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().data).toMatchObject({
        email_on: "completed",
        mail_set_up: false,
        message:
          "Mail is not set up on this server (PAGEGRADE_SMTP_URL, PAGEGRADE_MAIL_FROM, PAGEGRADE_PUBLIC_URL).",
      });
    } finally {
      await api.close();
      await site.close();
    }
  });
});

describe("the project page's notification form", () => {
  it("shows the settings, saves a change, refuses a bad address with its message, and says mail is not set up", async () => {
    const api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    const site = await startChangingSite();
    try {
      const client = await signedInClient(api.app, "web-owner@example.com");
      const crawl = await client.post("/crawls", { url: site.url("/"), max_pages: "3" });
      await endedCrawlPage(client, String(crawl.headers.location));
      const page = await client.get("/projects/127.0.0.1");
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('action="/projects/127.0.0.1/notifications"');
      expect(page.body).toContain('value="web-owner@example.com"');
      expect(page.body).toContain("Mail is not set up on this server");

      const refused = await client.post("/projects/127.0.0.1/notifications", {
        email_on: "completed",
        recipients: "web-owner@example.com, not an address",
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain("recipients[1] is not one plain e-mail address");

      const saved = await client.post("/projects/127.0.0.1/notifications", {
        email_on: "completed",
        recipients: "web-owner@example.com, Client@Example.com",
      });
      expect(saved.statusCode).toBe(303);
      const shown = await client.get(String(saved.headers.location));
      expect(shown.body).toContain("Saved.");
      expect(shown.body).toContain('<option value="completed" selected>');
      expect(shown.body).toContain('value="web-owner@example.com, client@example.com"');
      // Another user's project of the same name is not this one.
      const stranger = await signedInClient(api.app, "stranger@example.com");
      expect(
        (await stranger.post("/projects/127.0.0.1/notifications", { email_on: "never" })).statusCode,
      ).toBe(404);
    } finally {
      await api.close();
      await site.close();
    }
  });
});
