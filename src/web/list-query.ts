/**
 * The state of a list page (reports, projects) read from its query string, so a view can be bookmarked. Unlike
 * the API, a page never refuses a bad value: it falls back to the default and says which parameters it
 * ignored. Free-text values are trimmed and cut at 255 characters; `page` must be a positive integer.
 */
type Query = Record<string, string | undefined>;

/** The choices every list shares with the API: the order and the page sizes (the first is the default order). */
export const sortChoices = { allowed: ["desc", "asc"], fallback: "desc" };
export const perPageValues = ["10", "25", "50", "100"];

export interface ListQuery<Choice extends string, Text extends string> {
  values: Record<Choice | Text, string>;
  page: number;
  /** The parameters whose values were not allowed, in the order of `choices`. */
  ignored: string[];
}

export function readListQuery<Choice extends string, Text extends string>(
  query: Query,
  choices: Record<Choice, { allowed: readonly string[]; fallback: string }>,
  texts: readonly Text[],
): ListQuery<Choice, Text> {
  const ignored: string[] = [];
  const values = {} as Record<Choice | Text, string>;
  for (const [name, { allowed, fallback }] of Object.entries(choices) as Array<
    [Choice, { allowed: readonly string[]; fallback: string }]
  >) {
    const value = query[name]?.trim();
    if (value && !allowed.includes(value)) ignored.push(name);
    values[name] = value && allowed.includes(value) ? value : fallback;
  }
  for (const name of texts) values[name] = (query[name] ?? "").trim().slice(0, 255);
  const rawPage = query.page?.trim();
  let page = 1;
  if (rawPage) {
    if (/^[1-9][0-9]{0,8}$/.test(rawPage)) page = Number(rawPage);
    else ignored.push("page");
  }
  return { values, page, ignored };
}

/** The link to another page of the same list: the current state with empty values left out. */
export function listPageLink(path: string, state: Record<string, string | number>, page: number): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...state, page }))
    if (String(value) !== "") query.set(key, String(value));
  return `${path}?${query.toString()}`;
}
