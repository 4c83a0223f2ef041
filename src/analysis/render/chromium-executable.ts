/**
 * Whether the configured Chromium executable is there to run: the first thing both the launcher and the status
 * (chromium-status.ts) ask, kept apart so neither imports the other.
 */
import { accessSync, constants } from "node:fs";

/** True when the executable exists and may be run. */
export function chromiumInstalled(executablePath: string): boolean {
  try {
    accessSync(executablePath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
