import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";
import { awayFromWindowEdge } from "../helpers/rate-window.js";
import { WebClient } from "../helpers/web-client.js";

/** The second version loses the first image's alt text and adds a second image without one. */
const versions = {
  good: `<!doctype html><html lang="en"><head><title>Bicycle repair at home, step by step</title></head><body><h1>Bicycle repair</h1><img src="/wheel.png" alt="A wheel" width="10" height="10"></body></html>`,
  worse: `<!doctype html><html lang="en"><head><title>Bicycle repair at home, step by step</title></head><body><h1>Bicycle repair</h1><img src="/wheel.png" width="10" height="10"><img src="/chain.png" width="10" height="10"></body></html>`,
};

describe.each(databaseKinds)("the history pages on %s", (kind) => {
  let api: TestApi;
  let site: LocalServer;
  let served: keyof typeof versions = "good";
  let owner: WebClient;
  let id: number;
  let analyses: number[];

  beforeAll(async () => {
    site = await startServer({
      "/": (_request, response) => {
        response.setHeader("content-type", "text/html; charset=utf-8");
        response.end(versions[served]);
      },
    });
    api = await startApi(kind);
    await awayFromWindowEdge();
    owner = new WebClient(api.app);
    await owner.signUp("history@example.com");
    served = "good";
    const created = await owner.post("/reports", { url: `${site.url}/`, privacy: "1" });
    id = Number((created.headers.location as string).split("/").pop());
    served = "worse";
    expect((await owner.post(`/reports/${id}/rerun`)).statusCode).toBe(303);
    const history = await owner.get(`/reports/${id}/history`);
    analyses = [...history.body.matchAll(new RegExp(`href="/reports/${id}/analyses/(\\d+)"`, "g"))]
      .map((match) => Number(match[1]))
      .filter((value, index, all) => all.indexOf(value) === index);
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("shows the score over time, each point linking to its analysis, and what changed, regressions first", async () => {
    const page = await owner.get(`/reports/${id}`);
    expect(page.statusCode).toBe(200);
    const chart = /<figure class="score-chart">[\s\S]*?<\/figure>/.exec(page.body)?.[0] ?? "";
    expect(chart).toContain("<svg");
    for (const analysis of analyses) expect(chart).toContain(`href="/reports/${id}/analyses/${analysis}"`);
    const changes = /<section class="card changes"[\s\S]*?<\/section>/.exec(page.body)?.[0] ?? "";
    expect(changes).toContain("What changed");
    const badges = [...changes.matchAll(/<span class="badge [^"]*">([^<]+)<\/span>/g)].map(
      (match) => match[1],
    );
    expect(badges[0]).toBe("Regressed");
    const imageAlt =
      /<div class="check">(?:(?!<div class="check">)[\s\S])*?#check-image-alt[\s\S]*?<\/div>/.exec(
        changes,
      )?.[0] ?? "";
    expect(imageAlt).toContain("Regressed");
    expect(imageAlt).toContain("Appeared");
    expect(imageAlt).toContain("/chain.png");
    expect(page.body).toContain(`History (2 analyses)`);
    // Nothing inline: the CSP forbids it.
    expect(page.body).not.toMatch(/<script|style="/);
  });

  it("marks each score's change in the reports list, in words for screen readers", async () => {
    const list = await owner.get("/reports");
    const marker =
      /<span class="change change-down"><span aria-hidden="true">▼ (\d+)<\/span><span class="visually-hidden">down (\d+) points? since the previous analysis<\/span><\/span>/.exec(
        list.body,
      );
    expect(marker).not.toBeNull();
    expect(marker?.[1]).toBe(marker?.[2]);
  });

  it("lists every analysis and opens a past one", async () => {
    expect(analyses).toHaveLength(2);
    const history = await owner.get(`/reports/${id}/history`);
    expect(history.body).toContain("First analysis");
    expect(history.body).toContain("Re-run");
    const past = await owner.get(`/reports/${id}/analyses/${Math.min(...analyses)}`);
    expect(past.statusCode).toBe(200);
    expect(past.body).toContain("A past analysis");
    // The first version's images all had alt text.
    expect(/id="check-image-alt">[\s\S]*?status-(\w+)/.exec(past.body)?.[1]).toBe("pass");
    expect((await owner.get(`/reports/${id}/analyses/987654`)).statusCode).toBe(404);
    expect((await owner.get(`/reports/${id}/analyses/abc`)).statusCode).toBe(404);
  });

  it("follows the report page's access rules on every history page", async () => {
    const paths = [`/reports/${id}/history`, `/reports/${id}/analyses/${analyses[0]}`];
    const stranger = new WebClient(api.app);
    for (const path of paths) expect((await stranger.get(path)).statusCode).toBe(404);

    await owner.post(`/reports/${id}/privacy`, { privacy: "2", password: "history secret" });
    for (const path of paths) expect((await stranger.get(path)).body).toContain("This report is protected");
    expect((await stranger.post(`/reports/${id}/unlock`, { password: "history secret" })).statusCode).toBe(
      303,
    );
    for (const path of paths) expect((await stranger.get(path)).statusCode).toBe(200);

    // Another report's analysis is not this report's.
    served = "good";
    const other = await owner.post("/reports", { url: `${site.url}/`, duplicate: "1", privacy: "0" });
    const otherId = Number((other.headers.location as string).split("/").pop());
    expect((await owner.get(`/reports/${otherId}/analyses/${analyses[0]}`)).statusCode).toBe(404);
    await owner.post(`/reports/${id}/privacy`, { privacy: "1" });
  });
});
