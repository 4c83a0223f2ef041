import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandingBodyLimit } from "../../src/http/api/v1/branding-routes.js";
import { crawlBodyLimit } from "../../src/http/api/v1/crawls/routes.js";
import { ReportStore } from "../../src/store/report-store.js";
import { expectDocumented, startApi, type TestApi } from "../helpers/api.js";
import { type DnsServer, startDnsServer } from "../helpers/dns-server.js";
import { seedRow } from "../helpers/seed.js";

/**
 * API fuzzing from the OpenAPI document: for every operation, generated valid and invalid inputs (wrong types,
 * out-of-range and out-of-enum values, huge and empty strings, unicode, duplicated parameters, wrong content
 * types, oversized bodies), each sent with a valid key, no key, a garbage key and a revoked key.
 */
type Auth = "valid" | "none" | "garbage" | "revoked";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface Operation {
  method: Method;
  template: string;
  parameters: Array<{ name: string; in: string; schema: { type?: string; enum?: unknown[] } }>;
  bodyFields: Record<string, { type?: string; enum?: unknown[]; maxLength?: number }>;
}

const weird = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "01",
    "1.0",
    "1e3",
    "null",
    "true",
    "[]",
    "{}",
    "%00",
    "\u0000",
    "🙂",
    "../../etc/passwd",
    "<script>",
  ),
  fc.integer().map(String),
  fc.string({ minLength: 300, maxLength: 3000 }),
);

const fuzzUrl = fc.oneof(
  fc.constantFrom(
    "http://fuzz.test/",
    "https://fuzz.test/page?a=1",
    "http://127.0.0.1/",
    "http://[::1]/",
    "http://10.0.0.1/",
    "ftp://x.test/",
  ),
  fc
    .webUrl({ validSchemes: ["http", "https"] })
    .map((url) => url.replace(/^(https?:\/\/)[^/?#]+/, "$1fuzz.test")),
  weird,
);

function valueFor(
  schema: { type?: string; enum?: unknown[] } | undefined,
  name: string,
): fc.Arbitrary<unknown> {
  if (name === "url") return fuzzUrl;
  const valid = schema?.enum
    ? fc.constantFrom(...schema.enum)
    : schema?.type === "integer"
      ? fc.integer({ min: 1, max: 3 })
      : fc.string({ maxLength: 20 });
  return fc.oneof(valid, valid, weird, fc.integer({ min: -5, max: 200 }));
}

/** The body limit of the route a request goes to. */
function ownBodyLimit(method: string, url: string): number {
  if (url.startsWith("/api/v1/crawls") && method === "POST") return crawlBodyLimit;
  if (url.startsWith("/api/v1/branding")) return brandingBodyLimit;
  return 20_000 - 1;
}

describe("API fuzzing", () => {
  let api: TestApi;
  let dns: DnsServer;
  let keys: Record<Auth, string | null>;
  let operations: Operation[];
  let requests = 0;
  let serverErrors = 0;

  beforeAll(async () => {
    // Every generated host resolves to a loopback address, which the guard (on) refuses: no connection leaves.
    dns = await startDnsServer(() => ["127.0.0.1"]);
    api = await startApi("sqlite", {
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "0",
      PAGEGRADE_DNS_SERVERS: dns.server,
      PAGEGRADE_AUTH_FAILURE_LIMIT: "0",
    });
    const valid = await api.newUser("fuzzer@example.com");
    const revoked = await api.newUser("revoked@example.com");
    await api.accounts.issueKey("revoked@example.com");
    keys = { valid, none: null, garbage: `pgk_${"g".repeat(43)}`, revoked };
    const userId = (await api.accounts.authenticate(valid))?.account.id as number;
    const reports = new ReportStore(api.database.store);
    for (let index = 0; index < 30; index++)
      await reports.insert(
        seedRow(userId, { url: `https://p${index % 3}.example/${index}`, score: index * 3 }),
      );
    const doc = JSON.parse((await api.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).body) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: Operation["parameters"];
            requestBody?: { content: Record<string, { schema: { properties: Operation["bodyFields"] } }> };
          }
        >
      >;
    };
    operations = Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase() as Method,
        template,
        parameters: operation.parameters ?? [],
        bodyFields: operation.requestBody?.content["application/json"]?.schema.properties ?? {},
      })),
    );
  });

  afterAll(async () => {
    console.log(
      `api-fuzz: ${requests} requests over ${operations?.length ?? 0} operations, ${serverErrors} server errors`,
    );
    await api?.close();
    await dns?.close();
  });

  it("never answers 5xx, documents every answer, and refuses bad keys and bad input", async () => {
    for (const operation of operations) {
      const pathParams = operation.parameters.filter((parameter) => parameter.in === "path");
      const queryParams = operation.parameters.filter((parameter) => parameter.in === "query");
      const request = fc.record({
        auth: fc.constantFrom<Auth>("valid", "valid", "valid", "none", "garbage", "revoked"),
        path: fc.tuple(
          ...pathParams.map(() =>
            fc.oneof(
              fc.integer({ min: 1, max: 40 }).map(String),
              fc.constantFrom("p0.example", "p1.example"),
              weird,
            ),
          ),
        ),
        query: fc.dictionary(
          fc.oneof(
            fc.constantFrom(
              ...(queryParams.length > 0 ? queryParams.map((parameter) => parameter.name) : ["x"]),
            ),
            fc.string({ maxLength: 8 }),
          ),
          fc.oneof(
            valueFor(undefined, ""),
            ...queryParams.map((parameter) => valueFor(parameter.schema, parameter.name)),
          ),
          { maxKeys: 4 },
        ),
        duplicate: fc.boolean(),
        body: fc.dictionary(
          fc.oneof(
            fc.constantFrom(
              ...(Object.keys(operation.bodyFields).length > 0 ? Object.keys(operation.bodyFields) : ["x"]),
            ),
            fc.string({ maxLength: 8 }),
          ),
          fc.oneof(
            ...Object.entries(operation.bodyFields).map(([name, schema]) => valueFor(schema, name)),
            weird,
          ),
          { maxKeys: 4 },
        ),
        encoding: fc.constantFrom("form", "json", "json", "text", "broken-json", "oversized"),
      });
      await fc.assert(
        fc.asyncProperty(request, async (spec) => {
          let url = spec.path.reduce<string>(
            (path, value) => path.replace(/\{[^}]+\}/, encodeURIComponent(value)),
            operation.template,
          );
          // A path value that is a dot segment ("." or "..") makes the URL name another path once resolved, as
          // every HTTP client resolves it: that request is not for this operation, and may be for none (404).
          const forThisOperation = new URL(url, "http://fuzz.test").pathname === url;
          const query = new URLSearchParams(
            Object.entries(spec.query).map(([key, value]): [string, string] => [key, String(value)]),
          );
          if (spec.duplicate && [...query.keys()][0]) query.append([...query.keys()][0] as string, "again");
          if ([...query.keys()].length > 0) url += `?${query}`;
          const headers: Record<string, string> = {};
          if (keys[spec.auth]) headers.authorization = `Bearer ${keys[spec.auth]}`;
          let payload: string | undefined;
          if (operation.method !== "GET" && operation.method !== "DELETE") {
            const fields = Object.fromEntries(
              Object.entries(spec.body).map(([key, value]) => [key, String(value)]),
            );
            switch (spec.encoding) {
              case "form":
                headers["content-type"] = "application/x-www-form-urlencoded";
                payload = new URLSearchParams(fields).toString();
                break;
              case "json":
                headers["content-type"] = "application/json";
                payload = JSON.stringify(spec.body);
                break;
              case "text":
                headers["content-type"] = "text/plain";
                payload = "url=http://fuzz.test/";
                break;
              case "broken-json":
                headers["content-type"] = "application/json";
                payload = JSON.stringify(spec.body).slice(0, -1);
                break;
              case "oversized":
                headers["content-type"] = "application/x-www-form-urlencoded";
                // Past the route's own body limit: 16 KiB, a crawl's 1 MiB (it may carry a list of URLs), or the
                // branding upload's (a logo file).
                payload = `url=${"a".repeat(ownBodyLimit(operation.method, url) + 1)}`;
                break;
            }
          }
          const response: LightMyRequestResponse = await api.app.inject({
            method: operation.method,
            url,
            headers,
            ...(payload !== undefined ? { payload } : {}),
          });
          requests++;
          if (response.statusCode >= 500) serverErrors++;
          expect(
            response.statusCode,
            `${operation.method} ${url} → ${response.body.slice(0, 200)}`,
          ).toBeLessThan(500);
          if (spec.auth !== "valid" && !url.startsWith("/api/v1/openapi.json") && forThisOperation)
            expect(response.statusCode).toBe(401);
          if (spec.encoding === "text" && spec.auth === "valid" && payload !== undefined && forThisOperation)
            expect(response.statusCode).toBe(415);
          if (
            spec.encoding === "oversized" &&
            spec.auth === "valid" &&
            payload !== undefined &&
            forThisOperation
          )
            expect(response.statusCode).toBe(413);
          // A query value outside its enum is invalid input: it must be refused with a 4xx, never served.
          const outOfEnum = queryParams.some((parameter) => {
            const values = query.getAll(parameter.name);
            return (
              parameter.schema.enum !== undefined &&
              values.some(
                (value) => value.trim() !== "" && !parameter.schema.enum?.map(String).includes(value.trim()),
              )
            );
          });
          // A path that names no resource (an empty segment, an id that is not a positive integer, a name longer
          // than any the API gives) is a 404, which comes before the query is looked at.
          const noResource = spec.path.some((value, index) => {
            const schema = pathParams[index]?.schema as { type?: string; maxLength?: number } | undefined;
            if (value.trim() === "") return true; // a blank segment names nothing
            if (schema?.type === "integer") return !/^[1-9][0-9]{0,14}$/.test(value.trim());
            return schema?.maxLength !== undefined && value.length > schema.maxLength;
          });
          if (outOfEnum && spec.auth === "valid")
            expect(response.statusCode, url).toBe(noResource ? 404 : 422);
          await expectDocumented(api, operation.method, url, response);
          // Gone once deleted; but branding is a setting, not a resource: deleted, it reads as unset (tested in
          // test/http/branding.test.ts).
          if (
            operation.method === "DELETE" &&
            response.statusCode === 200 &&
            !url.startsWith("/api/v1/branding")
          ) {
            const again = await api.app.inject({
              method: operation.template.includes("projects") ? "DELETE" : "GET",
              url,
              headers,
            });
            requests++;
            expect(again.statusCode).toBe(404);
          }
        }),
        { numRuns: 1500 },
      );
    }
    expect(serverErrors).toBe(0);
    expect(requests).toBeGreaterThan(10_000);
  });
});
