/**
 * The crawl event stream over a real connection: it sends the crawl at once as a `progress` event, keeps the
 * connection open while the crawl waits, and ends when the service shuts down, so a watching client never holds
 * the service's close; a crawl deleted while watched still ends its stream with a final event.
 */
import { describe, expect, it } from "vitest";
import { call, startApi } from "../helpers/api.js";

describe("the crawl event stream", () => {
  it("streams progress and ends when the service closes", async () => {
    const api = await startApi("sqlite", { PAGEGRADE_WORKERS: "0" }); // no worker: the crawl stays queued
    const key = await api.newUser();
    const created = await call(api, "POST", "/api/v1/crawls", { key, json: { url: "https://example.com/" } });
    const base = await api.app.listen({ port: 0, host: "127.0.0.1" });
    const response = await fetch(`${base}/api/v1/crawls/${created.json().data.id}/events`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(
      /^event: progress\ndata: \{"id":\d+,"object":"crawl","url":"https:\/\/example\.com\/"/,
    );
    const started = Date.now();
    await api.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await reader.read()).done).toBe(true);
  });

  it("carries a list crawl's URL count, never its URLs", async () => {
    const api = await startApi("sqlite", { PAGEGRADE_WORKERS: "0" });
    const key = await api.newUser();
    const urls = Array.from({ length: 500 }, (_, n) => `https://example.com/item/${n}`);
    const created = await call(api, "POST", "/api/v1/crawls", { key, json: { urls } });
    expect(created.json().data.urls).toHaveLength(500);
    const base = await api.app.listen({ port: 0, host: "127.0.0.1" });
    const response = await fetch(`${base}/api/v1/crawls/${created.json().data.id}/events`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const event = JSON.parse(/^event: progress\ndata: (.*)\n\n$/s.exec(first)?.[1] ?? "null");
    expect(event).toMatchObject({ url_count: 500, urls_url: `/api/v1/crawls/${created.json().data.id}` });
    expect(event).not.toHaveProperty("urls");
    expect(first.length).toBeLessThan(2_000);
    await api.close();
  });

  it("ends with a cancelled event when the crawl is deleted while watched", async () => {
    const api = await startApi("sqlite", { PAGEGRADE_WORKERS: "0" });
    try {
      const key = await api.newUser();
      const created = await call(api, "POST", "/api/v1/crawls", {
        key,
        json: { url: "https://example.com/" },
      });
      const id = created.json().data.id;
      const base = await api.app.listen({ port: 0, host: "127.0.0.1" });
      const response = await fetch(`${base}/api/v1/crawls/${id}/events`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = new TextDecoder().decode((await reader.read()).value);
      expect(text).toMatch(/^event: progress\n/);
      expect((await call(api, "DELETE", `/api/v1/crawls/${id}`, { key })).statusCode).toBe(200);
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      expect(text).toMatch(/event: cancelled\ndata: \{"id":\d+,"object":"crawl"[^\n]*"status":"cancelled"/);
    } finally {
      await api.close();
    }
  });
});
