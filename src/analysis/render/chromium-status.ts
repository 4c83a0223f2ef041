/**
 * Whether Chromium can run here with the configured executable and sandbox, known from the executable's
 * presence, a probe launch at start-up, and every launch since. Rendered mode and PDFs share one status per
 * executable and sandbox setting, so a refusal found by either is the clear refusal of both: rendered mode
 * answers 422 on `mode`, PDFs 503, each with the problem, instead of failing on a launch error.
 */
import type { Browser } from "playwright-core";
import { chromiumInstalled } from "./chromium-executable.js";
import type { ChromiumLaunchOptions } from "./chromium-launch.js";
import { probeInChildProcess } from "./chromium-probe.js";
import { ChromiumUnavailable } from "./render-errors.js";

export interface ChromiumSetting {
  /** PAGEGRADE_CHROMIUM_PATH. */
  executablePath: string;
  /** PAGEGRADE_CHROMIUM_SANDBOX. */
  sandbox: boolean;
}

/** What /healthz says of Chromium: unchecked until the probe or a launch has run. */
export interface ChromiumState {
  state: "ready" | "unavailable" | "unchecked";
  /** Why it is unavailable, naming the setting to change. */
  problem?: string;
}

/** The probe's finding; launchError is Chromium's own message, for the log only. */
export type ProbeResult = ChromiumState & { launchError?: string };

/** A failed launch is believed for this long (a crash on start may pass); the next request then tries again. */
const failureHeldMs = 30_000;
/** A probe or launch that has not answered by then counts as failed (Playwright would wait 3 minutes). */
const launchTimeoutMs = 30_000;

export class ChromiumStatus {
  private known: { ok: true } | { ok: false; problem: string; until: number } | null = null;
  private probing: Promise<ProbeResult> | null = null;

  constructor(readonly setting: ChromiumSetting) {}

  /** The problem that stops Chromium from running here, or null when it is not known to fail. */
  problem(): string | null {
    if (!chromiumInstalled(this.setting.executablePath)) return ChromiumUnavailable.missing().problem;
    const known = this.known;
    if (known && !known.ok && performance.now() < known.until) return known.problem;
    return null;
  }

  /** Throws ChromiumUnavailable with the problem when Chromium is known not to run. */
  check(): void {
    const problem = this.problem();
    if (problem) throw new ChromiumUnavailable(problem);
  }

  /** What the last launch (or the executable's absence) showed, even once a failure is no longer held. */
  state(): ChromiumState {
    const problem = this.problem() ?? (this.known?.ok === false ? this.known.problem : null);
    if (problem) return { state: "unavailable", problem };
    return { state: this.known?.ok ? "ready" : "unchecked" };
  }

  /** Launches Chromium with the rendering switches; a launch that fails throws ChromiumUnavailable. */
  async launch(options: { fallbackProxyUrl: string; jsHeapMiB: number }): Promise<Browser> {
    this.check();
    try {
      const browser = await launchChromium({ ...this.setting, ...options, timeoutMs: launchTimeoutMs });
      this.known = { ok: true };
      return browser;
    } catch (error) {
      throw this.failed(error);
    }
  }

  /**
   * Starts Chromium once and closes it (the start-up check), in a child process (chromium-probe.ts), reporting
   * the state and, when it failed, Chromium's own message for the log. Concurrent calls share one probe.
   */
  probe(): Promise<ProbeResult> {
    this.probing ??= (async (): Promise<ProbeResult> => {
      if (!chromiumInstalled(this.setting.executablePath)) return this.state();
      // In a process of its own: loading Playwright here would cost this process 35–90 MB for good.
      const outcome = await probeInChildProcess({
        ...this.setting,
        fallbackProxyUrl: "http://127.0.0.1:9",
        jsHeapMiB: 64,
        timeoutMs: launchTimeoutMs,
      });
      if (outcome.ok) {
        this.known = { ok: true };
        return this.state();
      }
      const error = new Error(outcome.message);
      const unavailable = this.failed(error);
      return { state: "unavailable", problem: unavailable.problem, launchError: firstLine(error) };
    })().finally(() => {
      this.probing = null;
    });
    return this.probing as Promise<ProbeResult>;
  }

  /** Records a failed launch and the refusal it becomes. */
  private failed(error: unknown): ChromiumUnavailable {
    if (error instanceof ChromiumUnavailable) return error;
    const asRoot = runsAsRoot();
    const problem = launchProblem(this.setting, asRoot);
    // As root with the sandbox on it never will: no launch is tried again until the settings change.
    const heldMs = asRoot && this.setting.sandbox ? Number.POSITIVE_INFINITY : failureHeldMs;
    this.known = { ok: false, problem, until: performance.now() + heldMs };
    return new ChromiumUnavailable(problem);
  }
}

async function launchChromium(options: ChromiumLaunchOptions): Promise<Browser> {
  const launcher = await import("./chromium-launch.js");
  return launcher.launchChromium(options);
}

const statuses = new Map<string, ChromiumStatus>();

/** The one status of this process for the executable and sandbox setting. */
export function chromiumStatus(setting: ChromiumSetting): ChromiumStatus {
  const key = `${setting.sandbox ? 1 : 0}:${setting.executablePath}`;
  let status = statuses.get(key);
  if (!status) {
    status = new ChromiumStatus(setting);
    statuses.set(key, status);
  }
  return status;
}

/**
 * Why a launch failed, in words for a client: Chromium's own message may carry paths and command lines, so it
 * goes to the log only, and so does the executable's path. As root with the sandbox on, Chromium always refuses ("Running as root without
 * --no-sandbox is not supported").
 */
export function launchProblem(setting: ChromiumSetting, asRoot: boolean): string {
  if (asRoot && setting.sandbox) {
    return "Chromium does not run as root with its sandbox on (set PAGEGRADE_CHROMIUM_SANDBOX=0, or run the service as a user other than root)";
  }
  return "Chromium failed to start (check PAGEGRADE_CHROMIUM_PATH and PAGEGRADE_CHROMIUM_SANDBOX; the service's log has Chromium's own message)";
}

function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Playwright colours the browser's output for a terminal: ESC [ … m. */
const terminalColours = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** The first line of a launch error that says something (Playwright's own framing lines skipped). */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text
    .replace(terminalColours, "")
    .split("\n")
    .map((line) => line.replace(/^\s*-?\s*\[pid=\d+\]\[err\]\s*/, "").trim());
  const chromiumLine = lines.find((line) => /^\[\d+:\d+:/.test(line) || /ERROR:|FATAL:/.test(line));
  return (chromiumLine ?? lines.find((line) => line !== "") ?? "").slice(0, 300);
}
