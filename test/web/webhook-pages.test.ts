/**
 * The account's webhook pages: adding one shows its secret once, a bad URL is refused with the API's message,
 * a webhook's page lists its deliveries (a ping arrives at a real receiver), disable and delete work, and
 * another user's webhook is a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";
import { WebClient } from "../helpers/web-client.js";

describe("webhook pages", () => {
  let api: TestApi;
  let receiver: LocalServer;
  let owner: WebClient;
  let stranger: WebClient;
  let pings = 0;

  beforeAll(async () => {
    receiver = await startServer({
      "/hook": (request, response) => {
        pings++;
        request.resume();
        request.on("end", () => response.writeHead(204).end());
      },
    });
    api = await startApi("sqlite");
    owner = new WebClient(api.app);
    stranger = new WebClient(api.app);
    await owner.signUp("hooks@example.com");
    await stranger.signUp("stranger@example.com");
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  it("adds a webhook, shows its secret once, pings it and lists the delivery, disables and deletes it", async () => {
    const refused = await owner.post("/account/webhooks", { url: "ftp://example.com/" });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain("The url field must be an absolute http or https URL");

    const added = await owner.post("/account/webhooks", {
      url: `${receiver.url}/hook`,
      events: "report.failed",
    });
    // The secret is shown in the answer to the POST itself, once.
    expect(added.statusCode).toBe(200);
    const list = added;
    const secret = /<code class="key" id="webhook-secret">(whsec_[^<]+)<\/code>/.exec(list.body)?.[1];
    expect(secret).toBeDefined();
    expect(list.body).toContain(`whsec_…${secret?.slice(-4)}`);
    expect((await owner.get("/account/webhooks")).body).not.toContain('id="webhook-secret"');
    const id = /href="\/account\/webhooks\/(\d+)"/.exec(list.body)?.[1] as string;

    expect((await stranger.get(`/account/webhooks/${id}`)).statusCode).toBe(404);
    expect((await stranger.post(`/account/webhooks/${id}/delete`)).statusCode).toBe(404);

    expect((await owner.post(`/account/webhooks/${id}/ping`)).statusCode).toBe(303);
    await eventually(async () => pings === 1, "the ping", 10_000);
    await eventually(
      async () =>
        (await owner.get(`/account/webhooks/${id}`)).body.includes('<td data-label="Status">succeeded</td>'),
      "the delivery listed as succeeded",
      10_000,
    );
    const disabled = await owner.post(`/account/webhooks/${id}/enabled`);
    expect(disabled.statusCode).toBe(303);
    expect((await owner.get(`/account/webhooks/${id}`)).body).toContain("The webhook is disabled.");
    expect((await owner.post(`/account/webhooks/${id}/delete`)).statusCode).toBe(303);
    expect((await owner.get(`/account/webhooks/${id}`)).statusCode).toBe(404);
  });
});
