import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { Analyzer } from "../../src/analysis/analyse.js";
import { buildApp } from "../../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../../src/config.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";
import { type LocalServer, slowHtml, startServer } from "../helpers/local-server.js";

describe("logs and analysis capacity", () => {
  let database: TestDatabase;
  let slow: LocalServer;
  let analyzer: Analyzer;

  beforeAll(async () => {
    database = await freshDatabase("sqlite");
    slow = await startServer({
      "/": slowHtml("<!doctype html><title>Slow page</title>", 500),
    });
    analyzer = new Analyzer(loadAnalysisConfig({ PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
  });
  afterAll(async () => {
    await analyzer.close();
    await slow.close();
    await database.drop();
  });

  it("logs one line per request with its id and never the API key, and refuses analyses past capacity with 503", async () => {
    const logs = new PassThrough();
    let logged = "";
    logs.on("data", (chunk: Buffer) => {
      logged += chunk.toString();
    });
    const config = loadServiceConfig({
      DATABASE_URL: database.url,
      PAGEGRADE_MAX_CONCURRENT_ANALYSES: "1",
      PAGEGRADE_RATE_LIMIT: "0",
      PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
    });
    const app = await buildApp({ store: database.store, analyzer, config, logStream: logs });
    try {
      const { key } = await new AccountService(database.store).createUser("logs@example.com", null);
      const store = () =>
        app.inject({
          method: "POST",
          url: "/api/v1/reports",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/x-www-form-urlencoded",
            "x-request-id": "trace-42",
          },
          payload: `url=${encodeURIComponent(`${slow.url}/`)}`,
        });
      const [first, second] = await Promise.all([store(), store()]);
      const statuses = [first.statusCode, second.statusCode].sort();
      expect(statuses).toEqual([201, 503]);
      const refused = first.statusCode === 503 ? first : second;
      expect(refused.headers["retry-after"]).toBe("5");
      expect(refused.json().message).toBe("Analysis capacity is full; try again shortly.");
      expect((await store()).statusCode).toBe(201);

      const lines = logged
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(lines.some((line) => line.reqId === "trace-42" && line.msg === "request completed")).toBe(true);
      expect(logged).not.toContain(key);
    } finally {
      await app.close();
    }
  });
});
