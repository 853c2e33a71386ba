/*
 * Sucursal on the wire (docs/spec.md §2.10): names for Region/Ciudad, hours as
 * HH:MM:SS; reference `{href, title: Descripcion}`.
 */
import { link, path } from '#core/http/links'
import { listEnvelope } from '#core/http/envelopes'
import type Branch from '#agencies/models/branch'
import type { PlaceNames } from '#agencies/services/place_names'
import { named, object, nullableObject, type Wire } from '#core/openapi/schema'
import { LinksSchema, type ReferenceSchema } from '#core/openapi/wire'
import { LocationProperties, locationOf } from './location.js'

const HoursSchema = named(
  'Horario',
  nullableObject({
    Desde: { type: 'string', examples: ['09:00:00'] },
    Hasta: { type: 'string', examples: ['18:00:00'] },
  })
)

export const SucursalSchema = named(
  'Sucursal',
  object({
    Descripcion: { type: 'string' },
    Email: { type: ['string', 'null'], format: 'email' },
    Telefono: { type: ['string', 'null'] },
    ...LocationProperties,
    Comercial: { type: 'boolean' },
    TallerMecanico: { type: 'boolean' },
    Autopartes: { type: 'boolean' },
    Laborable: HoursSchema,
    PreFestivo: HoursSchema,
    Festivo: HoursSchema,
    ResponsableLeadsPostVenta: { type: ['string', 'null'], format: 'email' },
    _links: LinksSchema,
  })
)

const hours = (from: string | null, to: string | null) =>
  from && to ? { Desde: from, Hasta: to } : null

export function branchHref(agencyEmail: string, branch: Branch) {
  return path('sucursales', agencyEmail, branch.id)
}

export function branchRef(agencyEmail: string, branch: Branch): Wire<typeof ReferenceSchema> {
  return { href: branchHref(agencyEmail, branch), title: branch.description }
}

export function branchFull(
  agencyEmail: string,
  branch: Branch,
  names: PlaceNames
): Wire<typeof SucursalSchema> {
  const href = branchHref(agencyEmail, branch)
  return {
    Descripcion: branch.description,
    // A freshly created row leaves unset columns undefined; the wire sends null.
    Email: branch.email ?? null,
    Telefono: branch.phone ?? null,
    ...locationOf(branch, names),
    Comercial: branch.sales,
    TallerMecanico: branch.workshop,
    Autopartes: branch.parts,
    Laborable: hours(branch.workdayFrom, branch.workdayTo),
    PreFestivo: hours(branch.preHolidayFrom, branch.preHolidayTo),
    Festivo: hours(branch.holidayFrom, branch.holidayTo),
    ResponsableLeadsPostVenta: branch.afterSalesLeadOwner ?? null,
    _links: {
      self: link(href),
      edit: link(href, { method: 'PUT' }),
      agencia: link(path('agencias', agencyEmail)),
    },
  }
}

export function branchShapes(agencyEmail: string, branch: Branch, names: PlaceNames) {
  return {
    full: () => branchFull(agencyEmail, branch, names),
    ref: () => branchRef(agencyEmail, branch),
  }
}

export function branchListShapes(agencyEmail: string, branches: Branch[], names: PlaceNames) {
  const links = {
    self: link(path('sucursales', agencyEmail)),
    crear: link(path('sucursales', agencyEmail), { method: 'POST' }),
    agencia: link(path('agencias', agencyEmail)),
  }
  return {
    full: () =>
      listEnvelope(
        links,
        branches.map((branch) => branchFull(agencyEmail, branch, names))
      ),
    ref: () =>
      listEnvelope(
        links,
        branches.map((branch) => branchRef(agencyEmail, branch))
      ),
  }
}
