/**
 * The page shell every web page shares: head, navigation for signed-in users, footer with the API docs link.
 * Styles come from /assets/app.css; a page whose markup asks for one of the app's small scripts (pageScripts) loads
 * it from /assets/. The Content-Security-Policy allows no inline script or style, and every page works without
 * scripts.
 */
import { type HtmlValue, html, type SafeHtml } from "./html.js";
import { listOf, type WorkspaceChoice } from "./web-context.js";

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
  /** The signed-in user's workspaces (the header's switcher, shown when they are in a team). */
  workspaces?: WorkspaceChoice | null;
  /** The page's path: a switch of workspace leads back to its list. */
  path?: string;
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

export function layout({
  title,
  user,
  csrfToken,
  body,
  head,
  shared,
  workspaces,
  path,
}: LayoutOptions): SafeHtml {
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
  ${user && workspaces && workspaces.teams.length > 0 ? workspaceSwitcher(workspaces, csrfToken ?? "", path ?? "/") : ""}
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

/**
 * The workspace switcher: a select of "Personal" and the user's teams (with their role there) and its button, a
 * plain form that works without scripts; compact, so on a phone it shares the brand's line.
 */
function workspaceSwitcher({ teams, team }: WorkspaceChoice, csrfToken: string, path: string): SafeHtml {
  const chosen = team ? String(team.id) : "";
  return html`<form method="post" action="/workspace" class="workspace-switch">
    <input type="hidden" name="_csrf" value="${csrfToken}"><input type="hidden" name="next" value="${listOf(path)}">
    <label for="workspace-team" class="visually-hidden">Workspace</label>
    <select id="workspace-team" name="team">
      <option value=""${chosen === "" ? html` selected` : ""}>Personal</option>
      ${teams.map(
        (choice) =>
          html`<option value="${choice.id}"${String(choice.id) === chosen ? html` selected` : ""}>${choice.name}${choice.role === "viewer" ? " (viewer)" : ""}</option>`,
      )}
    </select>
    <button type="submit">Switch</button>
  </form>`;
}

/** A shared page's header: the brand, linking nowhere. */
function sharedHeader({ brandName, logoUrl }: SharedShell): SafeHtml {
  return html`<header class="site-header shared-header">
  <span class="brand">${logoUrl ? html`<img class="brand-logo" src="${logoUrl}" alt="" height="32">` : ""}${brandName}</span>
</header>`;
}
