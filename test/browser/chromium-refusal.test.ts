/**
 * Chromium that will not start: Debian's Chromium launched for real as root with its sandbox on (which it
 * refuses), and an executable that exits at once. Rendered analyses get the documented 422 on `mode`, PDFs a
 * 503, the web pages and /healthz say why, naming the setting, and the service logs one line at start-up;
 * never a bare 500.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { startServiceProcess } from "../helpers/service-process.js";
import { WebClient } from "../helpers/web-client.js";

const asRoot = process.getuid?.() === 0;
const rootProblem = "Chromium does not run as root with its sandbox on (set PAGEGRADE_CHROMIUM_SANDBOX=0";
const page = '<!doctype html><html lang="en"><title>Bicycle repair</title><h1>Bicycle repair</h1></html>';

describe.runIf(asRoot)("Chromium launched as root with its sandbox on", () => {
  let site: LocalServer;
  let api: TestApi;
  let key: string;

  beforeAll(async () => {
    site = await startServer({ "/": html(page) });
    api = await startApi("sqlite", { PAGEGRADE_CHROMIUM_SANDBOX: "1" });
    key = await api.newUser();
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  const health = async () => (await api.app.inject({ method: "GET", url: "/healthz" })).json();

  it("answers a rendered analysis with 422 on mode naming the setting, and /healthz says so", async () => {
    expect(await health()).toEqual({ status: "ok", chromium: { state: "unchecked" } });
    // The first rendered analysis launches Chromium, which refuses to run as root with its sandbox.
    const first = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url: `${site.url}/`, mode: "rendered" },
    });
    expect(first.statusCode).toBe(422);
    const problem = first.json();
    expect(problem.errors).toEqual({ mode: [expect.stringContaining(rootProblem)] });
    expect(problem.message).toContain("PAGEGRADE_CHROMIUM_SANDBOX=0");
    expect(first.body).not.toContain("An unexpected error");
    // Known now: the next one is refused before anything is stored, with the same words.
    const second = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url: `${site.url}/`, mode: "rendered" },
    });
    expect(second.statusCode).toBe(422);
    expect(second.json().errors.mode[0]).toContain(rootProblem);
    const listed = await call(api, "GET", "/api/v1/reports", { key });
    expect(listed.json().data).toEqual([]);
    expect(await health()).toEqual({
      status: "ok",
      chromium: { state: "unavailable", problem: expect.stringContaining(rootProblem) },
    });
  });

  it("answers a PDF with 503 naming the setting, through the API and the web page", async () => {
    const created = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url: `${site.url}/`, privacy: "0" },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    const pdf = await call(api, "GET", `/api/v1/reports/${id}/pdf`, { key });
    expect(pdf.statusCode).toBe(503);
    expect(pdf.headers["content-type"]).toContain("application/problem+json");
    expect(pdf.json().message).toBe(`This server cannot make PDFs: ${pdfProblem()}.`);
    const web = await api.app.inject({ method: "GET", url: `/reports/${id}.pdf` });
    expect(web.statusCode).toBe(503);
    expect(web.headers["content-type"]).toContain("text/html");
    expect(web.body).toContain("This server cannot make PDFs: Chromium does not run as root");
    expect(web.body).toContain("PAGEGRADE_CHROMIUM_SANDBOX=0");
  });

  it("shows the reason on the web page that asks for rendered mode", async () => {
    const client = new WebClient(api.app);
    expect((await client.signUp("web@example.com")).statusCode).toBe(200); // the account page it leads to
    const created = await client.post("/reports", { url: `${site.url}/`, privacy: "1" });
    expect(created.statusCode).toBe(303);
    const reportPath = String(created.headers.location);
    const settings = await client.post(`${reportPath}/settings`, { schedule: "off", mode: "rendered" });
    expect(settings.statusCode).toBe(422);
    expect(settings.body).toContain("The mode field cannot be rendered: Chromium does not run as root");
    expect(settings.body).toContain("PAGEGRADE_CHROMIUM_SANDBOX=0");
    expect(settings.body).not.toContain("Something went wrong");
  });

  function pdfProblem(): string {
    return `${rootProblem}, or run the service as a user other than root)`;
  }
});

describe("Chromium that exits as it starts", () => {
  let site: LocalServer;
  let api: TestApi;

  beforeAll(async () => {
    site = await startServer({ "/": html(page) });
    // A real executable that exits at once with status 1, as a broken Chromium would.
    api = await startApi("sqlite", { PAGEGRADE_CHROMIUM_PATH: "/bin/false" });
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it("is refused as clearly as a missing one: 422 on mode, 503 for PDFs, no path or launch log", async () => {
    const key = await api.newUser();
    const rendered = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url: `${site.url}/`, mode: "rendered" },
    });
    expect(rendered.statusCode).toBe(422);
    expect(rendered.json().errors.mode[0]).toBe(
      "The mode field cannot be rendered: Chromium failed to start (check PAGEGRADE_CHROMIUM_PATH and PAGEGRADE_CHROMIUM_SANDBOX; the service's log has Chromium's own message).",
    );
    const created = await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } });
    const pdf = await call(api, "GET", `/api/v1/reports/${created.json().data.id}/pdf`, { key });
    expect(pdf.statusCode).toBe(503);
    expect(pdf.json().message).toContain("Chromium failed to start");
    expect(pdf.body).not.toContain("/bin/false");
    expect(pdf.body).not.toContain("browserType.launch");
  });
});

describe.runIf(asRoot)("the service started as root with Chromium's sandbox on", () => {
  it("logs one line naming the setting, and /healthz says Chromium is unavailable", {
    timeout: 240_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "pagegrade-chromium-"));
    const service = await startServiceProcess(
      { DATABASE_URL: `sqlite:${join(dir, "pagegrade.db")}`, PAGEGRADE_CHROMIUM_SANDBOX: "1" },
      { logs: true },
    );
    try {
      let state: { state: string; problem?: string } = { state: "unchecked" };
      for (let waited = 0; state.state === "unchecked" && waited < 60_000; waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        state = ((await (await fetch(`${service.url}/healthz`)).json()) as { chromium: typeof state })
          .chromium;
      }
      expect(state).toEqual({ state: "unavailable", problem: expect.stringContaining(rootProblem) });
      const lines = service
        .logs()
        .split("\n")
        .filter((line) => line.includes("Chromium"));
      expect(lines).toHaveLength(1);
      const logged = JSON.parse(lines[0] as string);
      expect(logged.msg).toBe(`rendered mode and PDFs are unavailable: ${state.problem}`);
      expect(logged.chromium).toContain("Running as root without --no-sandbox is not supported");
    } finally {
      service.child.kill("SIGTERM");
      await service.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
