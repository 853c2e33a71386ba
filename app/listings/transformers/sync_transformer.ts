/*
 * Sincronizacion and its row results (docs/design.md §15): the wire names of
 * a stock sync live here and in validators/inventory.ts.
 */
import { expand, link, path, type Links } from '#core/http/links'
import { listEnvelope, pagedEnvelope, type Page } from '#core/http/envelopes'
import { wireTime } from '#core/wire_time'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinksSchema } from '#core/openapi/wire'
import type { AgencyView } from '#agencies/services/agency_directory'
import type { ResultRow, SyncData, SyncOutcome, SyncState } from '#listings/stores/sync_store'
import { rowRejectionErrors, syncFailureProblem } from '#listings/http/problems'
import type { ListingNotice } from '#listings/services/listing_failures'
import { AvisosSchema, avisos, listingHref } from './listing_transformer.js'

type Agency = Pick<AgencyView, 'adminMail'>

export const OUTCOME_WIRE: Record<SyncOutcome, string> = {
  created: 'Creada',
  updated: 'Actualizada',
  unchanged: 'SinCambios',
  archived: 'Archivada',
  rejected: 'Rechazada',
}

const STATE_WIRE: Record<SyncState, string> = {
  pending: 'Pendiente',
  running: 'EnCurso',
  done: 'Terminada',
  failed: 'Fallida',
}

/** `Creada` → `created`, for the results filter. */
export const OUTCOME_OF = Object.fromEntries(
  Object.entries(OUTCOME_WIRE).map(([outcome, wire]) => [wire, outcome])
) as Record<string, SyncOutcome>

const count = { type: 'integer', minimum: 0 } as const

export const ResumenSchema = named(
  'ResumenSincronizacion',
  object({
    Creadas: count,
    Actualizadas: count,
    SinCambios: count,
    Archivadas: count,
    Rechazadas: count,
  })
)

/** Why a sync is `Fallida`: the problem document a request would have had (docs/design.md §25). */
export const ProblemaSincronizacionSchema = named('ProblemaSincronizacion', {
  type: 'object',
  description:
    'Solo en una sincronización Fallida: por qué, como el problema que habría tenido una solicitud (la guarda de bajas al comenzar: 409 con Extensions.Bajas; la aplicación deshabilitada o sin credenciales vigentes: 403; fallas repetidas en la misma fila: 500)',
  required: ['Status', 'Detail'],
  properties: {
    Status: { type: 'integer' },
    Detail: { type: 'string' },
    Errors: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
    Extensions: {
      type: 'object',
      properties: {
        Bajas: {
          ...count,
          description: 'Cuántas publicaciones habría archivado (la guarda de bajas al comenzar)',
        },
      },
    },
  },
} as const)

const syncMembers = {
  Id: { type: 'integer' },
  Modo: { type: 'string', enum: ['Completa', 'Parcial'] },
  Simulada: { type: 'boolean' },
  Estado: { type: 'string', enum: Object.values(STATE_WIRE) },
  Recibida: { type: 'string', format: 'date-time' },
  Terminada: { type: ['string', 'null'], format: 'date-time' },
  Total: count,
  Procesadas: count,
  Resumen: ResumenSchema,
  _links: LinksSchema,
} as const

export const SincronizacionSchema = named('Sincronizacion', {
  type: 'object',
  required: Object.keys(syncMembers) as (keyof typeof syncMembers)[],
  properties: {
    ...syncMembers,
    ConfirmacionRequerida: {
      type: 'boolean',
      description:
        'Solo en una Completa simulada: true cuando la sincronización real necesitaría ConfirmarBajas',
    },
    Problema: ProblemaSincronizacionSchema,
  },
} as const)

const resultado = object({
  ExternalId: { type: ['string', 'null'] },
  Resultado: { type: 'string', enum: Object.values(OUTCOME_WIRE) },
  Errors: {
    type: ['object', 'null'],
    properties: { _omitidos: { type: 'array', items: { type: 'string' } } },
    additionalProperties: { type: 'array', items: { type: 'string' } },
    maxProperties: 51,
    description:
      'Solo en Rechazada: los Errors que la solicitud individual respondería; a lo sumo 50 claves, y `_omitidos` cuenta las demás',
  },
  _links: LinksSchema,
})

export const ResultadoSincronizacionSchema = named('ResultadoSincronizacion', {
  ...resultado,
  properties: { ...resultado.properties, Avisos: AvisosSchema },
})

export function syncsHref(agency: Agency) {
  return path('publicaciones', agency.adminMail, 'sincronizaciones')
}

export function syncHref(agency: Agency, id: number) {
  return path('publicaciones', agency.adminMail, 'sincronizaciones', id)
}

const RESULTS_TEMPLATE = (agency: Agency, id: number) =>
  `${syncHref(agency, id)}/resultados{?resultado,pagina}`

function summary(sync: SyncData): Wire<typeof ResumenSchema> {
  return {
    Creadas: sync.counts.created,
    Actualizadas: sync.counts.updated,
    SinCambios: sync.counts.unchanged,
    Archivadas: sync.counts.archived,
    Rechazadas: sync.counts.rejected,
  }
}

export function syncFull(agency: Agency, sync: SyncData): Wire<typeof SincronizacionSchema> {
  return {
    Id: sync.id,
    Modo: sync.mode === 'full' ? 'Completa' : 'Parcial',
    Simulada: sync.simulated,
    Estado: STATE_WIRE[sync.state],
    Recibida: wireTime(sync.receivedAt),
    Terminada: sync.finishedAt ? wireTime(sync.finishedAt) : null,
    Total: sync.total,
    Procesadas: sync.processed,
    Resumen: summary(sync),
    _links: {
      self: link(syncHref(agency, sync.id)),
      resultados: { href: RESULTS_TEMPLATE(agency, sync.id), templated: true },
    },
    ...(sync.simulated && sync.mode === 'full'
      ? { ConfirmacionRequerida: sync.confirmationRequired }
      : {}),
    ...(sync.state === 'failed' && sync.failure ? { Problema: problema(sync) } : {}),
  }
}

function problema(sync: SyncData): Wire<typeof ProblemaSincronizacionSchema> {
  const { status, options } = syncFailureProblem(sync.failure!)
  return {
    Status: status,
    Detail: options.detail!,
    ...(options.errors ? { Errors: options.errors } : {}),
    ...(options.extensions ? { Extensions: options.extensions } : {}),
  }
}

function syncRef(agency: Agency, sync: SyncData) {
  return { href: syncHref(agency, sync.id), title: `Sincronización ${sync.id}` }
}

export function syncShapes(agency: Agency, sync: SyncData) {
  return { full: () => syncFull(agency, sync), ref: () => syncRef(agency, sync) }
}

export function syncListShapes(agency: Agency, syncs: SyncData[]) {
  const links: Links = { self: link(syncsHref(agency)) }
  return {
    full: () =>
      listEnvelope(
        links,
        syncs.map((sync) => syncFull(agency, sync))
      ),
    ref: () =>
      listEnvelope(
        links,
        syncs.map((sync) => syncRef(agency, sync))
      ),
  }
}

function resultEntry(agency: Agency, row: ResultRow): Wire<typeof ResultadoSincronizacionSchema> {
  const links: Links = {}
  if (row.outcome !== 'rejected' && row.externalId) {
    links.publicacion = link(listingHref(agency, row.externalId))
  }
  return {
    ExternalId: row.externalId,
    Resultado: OUTCOME_WIRE[row.outcome],
    Errors: resultErrors(row),
    // The row's write, as a single PUT or POST would have said it (docs/design.md §24).
    ...(row.notices?.length ? { Avisos: avisos(row.notices as ListingNotice[]) } : {}),
    _links: links,
  }
}

/**
 * A row's `Errors`: its rejection worded now, or, for a row recorded before
 * rejections were stored in domain words (migration 0304), the text it kept.
 */
export function resultErrors(row: ResultRow) {
  return row.rejection ? rowRejectionErrors(row.rejection) : row.errors
}

export function resultPageShapes(
  agency: Agency,
  sync: SyncData,
  rows: ResultRow[],
  page: Page,
  values: { resultado?: string }
) {
  const template = RESULTS_TEMPLATE(agency, sync.id)
  const entries = () => rows.map((row) => resultEntry(agency, row))
  return {
    full: () => pagedEnvelope(template, values, page, entries()),
    ref: () => pagedEnvelope(template, values, page, entries()),
  }
}

/** SincronizacionTerminada (topic `publicaciones`): the counts, and the sync as its Recurso. */
export function syncFinishedEvent(agency: Agency, sync: SyncData) {
  return {
    Tipo: 'SincronizacionTerminada',
    Agencia: { AdminMail: agency.adminMail, href: path('agencias', agency.adminMail) },
    Recurso: { href: expand(syncHref(agency, sync.id), {}), title: `Sincronización ${sync.id}` },
    Datos: summary(sync),
  }
}
