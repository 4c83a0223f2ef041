import { describe, expect, it } from "vitest";
import { PdfCache } from "../../src/web/pdf/pdf-cache.js";

const bytes = (size: number, fill = 1) => Buffer.alloc(size, fill);

describe("the cache of printed PDFs", () => {
  it("serves a document printed before without printing it again", async () => {
    const cache = new PdfCache(100);
    let prints = 0;
    const print = async () => {
      prints++;
      return bytes(10);
    };
    const key = PdfCache.keyOf({ html: "<p>a</p>" });
    expect(await cache.get(key, print)).toEqual(bytes(10));
    expect(await cache.get(key, print)).toEqual(bytes(10));
    expect(prints).toBe(1);
    // Any difference in the document is another key.
    expect(PdfCache.keyOf({ html: "<p>b</p>" })).not.toBe(key);
  });

  it("lets requests for one document that arrive together share one print", async () => {
    const cache = new PdfCache(100);
    let prints = 0;
    let finish: (pdf: Buffer) => void = () => {};
    const print = () => {
      prints++;
      return new Promise<Buffer>((resolve) => {
        finish = resolve;
      });
    };
    const first = cache.get("k", print);
    const second = cache.get("k", print);
    finish(bytes(5));
    expect(await first).toBe(await second);
    expect(prints).toBe(1);
  });

  it("drops the least recently used PDFs past its size, keeps none too large, and never keeps a failure", async () => {
    const cache = new PdfCache(30, 15);
    let prints = 0;
    const print = (size: number) => async () => {
      prints++;
      return bytes(size);
    };
    await cache.get("a", print(10));
    await cache.get("b", print(10));
    await cache.get("a", print(10)); // a is now the most recently used
    await cache.get("c", print(10));
    await cache.get("d", print(10)); // 40 bytes: b goes
    expect(prints).toBe(4);
    await cache.get("a", print(10));
    expect(prints).toBe(4);
    await cache.get("b", print(10));
    expect(prints).toBe(5);
    await cache.get("big", print(20));
    await cache.get("big", print(20));
    expect(prints).toBe(7);
    await expect(cache.get("fails", () => Promise.reject(new Error("print failed")))).rejects.toThrow();
    await cache.get("fails", print(1));
    expect(prints).toBe(8);
  });
});
