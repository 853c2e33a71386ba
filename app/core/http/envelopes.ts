/*
 * The list envelope and the paged envelope of docs/spec.md §2.12, shared by every
 * collection of the API.
 */
import { expand, type Links } from './links.js'

export function listEnvelope<T>(links: Links, entries: T[]) {
  return { _links: links, _entries: entries }
}

export type Page = { page: number; perPage: number; total: number }

/**
 * Paged envelope. `template` is the collection's RFC 6570 template including
 * `pagina`; `values` are the query values in force. Period fields, when the
 * collection has them, are passed in `period`.
 */
export function pagedEnvelope<T>(
  template: string,
  values: Record<string, unknown>,
  page: Page,
  entries: T[],
  period?: { Desde: string; Hasta: string }
) {
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage))
  const links: Links = {
    self: { href: expand(template, { ...values, pagina: page.page }) },
    first: { href: expand(template, { ...values, pagina: 1 }) },
    page: { href: template, templated: true },
  }
  if (page.page < lastPage && page.page < 99) {
    links.next = { href: expand(template, { ...values, pagina: page.page + 1 }) }
  }
  if (page.page > 1) links.prev = { href: expand(template, { ...values, pagina: page.page - 1 }) }
  return {
    ...period,
    Pagina: page.page,
    Total: page.total,
    PerPagina: page.perPage,
    _links: links,
    _entries: entries,
  }
}
