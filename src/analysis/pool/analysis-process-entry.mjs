// The analysis pool's processes start here. A child process is started with no flags of the parent's (no
// `--import tsx`: the pool gives it only its heap limit), so it registers tsx's loader for itself before
// loading the process's body.
import { register } from "tsx/esm/api";

register();
await import("./analysis-process.ts");
