/*
 * Productos (docs/design.md §6): the agency's plan — active-listing capacity and
 * quota per exposure level — with what is in use.
 */
import { link, path } from '#core/http/links'
import type { AgencyView, PlanView } from '#agencies/services/agency_directory'
import type { Usage } from '#agencies/services/plan_usage'

/** Exposure levels, best first, with their wire names. */
const LEVELS = [
  ['Alta', 'high'],
  ['Media', 'medium'],
  ['Baja', 'low'],
] as const

export function productsShapes(agency: AgencyView, plan: PlanView, used: Usage) {
  const href = path('productos', agency.adminMail)
  const total = used.high + used.medium + used.low
  return {
    full: () => ({
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
      ),
      Suspendida: agency.suspended,
      _links: { self: link(href), agencia: link(path('agencias', agency.adminMail)) },
    }),
    ref: () => ({ href, title: `Productos de ${agency.tradeName}` }),
  }
}
