/**
 * A mail as pagegrade composes it: one recipient, a subject, a plain-text part and an HTML part. Every value
 * that reaches a header goes through `headerValue` (control characters, CR and LF among them, become spaces),
 * so nothing a user or a page supplied can add a header or a command to the SMTP conversation; every value in
 * the HTML part is escaped. Mails are built from paragraphs, titled lists, at most one call to action and a few
 * plain links, the same in both parts; a mail with an unsubscribe URL carries it in its footer and as the
 * `List-Unsubscribe` header with one-click unsubscription (RFC 8058).
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (`List-Unsubscribe`, …), their values already made safe. */
  headers: Record<string, string>;
}

export interface MailContent {
  to: string;
  subject: string;
  /** Plain sentences, shown in both parts (escaped in the HTML one). */
  paragraphs: string[];
  /** Titled lists after the paragraphs (escaped in the HTML part). */
  lists?: Array<{ title: string; items: string[] }>;
  /** A call to action: its label and absolute URL. */
  link?: { label: string; url: string };
  /** More links after the call to action, plainer. */
  links?: Array<{ label: string; url: string }>;
  /** An absolute URL that unsubscribes the recipient with a GET (a confirmation page) or a POST (at once). */
  unsubscribeUrl?: string;
  /** A last, smaller line (why the mail came, what to do if it was not wanted). */
  footer?: string;
}

/** Control characters (CR and LF among them, and DEL) become spaces; runs of spaces become one; trimmed. */
export function headerValue(text: string): string {
  let out = "";
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    out += control ? " " : character;
  }
  return out.replace(/ {2,}/g, " ").trim();
}

/**
 * Whether the text is one plain address ("name@example.com"): no display name, no list, no quoting, no
 * comment and no space or control character, so an address parser cannot find a second recipient in it.
 */
export function isPlainAddress(text: string): boolean {
  return (
    text.length <= 254 && /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(text)
  );
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The mail with both parts; throws MailAddressError unless `to` is one plain address. */
export function composeMail(content: MailContent): MailMessage {
  const { paragraphs, link, footer, lists = [], links = [], unsubscribeUrl } = content;
  if (!isPlainAddress(content.to)) throw new MailAddressError(content.to);
  const text = [
    ...paragraphs,
    ...lists.map(({ title, items }) => [title, ...items.map((item) => `- ${item}`)].join("\n")),
    ...(link ? [`${link.label}:\n${link.url}`] : []),
    ...links.map(({ label, url }) => `${label}:\n${url}`),
    ...(footer || unsubscribeUrl
      ? [
          `-- \n${[footer, unsubscribeUrl ? `Unsubscribe: ${unsubscribeUrl}` : ""].filter(Boolean).join("\n")}`,
        ]
      : []),
  ].join("\n\n");
  const listsHtml = lists
    .map(
      ({ title, items }) =>
        `<h3 style="font-size: 1em; margin-bottom: 0.25em;">${escapeHtml(title)}</h3>\n<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`,
    )
    .join("\n");
  const linksHtml = links
    .map(({ label, url }) => `<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`)
    .join("\n");
  const unsubscribeHtml = unsubscribeUrl
    ? `<p style="font-size: 0.85em; color: #666;"><a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>`
    : "";
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(headerValue(content.subject))}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a; max-width: 36em;">
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
${listsHtml}
${link ? `<p><a href="${escapeHtml(link.url)}" style="display: inline-block; padding: 0.5em 1em; background: #1d4ed8; color: #fff; text-decoration: none; border-radius: 4px;">${escapeHtml(link.label)}</a></p>\n<p style="font-size: 0.9em; color: #555;">${escapeHtml(link.url)}</p>` : ""}
${linksHtml}
${footer ? `<p style="font-size: 0.85em; color: #666;">${escapeHtml(footer)}</p>` : ""}
${unsubscribeHtml}
</body></html>
`;
  const headers: Record<string, string> = unsubscribeUrl
    ? {
        "List-Unsubscribe": `<${headerValue(unsubscribeUrl)}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      }
    : {};
  return { to: content.to, subject: headerValue(content.subject), text, html, headers };
}

export class MailAddressError extends Error {
  override readonly name = "MailAddressError";
  constructor(address: string) {
    super(`"${headerValue(address).slice(0, 100)}" is not one plain e-mail address`);
  }
}
