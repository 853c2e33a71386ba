/*
 * The API entry points (docs/spec.md §2.15), built once per process with its ETag.
 */
import { etagOf } from '#core/http/etag'
import { group, link, templated } from '#core/http/links'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinkGroupSchema, LinksSchema } from '#core/openapi/wire'

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
    _links: LinksSchema,
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
  _links: { self: link('/v3'), describedby: link('/v3/openapi.json') },
}

export const entryPointRef = { href: '/v3', title: 'API de publicaciones de concesionarias v3' }

export const entryPointEtag = etagOf(JSON.stringify(entryPoint))
