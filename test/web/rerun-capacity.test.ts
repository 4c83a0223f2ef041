/**
 * The report's re-run form, refused because every analysis slot is busy, is shown again with the refusal's own
 * status (503, as the dashboard's form) and its message; before, every refusal there was a 422.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.js";
import { type Handler, html, type LocalServer, slowHtml, startServer } from "../helpers/local-server.js";
import { WebClient } from "../helpers/web-client.js";

const page = "<!doctype html><html lang=en><title>Bicycle repair at home</title><h1>Bicycles</h1></html>";

describe("the re-run form with every analysis slot busy", () => {
  let site: LocalServer;
  let api: TestApi;
  let client: WebClient;
  /** Whether the slow page's fetch has begun (its analysis then holds the only slot for 3 s). */
  let slowFetched = false;
  const slow = slowHtml(page, 3_000);
  const recordedSlow: Handler = (request, response) => {
    slowFetched = true;
    slow(request, response);
  };

  beforeAll(async () => {
    site = await startServer({ "/": html(page), "/slow": recordedSlow });
    api = await startApi("sqlite", { PAGEGRADE_MAX_CONCURRENT_ANALYSES: "1" });
    client = new WebClient(api.app);
    await client.signUp("rerun-capacity@example.com");
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it("answers 503 with the message, as the dashboard's form does", async () => {
    const created = await client.post("/reports", { url: `${site.url}/`, privacy: "1" });
    expect(created.statusCode, created.body).toBe(303);
    const id = Number(String(created.headers.location).split("/").pop());
    // A slow analysis holds the only slot while the re-run asks for one.
    const holding = client.post("/reports", { url: `${site.url}/slow`, privacy: "1" });
    while (!slowFetched) await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await client.post(`/reports/${id}/rerun`);
    expect(refused.statusCode).toBe(503);
    expect(refused.body).toContain("Too many analyses are running right now");
    expect((await holding).statusCode).toBe(303);
  });
});
