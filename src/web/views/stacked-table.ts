/**
 * A table that stays inside its card on a desk (its own scroll box if it is ever wider) and becomes stacked rows
 * on a phone (app.css, `table.stack`): each body cell gets its column's heading as `data-label`, which the CSS
 * shows before the value ("Status: 404"). Works on our own markup only: every cell's text has already been
 * escaped by the html template, so a `<td` or `<th` in it is one of ours.
 */
import { type SafeHtml, trusted } from "../html.js";

/** The heading texts of the table's header row, tags stripped (entities kept as they are: they are escaped). */
function headings(markup: string): string[] {
  const head = /<thead>([\s\S]*?)<\/thead>/.exec(markup)?.[1] ?? "";
  return [...head.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((match) =>
    (match[1] ?? "")
      .replace(/<[^>]*>/g, "")
      .replace(/"/g, "&#34;")
      .trim(),
  );
}

export function stacked(table: SafeHtml): SafeHtml {
  const markup = table.value;
  const labels = headings(markup);
  const start = markup.indexOf("<tbody>");
  const head = markup.slice(0, start < 0 ? markup.length : start);
  const body = start < 0 ? "" : markup.slice(start);
  const labelled = body.replace(/<tr\b[\s\S]*?<\/tr>/g, (row) => {
    let column = 0;
    return row.replace(/<(td|th)\b([^>]*)>/g, (cell, tag: string, attributes: string) => {
      const label = labels[column++];
      if (tag === "th" || !label || attributes.includes("data-label")) return cell;
      return `<td data-label="${label}"${attributes}>`;
    });
  });
  const classed = head.replace(/<table\b( class="([^"]*)")?/, (_match, _attribute, classes?: string) =>
    classes ? `<table class="${classes} stack"` : '<table class="stack"',
  );
  return trusted(`<div class="table-box">${classed}${labelled}</div>`);
}
