import { describe, expect, it } from "vitest";
import { ProbeCache } from "../../../src/analysis/fetch/probe-cache.js";

const describeValue = (value: { bytes: number; failed: boolean }) => value;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("ProbeCache", () => {
  it("shares one load between concurrent callers and reuses it until it expires", async () => {
    const cache = new ProbeCache({ ttlMs: 60_000 });
    let loads = 0;
    const load = async () => {
      loads++;
      return { bytes: 10, failed: false };
    };
    await Promise.all([
      cache.get("robots a", load, describeValue),
      cache.get("robots a", load, describeValue),
    ]);
    await cache.get("robots a", load, describeValue);
    expect(loads).toBe(1);
  });

  it("keeps failures only briefly", async () => {
    const cache = new ProbeCache({ ttlMs: 60_000, failureTtlMs: 0 });
    let loads = 0;
    const load = async () => {
      loads++;
      return { bytes: 10, failed: true };
    };
    await cache.get("robots b", load, describeValue);
    await settle();
    await cache.get("robots b", load, describeValue);
    expect(loads).toBe(2);
  });

  it("evicts the oldest entries past its byte budget", async () => {
    const cache = new ProbeCache({ ttlMs: 60_000, maxBytes: 250 });
    for (const key of ["a", "b", "c"])
      await cache.get(key, async () => ({ bytes: 100, failed: false }), describeValue);
    await settle();
    expect(cache.heldBytes).toBe(200);
    let reloaded = false;
    await cache.get(
      "a",
      async () => {
        reloaded = true;
        return { bytes: 100, failed: false };
      },
      describeValue,
    );
    expect(reloaded).toBe(true);
  });

  it("caches nothing when the time to live is zero", async () => {
    const cache = new ProbeCache({ ttlMs: 0 });
    let loads = 0;
    const load = async () => {
      loads++;
      return { bytes: 1, failed: false };
    };
    await cache.get("x", load, describeValue);
    await cache.get("x", load, describeValue);
    expect(loads).toBe(2);
  });
});
