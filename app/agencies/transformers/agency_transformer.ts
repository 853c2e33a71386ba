/*
 * Agencia on the wire (docs/spec.md §2.5): full with every link group, reference
 * `{AdminMail, href, title}`; and the pending-invitation status document.
 */
import { group, link, path, templated } from '#core/http/links'
import { listEnvelope } from '#core/http/envelopes'
import { segment } from '#core/http/links'
import type Invitation from '#agencies/models/invitation'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinkGroupSchema, LinkSchema, LinksSchema } from '#core/openapi/wire'

const groups = [
  'Productos',
  'Operadores',
  'Sucursales',
  'Notificaciones',
  'Publicaciones',
  'Consultas',
  'Visitas',
] as const

export const AgenciaSchema = named('Agencia', {
  type: 'object',
  required: ['AdminMail', 'NombreComercial', ...groups, '_links'],
  properties: {
    AdminMail: { type: 'string', format: 'email' },
    NombreComercial: { type: 'string' },
    ...(Object.fromEntries(groups.map((name) => [name, LinkGroupSchema])) as Record<
      (typeof groups)[number],
      typeof LinkGroupSchema
    >),
    _links: {
      type: 'object',
      required: ['self', 'edit', 'privacidad'],
      properties: {
        self: LinkSchema,
        edit: LinkSchema,
        privacidad: { ...LinkSchema, description: 'Las preferencias de privacidad de la agencia' },
      },
      additionalProperties: LinkSchema,
    },
  },
})

export const AgenciaRefSchema = named(
  'AgenciaRef',
  object({
    AdminMail: { type: 'string' },
    href: { type: 'string' },
    title: { type: 'string' },
  })
)

export const InvitacionPendienteSchema = named(
  'InvitacionPendiente',
  object({
    AdminMail: { type: 'string' },
    NombreComercial: { type: 'string' },
    Estado: { type: 'string', enum: ['Pendiente'] },
    Enviada: { type: 'string', format: 'date-time' },
    Vence: { type: 'string', format: 'date-time' },
    _links: LinksSchema,
  })
)

export type AgencyWire = { adminEmail: string; tradeName: string }

export function agencyHref(adminMail: string) {
  return path('agencias', adminMail)
}

export function agencyRef(agency: AgencyWire): Wire<typeof AgenciaRefSchema> {
  return {
    AdminMail: agency.adminEmail,
    href: agencyHref(agency.adminEmail),
    title: agency.tradeName,
  }
}

export function agencyFull(agency: AgencyWire): Wire<typeof AgenciaSchema> {
  const m = agency.adminEmail
  const s = segment(m)
  return {
    AdminMail: m,
    NombreComercial: agency.tradeName,
    Productos: group({ self: link(path('productos', m)) }),
    Operadores: group({
      self: link(path('operadores', m)),
      operador: templated(`/v3/operadores/${s}{?operador}`),
      crear: link(path('operadores', m), { method: 'POST' }),
      editar: { ...templated(`/v3/operadores/${s}{?operador}`), method: 'PUT' },
      desasociar: {
        ...templated(`/v3/operadores/${s}/desasociar{?operador,operadorDestino}`),
        method: 'PATCH',
      },
    }),
    Sucursales: group({
      self: link(path('sucursales', m)),
      crear: link(path('sucursales', m), { method: 'POST' }),
    }),
    Notificaciones: group({
      self: link(path('notificaciones', m)),
      edit: link(path('notificaciones', m), { method: 'PUT' }),
    }),
    Publicaciones: group({
      self: link(path('publicaciones', m)),
      buscar: templated(`/v3/publicaciones/${s}{?operador,estado,pagina}`),
    }),
    Consultas: group({
      self: link(path('consultas', m)),
      buscar: templated(`/v3/consultas/${s}{?operador,externalid,desde,hasta,pagina}`),
    }),
    Visitas: group({
      self: link(path('visitas', m)),
      buscar: templated(`/v3/visitas/${s}{?externalid,operador,desde,hasta}`),
    }),
    _links: {
      self: link(agencyHref(m)),
      edit: link(agencyHref(m), { method: 'PUT' }),
      privacidad: link(path('privacidad', m)),
    },
  }
}

export function agencyShapes(agency: AgencyWire) {
  return { full: () => agencyFull(agency), ref: () => agencyRef(agency) }
}

export function agencyListShapes(agencies: AgencyWire[]) {
  const links = { self: link('/v3/agencias'), invitar: link('/v3/agencias', { method: 'POST' }) }
  return {
    full: () => listEnvelope(links, agencies.map(agencyFull)),
    ref: () => listEnvelope(links, agencies.map(agencyRef)),
  }
}

/** The invitation status document (docs/design.md §6) while pending. */
export function invitationShapes(invitation: Invitation) {
  const href = agencyHref(invitation.adminEmail)
  return {
    full: (): Wire<typeof InvitacionPendienteSchema> => ({
      AdminMail: invitation.adminEmail,
      NombreComercial: invitation.tradeName,
      Estado: 'Pendiente',
      Enviada: invitation.sentAt.toISO()!,
      Vence: invitation.expiresAt.toISO()!,
      _links: { self: link(href), reenviar: link('/v3/agencias', { method: 'POST' }) },
    }),
    ref: (): Wire<typeof AgenciaRefSchema> => ({
      AdminMail: invitation.adminEmail,
      href,
      title: invitation.tradeName,
    }),
  }
}
