/*
 * Hypermedia links (docs/design.md §4): relative hrefs, `method` on actions and
 * RFC 6570 templates expanded by `url-template`.
 */
import { parseTemplate } from 'url-template'

export type Link = { href: string; templated?: true; method?: string; title?: string }
export type Links = Record<string, Link>
export type LinkGroup = { _links: Links }

export function link(href: string, extra: { method?: string; title?: string } = {}): Link {
  return { href, ...extra }
}

/** A query link left for the client to fill, e.g. `/v3/marcas{?q}`. */
export function templated(template: string): Link {
  return { href: template, templated: true }
}

/** A link group holding only `_links`. */
export function group(links: Links): LinkGroup {
  return { _links: links }
}

const cache = new Map<string, ReturnType<typeof parseTemplate>>()

/** Expands an RFC 6570 template; undefined and null values drop out. */
export function expand(template: string, values: Record<string, unknown>): string {
  let parsed = cache.get(template)
  if (!parsed) {
    parsed = parseTemplate(template)
    cache.set(template, parsed)
  }
  const clean: Record<string, string | number | boolean> = {}
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') clean[key] = value as any
  }
  return parsed.expand(clean)
}

/** Characters a segment keeps as they are: RFC 3986's unreserved ones, and `@`. */
const PLAIN = /^[\w.~@-]*$/

/** One path segment; `@` stays readable since RFC 3986 allows it in paths. */
export function segment(value: string | number): string {
  // Ids, sids and most e-mail addresses have nothing to encode, and every entry of a list has a few links.
  if (typeof value === 'number') return String(value)
  return PLAIN.test(value) ? value : encodeURIComponent(value).replaceAll('%40', '@')
}

/** Builds `/v3/a/b` from segments, encoding each. */
export function path(...segments: Array<string | number>): string {
  return '/v3/' + segments.map(segment).join('/')
}
