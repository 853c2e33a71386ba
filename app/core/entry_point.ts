/*
 * The API entry points (docs/spec.md §2.15), built once per process with its ETag.
 */
import { etagOf } from '#core/http/etag'
import { group, link, templated } from '#core/http/links'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinkGroupSchema, LinkSchema } from '#core/openapi/wire'

/** The entry point's own links: the calling app's resources, and where the agency's inquiries are. */
const ENTRY_LINKS = [
  'self',
  'describedby',
  'aplicacion',
  'credenciales',
  'eventos',
  'consultas',
] as const

export const EntryPointSchema = named(
  'EntryPoint',
  object({
    Agencias: LinkGroupSchema,
    Regiones: LinkGroupSchema,
    Ciudades: LinkGroupSchema,
    Monedas: LinkGroupSchema,
    Propulsiones: LinkGroupSchema,
    Transmisiones: LinkGroupSchema,
    Carrocerias: LinkGroupSchema,
    Marcas: LinkGroupSchema,
    Modelos: LinkGroupSchema,
    Versiones: LinkGroupSchema,
    AppNotificaciones: LinkGroupSchema,
    _links: {
      type: 'object',
      required: [...ENTRY_LINKS],
      properties: Object.fromEntries(ENTRY_LINKS.map((name) => [name, LinkSchema])) as Record<
        (typeof ENTRY_LINKS)[number],
        typeof LinkSchema
      >,
      additionalProperties: LinkSchema,
    },
  })
)

export const entryPoint: Wire<typeof EntryPointSchema> = {
  Agencias: group({ self: link('/v3/agencias') }),
  Regiones: group({ self: link('/v3/regiones') }),
  Ciudades: group({ self: templated('/v3/ciudades{?region,q}') }),
  Monedas: group({ self: link('/v3/monedas') }),
  Propulsiones: group({ self: link('/v3/propulsiones') }),
  Transmisiones: group({ self: link('/v3/transmisiones') }),
  Carrocerias: group({ self: link('/v3/carrocerias') }),
  Marcas: group({ self: templated('/v3/marcas{?q,soloMercadoNuevos}') }),
  Modelos: group({ self: templated('/v3/modelos{?marca,q,soloMercadoNuevos}') }),
  Versiones: group({ self: templated('/v3/versiones{?modelo,year,q}') }),
  AppNotificaciones: group({ self: link('/v3/appnotificaciones') }),
  _links: {
    self: link('/v3'),
    describedby: link('/v3/openapi.json'),
    aplicacion: link('/v3/aplicacion'),
    credenciales: link('/v3/credenciales'),
    eventos: templated('/v3/eventos{?desde,topico}'),
    // An agency's inquiries: its {adminmail}, as the agency's own Consultas group links them.
    consultas: templated('/v3/consultas/{adminmail}{?operador,externalid,desde,hasta,pagina}'),
  },
}

export const entryPointRef = { href: '/v3', title: 'API de publicaciones de concesionarias v3' }

export const entryPointEtag = etagOf(JSON.stringify(entryPoint))
