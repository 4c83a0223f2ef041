// The analysis pool's processes start here. A child process is started with no flags of the parent's (the pool
// gives it only its heap limit), so this plain file loads the process's body, compiled or through tsx
// (src/runtime/load-body.mjs).
import { loadBody } from "../../runtime/load-body.mjs";

await loadBody(import.meta.url, "analysis-process");
