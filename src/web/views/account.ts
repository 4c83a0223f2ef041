/** Sign-up, log-in and account pages. Forms keep what was typed, except passwords. */
import { html, type SafeHtml } from "../html.js";
import { withReturnPath } from "../return-path.js";
import { alert, csrfField, field, notice } from "./forms.js";

export interface FormState {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
  /** The same-origin page to return to once signed in (return-path.ts checked it), kept through the form. */
  next?: string | null;
}

export function registerBody(csrf: string, state: FormState = {}): SafeHtml {
  const next = state.next ?? null;
  return credentialsForm(csrf, state, {
    heading: "Create an account",
    action: "/register",
    passwordLabel: "Password (at least 8 characters)",
    passwordAutocomplete: "new-password",
    button: "Create account",
    after: html`<p>Already have an account? <a href="${withReturnPath("/login", next)}">Log in</a>.</p>`,
  });
}

export function loginBody(csrf: string, state: FormState = {}): SafeHtml {
  const next = state.next ?? null;
  return credentialsForm(csrf, state, {
    heading: "Log in",
    action: "/login",
    passwordLabel: "Password",
    passwordAutocomplete: "current-password",
    button: "Log in",
    after: html`<p><a href="/forgot-password">Forgot your password?</a></p>
  <p>No account yet? <a href="${withReturnPath("/register", next)}">Sign up</a>.</p>`,
  });
}

/** The e-mail and password form that signing up and logging in share, and what follows it. */
function credentialsForm(
  csrf: string,
  state: FormState,
  form: {
    heading: string;
    action: string;
    passwordLabel: string;
    passwordAutocomplete: string;
    button: string;
    after: SafeHtml;
  },
): SafeHtml {
  return html`<section class="card">
  <h1>${form.heading}</h1>
  ${state.message ? alert(state.message) : ""}
  <form method="post" action="${form.action}" novalidate>
    ${csrfField(csrf)}
    ${state.next ? html`<input type="hidden" name="next" value="${state.next}">` : ""}
    ${field({ name: "email", label: "E-mail", type: "email", value: state.values?.email ?? "", error: state.errors?.email, autocomplete: "email", required: true })}
    ${field({ name: "password", label: form.passwordLabel, type: "password", error: state.errors?.password, autocomplete: form.passwordAutocomplete, required: true })}
    <p><button type="submit">${form.button}</button></p>
  </form>
  ${form.after}
</section>`;
}

export interface AccountView {
  email: string;
  keys: Array<{ key: string; created_at: string }>;
  /** A key shown in full, once, right after it was made. */
  newKey: string | null;
  origin: string;
  flash: string | null;
}

/**
 * What to do first: shown to a new account (no API key yet, as sign-up leaves it) and right after a key was made.
 * The analyse form posts to /reports with its defaults (public, raw, no schedule).
 */
function nextSteps(csrf: string, withoutKey: boolean): SafeHtml {
  return html`<section class="card next-step">
  <h2>Next: analyse your first page</h2>
  <form method="post" action="/reports" novalidate data-busy="Analysing…">
    ${csrfField(csrf)}
    ${field({ name: "url", label: "Page URL", placeholder: "example.com/page (https:// is assumed)", type: "url", required: true, maxlength: 2048 })}
    <p><button type="submit">Analyse your first page</button> <a href="/crawls#url">or crawl a whole site</a> <span class="muted" data-busy-note role="status" hidden></span></p>
  </form>
  ${withoutKey ? html`<p>To call the API from your own programs, <a href="#api">create an API key</a>.</p>` : ""}
</section>`;
}

export function accountBody(csrf: string, view: AccountView, passwordState: FormState = {}): SafeHtml {
  const shownKey = view.newKey ?? view.keys[0]?.key ?? "YOUR_API_KEY";
  return html`<h1>Your account</h1>
${view.flash ? notice(view.flash) : ""}
${view.newKey || view.keys.length === 0 ? nextSteps(csrf, view.keys.length === 0) : ""}
<section class="card" id="api">
  <h2>API key</h2>
  ${
    view.newKey
      ? html`<p class="notice" role="status">Your new API key is shown only this once. Copy it now:</p>
  <p><code class="key" id="new-api-key">${view.newKey}</code></p>`
      : html`<p>${view.keys.length > 0 ? html`Your key: <code class="key" id="api-key">${view.keys[0]?.key}</code>` : "You have no API key."}</p>`
  }
  ${
    view.keys.length > 0
      ? html`<p><a href="/account/key">Regenerate the key…</a> <span class="muted">The current key stops working at once.</span></p>`
      : html`<form method="post" action="/account/key">${csrfField(csrf)}<button type="submit">Create an API key</button> <span class="muted">It is shown once, on the page that answers.</span></form>`
  }
  <h3>Calling the API</h3>
  <pre tabindex="0" aria-label="An example call"><code>curl -H "Authorization: Bearer ${shownKey}" \\
  -d "url=https://example.com/" ${view.origin}/api/v1/reports</code></pre>
</section>
<section class="card">
  <h2>Webhooks</h2>
  <p>Tell other systems when an analysis completes, fails or regresses: <a href="/account/webhooks">manage webhooks</a>.</p>
</section>
<section class="card">
  <h2>Teams</h2>
  <p>Work on the same sites with your colleagues, each with a role: <a href="/teams">your teams</a>.</p>
</section>
<section class="card">
  <h2>E-mail</h2>
  <p>${view.email}</p>
</section>
<section class="card">
  <h2>Change password</h2>
  ${passwordState.message ? alert(passwordState.message) : ""}
  <form method="post" action="/account/password" novalidate>
    ${csrfField(csrf)}
    ${field({ name: "current_password", label: "Current password", type: "password", error: passwordState.errors?.current_password, autocomplete: "current-password", required: true })}
    ${field({ name: "new_password", label: "New password (at least 8 characters)", type: "password", error: passwordState.errors?.new_password, autocomplete: "new-password", required: true })}
    <p><button type="submit">Change password</button></p>
  </form>
</section>`;
}
