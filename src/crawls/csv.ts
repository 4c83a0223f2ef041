/**
 * RFC 4180 CSV for the crawl exports: a field quoted when it holds a comma, a semicolon, a quote or a line break,
 * and a field a spreadsheet would read as a formula (it starts with =, +, -, @, a tab or a carriage return)
 * neutralised with a leading apostrophe: page titles, URLs and extracted values are strangers' text. The rule
 * applies to every `;`-separated segment of a field too, since a spreadsheet whose list separator is `;` (German
 * or French locales) splits `x;=3+3` into two cells and evaluates the second. `csvChunks` turns batches of rows into text chunks as they come, so an
 * export of any size is written while it is read, never held whole.
 */

import { setImmediate } from "node:timers/promises";

export function csvField(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ""
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);
  const safe = text.split(";").map(neutralised).join(";");
  return /[",;\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A segment a spreadsheet would read as a formula, with a leading apostrophe; any other as it is. */
function neutralised(segment: string): string {
  return /^[=+\-@\t\r]/.test(segment) ? `'${segment}` : segment;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** The header line, then one chunk of lines per batch of rows (each row's values in column order). */
export async function* csvChunks(
  columns: readonly string[],
  batches: AsyncIterable<unknown[][]>,
): AsyncGenerator<string> {
  yield csvLine(columns);
  for await (const batch of batches) {
    if (batch.length > 0) yield batch.map(csvLine).join("");
    // A synchronous driver (SQLite) answers each batch without a turn of the event loop: give the socket (and
    // every other request) one between batches, so chunks leave as they are made and back-pressure holds.
    await setImmediate();
  }
}
