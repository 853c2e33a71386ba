/*
 * Code → wire for GET /v3/aplicacion (docs/design.md §19): the calling app's
 * id, name and abilities.
 */
import { link } from '#core/http/links'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinksSchema, type ReferenceSchema } from '#core/openapi/wire'
import { ABILITIES } from '#core/auth/abilities'
import type { AppRow } from '#apps/stores/app_store'

const SELF = '/v3/aplicacion'

export const AplicacionSchema = named(
  'Aplicacion',
  object({
    Id: { type: 'integer' },
    Nombre: { type: 'string' },
    Habilidades: {
      type: 'array',
      items: { type: 'string', enum: ABILITIES },
      description: 'Permisos de la aplicación (los cambia un operador: ace app:ability)',
    },
    _links: LinksSchema,
  })
)

export function applicationShapes(app: AppRow) {
  return {
    full: (): Wire<typeof AplicacionSchema> => ({
      Id: app.id,
      Nombre: app.name,
      Habilidades: [...app.abilities],
      _links: { self: link(SELF) },
    }),
    ref: (): Wire<typeof ReferenceSchema> => ({ href: SELF, title: app.name }),
  }
}
