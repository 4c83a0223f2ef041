import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { awayFromWindowEdge } from "../helpers/rate-window.js";
import { WebClient } from "../helpers/web-client.js";

/**
 * Password and log-in brute force: a run of guesses against a report password, an account log-in and API
 * keys. The limits hold — even the right secret is refused once they are reached — and every refusal is a
 * 429 with Retry-After.
 */
describe("brute force", () => {
  beforeEach(() => awayFromWindowEdge());
  let api: TestApi;
  let site: LocalServer;
  const counts = { report: 0, login: 0, apiKey: 0, refused: 0 };

  beforeAll(async () => {
    site = await startServer({
      "/": html('<!doctype html><html lang="en"><title>Secret report page</title></html>'),
    });
    api = await startApi("sqlite", { PAGEGRADE_AUTH_FAILURE_LIMIT: "20" });
  });
  afterAll(async () => {
    console.log(
      `brute-force: ${counts.report} report-password, ${counts.login} log-in and ${counts.apiKey} API-key guesses, ${counts.refused} refused with 429`,
    );
    await api?.close();
    await site?.close();
  });

  /** A guess is either refused (429 with Retry-After, counted) or plainly wrong (401). */
  const refusedWithRetryAfter = (response: { statusCode: number; headers: Record<string, unknown> }) => {
    if (response.statusCode !== 429) {
      expect(response.statusCode).toBe(401);
      return false;
    }
    counts.refused++;
    expect(response.headers["retry-after"]).toBeDefined();
    return true;
  };

  it("limits report-password guesses per report and client, even for the right password", async () => {
    const owner = new WebClient(api.app);
    await owner.signUp("brute-owner@example.com");
    const created = await owner.post("/reports", {
      url: `${site.url}/`,
      privacy: "2",
      password: "the real one",
    });
    const id = (created.headers.location as string).split("/").pop();
    const attacker = new WebClient(api.app, "198.51.100.7");
    const statuses: number[] = [];
    for (let guess = 0; guess < 50; guess++) {
      const response = await attacker.post(`/reports/${id}/unlock`, { password: `guess-${guess}` });
      counts.report++;
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        counts.refused++;
        expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
      }
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    const right = await attacker.post(`/reports/${id}/unlock`, { password: "the real one" });
    expect(right.statusCode).toBe(429);
    expect(right.body).toContain("Too many wrong passwords");
  });

  it("limits log-in guesses per address and per account", async () => {
    await new WebClient(api.app).signUp("brute-victim@example.com");
    const attacker = new WebClient(api.app, "198.51.100.8");
    let refused = 0;
    for (let guess = 0; guess < 40; guess++) {
      const response = await attacker.post("/login", {
        email: "brute-victim@example.com",
        password: `guess-${guess}`,
      });
      counts.login++;
      if (refusedWithRetryAfter(response)) refused++;
    }
    expect(refused).toBe(30);
    // The account is protected from other addresses too, and the right password waits as well.
    const elsewhere = await new WebClient(api.app, "198.51.100.9").post("/login", {
      email: "brute-victim@example.com",
      password: "correct horse battery",
    });
    expect(elsewhere.statusCode).toBe(429);
  });

  it("limits API-key guessing per address", async () => {
    let refused = 0;
    for (let guess = 0; guess < 60; guess++) {
      const response = await api.app.inject({
        method: "GET",
        url: "/api/v1/account",
        remoteAddress: "198.51.100.10",
        headers: { authorization: `Bearer pgk_${String(guess).padStart(43, "x")}` },
      });
      counts.apiKey++;
      if (refusedWithRetryAfter(response)) refused++;
    }
    expect(refused).toBe(40);
  });
});
