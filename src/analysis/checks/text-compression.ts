/** text-compression: the document travels compressed. */
import { type CheckDefinition, outcome } from "./check.js";

const compressions = new Set(["gzip", "x-gzip", "br", "zstd", "deflate", "compress"]);

export const textCompression: CheckDefinition = {
  id: "text-compression",
  category: "performance",
  importance: "high",
  title: "Text compression",
  description:
    "The HTML is sent compressed (Brotli, Zstandard, gzip or deflate), which cuts transfer size several times over.",
  howToFix: "Enable Brotli or gzip for text/html (and CSS, JavaScript, JSON, SVG) in the web server or CDN.",
  run(page, { compressionMinBytes }) {
    const { htmlBytes, transferBytes, contentEncoding } = page.response;
    const used = contentEncoding.filter((coding) => compressions.has(coding));
    if (used.length > 0) {
      return outcome.pass(
        `The document is compressed with ${used.join(", ")} (${transferBytes} bytes for ${htmlBytes}).`,
        used.join(", "),
      );
    }
    if (htmlBytes < compressionMinBytes) return outcome.na(`The document is only ${htmlBytes} bytes.`, null);
    return outcome.fail(`The ${Math.round(htmlBytes / 1024)} KB document is sent uncompressed.`, null, [
      { url: page.finalUrl, bytes: htmlBytes },
    ]);
  },
};
