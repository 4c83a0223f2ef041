/**
 * Crawl notifications by e-mail with a real SMTP server in this process, on SQLite and PostgreSQL, in a team's
 * workspace: the settings are validated and stored (also without mail set up, which the answer says plainly),
 * recipients only among the workspace's members (a team's members; in one's own workspace oneself), a viewer may
 * read but not change them, and a member removed from the team receives nothing more; a crawl of a site that
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
import { announceMissedCrawls, announcementGraceMs } from "../../src/crawls/crawl-announcements.js";
import { openJobQueue } from "../../src/jobs/open-job-queue.js";
import { createServices } from "../../src/services.js";
import { call, databaseKinds, startApi, type TestApi, testServiceSettings } from "../helpers/api.js";
import { type ChangingSite, startChangingSite } from "../helpers/changing-site.js";
import { endedCrawl, endedCrawlPage, signedInClient } from "../helpers/crawl-api.js";
import { eventually } from "../helpers/job-queues.js";
import { dropRedisKeys, redisUrl } from "../helpers/redis.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

const mailSettings = (smtp: TestSmtp) => ({
  PAGEGRADE_SMTP_URL: smtp.url,
  PAGEGRADE_MAIL_FROM: "pagegrade@example.com",
  PAGEGRADE_PUBLIC_URL: "https://pagegrade.test/",
  PAGEGRADE_SMTP_TIMEOUT_SECONDS: "2",
  PAGEGRADE_MAIL_RETRY_SCHEDULE: "1,1,1,1",
});

const owner = "owner@example.com";
const colleague = "colleague@example.com";
const watcher = "watcher@example.com";
const outsider = "outsider@example.com";
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
  let viewer: string;
  let teamId: number;
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
    other = await api.newUser(outsider);
    // The crawls are the team's; the colleague edits in it, the watcher only views.
    teamId = (await call(api, "POST", "/api/v1/teams", { key, json: { name: "Agency" } })).json().data.id;
    const join = async (email: string, role: string) => {
      const memberKey = await api.newUser(email);
      const invitation = await call(api, "POST", `/api/v1/teams/${teamId}/invitations`, {
        key,
        json: { email, role },
      });
      const token = new URL(invitation.json().data.accept_url).searchParams.get("token");
      const accepted = await call(api, "POST", "/api/v1/invitations/accept", {
        key: memberKey,
        json: { token },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      return memberKey;
    };
    await join(colleague, "editor");
    viewer = await join(watcher, "viewer");
    // The invitations went out by mail too: once they are sent, the server's inbox starts empty for the tests.
    await eventually(
      async () =>
        (await api.database.store.db.selectFrom("mail_messages").select("status").execute()).every(
          (mail) => mail.status === "sent",
        ),
      "the invitation mails sent",
      60_000,
    );
    await eventually(() => smtp.received.length === 2, "the invitation mails received", 20_000);
    smtp.received.splice(0);
  }, 120_000);
  afterAll(async () => {
    await api.close();
    await site.close();
    await smtp.close();
    if (bullmq) await dropRedisKeys(redisPrefix);
  });

  const crawl = async (version: 1 | 2) => {
    site.version = version;
    const created = await call(api, "POST", `/api/v1/crawls?team=${teamId}`, {
      key,
      json: { url: site.url("/"), sitemaps: 0 },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().data.id as number;
    project = created.json().data.project;
    const shown = async () =>
      (await call(api, "GET", `/api/v1/crawls/${id}?team=${teamId}`, { key })).json().data;
    const ended = ["complete", "cancelled", "failed"];
    await eventually(async () => ended.includes((await shown()).status), "the crawl to finish", 60_000);
    expect((await shown()).status).toBe("complete");
    crawls.push(id);
    return id;
  };
  const settingsPath = () => `/api/v1/projects/${encodeURIComponent(project)}/notifications?team=${teamId}`;
  const put = (json: unknown, as = key) => call(api, "PUT", settingsPath(), { key: as, json });
  /** Services over the test's database and queue (Redis with BullMQ), as another process would build them. */
  const withServices = async (use: (services: ReturnType<typeof createServices>) => Promise<void>) => {
    const analyzer = new Analyzer(loadAnalysisConfig({}));
    const config = loadServiceConfig({
      DATABASE_URL: api.database.url,
      ...testServiceSettings,
      ...mailSettings(smtp),
      ...(bullmq ? { PAGEGRADE_QUEUE_URL: redisUrl, PAGEGRADE_REDIS_KEY_PREFIX: redisPrefix } : {}),
    });
    const jobs = await openJobQueue(api.database.store, config);
    try {
      await use(createServices({ store: api.database.store, analyzer, config, jobs }));
    } finally {
      await jobs.close();
      await analyzer.close();
    }
  };
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
    // A viewer reads the settings but may not change them.
    expect((await call(api, "GET", settingsPath(), { key: viewer })).statusCode).toBe(200);
    const byViewer = await put({ email_on: "completed" }, viewer);
    expect(byViewer.statusCode, byViewer.body).toBe(403);
    // Only the team's members: another user's address is refused by its place and address.
    const notMember = await put({ recipients: [owner, outsider] });
    expect(notMember.statusCode).toBe(422);
    expect(notMember.json().errors.recipients).toEqual([
      `recipients[1] (${outsider}) is not the address of a member of this team.`,
    ]);

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
    const userId = (await api.accounts.findByEmail(owner))?.id as number;
    await withServices(async (services) => {
      await services.events.crawlFinished({ userId, crawlId: second, status: "complete" });
      await services.events.crawlFinished({ userId, crawlId: second, status: "complete" });
    });
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

    // The project's latest mails' delivery states, as its page shows them, are the team's crawls' mails.
    await eventually(async () => (await outbox(third))[0]?.status === "sent", "the mail recorded as sent");
    const userId = (await api.accounts.findByEmail(owner))?.id as number;
    await withServices(async (services) => {
      const latest = await services.notifications.latestMails({ userId, teamId }, project);
      expect(latest[0]).toMatchObject({ recipient: owner, status: "sent" });
      expect(await services.notifications.latestMails(userId, project)).toEqual([]);
    });
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

  it("mails a member removed from the team nothing more", async () => {
    expect((await put({ email_on: "completed", recipients: [owner, watcher] })).statusCode).toBe(200);
    const watcherId = (await api.accounts.findByEmail(watcher))?.id as number;
    const removed = await call(api, "DELETE", `/api/v1/teams/${teamId}/members/${watcherId}`, { key });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call(api, "GET", settingsPath(), { key })).json().data.recipients).toEqual([owner]);
    const before = smtp.received.length;
    const next = await crawl(2);
    await eventually(() => smtp.received.length === before + 1, "the owner's mail", 20_000);
    expect((await outbox(next)).map((mail) => mail.recipient)).toEqual([owner]);
    // Their address can no longer be chosen either.
    expect((await put({ recipients: [watcher] })).statusCode).toBe(422);
  });

  it("announces once the end of a crawl whose process died before announcing it (the maintenance sweep)", async () => {
    const announcedAt = async (id: number) =>
      (
        await api.database.store.db
          .selectFrom("crawls")
          .select("announced_at")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).announced_at;
    // A crawl announced as it ended (to nobody: `never`) is recorded as announced.
    expect((await put({ email_on: "never", recipients: [owner] })).statusCode).toBe(200);
    const id = await crawl(1);
    // Announced just after the crawl is seen complete (crawl-finish.ts marks it once the sinks returned).
    await eventually(async () => (await announcedAt(id)) !== null, "the crawl's announcement", 20_000);
    // The gap a killed process leaves: the crawl ended, its announcement never made (nor recorded).
    await api.database.store.db
      .updateTable("crawls")
      .set({ announced_at: null })
      .where("id", "=", id)
      .execute();
    expect((await put({ email_on: "completed" })).statusCode).toBe(200);
    const before = smtp.received.length;
    await withServices(async (services) => {
      const sweep = { crawls: services.crawlStores.crawls, events: services.events };
      // Within its grace period the crawl may still be announced by its own process: left alone.
      expect(await announceMissedCrawls(sweep, Date.now())).toBe(0);
      const later = Date.now() + announcementGraceMs + 1000;
      expect(await announceMissedCrawls(sweep, later)).toBe(1);
      expect(await announceMissedCrawls(sweep, later)).toBe(0);
    });
    await eventually(() => smtp.received.length === before + 1, "the swept crawl's mail", 20_000);
    expect(await announcedAt(id)).not.toBeNull();
    expect((await outbox(id)).map((mail) => mail.recipient)).toEqual([owner]);
    // Announced again by hand (a sweep racing the crawl's own process): still one mail.
    const userId = (await api.accounts.findByEmail(owner))?.id as number;
    await withServices((services) =>
      services.events.crawlFinished({ userId, crawlId: id, status: "complete" }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.received.length).toBe(before + 1);
    expect(await outbox(id)).toHaveLength(1);
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

      // In one's own workspace, only oneself receives its mails.
      const notMember = await client.post("/projects/127.0.0.1/notifications", {
        email_on: "completed",
        recipients: "web-owner@example.com, Client@Example.com",
      });
      expect(notMember.statusCode).toBe(422);
      expect(notMember.body).toContain("recipients[1] (client@example.com) is not your own address");

      const saved = await client.post("/projects/127.0.0.1/notifications", {
        email_on: "completed",
        recipients: "Web-Owner@Example.com",
      });
      expect(saved.statusCode).toBe(303);
      const shown = await client.get(String(saved.headers.location));
      expect(shown.body).toContain("Saved.");
      expect(shown.body).toContain('<option value="completed" selected>');
      expect(shown.body).toContain('value="web-owner@example.com"');
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
