/** modern-http: the page is served over HTTP/2 or newer. */
import { type CheckDefinition, outcome } from "./check.js";

export const modernHttp: CheckDefinition = {
  id: "modern-http",
  category: "performance",
  importance: "low",
  title: "HTTP/2",
  description: "The server speaks HTTP/2 (or HTTP/3), which loads many resources over one connection.",
  howToFix: "Enable HTTP/2 in the web server, load balancer or CDN (it needs HTTPS).",
  run(page) {
    const protocol = page.response.protocol;
    if (protocol === "h2" || protocol === "h3")
      return outcome.pass(`The page is served over ${protocol === "h2" ? "HTTP/2" : "HTTP/3"}.`, protocol);
    return outcome.warn("The page is served over HTTP/1.1.", protocol);
  },
};
