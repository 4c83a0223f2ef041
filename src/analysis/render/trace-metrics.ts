/**
 * Lab Web Vitals from a Chrome trace, computed the way Lighthouse computes its observed ("provided",
 * unthrottled) metrics: FCP and LCP from the main frame's paint events after its navigation start, CLS as the
 * largest session window of layout shifts (a new window after a 1 s gap or once a window spans 5 s; shifts
 * after input left out), and TBT
 * as the time beyond 50 ms of every main-thread task between FCP and Time to Interactive. TTI is the start of
 * the first 5 s window, after LCP (or FCP), that has no long task and at most two GET requests in flight.
 *
 * One deliberate difference: pagegrade stops recording when Lighthouse would stop waiting (fully-loaded.ts:
 * 1 s of network quiet, then 1 s without a long task), not 5 s after the last long task, so a quiet period that
 * lasts until the end of the trace counts as long enough. Everything here is a pure function of the events; times are milliseconds from navigation start.
 */

/** One event of the Trace Event Format, as Chromium's Tracing domain reports it. */
export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  // biome-ignore lint/suspicious/noExplicitAny: trace arguments differ per event; each reader checks its own.
  args?: Record<string, any>;
}

export interface LabMetrics {
  firstContentfulPaintMs: number | null;
  largestContentfulPaint: { ms: number; backendNodeId: number | null; type: string | null } | null;
  /** The largest session window's sum of layout-shift scores. */
  cumulativeLayoutShift: number;
  /** The shifts of that window, largest first: their time, score and the moved nodes. */
  layoutShifts: Array<{ atMs: number; score: number; backendNodeIds: number[] }>;
  interactiveMs: number | null;
  totalBlockingTimeMs: number | null;
  /** Main-thread tasks of 50 ms or more, longest first (at most 10), with the scripts that ran in each. */
  longTasks: LongTask[];
}

export interface LongTask {
  startMs: number;
  durationMs: number;
  /** URLs of the scripts that ran in the task, most time first (at most 3); empty when none is named. */
  scripts: string[];
}

/** Trace events that run or compile a script and name its URL (`args.data.url`). */
const scriptEvents = new Set([
  "EvaluateScript",
  "FunctionCall",
  "v8.compile",
  "v8.evaluateModule",
  "TimerFire",
]);

const longTaskMs = 50;
const quietWindowMs = 5_000;
const allowedInFlight = 2;
const sessionGapMs = 1_000;
const sessionCapMs = 5_000;
const recentInputMs = 500;

interface Period {
  start: number;
  end: number;
}

/** Metrics of the page's last navigation in the trace, or null when the trace holds no navigation of it. */
export function metricsFromTrace(events: readonly TraceEvent[]): LabMetrics | null {
  const frame = mainFrame(events);
  if (!frame) return null;
  const inFrame = (event: TraceEvent) => event.args?.frame === frame.id;
  const sorted = [...events].sort((a, b) => a.ts - b.ts);

  const firstPaint = sorted.find((event) => event.name === "firstContentfulPaint" && inFrame(event));
  const starts = sorted.filter(
    (event) =>
      event.name === "navigationStart" &&
      inFrame(event) &&
      event.args?.data?.isLoadingMainFrame === true &&
      /^https?:/.test(event.args?.data?.documentLoaderURL ?? ""),
  );
  const start = [...starts].reverse().find((event) => !firstPaint || event.ts <= firstPaint.ts) ?? null;
  if (!start) return null;
  const origin = start.ts;
  const navigationId: string | undefined = start.args?.data?.navigationId;
  const ofNavigation = (event: TraceEvent) =>
    inFrame(event) &&
    event.ts >= origin &&
    (navigationId === undefined ||
      event.args?.data?.navigationId === undefined ||
      event.args.data.navigationId === navigationId);
  const ms = (ts: number) => (ts - origin) / 1000;

  const fcpEvent = sorted.find((event) => event.name === "firstContentfulPaint" && ofNavigation(event));
  const fcp = fcpEvent ? ms(fcpEvent.ts) : null;
  const lcp = largestContentfulPaint(sorted, ofNavigation, ms);
  const dclEvent = sorted.find(
    (event) => event.name === "domContentLoadedEventEnd" && inFrame(event) && event.ts >= origin,
  );

  const mainThread = rendererMainThread(events, frame.pid);
  const tasks = topLevelTasks(sorted, mainThread, origin);
  const longTasks = tasks.filter((task) => task.end - task.start >= longTaskMs);

  let interactive: number | null = null;
  if (fcp !== null && dclEvent) {
    const cpuQuiet = findQuiet(
      cpuQuietPeriods(longTasks),
      networkQuietPeriods(sorted, origin),
      lcp?.ms ?? fcp,
    );
    if (cpuQuiet) interactive = Math.max(cpuQuiet.start, fcp, ms(dclEvent.ts));
  }
  const shifts = sessionWindow(sorted, origin, ms);

  return {
    firstContentfulPaintMs: round(fcp),
    largestContentfulPaint: lcp ? { ...lcp, ms: Math.round(lcp.ms) } : null,
    cumulativeLayoutShift: Math.round(shifts.total * 10_000) / 10_000,
    layoutShifts: shifts.shifts,
    interactiveMs: round(interactive),
    totalBlockingTimeMs:
      fcp === null || interactive === null ? null : Math.round(blockingTime(tasks, fcp, interactive)),
    longTasks: longTasks
      .map((task) => ({
        startMs: Math.round(task.start),
        durationMs: Math.round(task.end - task.start),
        task,
      }))
      .sort((a, b) => b.durationMs - a.durationMs)
      .slice(0, 10)
      .map(({ task, ...timing }) => ({ ...timing, scripts: scriptsOf(sorted, mainThread, task, ms) })),
  };
}

/**
 * The scripts that ran in a task, by the time their events took inside it (as Lighthouse attributes a long
 * task to the script URLs of its script evaluations and function calls).
 */
function scriptsOf(
  sorted: readonly TraceEvent[],
  thread: { pid: number; tid: number },
  task: Period,
  ms: (ts: number) => number,
): string[] {
  const time = new Map<string, number>();
  for (const event of sorted) {
    if (event.pid !== thread.pid || event.tid !== thread.tid || event.ph !== "X") continue;
    const at = ms(event.ts);
    if (at < task.start) continue;
    if (at > task.end) break;
    const url = event.args?.data?.url;
    if (!scriptEvents.has(event.name) || typeof url !== "string" || !/^https?:/.test(url)) continue;
    time.set(url, (time.get(url) ?? 0) + (event.dur ?? 0));
  }
  return [...time.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([url]) => url);
}

/** The outermost main frame and the renderer process its committed document lives in. */
function mainFrame(events: readonly TraceEvent[]): { id: string; pid: number } | null {
  const started = events.find((event) => event.name === "TracingStartedInBrowser");
  // biome-ignore lint/suspicious/noExplicitAny: see TraceEvent.args.
  const frames: any[] = started?.args?.data?.frames ?? [];
  const main = frames.find((frame) => frame.isOutermostMainFrame ?? !frame.parent);
  if (!main) return null;
  const commits = events.filter(
    (event) => event.name === "FrameCommittedInBrowser" && event.args?.data?.frame === main.frame,
  );
  const last = commits.sort((a, b) => a.ts - b.ts).at(-1);
  return { id: main.frame, pid: last?.args?.data?.processId ?? main.processId };
}

function rendererMainThread(events: readonly TraceEvent[], pid: number): { pid: number; tid: number } {
  const named = events.find(
    (event) => event.name === "thread_name" && event.pid === pid && event.args?.name === "CrRendererMain",
  );
  return { pid, tid: named?.tid ?? pid };
}

function largestContentfulPaint(
  sorted: readonly TraceEvent[],
  ofNavigation: (event: TraceEvent) => boolean,
  ms: (ts: number) => number,
): { ms: number; backendNodeId: number | null; type: string | null } | null {
  let candidate: TraceEvent | null = null;
  for (const event of sorted) {
    if (!ofNavigation(event)) continue;
    if (event.name === "largestContentfulPaint::Candidate") candidate = event;
    // An invalidation after the last candidate (its element removed, say) leaves no LCP, as in Lighthouse.
    if (event.name === "largestContentfulPaint::Invalidate") candidate = null;
  }
  if (!candidate) return null;
  const data = candidate.args?.data ?? {};
  return {
    ms: ms(candidate.ts),
    backendNodeId: typeof data.nodeId === "number" ? data.nodeId : null,
    type: typeof data.type === "string" ? data.type : null,
  };
}

/** Main-thread tasks that end after navigation start, nested ones folded into the task that holds them. */
function topLevelTasks(sorted: readonly TraceEvent[], thread: { pid: number; tid: number }, origin: number) {
  const tasks: Period[] = [];
  let lastEnd = -Infinity;
  for (const event of sorted) {
    if (
      event.name !== "RunTask" ||
      event.ph !== "X" ||
      event.pid !== thread.pid ||
      event.tid !== thread.tid
    ) {
      continue;
    }
    const end = event.ts + (event.dur ?? 0);
    if (end < origin || event.ts < lastEnd) continue;
    lastEnd = end;
    tasks.push({ start: (event.ts - origin) / 1000, end: (end - origin) / 1000 });
  }
  return tasks;
}

function cpuQuietPeriods(longTasks: readonly Period[]): Period[] {
  const periods: Period[] = [];
  let from = -Infinity;
  for (const task of longTasks) {
    periods.push({ start: from, end: task.start });
    from = task.end;
  }
  periods.push({ start: from, end: openEnded });
  return periods;
}

/** Periods with at most two finished, successful GET requests in flight (as Lighthouse filters them). */
function networkQuietPeriods(sorted: readonly TraceEvent[], origin: number): Period[] {
  const sent = new Map<string, { start: number; isGet: boolean }>();
  const status = new Map<string, number>();
  const boundaries: Array<{ at: number; delta: 1 | -1 }> = [];
  for (const event of sorted) {
    const data = event.args?.data;
    if (!data?.requestId) continue;
    if (event.name === "ResourceSendRequest" && /^https?:/.test(data.url ?? "")) {
      sent.set(data.requestId, {
        start: (event.ts - origin) / 1000,
        isGet: (data.requestMethod ?? "GET") === "GET",
      });
    } else if (event.name === "ResourceReceiveResponse") {
      status.set(data.requestId, data.statusCode ?? 0);
    } else if (event.name === "ResourceFinish") {
      const request = sent.get(data.requestId);
      if (!request?.isGet || data.didFail || (status.get(data.requestId) ?? 0) >= 400) continue;
      boundaries.push({ at: request.start, delta: 1 }, { at: (event.ts - origin) / 1000, delta: -1 });
    }
  }
  boundaries.sort((a, b) => a.at - b.at || a.delta - b.delta);
  const periods: Period[] = [];
  let inFlight = 0;
  let quietSince: number | null = -Infinity;
  for (const { at, delta } of boundaries) {
    inFlight += delta;
    if (inFlight > allowedInFlight && quietSince !== null) {
      periods.push({ start: quietSince, end: at });
      quietSince = null;
    } else if (inFlight <= allowedInFlight && quietSince === null) {
      quietSince = at;
    }
  }
  if (quietSince !== null) periods.push({ start: quietSince, end: openEnded });
  return periods;
}

/** A period that reaches the end of the recording is taken to go on (see the file comment). */
const openEnded = Number.POSITIVE_INFINITY;

/** The first CPU-quiet period overlapping a network-quiet one for 5 s, both ending 5 s past minTime. */
function findQuiet(cpu: Period[], network: Period[], minTime: number): Period | null {
  const longEnough = (period: Period) =>
    period.end > minTime + quietWindowMs && period.end - period.start >= quietWindowMs;
  const cpuQueue = cpu.filter(longEnough);
  const networkQueue = network.filter(longEnough);
  let cpuCandidate = cpuQueue.shift();
  let networkCandidate = networkQueue.shift();
  while (cpuCandidate && networkCandidate) {
    if (cpuCandidate.start >= networkCandidate.start) {
      if (networkCandidate.end >= cpuCandidate.start + quietWindowMs) return cpuCandidate;
      networkCandidate = networkQueue.shift();
    } else {
      if (cpuCandidate.end >= networkCandidate.start + quietWindowMs) return cpuCandidate;
      cpuCandidate = cpuQueue.shift();
    }
  }
  return null;
}

/** Each task's time past 50 ms inside [FCP, TTI], the task clipped to that window first. */
function blockingTime(tasks: readonly Period[], from: number, to: number): number {
  let total = 0;
  for (const task of tasks) {
    if (task.end - task.start < longTaskMs || task.end < from || task.start > to) continue;
    const clipped = Math.min(task.end, to) - Math.max(task.start, from);
    if (clipped > longTaskMs) total += clipped - longTaskMs;
  }
  return total;
}

/**
 * The session window with the largest total, and its shifts. Shifts right after input do not count, except
 * (as in Lighthouse) in the first 500 ms after the viewport was set up, until a shift without input is seen:
 * Chromium flags those because emulation resized the viewport, not because anyone touched the page.
 */
function sessionWindow(sorted: readonly TraceEvent[], origin: number, ms: (ts: number) => number) {
  type Shift = { atMs: number; score: number; backendNodeIds: number[] };
  const viewport = sorted.find((event) => event.name === "viewport" && event.ts >= origin);
  const setUpAt = viewport?.ts ?? origin;
  let respectInput = false;
  let best: { total: number; shifts: Shift[] } = { total: 0, shifts: [] };
  let current: { total: number; shifts: Shift[]; start: number; last: number } | null = null;
  for (const event of sorted) {
    const data = event.args?.data;
    if (event.name !== "LayoutShift" || !data || event.ts < origin || data.is_main_frame === undefined)
      continue;
    if (data.had_recent_input) {
      if (respectInput || (event.ts - setUpAt) / 1000 > recentInputMs) continue;
    } else {
      respectInput = true;
    }
    const score: number = data.weighted_score_delta ?? data.score ?? 0;
    const at = ms(event.ts);
    if (!current || at - current.last > sessionGapMs || at - current.start > sessionCapMs) {
      current = { total: 0, shifts: [], start: at, last: at };
    }
    current.total += score;
    current.last = at;
    current.shifts.push({
      atMs: Math.round(at),
      score,
      // biome-ignore lint/suspicious/noExplicitAny: see TraceEvent.args.
      backendNodeIds: (data.impacted_nodes ?? []).map((node: any) => node.node_id).filter(Number.isInteger),
    });
    if (current.total > best.total) best = { total: current.total, shifts: [...current.shifts] };
  }
  return { total: best.total, shifts: best.shifts.sort((a, b) => b.score - a.score).slice(0, 5) };
}

function round(value: number | null): number | null {
  return value === null ? null : Math.round(value);
}
