/*
 * Operador on the wire (docs/spec.md §2.8): full with Direcciones as names, reference
 * `{href, title: "Nombre Apellido (email)"}`.
 */
import { expand, group, link, segment, templated } from '#core/http/links'
import { listEnvelope } from '#core/http/envelopes'
import type Operator from '#agencies/models/operator'
import type { PlaceNames } from '#agencies/services/place_names'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinkGroupSchema, LinksSchema, type ReferenceSchema } from '#core/openapi/wire'
import { LocationProperties, locationOf } from './location.js'

export const OperadorSchema = named(
  'Operador',
  object({
    Nombre: { type: ['string', 'null'] },
    Apellido: { type: ['string', 'null'] },
    Email: { type: 'string', format: 'email' },
    Telefonos: { type: 'array', items: { type: 'string' } },
    Direcciones: {
      type: 'array',
      items: object(LocationProperties),
    },
    EsAdministradorAgencia: { type: 'boolean' },
    Publicaciones: LinkGroupSchema,
    Consultas: LinkGroupSchema,
    _links: LinksSchema,
  })
)

export type OperatorEntry = { operator: Operator; isAdmin: boolean; agencyEmail: string }

export function operatorHref(agencyEmail: string, email: string) {
  return expand(`/v3/operadores/${segment(agencyEmail)}{?operador}`, { operador: email })
}

export function operatorTitle(operator: Operator) {
  const name = [operator.firstName, operator.lastName].filter(Boolean).join(' ')
  return name ? `${name} (${operator.email})` : `(${operator.email})`
}

export function operatorRef({
  operator,
  agencyEmail,
}: OperatorEntry): Wire<typeof ReferenceSchema> {
  return { href: operatorHref(agencyEmail, operator.email), title: operatorTitle(operator) }
}

export function operatorFull(entry: OperatorEntry, names: PlaceNames): Wire<typeof OperadorSchema> {
  const { operator, isAdmin, agencyEmail } = entry
  const self = operatorHref(agencyEmail, operator.email)
  const a = segment(agencyEmail)
  const hasAddress = operator.regionId || operator.cityId || operator.address
  const links: Record<string, any> = { self: link(self), edit: link(self, { method: 'PUT' }) }
  if (!isAdmin) {
    links.desasociar = {
      ...templated(
        `/v3/operadores/${a}/desasociar?operador=${encodeURIComponent(operator.email)}{&operadorDestino}`
      ),
      method: 'PATCH',
    }
  }
  links.agencia = link(`/v3/agencias/${a}`)
  return {
    Nombre: operator.firstName,
    Apellido: operator.lastName,
    Email: operator.email,
    Telefonos: operator.phones,
    Direcciones: hasAddress ? [locationOf(operator, names)] : [],
    EsAdministradorAgencia: isAdmin,
    Publicaciones: group({
      self: link(expand(`/v3/publicaciones/${a}{?operador}`, { operador: operator.email })),
    }),
    Consultas: group({
      self: link(expand(`/v3/consultas/${a}{?operador}`, { operador: operator.email })),
    }),
    _links: links,
  }
}

export function operatorShapes(entry: OperatorEntry, names: PlaceNames) {
  return { full: () => operatorFull(entry, names), ref: () => operatorRef(entry) }
}

export function operatorListShapes(
  agencyEmail: string,
  entries: OperatorEntry[],
  names: PlaceNames
) {
  const a = segment(agencyEmail)
  const links = {
    self: link(`/v3/operadores/${a}`),
    operador: templated(`/v3/operadores/${a}{?operador}`),
    crear: link(`/v3/operadores/${a}`, { method: 'POST' }),
    agencia: link(`/v3/agencias/${a}`),
  }
  return {
    full: () =>
      listEnvelope(
        links,
        entries.map((entry) => operatorFull(entry, names))
      ),
    ref: () => listEnvelope(links, entries.map(operatorRef)),
  }
}
