/**
 * The password-reset pages: asking for a link (/forgot-password), the answer (the same whether or not the
 * address has an account), the page saying mail is not set up, and the new-password form a link opens.
 */
import { html, type SafeHtml } from "../html.js";
import type { FormState } from "./account.js";
import { alert, csrfField, field, notice } from "./forms.js";

export function forgotPasswordBody(csrf: string, state: FormState = {}): SafeHtml {
  return html`<section class="card">
  <h1>Forgot your password?</h1>
  ${state.message ? alert(state.message) : ""}
  <p>Enter the e-mail address of your account: we send a link there to choose a new password.</p>
  <form method="post" action="/forgot-password" novalidate>
    ${csrfField(csrf)}
    ${field({ name: "email", label: "E-mail", type: "email", value: state.values?.email ?? "", error: state.errors?.email, autocomplete: "email", required: true })}
    <p><button type="submit">Send the link</button></p>
  </form>
  <p><a href="/login">Back to log in</a></p>
</section>`;
}

export function resetLinkSentBody(email: string): SafeHtml {
  return html`<section class="card">
  <h1>Check your inbox</h1>
  ${notice(html`If an account uses <strong>${email}</strong>, a link to choose a new password is on its way. It works once, within one hour.`)}
  <p>Nothing arrived after a few minutes? Look in the spam folder, or <a href="/forgot-password">ask again</a>.</p>
  <p><a href="/login">Back to log in</a></p>
</section>`;
}

export function mailNotSetUpBody(): SafeHtml {
  return html`<section class="card">
  <h1>Forgot your password?</h1>
  ${alert("Mail is not set up on this server, so a reset link cannot be sent.")}
  <p>Ask the operator of this pagegrade to reset your password; they can do it with
  <code>pagegrade user reset-password --email you@example.com</code>.</p>
  <p><a href="/login">Back to log in</a></p>
</section>`;
}

export function resetPasswordBody(csrf: string, token: string, state: FormState = {}): SafeHtml {
  return html`<section class="card">
  <h1>Choose a new password</h1>
  ${state.message ? alert(state.message) : ""}
  <form method="post" action="/reset-password" novalidate>
    ${csrfField(csrf)}
    <input type="hidden" name="token" value="${token}">
    ${field({ name: "password", label: "New password (at least 8 characters)", type: "password", error: state.errors?.password, autocomplete: "new-password", required: true })}
    <p><button type="submit">Set the password</button></p>
  </form>
  <p class="muted">Every session of the account is signed out; you are signed in here.</p>
</section>`;
}

export function invalidResetLinkBody(message: string): SafeHtml {
  return html`<section class="card">
  <h1>Reset link not valid</h1>
  ${alert(message)}
  <p><a href="/forgot-password">Ask for a new link</a> or <a href="/login">log in</a>.</p>
</section>`;
}
