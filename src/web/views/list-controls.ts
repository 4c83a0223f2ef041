/**
 * The controls every list page shares: the notice of ignored parameters, the order and page-size selects, and
 * the "Previous · Page 2 of 7 · 64 reports · Next" bar whose links carry the list's state.
 */
import { html, type SafeHtml } from "../html.js";
import { listPageLink, perPageValues } from "../list-query.js";
import { alert, option } from "./forms.js";

export function ignoredNotice(ignored: string[]): SafeHtml | "" {
  return ignored.length > 0 ? alert(`Ignored invalid ${ignored.join(", ")}.`) : "";
}

export function orderFields(state: { sort: string; per_page: number }): SafeHtml {
  return html`<div><label for="sort">Order</label><select id="sort" name="sort">${option("desc", "Descending", state.sort)}${option("asc", "Ascending", state.sort)}</select></div>
    <div><label for="per_page">Per page</label><select id="per_page" name="per_page">${perPageValues.map((value) => option(value, value, String(state.per_page)))}</select></div>`;
}

export function paginationNav(
  path: string,
  state: Record<string, string | number> & { page: number; per_page: number },
  total: number,
  noun: string,
): SafeHtml {
  const lastPage = Math.max(1, Math.ceil(total / state.per_page));
  return html`<nav class="pagination" aria-label="Pages">
    ${state.page > 1 ? html`<a href="${listPageLink(path, state, state.page - 1)}" rel="prev">Previous</a>` : ""}
    <span>Page ${state.page} of ${lastPage} · ${total} ${noun}</span>
    ${state.page < lastPage ? html`<a href="${listPageLink(path, state, state.page + 1)}" rel="next">Next</a>` : ""}
  </nav>`;
}
