/**
 * Comparing crawls through the API on both databases: two crawls of a site that changes in known ways between
 * them give exactly the expected new and resolved findings, regressed and fixed page checks, added and removed
 * pages and regressions; the first crawl has nothing to compare with; `from` is checked (422 naming it),
 * another user's crawl is a 404; and the `crawl.regressed` webhook is sent, signed, with the second crawl only.
 */
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { type ChangingSite, expected, startChangingSite } from "../helpers/changing-site.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

type Item = { url?: string; pages?: string[]; fingerprint: string };
type Diff = {
  from: { id: number } | null;
  to: { id: number };
  site_issues: Array<{
    check: string;
    new: Item[];
    resolved: Item[];
    new_count: number;
    resolved_count: number;
  }>;
  page_checks: Array<{
    check: string;
    regressed: number;
    fixed: number;
    pages: Array<{ url: string; from: string; to: string }>;
  }>;
  pages: {
    added: string[];
    removed: string[];
    status_changed: unknown[];
    indexability_changed: unknown[];
    truncated: number;
  };
  regressions: Record<string, number>;
};

const path = (url: string) => new URL(url).pathname;
const itemPaths = (items: Item[]) =>
  items.map((item) => (item.url ? path(item.url) : (item.pages ?? []).map(path).join(" ")));

/** The diff's findings and page checks by path, to compare with `expected`. */
function summary(diff: Diff) {
  const listed = (pick: "new" | "resolved") =>
    Object.fromEntries(
      diff.site_issues
        .filter((issue) => issue[pick].length > 0)
        .map((issue) => [issue.check, itemPaths(issue[pick])]),
    );
  return {
    newFindings: listed("new"),
    resolvedFindings: listed("resolved"),
    pageChecks: Object.fromEntries(
      diff.page_checks.map((check) => [
        check.check,
        {
          regressed: check.pages.filter((page) => page.to !== "pass").map((page) => path(page.url)),
          fixed: check.pages.filter((page) => page.to === "pass").map((page) => path(page.url)),
        },
      ]),
    ),
    added: diff.pages.added.map(path),
    removed: diff.pages.removed.map(path),
    regressions: diff.regressions,
  };
}

describe.each(databaseKinds)("crawl comparison on %s", (kind) => {
  let api: TestApi;
  let site: ChangingSite;
  let receiver: LocalServer;
  let key: string;
  let other: string;
  let secret: string;
  const received: Received[] = [];
  const crawls: number[] = [];

  beforeAll(async () => {
    site = await startChangingSite();
    receiver = await startServer(
      {},
      {
        fallback: (request: IncomingMessage, response: ServerResponse) => {
          let body = "";
          request.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          request.on("end", () => {
            received.push({ headers: request.headers, body });
            response.writeHead(204).end();
          });
        },
      },
    );
    api = await startApi(kind, {
      PAGEGRADE_CRAWL_DELAY_MS: "0",
      PAGEGRADE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    });
    key = await api.newUser();
    other = await api.newUser();
    const hook = await call(api, "POST", "/api/v1/webhooks", {
      key,
      json: { url: `${receiver.url}/hook`, events: ["crawl.completed", "crawl.regressed"] },
    });
    expect(hook.statusCode).toBe(201);
    secret = hook.json().data.secret;
  });
  afterAll(async () => {
    await api.close();
    await site.close();
    await receiver.close();
  });

  const crawl = async () => {
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: site.url("/"), sitemaps: 0 },
    });
    expect(created.statusCode).toBe(202);
    const id = created.json().data.id as number;
    await eventually(
      async () => (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data.status === "complete",
      "the crawl to complete",
      60_000,
    );
    crawls.push(id);
    return id;
  };
  const diffOf = async (id: number, query = "") => {
    const response = await call(api, "GET", `/api/v1/crawls/${id}/diff${query}`, { key });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Diff;
  };
  const events = (type: string) =>
    received.map((delivery) => JSON.parse(delivery.body)).filter((body) => body.type === type);

  it("has nothing to compare the first crawl with", async () => {
    site.version = 1;
    const first = await crawl();
    const diff = await diffOf(first);
    expect(diff).toMatchObject({
      object: "crawl_diff",
      from: null,
      to: { id: first },
      score_change: null,
      site_issues: [],
      page_checks: [],
      pages: { added: [], removed: [], status_changed: [], indexability_changed: [], truncated: 0 },
      regressions: { high: 0, medium: 0, low: 0 },
    });
    await eventually(async () => events("crawl.completed").length === 1, "crawl.completed", 20_000);
  }, 90_000);

  it("finds exactly what changed between two crawls of the site", async () => {
    site.version = 2;
    const [first] = crawls as [number];
    const second = await crawl();
    const diff = await diffOf(second);
    expect(diff.from?.id).toBe(first);
    expect(summary(diff)).toEqual(expected);
    expect(diff.pages).toMatchObject({ status_changed: [], indexability_changed: [], truncated: 0 });
    expect(diff.site_issues.map((issue) => issue.check)).toEqual(["broken-links", "duplicate-title"]);
    expect(diff.site_issues[0]).toMatchObject({
      importance: "high",
      from_count: 1,
      to_count: 1,
      new_count: 1,
      resolved_count: 1,
    });
    expect(diff.page_checks[0]).toMatchObject({
      check: "image-alt",
      importance: "high",
      regressed: 1,
      fixed: 1,
    });
    // Asked for explicitly, the same; the other way round, new and resolved swap.
    expect(await diffOf(second, `?from=${first}`)).toEqual(diff);
    const back = summary(await diffOf(first, `?from=${second}`));
    expect(back.newFindings).toEqual(expected.resolvedFindings);
    expect(back.resolvedFindings).toEqual(expected.newFindings);
    expect(back.added).toEqual(expected.removed);
  }, 90_000);

  it("refuses a from that is not another complete crawl of the project, naming it", async () => {
    const [first, second] = crawls as [number, number];
    for (const from of [String(second), "999999", "0", "abc"]) {
      const response = await call(api, "GET", `/api/v1/crawls/${second}/diff?from=${from}`, { key });
      expect(response.statusCode, from).toBe(422);
      expect(Object.keys(response.json().errors ?? {}), from).toEqual(["from"]);
    }
    const othersCrawl = await call(api, "GET", `/api/v1/crawls/${second}/diff?from=${first}`, { key: other });
    expect(othersCrawl.statusCode).toBe(404);
    expect((await call(api, "GET", `/api/v1/crawls/${second}/diff`, { key: other })).statusCode).toBe(404);
    expect((await call(api, "GET", "/api/v1/crawls/999999/diff", { key })).statusCode).toBe(404);
  });

  it("sends crawl.regressed, signed, with the crawl that regressed and its diff cut short", async () => {
    const [, second] = crawls as [number, number];
    await eventually(async () => events("crawl.regressed").length === 1, "crawl.regressed", 20_000);
    await eventually(async () => events("crawl.completed").length === 2, "crawl.completed", 20_000);
    const [regressed] = events("crawl.regressed");
    expect(regressed.data).toMatchObject({ object: "crawl", id: second, status: "complete" });
    expect(summary(regressed.data.diff)).toEqual(expected);
    const delivery = received.find((item) => JSON.parse(item.body).type === "crawl.regressed") as Received;
    const signed = `${delivery.headers["webhook-id"]}.${delivery.headers["webhook-timestamp"]}.${delivery.body}`;
    const signature = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
      .update(signed)
      .digest("base64");
    expect(delivery.headers["webhook-signature"]).toBe(`v1,${signature}`);
  }, 60_000);
});
