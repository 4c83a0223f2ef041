/** The unsubscribe pages a notification mail links to: the confirmation, the answer, and a link that is not valid. */
import { html, type SafeHtml } from "../html.js";
import { notice } from "./forms.js";

export function confirmUnsubscribeBody(token: string, project: string, recipient: string): SafeHtml {
  return html`<section class="card">
  <h1>Unsubscribe</h1>
  <p>Stop the crawl notification mails of <strong>${project}</strong> to <strong>${recipient}</strong>?</p>
  <form method="post" action="/unsubscribe?token=${encodeURIComponent(token)}">
    <p><button type="submit">Unsubscribe</button></p>
  </form>
</section>`;
}

export function unsubscribedBody(project: string, recipient: string): SafeHtml {
  return html`<section class="card">
  <h1>Unsubscribed</h1>
  ${notice(html`<strong>${recipient}</strong> gets no more crawl notification mails of <strong>${project}</strong>.`)}
</section>`;
}

export function invalidUnsubscribeLinkBody(): SafeHtml {
  return html`<section class="card">
  <h1>This link is not valid</h1>
  <p>Use the unsubscribe link of a notification mail exactly as it arrived.</p>
</section>`;
}
