/** The landing page and the error pages. */
import { catalogue } from "../../analysis/catalogue.js";
import { html, type SafeHtml } from "../html.js";

export function landingBody(signedIn: boolean): SafeHtml {
  return html`<section class="card">
  <h1>Grade any web page in seconds</h1>
  <p>pagegrade fetches a page and runs ${catalogue.length} checks on it — SEO, performance, security and more — then tells you
  what passes, what fails, the exact elements at fault and how to fix them. Reports are grouped by site, can be
  shared with a client (publicly, privately or behind a password) and are all available through a REST API.</p>
  <p>${signedIn ? html`<a class="button" href="/reports">Go to your reports</a>` : html`<a class="button" href="/register">Create a free account</a> or <a href="/login">log in</a>`}</p>
</section>
<section class="card">
  <h2>What it checks</h2>
  <ul>
    <li><strong>SEO</strong>: title, description, headings, robots.txt, canonical, hreflang, links, sitemap, structured data and rich results…</li>
    <li><strong>Performance</strong>: compression, response time, page size, images, render-blocking scripts, HTTP/2…</li>
    <li><strong>Security</strong>: HTTPS, HSTS, mixed content, CSP, server versions, insecure forms…</li>
    <li><strong>Miscellaneous</strong>: social previews, viewport, charset, llms.txt…</li>
  </ul>
</section>`;
}

export function errorBody(title: string, message: string): SafeHtml {
  return html`<section class="card"><h1>${title}</h1><p>${message}</p><p><a href="/">Back to the start page</a></p></section>`;
}
