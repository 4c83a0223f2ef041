/**
 * The forms that act: the analyse form's mode and schedule, a URL that already has a report (re-run it or make a
 * second on purpose), the confirmation step before regenerating the key or deleting a crawl or a webhook, and
 * the landing page's count of checks, which is the catalogue's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogue } from "../../src/analysis/catalogue.js";
import { startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { WebClient } from "../helpers/web-client.js";

describe("the pages' forms", () => {
  let api: TestApi;
  let site: LocalServer;
  let client: WebClient;

  beforeAll(async () => {
    site = await startServer({
      "/": html("<!doctype html><html lang=en><title>Bicycle repair at home</title><h1>Bicycles</h1></html>"),
    });
    api = await startApi("sqlite");
    client = new WebClient(api.app);
    await client.signUp("forms@example.com");
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  const reportCount = async () =>
    (await api.database.store.db.selectFrom("reports").select("id").execute()).length;

  it("analyses with the chosen schedule, and refuses a mode or schedule it does not know, naming it", async () => {
    const form = (await client.get("/reports")).body;
    expect(form).toContain('<select id="mode" name="mode">');
    expect(form).toContain('<select id="schedule" name="schedule">');
    expect(form).toContain('data-shown-when="privacy=2"');
    expect(form).toContain('<script src="/assets/forms.js" defer></script>');

    const created = await client.post("/reports", { url: `${site.url}/`, privacy: "1", schedule: "weekly" });
    expect(created.statusCode).toBe(303);
    const id = Number(String(created.headers.location).split("/").pop());
    expect((await client.get(`/reports/${id}/manage`)).body).toMatch(/<option value="weekly" selected>/);

    const badMode = await client.post("/reports", { url: `${site.url}/other`, mode: "psychic" });
    expect(badMode.statusCode).toBe(422);
    expect(badMode.body).toContain("Choose how to read the page.");
    const badSchedule = await client.post("/reports", { url: `${site.url}/other`, schedule: "hourly" });
    expect(badSchedule.statusCode).toBe(422);
    expect(badSchedule.body).toContain("Choose how often to analyse again.");
  });

  it("offers to re-run a URL that already has a report, or to make a second report on purpose", async () => {
    const before = await reportCount();
    const again = await client.post("/reports", { url: `${site.url}/`, privacy: "1" });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain("You already have a report for this page");
    const rerun = again.body.match(/action="(\/reports\/\d+\/rerun)"/)?.[1] as string;
    expect(rerun).toBeDefined();
    expect(await reportCount()).toBe(before);

    expect((await client.post(rerun)).statusCode).toBe(303);
    expect(await reportCount()).toBe(before);
    const second = await client.post("/reports", { url: `${site.url}/`, privacy: "1", duplicate: "1" });
    expect(second.statusCode).toBe(303);
    expect(await reportCount()).toBe(before + 1);
  });

  it("asks before regenerating the key and before deleting a crawl or a webhook", async () => {
    await client.post("/account/key");
    const account = (await client.get("/account")).body;
    expect(account).toContain('<a href="/account/key">Regenerate the key…</a>');
    const confirm = (await client.get("/account/key")).body;
    expect(confirm).toContain("Regenerate your API key?");
    expect(confirm).toContain('<form method="post" action="/account/key">');

    const hook = await client.post("/account/webhooks", {
      url: `${site.url}/hook`,
      events: "report.failed",
    });
    expect(hook.statusCode, hook.body.match(/role="alert">([^<]*)/)?.[1]).toBeLessThan(400);
    const hookId = (await api.database.store.db.selectFrom("webhooks").select("id").executeTakeFirstOrThrow())
      .id;
    expect((await client.get(`/account/webhooks/${hookId}`)).body).toContain(
      `href="/account/webhooks/${hookId}/delete"`,
    );
    expect((await client.get(`/account/webhooks/${hookId}/delete`)).body).toContain("Delete the webhook to");
    expect((await new WebClient(api.app).get(`/account/webhooks/${hookId}/delete`)).statusCode).toBe(303);
  });

  it("counts the checks from the catalogue", async () => {
    expect((await client.get("/")).body).toContain(`runs ${catalogue.length} checks`);
  });
});
