/*
 * Code → wire for app events (docs/design.md §14): the webhook body of the
 * event topics and the entries of GET /v3/eventos have the same shape.
 */
import { link, type Links } from '#core/http/links'
import { listEnvelope } from '#core/http/envelopes'
import { named, object, nullableObject, type Wire } from '#core/openapi/schema'
import { LinksSchema } from '#core/openapi/wire'
import { APP_TOPICS } from '#apps/topics'
import type { EventRow } from '#apps/stores/app_event_store'
import { eventBody } from '#apps/services/app_events'
import type { HistoryPage } from '#apps/services/event_history'

export const EVENT_KINDS = [
  'InvitacionAceptada',
  'FotoLista',
  'FotoRechazada',
  'PublicacionSuspendida',
  'PublicacionActivada',
  'PublicacionArchivada',
  'ConsultaRecibida',
  'EntregaFallida',
  'InteresadoSuprimido',
  'Prueba',
] as const

export const EventoSchema = named(
  'Evento',
  object({
    Id: { type: 'string', description: 'Id estable del evento; igual al encabezado webhook-id' },
    Tipo: { type: 'string', enum: EVENT_KINDS },
    Momento: { type: 'string', format: 'date-time' },
    Topico: { type: 'string', enum: APP_TOPICS },
    Agencia: nullableObject({ AdminMail: { type: 'string' }, href: { type: 'string' } }),
    Recurso: nullableObject({ href: { type: 'string' }, title: { type: 'string' } }),
    Datos: {
      type: 'object',
      description:
        'Según Tipo: Motivo y Url (FotoRechazada), Causa (Publicacion*), Canal y UltimoError (EntregaFallida), Consultas (InteresadoSuprimido: los href de las consultas cuyos datos del interesado se suprimieron)',
    },
  })
)

export const EventosSchema = named(
  'Eventos',
  object({
    _links: LinksSchema,
    _entries: { type: 'array', items: EventoSchema },
  })
)

export const PruebaResultadoSchema = named(
  'PruebaResultado',
  object({
    Estado: {
      type: ['integer', 'null'],
      description: 'Código HTTP del receptor; null sin respuesta',
    },
    DuracionMs: { type: 'integer', minimum: 0 },
    Error: { type: ['string', 'null'] },
  })
)

export function appEventFull(event: EventRow): Wire<typeof EventoSchema> {
  return eventBody(event) as Wire<typeof EventoSchema>
}

/** A page of history; events have no reference form, so both representations carry the page. */
export function appEventPageShapes(page: HistoryPage, query: { desde?: string; topico?: string }) {
  const body = (): Wire<typeof EventosSchema> => {
    const href = (desde?: string) => {
      const params = new URLSearchParams()
      if (desde) params.set('desde', desde)
      if (query.topico) params.set('topico', query.topico)
      const qs = params.toString()
      return '/v3/eventos' + (qs ? `?${qs}` : '')
    }
    const links: Links = { self: link(href(query.desde)) }
    if (page.events.length > 0 && page.next) links.next = link(href(page.next))
    return listEnvelope(links, page.events.map(appEventFull))
  }
  return { full: body, ref: body }
}

/** The outcome of a test event; the same body in both representations. */
export function testEventShapes(result: {
  status: number | null
  durationMs: number
  error: string | null
}) {
  const body = (): Wire<typeof PruebaResultadoSchema> => ({
    Estado: result.status,
    DuracionMs: result.durationMs,
    Error: result.error,
  })
  return { full: body, ref: body }
}
