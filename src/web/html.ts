/**
 * HTML built with a tagged template that escapes every interpolated value unless it is already SafeHtml. All
 * page text that comes from an analysed page (titles, headings, link texts, header values, URLs) goes through
 * here, so it is shown as text and never interpreted as markup.
 */

export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | HtmlValue[];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => `&#${character.charCodeAt(0)};`);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  for (let index = 0; index < values.length; index++)
    out += render(values[index] as HtmlValue) + (strings[index + 1] ?? "");
  return new SafeHtml(out);
}

/** Markup that is trusted as it is (our own constants only, never page data). */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
