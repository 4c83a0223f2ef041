/** The "Previous · Page 2 of 7 · 64 reports · Next" bar under a list, its links carrying the list's state. */
import { html, type SafeHtml } from "../html.js";
import { listPageLink } from "../list-query.js";

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
