// A running crawl's page, live: listens to the crawl's event stream (same origin, the page's session) and updates
// the counts and the progress bar on each `progress` event; when the crawl ends, loads the page again to show its
// results. Without this script the page reloads itself every few seconds instead (a <noscript> refresh).
const card = document.querySelector("[data-crawl-events]");
if (card && "EventSource" in window) {
  const stream = new EventSource(card.dataset.crawlEvents);
  const bar = card.querySelector("progress");
  const note = card.querySelector(".live-note");
  if (note) note.textContent = "This page updates itself as the crawl goes.";
  stream.addEventListener("progress", (event) => {
    const crawl = JSON.parse(event.data);
    const pages = crawl.pages;
    for (const [name, value] of Object.entries(pages)) {
      const cell = card.querySelector(`[data-count="${name}"]`);
      if (cell) cell.textContent = String(value);
    }
    if (bar) {
      const done = pages.analysed + pages.failed;
      bar.max = Math.max(1, Math.min(crawl.max_pages, Math.max(pages.discovered - pages.excluded, done)));
      bar.value = done;
    }
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
