/**
 * PUT/GET/DELETE /api/v1/branding on both databases: a name and a PNG or JPEG logo (multipart), each kept when
 * the other changes; a logo known by its bytes (an SVG or HTML file named .png is a 422, a logo over 200 KB a
 * 422), a name over 100 characters or with a line break a 422; one user's branding is never another's.
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, expectDocumented, startApi, type TestApi } from "../helpers/api.js";
import { multipartBody, pngImage } from "../helpers/multipart.js";

describe.each(databaseKinds)("branding on %s", (kind) => {
  let api: TestApi;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    api = await startApi(kind);
    key = await api.newUser();
    otherKey = await api.newUser();
  });
  afterAll(async () => api?.close());

  const put = async (
    withKey: string,
    fields: Record<string, string>,
    logo?: { name: string; type: string; content: Buffer | string },
  ): Promise<LightMyRequestResponse> => {
    const { payload, contentType } = multipartBody(fields, logo ? { brand_logo: logo } : {});
    const response = await api.app.inject({
      method: "PUT",
      url: "/api/v1/branding",
      headers: {
        authorization: `Bearer ${withKey}`,
        "content-type": contentType,
        accept: "application/json",
      },
      payload,
    });
    await expectDocumented(api, "PUT", "/api/v1/branding", response);
    return response;
  };

  it("sets, shows and removes a name and a logo", async () => {
    const none = await call(api, "GET", "/api/v1/branding", { key });
    expect(none.json().data).toEqual({ object: "branding", brand_name: null, logo: null, updated_at: null });
    const png = pngImage();
    const set = await put(
      key,
      { brand_name: "Acme Web Agency" },
      { name: "logo.png", type: "image/png", content: png },
    );
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({
      brand_name: "Acme Web Agency",
      logo: { type: "image/png", bytes: png.length },
    });
    // The name alone: the logo stays.
    const renamed = await put(key, { brand_name: "Acme" });
    expect(renamed.json().data).toMatchObject({ brand_name: "Acme", logo: { type: "image/png" } });
    // A JPEG, known by its bytes whatever it is called.
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100)]);
    const asJpeg = await put(key, {}, { name: "logo.bin", type: "application/octet-stream", content: jpeg });
    expect(asJpeg.json().data).toMatchObject({
      brand_name: "Acme",
      logo: { type: "image/jpeg", bytes: 104 },
    });
    expect((await call(api, "GET", "/api/v1/branding", { key: otherKey })).json().data.brand_name).toBeNull();
    const removed = await call(api, "DELETE", "/api/v1/branding", { key });
    expect(removed.json()).toEqual({ object: "branding", deleted: true, status: 200 });
    expect((await call(api, "GET", "/api/v1/branding", { key })).json().data.logo).toBeNull();
  });

  it("refuses a logo that is not a PNG or JPEG, or too large, and a name too long or with a line break", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const cases: Array<[Record<string, string>, Parameters<typeof put>[2], string, string]> = [
      [{}, { name: "logo.png", type: "image/png", content: svg }, "brand_logo", "PNG or a JPEG"],
      [
        {},
        { name: "logo.png", type: "image/png", content: "<!doctype html><p>hi" },
        "brand_logo",
        "PNG or a JPEG",
      ],
      [{}, { name: "big.png", type: "image/png", content: pngImage(200 * 1024 + 1) }, "brand_logo", "200 KB"],
      [{ brand_name: "x".repeat(101) }, undefined, "brand_name", "100 characters"],
      [{ brand_name: "Acme\r\nBcc: victim@example.com" }, undefined, "brand_name", "one line"],
      [{}, undefined, "brand_name", "Give a brand_name"],
    ];
    for (const [fields, logo, field, message] of cases) {
      const refused = await put(key, fields, logo);
      expect(refused.statusCode, message).toBe(422);
      expect(refused.json().errors[field][0], message).toContain(message);
    }
    // Nothing was stored by the refusals, and a logo of exactly 200 KB is fine.
    expect((await call(api, "GET", "/api/v1/branding", { key })).json().data.logo).toBeNull();
    const largest = await put(
      key,
      {},
      { name: "logo.png", type: "image/png", content: pngImage(200 * 1024) },
    );
    expect(largest.statusCode).toBe(200);
  });
});
