/**
 * A team's workspace in real Chromium (issue 42): the owner makes a team and invites an editor and a viewer (each
 * link shown once to the owner), each accepts while signed in with the invited address and switches to the team in
 * the header; the editor starts a crawl of a site on 127.0.0.1, the viewer sees it and no control that would change
 * anything (and a viewer's write is a 403 anyway); once the owner removes the editor, the editor's API key gets 404
 * for the team's crawl and the web page refuses it too.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startService, withScreenshot } from "../helpers/browser.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

describe("a team's workspace in a real browser", () => {
  let browser: Browser;
  let service: Awaited<ReturnType<typeof startService>>;
  let site: LocalServer;

  beforeAll(async () => {
    const page = (title: string, links: string) =>
      html(
        `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${links}</body></html>`,
      );
    site = await startServer({
      "/": page("Team site", '<a href="/a">A</a> <a href="/b">B</a>'),
      "/a": page("Page A", '<a href="/">Home</a>'),
      "/b": page("Page B", '<a href="/">Home</a>'),
    });
    service = await startService({ PAGEGRADE_CRAWL_DELAY_MS: "0" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await site?.close();
  });

  /** A new browser context signed up as `email`; with `key`, the API key made on the account page too. */
  const signUp = async (email: string, key = false): Promise<{ page: Page; key: string }> => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${service.url}/register`);
    await page.fill("#email", email);
    await page.fill("#password", "correct horse battery");
    await page.click("button[type=submit]");
    await page.waitForURL(`${service.url}/account`);
    if (!key) return { page, key: "" };
    await page.getByRole("button", { name: "Create an API key" }).click();
    return { page, key: ((await page.textContent("#new-api-key")) ?? "").trim() };
  };

  /** The owner invites `email` with `role`; the answer shows the link once. */
  const invite = async (owner: Page, teamPath: string, email: string, role: string): Promise<string> => {
    await owner.goto(`${service.url}${teamPath}`);
    await owner.fill("#email", email);
    await owner.selectOption("#invite-role", role);
    await owner.getByRole("button", { name: "Invite" }).click();
    const link = ((await owner.textContent("#invitation-link")) ?? "").trim();
    expect(link).toContain("/invitations/accept?token=");
    return link;
  };

  /** Accepts the invitation, then picks the team in the header's switcher (a plain form, no script needed). */
  const joinAndSwitch = async (page: Page, link: string, teamId: string) => {
    await page.goto(link);
    await page.getByRole("button", { name: "Join the team" }).click();
    await page.waitForURL(`${service.url}/teams/${teamId}`);
    await page.selectOption("#workspace-team", teamId);
    await page.getByRole("button", { name: "Switch" }).click();
    await page.waitForURL(`${service.url}/teams`);
    expect(await page.locator("#workspace-team").inputValue()).toBe(teamId);
  };

  it("owner → invitations → editor crawls in the team → viewer reads only → removed editor refused", async () => {
    const owner = (await signUp("owner@example.com")).page;
    const editor = await signUp("editor@example.com", true);
    const viewer = (await signUp("viewer@example.com")).page;

    await withScreenshot(owner, "team-owner", async () => {
      await owner.goto(`${service.url}/teams`);
      await owner.fill("#name", "Acme agency");
      await owner.getByRole("button", { name: "Make team" }).click();
      await owner.waitForURL(/\/teams\/\d+$/);
    });
    const teamPath = new URL(owner.url()).pathname;
    const teamId = teamPath.split("/").at(-1) as string;
    const editorLink = await invite(owner, teamPath, "editor@example.com", "editor");
    const viewerLink = await invite(owner, teamPath, "viewer@example.com", "viewer");
    // Shown once: the team page no longer holds the link.
    await owner.goto(`${service.url}${teamPath}`);
    expect(await owner.locator("#invitation-link").count()).toBe(0);

    // The editor joins, switches to the team and starts a crawl there.
    const crawlPath = await withScreenshot(editor.page, "team-editor", async () => {
      await joinAndSwitch(editor.page, editorLink, teamId);
      await editor.page.goto(`${service.url}/crawls`);
      await editor.page.fill("#url", `${site.url}/`);
      await editor.page.getByRole("button", { name: "Start the crawl" }).click();
      await editor.page.waitForURL(/\/crawls\/\d+$/);
      return new URL(editor.page.url()).pathname;
    });
    const crawlId = crawlPath.split("/").at(-1) as string;
    const api = (path: string) =>
      fetch(`${service.url}/api/v1${path}`, { headers: { authorization: `Bearer ${editor.key}` } });
    // The crawl is the team's: the editor's key finds it with team={id}, not in their own workspace.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const answer = await api(`/crawls/${crawlId}?team=${teamId}`);
      expect(answer.status).toBe(200);
      const { data } = (await answer.json()) as { data: { status: string } };
      if (data.status === "complete") break;
      if (Date.now() > deadline) throw new Error(`the crawl is still ${data.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await api(`/crawls/${crawlId}`)).status).toBe(404);

    // The viewer joins, sees the team's crawl, and no control that would change anything.
    await withScreenshot(viewer, "team-viewer", async () => {
      await joinAndSwitch(viewer, viewerLink, teamId);
      await viewer.goto(`${service.url}/crawls`);
      await viewer.locator(`a[href="/crawls/${crawlId}"]`).first().waitFor();
      expect(await viewer.locator('form[action="/crawls"][method="post"]').count()).toBe(0);
      expect(await viewer.getByRole("button", { name: "Start the crawl" }).count()).toBe(0);
      await viewer.goto(`${service.url}${crawlPath}`);
      await viewer.locator(".crawl-summary").waitFor();
      expect(await viewer.locator(`a[href="/crawls/${crawlId}/delete"]`).count()).toBe(0);
      expect(await viewer.locator(`form[action^="/crawls/${crawlId}/"][method="post"]`).count()).toBe(0);
      await viewer.goto(`${service.url}/reports`);
      expect(await viewer.locator("tbody tr").count()).toBeGreaterThan(0);
      expect(await viewer.getByRole("button", { name: "Analyse", exact: true }).count()).toBe(0);
      expect(await viewer.locator('a[href$="/manage"]').count()).toBe(0);
      await viewer.goto(`${service.url}/account/webhooks`);
      expect(await viewer.locator('form[action="/account/webhooks"]').count()).toBe(0);
      // The server refuses a viewer's write whatever the page shows: the question page and the change itself.
      expect((await viewer.goto(`${service.url}${crawlPath}/delete`))?.status()).toBe(403);
      const csrf = await viewer.locator('input[name="_csrf"]').first().inputValue();
      const refused = await viewer.request.post(`${service.url}${crawlPath}/delete`, {
        form: { _csrf: csrf },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
    });
    expect((await api(`/crawls/${crawlId}?team=${teamId}`)).status).toBe(200);

    // The owner removes the editor: on their next request the key and the page both refuse the team's crawl.
    await withScreenshot(owner, "team-owner-removes", async () => {
      await owner.goto(`${service.url}${teamPath}`);
      await owner
        .locator("tr", { hasText: "editor@example.com" })
        .getByRole("button", { name: "Remove" })
        .click();
      await owner.locator("text=The member was removed.").first().waitFor();
    });
    expect((await api(`/crawls/${crawlId}?team=${teamId}`)).status).toBe(404);
    const refusedPage = await editor.page.goto(`${service.url}${crawlPath}`);
    expect(refusedPage?.status()).toBe(404);
    // Back in their own workspace: no team to switch to, and their own (empty) crawl list.
    expect(await editor.page.locator("#workspace-team").count()).toBe(0);
    await editor.page.goto(`${service.url}/crawls`);
    expect(await editor.page.locator(`a[href="/crawls/${crawlId}"]`).count()).toBe(0);
  }, 180_000);
});
