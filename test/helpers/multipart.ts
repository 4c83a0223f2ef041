/**
 * Multipart bodies in tests: a multipart/form-data body (what a browser's file form or `curl -F` sends) with its
 * content type, a small PNG, and setting a user's branding through the API with them.
 */
import type { FastifyInstance, LightMyRequestResponse } from "fastify";

/** A multipart/form-data body: text fields and files, with its content type. */
export function multipartBody(
  fields: Record<string, string>,
  files: Record<string, { name: string; type: string; content: Buffer | string }> = {},
): { payload: Buffer; contentType: string } {
  const boundary = "----pagegradeApiBoundary5XqZ";
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The smallest valid PNG (1×1, transparent), padded to `bytes` with a trailing comment-free tail when asked. */
export function pngImage(bytes = 0): Buffer {
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "base64",
  );
  return bytes > png.length ? Buffer.concat([png, Buffer.alloc(bytes - png.length)]) : png;
}

/** Sets the key's user's brand name and a small PNG logo with PUT /api/v1/branding. */
export function setBranding(
  app: FastifyInstance,
  key: string,
  brandName: string,
): Promise<LightMyRequestResponse> {
  const { payload, contentType } = multipartBody(
    { brand_name: brandName },
    { brand_logo: { name: "logo.png", type: "image/png", content: pngImage() } },
  );
  return app.inject({
    method: "PUT",
    url: "/api/v1/branding",
    headers: { authorization: `Bearer ${key}`, "content-type": contentType },
    payload,
  });
}
