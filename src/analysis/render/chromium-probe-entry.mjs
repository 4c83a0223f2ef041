// The start-up check of Chromium starts here (chromium-probe-process.ts). A child process is started with no
// flags of the parent's, so this plain file loads its body, compiled or through tsx (src/runtime/load-body.mjs).
import { loadBody } from "../../runtime/load-body.mjs";

await loadBody(import.meta.url, "chromium-probe-process");
