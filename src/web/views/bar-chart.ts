/**
 * A horizontal bar chart as inline SVG, drawn on the server: one row per label with its bar and its count. It is
 * drawn 320 units wide, about the width it is shown at on a phone and in a laptop's three-column summary, so its
 * 12-unit labels stay readable; its accessible name lists every row.
 */
import { html, type SafeHtml } from "../html.js";

export interface ChartRow {
  label: string;
  count: number;
  /** The bar's colour: a result's, or neutral. */
  tone?: "good" | "decent" | "bad" | "neutral";
}

const width = 320;
const labelWidth = 86;
const countWidth = 48;
const rowHeight = 22;
const colours = { good: "#15803d", decent: "#b45309", bad: "#b91c1c", neutral: "#1d4ed8" };

export function barChart(title: string, rows: ChartRow[]): SafeHtml {
  const most = Math.max(1, ...rows.map((row) => row.count));
  const room = width - labelWidth - countWidth;
  const height = Math.max(1, rows.length) * rowHeight;
  const summary = rows.map((row) => `${row.label}: ${row.count}`).join(", ");
  return html`<figure class="chart">
  <figcaption>${title}</figcaption>
  ${
    rows.length === 0
      ? html`<p class="muted">Nothing to show yet.</p>`
      : html`<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${title}: ${summary}">${rows.map(
          (row, index) => {
            const y = index * rowHeight;
            const length = row.count === 0 ? 0 : Math.max(2, (row.count / most) * room);
            return html`<text x="${labelWidth - 6}" y="${y + 15}" text-anchor="end" font-size="12" fill="#1c2330">${row.label}</text><rect x="${labelWidth}" y="${y + 4}" width="${length.toFixed(1)}" height="14" rx="3" fill="${colours[row.tone ?? "neutral"]}"/><text x="${labelWidth + length + 4}" y="${y + 15}" font-size="12" fill="#5b6474">${row.count}</text>`;
          },
        )}</svg>`
  }
</figure>`;
}
