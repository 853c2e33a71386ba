/*
 * Sucursal on the wire (docs/spec.md §2.10): names for Region/Ciudad, hours as
 * HH:MM:SS; reference `{href, title: Descripcion}`.
 */
import { link, path } from '#core/http/links'
import { listEnvelope } from '#core/http/envelopes'
import type Branch from '#agencies/models/branch'
import type { PlaceNames } from '#agencies/services/place_names'

const hours = (from: string | null, to: string | null) =>
  from && to ? { Desde: from, Hasta: to } : null

export function branchHref(agencyEmail: string, branch: Branch) {
  return path('sucursales', agencyEmail, branch.id)
}

export function branchRef(agencyEmail: string, branch: Branch) {
  return { href: branchHref(agencyEmail, branch), title: branch.description }
}

export function branchFull(agencyEmail: string, branch: Branch, names: PlaceNames) {
  const href = branchHref(agencyEmail, branch)
  return {
    Descripcion: branch.description,
    Email: branch.email,
    Telefono: branch.phone,
    Region: names.region(branch.regionId),
    Ciudad: names.city(branch.cityId),
    Direccion: branch.address ?? '',
    Comercial: branch.sales,
    TallerMecanico: branch.workshop,
    Autopartes: branch.parts,
    Laborable: hours(branch.workdayFrom, branch.workdayTo),
    PreFestivo: hours(branch.preHolidayFrom, branch.preHolidayTo),
    Festivo: hours(branch.holidayFrom, branch.holidayTo),
    ResponsableLeadsPostVenta: branch.afterSalesLeadOwner,
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
