// The start-up check of Chromium starts here (chromium-probe-process.ts). A child process is started with no
// flags of the parent's (no `--import tsx`), so it registers tsx's loader for itself before loading its body.
import { register } from "tsx/esm/api";

register();
await import("./chromium-probe-process.ts");
