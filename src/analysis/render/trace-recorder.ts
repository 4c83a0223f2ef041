/**
 * Records a Chrome trace of one page over its CDP session, with the categories the lab metrics need
 * (trace-metrics.ts): paint and layout-shift events, navigation starts, main-thread tasks and network events.
 * Chromium traces one page per browser at a time, which is why the pool gives each page its own browser.
 */
import type { CDPSession } from "playwright-core";
import type { TraceEvent } from "./trace-metrics.js";

/**
 * Main-thread tasks (RunTask) come from "disabled-by-default-lighthouse", the category Lighthouse records them
 * with (its core/gather/gatherers/trace.js). "toplevel" has them too, but also every scheduler task and IPC
 * message, which slowed the page being measured: on a test page FCP came 26 ms later (median of 8 loads each).
 */
const categories = [
  "__metadata",
  "loading",
  "blink.user_timing",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-lighthouse",
];

export interface TraceRecording {
  /** Ends the recording and returns its events. */
  stop(): Promise<TraceEvent[]>;
}

export async function startTrace(cdp: CDPSession): Promise<TraceRecording> {
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (batch) => {
    events.push(...(batch.value as unknown as TraceEvent[]));
  });
  await cdp.send("Tracing.start", {
    traceConfig: { includedCategories: categories, recordMode: "recordAsMuchAsPossible" },
    transferMode: "ReportEvents",
  });
  return {
    stop: async () => {
      const complete = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
      await cdp.send("Tracing.end");
      await complete;
      return events;
    },
  };
}
