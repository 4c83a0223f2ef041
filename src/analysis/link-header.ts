/**
 * The HTTP Link header (RFC 8288) as a list of links: `<https://a/>; rel="canonical", <…>; rel=alternate;
 * hreflang=de`. Commas inside <…> or quotes do not split links.
 */

export interface HeaderLink {
  /** The target as written between < and >. */
  target: string;
  /** Parameter names lower-cased; rel values lower-cased too. */
  params: Record<string, string>;
}

export function parseLinkHeader(header: string | undefined): HeaderLink[] {
  if (!header) return [];
  const links: HeaderLink[] = [];
  const pattern = /<([^<>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"[^"]*"|[^;,]*))?)*)/g;
  for (const match of header.matchAll(pattern)) {
    const params: Record<string, string> = {};
    for (const param of (match[2] ?? "").matchAll(/;\s*([^;,=\s]+)(?:\s*=\s*("[^"]*"|[^;,]*))?/g)) {
      const name = (param[1] ?? "").toLowerCase();
      let value = (param[2] ?? "").trim();
      if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      params[name] = name === "rel" ? value.toLowerCase() : value;
    }
    links.push({ target: (match[1] ?? "").trim(), params });
  }
  return links;
}

export function relTokens(link: HeaderLink): string[] {
  return (link.params.rel ?? "").split(/\s+/).filter(Boolean);
}
