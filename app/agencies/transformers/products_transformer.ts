/*
 * Productos (docs/design.md §6): the agency's plan — active-listing capacity and
 * quota per exposure level — with what is in use.
 */
import { link, path } from '#core/http/links'
import type { AgencyView, PlanView } from '#agencies/services/agency_directory'
import type { Usage } from '#agencies/services/plan_usage'

import { named, object, type Wire } from '#core/openapi/schema'
import { LinksSchema, type ReferenceSchema } from '#core/openapi/wire'

/** Exposure levels, best first, with their wire names. */
const LEVELS = [
  ['Alta', 'high'],
  ['Media', 'medium'],
  ['Baja', 'low'],
] as const

const QuotaSchema = object({
  Cupo: { type: 'integer' },
  Usadas: { type: 'integer' },
  Disponibles: { type: 'integer' },
})

export const ProductosSchema = named(
  'Productos',
  object({
    Capacidad: { type: 'integer' },
    Usadas: { type: 'integer' },
    Disponibles: { type: 'integer' },
    Exposiciones: object({ Alta: QuotaSchema, Media: QuotaSchema, Baja: QuotaSchema }),
    Suspendida: { type: 'boolean' },
    _links: LinksSchema,
  })
)

export function productsShapes(agency: AgencyView, plan: PlanView, used: Usage) {
  const href = path('productos', agency.adminMail)
  const total = used.high + used.medium + used.low
  return {
    full: (): Wire<typeof ProductosSchema> => ({
      Capacidad: plan.capacity,
      Usadas: total,
      Disponibles: Math.max(0, plan.capacity - total),
      Exposiciones: Object.fromEntries(
        LEVELS.map(([wire, level]) => [
          wire,
          {
            Cupo: plan.quotas[level],
            Usadas: used[level],
            Disponibles: Math.max(0, plan.quotas[level] - used[level]),
          },
        ])
      ) as Wire<typeof ProductosSchema>['Exposiciones'],
      Suspendida: agency.suspended,
      _links: { self: link(href), agencia: link(path('agencias', agency.adminMail)) },
    }),
    ref: (): Wire<typeof ReferenceSchema> => ({ href, title: `Productos de ${agency.tradeName}` }),
  }
}
