/** One event sink that tells several, in order (the webhooks, then the crawl notification mails). */
import type { AnalysisRecorded, CrawlFinished, EventSink } from "./event-sink.js";

export function everySink(sinks: EventSink[]): EventSink {
  return {
    async analysisRecorded(event: AnalysisRecorded) {
      for (const sink of sinks) await sink.analysisRecorded(event);
    },
    async crawlFinished(event: CrawlFinished) {
      for (const sink of sinks) await sink.crawlFinished(event);
    },
  };
}
