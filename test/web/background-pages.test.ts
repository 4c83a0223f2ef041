/**
 * The web pages of reports analysed in the background: a report whose analysis is queued shows where it stands
 * and reloads itself (a meta refresh, no script), the list says "queued" instead of a score, a failed first
 * analysis shows its reason, and the manage page sets the schedule and mode with the same rules as the API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { ReportStore } from "../../src/store/report-store.js";
import { startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { pendingRow } from "../helpers/seed.js";
import { WebClient } from "../helpers/web-client.js";

describe("report pages while analyses run in the background", () => {
  let api: TestApi;
  let site: LocalServer;
  let owner: WebClient;
  let userId: number;

  beforeAll(async () => {
    site = await startServer({
      "/": html(
        `<!doctype html><html lang="en"><head><title>Repair at home</title></head><body><h1>Repair</h1></body></html>`,
      ),
    });
    // No workers: queued analyses stay queued, so the page can be seen in that state.
    api = await startApi("sqlite", {
      PAGEGRADE_WORKERS: "0",
      PAGEGRADE_CHROMIUM_PATH: "/nonexistent/chromium",
    });
    owner = new WebClient(api.app);
    await owner.signUp("background@example.com");
    const user = await new AccountService(api.database.store).verifyLogin(
      "background@example.com",
      "correct horse battery",
    );
    userId = (user as { id: number }).id;
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  const pending = (status: "queued" | "failed") =>
    new ReportStore(api.database.store).insertPending(pendingRow(userId, `${site.url}/${status}`));

  it("shows a queued report as queued, reloading itself, in its page and in the list", async () => {
    const report = await pending("queued");
    const page = await owner.get(`/reports/${report.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<meta http-equiv="refresh" content="3">');
    expect(page.body).toContain("An analysis is queued");
    expect(page.body).not.toMatch(/<script/);
    const list = await owner.get("/reports");
    expect(list.body).toMatch(
      new RegExp(`href="/reports/${report.id}">[^<]+</a></td>\\s*<td[^>]*><span class="muted">queued</span>`),
    );
    const pdf = await owner.get(`/reports/${report.id}.pdf`);
    expect(pdf.statusCode).toBe(409);
  });

  it("shows why the first analysis failed, without reloading", async () => {
    const report = await pending("failed");
    await new ReportStore(api.database.store).update(userId, report.id, {
      status: "failed",
      error_reason: "timeout",
      error_message: "The page did not respond in time.",
    });
    const page = await owner.get(`/reports/${report.id}`);
    expect(page.body).toContain("The latest analysis failed: The page did not respond in time.");
    expect(page.body).not.toContain("http-equiv");
  });

  it("sets the schedule and mode from the manage page, refusing what the API refuses", async () => {
    const created = await owner.post("/reports", { url: `${site.url}/`, privacy: "1" });
    const id = Number((created.headers.location as string).split("/").pop());
    const saved = await owner.post(`/reports/${id}/settings`, { schedule: "weekly", mode: "raw" });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("Schedule and mode saved.");
    expect(saved.body).toContain("Next scheduled analysis:");
    expect(saved.body).toMatch(/<option value="weekly" selected>/);
    const report = await new ReportStore(api.database.store).find(userId, id);
    expect(report).toMatchObject({ schedule: "weekly" });
    expect(report?.next_run_at).not.toBeNull();

    const unknown = await owner.post(`/reports/${id}/settings`, { schedule: "hourly", mode: "raw" });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain("Choose how often to analyse again.");
    const rendered = await owner.post(`/reports/${id}/settings`, { schedule: "weekly", mode: "rendered" });
    expect(rendered.statusCode).toBe(422);
    expect(rendered.body).toContain("PAGEGRADE_CHROMIUM_PATH");
    expect(await new ReportStore(api.database.store).find(userId, id)).toMatchObject({ mode: "raw" });
  });
});
