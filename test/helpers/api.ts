/**
 * The API under test: the real application (fastify, driven with inject()) on a real database — a fresh
 * SQLite file, or a fresh schema in the local PostgreSQL — with the real analysis engine allowed to reach
 * pages served on 127.0.0.1. Every response can be checked against the OpenAPI document.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020Module from "ajv/dist/2020.js";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { Analyzer } from "../../src/analysis/analyse.js";
import { buildApp } from "../../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../../src/config.js";
import { openStore } from "../../src/store/database.js";
import type { Store } from "../../src/store/store.js";

export const postgresUrl =
  process.env.PAGEGRADE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const databaseKinds = ["sqlite", "postgres"] as const;
export type DatabaseKind = (typeof databaseKinds)[number];

export interface TestDatabase {
  store: Store;
  url: string;
  schema?: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database of the kind; drop() removes every trace of it. */
export async function freshDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "pagegrade-db-"));
    const url = `sqlite:${join(dir, "test.db")}`;
    const store = await openStore(url);
    return {
      store,
      url,
      drop: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const store = await openStore(postgresUrl, { schema });
  return {
    store,
    url: postgresUrl,
    schema,
    drop: async () => {
      await store.close();
      const admin = await import("pg");
      const client = new admin.default.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

/** The service's settings in tests, before a test's own: no rate limits or quotas, no Chromium sandbox. */
export const testServiceSettings: Record<string, string> = {
  PAGEGRADE_RATE_LIMIT: "0",
  PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
  // The other quotas (src/limits/quotas.ts) too: tests that count them turn them on.
  PAGEGRADE_CRAWL_START_RATE_LIMIT: "0",
  PAGEGRADE_PING_RATE_LIMIT: "0",
  PAGEGRADE_PDF_RATE_LIMIT: "0",
  PAGEGRADE_SIGNUP_RATE_LIMIT: "0",
  PAGEGRADE_TEAM_RATE_LIMIT: "0",
  PAGEGRADE_INVITATION_RATE_LIMIT: "0",
  // Tests run as root, where Chromium (report PDFs) cannot have its sandbox.
  PAGEGRADE_CHROMIUM_SANDBOX: "0",
};

export interface TestApi {
  app: FastifyInstance;
  database: TestDatabase;
  accounts: AccountService;
  /** Creates a user and returns its API key. */
  newUser(email?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startApi(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<TestApi> {
  const database = await freshDatabase(kind);
  const analyzer = new Analyzer(
    loadAnalysisConfig({
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
      PAGEGRADE_PROBE_CACHE_SECONDS: "0",
      // Tests run as root, where Chromium (rendered mode, report PDFs) cannot have its sandbox.
      PAGEGRADE_CHROMIUM_SANDBOX: "0",
      ...env,
    }),
  );
  const config = loadServiceConfig({ DATABASE_URL: database.url, ...testServiceSettings, ...env });
  const app = await buildApp({
    store: database.store,
    analyzer,
    config,
    logger: options.logStream !== undefined,
    logStream: options.logStream,
  });
  await app.ready();
  const accounts = new AccountService(database.store);
  let users = 0;
  return {
    app,
    database,
    accounts,
    newUser: async (email = `user${++users}-${randomBytes(3).toString("hex")}@example.com`) =>
      (await accounts.createUser(email, null)).key,
    close: async () => {
      await app.close();
      await analyzer.close();
      await database.drop();
    },
  };
}

/** How many reports the database holds, all users together. */
export async function countReports(api: TestApi): Promise<number> {
  const row = await api.database.store.db
    .selectFrom("reports")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sends a request with a key; bodies go as form fields unless `json` is set. */
export async function call(
  api: TestApi,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  options: {
    key?: string | null;
    form?: Record<string, string>;
    json?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let payload: string | undefined;
  if (options.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(options.json);
  }
  const response = await api.app.inject({
    method,
    url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
  await expectDocumented(api, method, url, response);
  return response;
}

// ajv ships CommonJS; under NodeNext its default export is the module object.
const Ajv2020 = Ajv2020Module.default;
const validators = new WeakMap<
  FastifyInstance,
  { ajv: InstanceType<typeof Ajv2020>; doc: OpenApiDocument }
>();

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

/** Every response must have a documented status and a body that matches the documented schema. */
export async function expectDocumented(
  api: TestApi,
  method: string,
  url: string,
  response: LightMyRequestResponse,
): Promise<void> {
  let entry = validators.get(api.app);
  if (!entry) {
    const doc = JSON.parse(
      (await api.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).body,
    ) as OpenApiDocument;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(doc, "openapi");
    entry = { ajv, doc };
    validators.set(api.app, entry);
  }
  // The path as the server routes it: dot segments resolved, as every HTTP client resolves them.
  const path = new URL(url.split("?")[0] ?? "", "http://documented.test").pathname;
  const template = Object.keys(entry.doc.paths).find((candidate) =>
    new RegExp(`^${candidate.replace(/\{[^}]+\}/g, "[^/]*")}$`).test(path),
  );
  if (!template) {
    expect([404, 405], `${method} ${path} is not in the OpenAPI document`).toContain(response.statusCode);
    return;
  }
  const operation = entry.doc.paths[template]?.[method.toLowerCase()];
  if (!operation) {
    expect(response.statusCode, `${method} ${template} is not documented`).toBe(405);
    return;
  }
  const documented = operation.responses[String(response.statusCode)];
  expect(
    documented,
    `${method} ${template} does not document status ${response.statusCode}: ${response.body}`,
  ).toBeDefined();
  // A documented non-JSON body (a PDF): its media type must be the documented one.
  const mediaType = String(response.headers["content-type"] ?? "").split(";")[0] ?? "";
  if (documented?.content && !("application/json" in documented.content)) {
    expect(Object.keys(documented.content), `${method} ${path} ${response.statusCode} media type`).toContain(
      mediaType,
    );
    return;
  }
  const pointer = `openapi#/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}/${method.toLowerCase()}/responses/${response.statusCode}/content/application~1json/schema`;
  const validate = entry.ajv.getSchema(pointer) ?? entry.ajv.compile({ $ref: pointer });
  const valid = validate(JSON.parse(response.body));
  expect(
    valid,
    `${method} ${path} ${response.statusCode} does not match its schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`,
  ).toBe(true);
}
