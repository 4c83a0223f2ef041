/**
 * The page shell every web page shares: head, navigation for signed-in users, footer with the API docs link.
 * Styles come from /assets/app.css; a page whose markup asks for one of the app's small scripts (pageScripts) loads
 * it from /assets/. The Content-Security-Policy allows no inline script or style, and every page works without
 * scripts.
 */
import { type HtmlValue, html, type SafeHtml } from "./html.js";

export interface LayoutOptions {
  title: string;
  /** The signed-in user's e-mail, or null. */
  user: string | null;
  csrfToken?: string;
  body: HtmlValue;
  /** Extra <head> content (our own markup only). */
  head?: SafeHtml;
  /**
   * A page shared with someone who has no account here (a crawl's audit): its header shows the owner's brand (or
   * pagegrade's name) and no navigation, and it is never indexed.
   */
  shared?: SharedShell;
}

export interface SharedShell {
  brandName: string;
  /** The logo's address, or null for none. */
  logoUrl: string | null;
}

/** The app's small scripts, each loaded only by a page whose markup has the attribute it works on. */
const pageScripts: Array<[attribute: string, script: string]> = [
  ["data-shown-when", "/assets/forms.js"],
  ["data-busy", "/assets/forms.js"],
  ["data-crawl-events", "/assets/crawl-progress.js"],
];

export function layout({ title, user, csrfToken, body, head, shared }: LayoutOptions): SafeHtml {
  const main = html`${body}`;
  const wanted = pageScripts
    .filter(([attribute]) => main.value.includes(attribute))
    .map(([, script]) => script);
  const scripts = [...new Set(wanted)].map((script) => html`<script src="${script}" defer></script>`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${shared ? shared.brandName : "pagegrade"}</title>
${shared ? html`<meta name="robots" content="noindex">` : ""}
<link rel="stylesheet" href="/assets/app.css">
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
${scripts}
${head}
</head>
<body>
${
  shared
    ? sharedHeader(shared)
    : html`<header class="site-header">
  <a class="brand" href="/">pagegrade</a>
  <nav aria-label="Main">
    ${
      user
        ? html`<a href="/reports">Reports</a> <a href="/projects">Projects</a> <a href="/crawls">Crawls</a> <a href="/teams" class="wide-only">Teams</a> <a href="/account">Account</a>
    <form method="post" action="/logout" class="inline-form"><input type="hidden" name="_csrf" value="${csrfToken ?? ""}"><button type="submit" class="link-button">Log out</button></form>`
        : html`<a href="/login">Log in</a> <a href="/register" class="button">Sign up</a>`
    }
  </nav>
</header>`
}
<main id="main">
${main}
</main>
${shared ? "" : html`<footer class="site-footer"><a href="/docs">API documentation</a> · <a href="/api/v1/openapi.json">OpenAPI</a></footer>`}
</body>
</html>`;
}

/** A shared page's header: the brand, linking nowhere. */
function sharedHeader({ brandName, logoUrl }: SharedShell): SafeHtml {
  return html`<header class="site-header shared-header">
  <span class="brand">${logoUrl ? html`<img class="brand-logo" src="${logoUrl}" alt="" height="32">` : ""}${brandName}</span>
</header>`;
}
