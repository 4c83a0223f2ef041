// A running crawl's page, live: listens to the crawl's event stream (same origin, the page's session) and updates
// the counts, the progress bar, the pages per second and the time left on each `progress` event; when the crawl
// ends, loads the page again to show its results. The rate and time left are computed here from the counts alone
// (pages done over the seconds since the crawl started, or over the last minute's events once there are some), so
// they need nothing from the event but `pages`. Without this script the page reloads itself every few seconds.
const card = document.querySelector("[data-crawl-events]");
if (card && "EventSource" in window) {
  const stream = new EventSource(card.dataset.crawlEvents);
  const bar = card.querySelector("progress");
  const note = card.querySelector(".live-note");
  const rateCell = card.querySelector('[data-live="rate"]');
  const leftCell = card.querySelector('[data-live="left"]');
  const maxPages = Number(card.dataset.maxPages) || Number.POSITIVE_INFINITY;
  const startedAt = Date.parse(card.dataset.startedAt || "");
  // [time in ms, pages done] of the recent progress events: the rate is measured over the last minute.
  const samples = [];
  const windowMs = 60_000;
  if (note) note.textContent = "This page updates itself as the crawl goes.";

  const duration = (seconds) => {
    if (seconds < 60) return `${seconds} s`;
    const minutes = Math.floor(seconds / 60);
    return minutes < 60
      ? `${minutes} min ${seconds % 60} s`
      : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  };

  /** Pages a second: over the recent samples when they span a few seconds, else since the crawl started. */
  const rateNow = (now, done) => {
    while (samples.length > 2 && now - samples[0][0] > windowMs) samples.shift();
    const [firstTime, firstDone] = samples[0];
    if (now - firstTime >= 3000 && done > firstDone) return ((done - firstDone) * 1000) / (now - firstTime);
    if (!Number.isNaN(startedAt) && now > startedAt) return (done * 1000) / (now - startedAt);
    return 0;
  };

  stream.addEventListener("progress", (event) => {
    const crawl = JSON.parse(event.data);
    const pages = crawl.pages;
    if (!pages) return;
    for (const [name, value] of Object.entries(pages)) {
      const cell = card.querySelector(`[data-count="${name}"]`);
      if (cell) cell.textContent = String(value);
    }
    const done = (pages.analysed ?? 0) + (pages.failed ?? 0);
    const budget = Math.max(
      1,
      Math.min(maxPages, Math.max((pages.discovered ?? 0) - (pages.excluded ?? 0), done)),
    );
    if (bar) {
      bar.max = budget;
      bar.value = done;
    }
    const now = Date.now();
    samples.push([now, done]);
    const rate = rateNow(now, done);
    if (rateCell) rateCell.textContent = rate.toFixed(1);
    if (leftCell) leftCell.textContent = rate > 0 ? duration(Math.ceil((budget - done) / rate)) : "–";
  });
  // A stream the server refused or lost for good: fall back to reloading, as without the script.
  stream.addEventListener("error", () => {
    if (stream.readyState === EventSource.CLOSED) setTimeout(() => window.location.reload(), 3000);
  });
  for (const end of ["complete", "cancelled", "failed"]) {
    stream.addEventListener(end, () => {
      stream.close();
      window.location.reload();
    });
  }
}
