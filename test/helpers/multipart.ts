/**
 * A multipart/form-data body for API tests (what `curl -F` sends): text fields and files, with its content type.
 */
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
