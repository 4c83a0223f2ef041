import { describe, expect, it } from "vitest";
import { metricsFromTrace, type TraceEvent } from "../../../src/analysis/render/trace-metrics.js";

/**
 * The metrics on small hand-built traces whose answers are known: which navigation counts, the last LCP
 * candidate (and an invalidated one), CLS session windows (1 s gap, 5 s cap), and TBT clipped to FCP..TTI.
 */
const frame = "MAIN";
const browserPid = 1;
const rendererPid = 2;
const origin = 1_000_000_000; // µs

/** A trace of one navigation; `at` is milliseconds from navigation start. */
function trace(...extra: TraceEvent[]): TraceEvent[] {
  return [
    {
      name: "TracingStartedInBrowser",
      ph: "I",
      pid: browserPid,
      tid: browserPid,
      ts: origin - 50_000,
      args: { data: { frames: [{ frame, isOutermostMainFrame: true, processId: 9, url: "about:blank" }] } },
    },
    {
      name: "FrameCommittedInBrowser",
      ph: "I",
      pid: browserPid,
      tid: browserPid,
      ts: origin + 10_000,
      args: { data: { frame, processId: rendererPid } },
    },
    { name: "thread_name", ph: "M", pid: rendererPid, tid: 7, ts: 0, args: { name: "CrRendererMain" } },
    // about:blank's navigation comes first and must be ignored.
    navigationStart(-40, "about:blank", "blank"),
    navigationStart(0, "http://site.test/", "page"),
    mark("domContentLoadedEventEnd", 300),
    ...extra,
  ];
}

function navigationStart(at: number, url: string, navigationId: string): TraceEvent {
  return {
    name: "navigationStart",
    ph: "R",
    pid: rendererPid,
    tid: 7,
    ts: origin + at * 1000,
    args: { frame, data: { documentLoaderURL: url, isLoadingMainFrame: true, navigationId } },
  };
}

function mark(name: string, at: number, data: Record<string, unknown> = {}): TraceEvent {
  return { name, ph: "R", pid: rendererPid, tid: 7, ts: origin + at * 1000, args: { frame, data } };
}

function script(name: string, at: number, durationMs: number, url: string): TraceEvent {
  return { ...task(at, durationMs), name, args: { data: { url } } };
}
function task(at: number, durationMs: number): TraceEvent {
  return {
    name: "RunTask",
    ph: "X",
    pid: rendererPid,
    tid: 7,
    ts: origin + at * 1000,
    dur: durationMs * 1000,
  };
}

function shift(at: number, score: number, extra: Record<string, unknown> = {}): TraceEvent {
  return {
    name: "LayoutShift",
    ph: "I",
    pid: rendererPid,
    tid: 7,
    ts: origin + at * 1000,
    args: {
      frame,
      data: { score, weighted_score_delta: score, had_recent_input: false, is_main_frame: true, ...extra },
    },
  };
}

const lcp = (at: number, nodeId: number, type = "image") =>
  mark("largestContentfulPaint::Candidate", at, { nodeId, type, navigationId: "page" });

describe("metrics from a trace", () => {
  it("is null for a trace with no navigation of an http(s) document", () => {
    expect(metricsFromTrace([])).toBeNull();
    expect(metricsFromTrace(trace().filter((event) => event.name !== "navigationStart"))).toBeNull();
  });

  it("measures FCP and LCP from the page's navigation start and takes the last LCP candidate", () => {
    const metrics = metricsFromTrace(
      trace(mark("firstContentfulPaint", 120), lcp(120, 5, "text"), lcp(900, 8), task(950, 10)),
    );
    expect(metrics?.firstContentfulPaintMs).toBe(120);
    expect(metrics?.largestContentfulPaint).toEqual({ ms: 900, backendNodeId: 8, type: "image" });
  });

  it("has no LCP when the last candidate was invalidated", () => {
    const metrics = metricsFromTrace(
      trace(mark("firstContentfulPaint", 120), lcp(120, 5), mark("largestContentfulPaint::Invalidate", 500)),
    );
    expect(metrics?.largestContentfulPaint).toBeNull();
  });

  it("takes the largest session window of layout shifts: a 1 s gap or a 5 s span starts a new one", () => {
    const metrics = metricsFromTrace(
      trace(
        mark("firstContentfulPaint", 100),
        // Window 1: 0.1 + 0.1 (0.8 s apart).
        shift(200, 0.1),
        shift(1000, 0.1),
        // Window 2 after a 1.5 s gap: 0.05 every 0.9 s for 6 s; the 5 s cap splits it (0.3 then 0.1).
        ...Array.from({ length: 8 }, (_value, index) => shift(2500 + index * 900, 0.05)),
        // Shifts right after input do not count once a shift without input has been seen.
        shift(9000, 0.5, { had_recent_input: true }),
      ),
    );
    expect(metrics?.cumulativeLayoutShift).toBe(0.3);
    // The window's shifts, largest first, at most five of its six.
    expect(metrics?.layoutShifts.map((entry) => entry.atMs)).toEqual([2500, 3400, 4300, 5200, 6100]);
  });

  it("counts shifts flagged as after input in the first 500 ms, when emulation set the viewport up", () => {
    const metrics = metricsFromTrace(
      trace(
        shift(300, 0.05, { had_recent_input: true }),
        shift(700, 0.05, { had_recent_input: true }),
        shift(800, 0.02),
        shift(900, 0.3, { had_recent_input: true }),
      ),
    );
    expect(metrics?.cumulativeLayoutShift).toBe(0.07);
  });

  it("sums each long task's time past 50 ms between FCP and TTI, clipping tasks that straddle FCP", () => {
    const metrics = metricsFromTrace(
      trace(
        mark("firstContentfulPaint", 100),
        task(0, 150), // ends at 150: only 50 ms after FCP, which blocks nothing
        task(200, 40), // short
        task(400, 200), // 150 blocking
        task(1000, 120), // 70 blocking
        task(1010, 5), // nested inside the previous task: not a top-level task
        script("EvaluateScript", 410, 30, "http://site.test/app.js"),
        script("FunctionCall", 450, 120, "http://cdn.test/widget.js"),
        script("FunctionCall", 1020, 10, "http://site.test/app.js"),
        script("FunctionCall", 1030, 10, ""), // no URL: not named
      ),
    );
    expect(metrics?.totalBlockingTimeMs).toBe(220);
    // TTI: the end of the last long task, since the CPU is quiet from there to the end of the trace.
    expect(metrics?.interactiveMs).toBe(1120);
    // Each long task names the scripts that ran in it, most time first.
    expect(metrics?.longTasks).toEqual([
      { startMs: 400, durationMs: 200, scripts: ["http://cdn.test/widget.js", "http://site.test/app.js"] },
      { startMs: 0, durationMs: 150, scripts: [] },
      { startMs: 1000, durationMs: 120, scripts: ["http://site.test/app.js"] },
    ]);
  });

  it("ignores another thread's tasks and waits for network quiet before TTI", () => {
    const request = (id: string, at: number, end: number): TraceEvent[] => [
      {
        ...mark("ResourceSendRequest", at, {
          requestId: id,
          url: `http://site.test/${id}`,
          requestMethod: "GET",
        }),
      },
      { ...mark("ResourceReceiveResponse", end - 1, { requestId: id, statusCode: 200 }) },
      { ...mark("ResourceFinish", end, { requestId: id }) },
    ];
    const metrics = metricsFromTrace(
      trace(
        mark("firstContentfulPaint", 100),
        { ...task(300, 500), tid: 99 },
        task(200, 100), // 50 blocking, then the CPU is quiet
        // Three requests in flight until 7 s: the network is busy, so TTI waits for it...
        ...request("a", 150, 7000),
        ...request("b", 150, 7000),
        ...request("c", 150, 7000),
        // ...and a long task at 6 s moves TTI to its end.
        task(6000, 300),
      ),
    );
    expect(metrics?.interactiveMs).toBe(6300);
    expect(metrics?.totalBlockingTimeMs).toBe(50 + 250);
  });
});
