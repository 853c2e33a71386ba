/*
 * Wire shape of the visits report: a list envelope of daily counts per
 * listing, `{ExternalId, Fecha, Visitas, _links}`, full or reference.
 */
import { expand, path, templated, type Links } from '#core/http/links'
import { listEnvelope } from '#core/http/envelopes'
import type { VisitRow } from '#buyers/services/visit_report'
import { named, type Wire } from '#core/openapi/schema'
import { LinksSchema } from '#core/openapi/wire'

const counts = {
  ExternalId: { type: 'string' },
  Fecha: { type: 'string', format: 'date' },
  Visitas: { type: 'integer', minimum: 1 },
} as const

export const VisitaSchema = named('Visita', {
  type: 'object',
  required: ['ExternalId', 'Fecha', 'Visitas', '_links'],
  properties: { ...counts, _links: LinksSchema },
})

export const VisitaRefSchema = named('VisitaRef', {
  type: 'object',
  required: ['ExternalId', 'Fecha', 'Visitas', 'href', 'title'],
  properties: { ...counts, href: { type: 'string' }, title: { type: 'string' } },
})

const QUERY = '{?externalid,desde,hasta,operador}'

export type VisitListContext = {
  adminMail: string
  query: { externalid?: string; desde: string; hasta: string; operador?: string }
}

function entryHref(adminMail: string, row: VisitRow) {
  return (
    path('visitas', adminMail) +
    expand(QUERY, { externalid: row.externalId, desde: row.day, hasta: row.day })
  )
}

function entryLinks(adminMail: string, row: VisitRow): Links {
  return {
    self: { href: entryHref(adminMail, row) },
    publicacion: { href: path('publicaciones', adminMail, row.externalId) },
  }
}

export function visitFull(adminMail: string, row: VisitRow): Wire<typeof VisitaSchema> {
  return {
    ExternalId: row.externalId,
    Fecha: row.day,
    Visitas: row.visits,
    _links: entryLinks(adminMail, row),
  }
}

export function visitRef(adminMail: string, row: VisitRow): Wire<typeof VisitaRefSchema> {
  return {
    ExternalId: row.externalId,
    Fecha: row.day,
    Visitas: row.visits,
    href: entryHref(adminMail, row),
    title: `${row.externalId} ${row.day}: ${row.visits} ${row.visits === 1 ? 'visita' : 'visitas'}`,
  }
}

export function visitList({ adminMail, query }: VisitListContext, rows: VisitRow[]) {
  const links: Links = {
    self: { href: path('visitas', adminMail) + expand(QUERY, query) },
    filtrar: templated(path('visitas', adminMail) + QUERY),
    agencia: { href: path('agencias', adminMail) },
  }
  return {
    full: () =>
      listEnvelope(
        links,
        rows.map((row) => visitFull(adminMail, row))
      ),
    ref: () =>
      listEnvelope(
        links,
        rows.map((row) => visitRef(adminMail, row))
      ),
  }
}
