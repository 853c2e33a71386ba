/*
 * Wire shapes every module shares (docs/spec.md §2.12, docs/design.md §4):
 * links, references, money, problems and the list envelope.
 */
import { named } from './schema.js'

export const LinkSchema = named('Link', {
  type: 'object',
  required: ['href'],
  properties: {
    href: { type: 'string', description: 'URL relativa, o plantilla RFC 6570 si `templated`' },
    templated: { type: 'boolean' },
    method: { type: 'string', description: 'Método HTTP cuando no es GET' },
    title: { type: 'string' },
  },
})

export const LinksSchema = named('Links', {
  type: 'object',
  additionalProperties: LinkSchema,
})

export const LinkGroupSchema = named('LinkGroup', {
  type: 'object',
  required: ['_links'],
  properties: { _links: LinksSchema },
})

export const ReferenceSchema = named('Reference', {
  type: 'object',
  required: ['href', 'title'],
  properties: { href: { type: 'string' }, title: { type: 'string' } },
})

export const ValorSchema = named('Valor', {
  type: 'object',
  required: ['Moneda', 'Importe'],
  properties: {
    Moneda: { type: 'string', examples: ['ARS', 'USD'] },
    Importe: { type: 'number' },
  },
})

export const ProblemSchema = named('Problem', {
  type: 'object',
  required: ['Type', 'Title', 'Status', 'Instance', 'Extensions'],
  properties: {
    Type: { type: 'string', format: 'uri' },
    Title: { type: 'string' },
    Status: { type: 'integer' },
    Detail: { type: 'string' },
    Instance: { type: 'string' },
    Extensions: { type: 'object', properties: { TraceId: { type: 'string' } } },
    Errors: {
      type: 'object',
      description:
        'Los mensajes por campo (clave: su ruta). A lo sumo 50 claves; si hubo más, `_omitidos` dice cuántas no se listan.',
      properties: {
        _omitidos: {
          type: 'array',
          items: { type: 'string' },
          examples: [['Hay 141 campos más con errores que no se listan.']],
        },
      },
      additionalProperties: { type: 'array', items: { type: 'string' } },
      maxProperties: 51,
    },
  },
})

/** The list envelope `{_links, _entries}` (docs/spec.md §2.12). */
export function listOf<const Item>(item: Item) {
  return {
    type: 'object',
    required: ['_links', '_entries'],
    properties: { _links: LinksSchema, _entries: { type: 'array', items: item } },
  } as const
}

/** The paged envelope (docs/spec.md §2.12): 1-based `Pagina` up to 99. */
export function pagedOf<const Item>(item: Item) {
  return {
    type: 'object',
    required: ['Pagina', 'Total', 'PerPagina', '_links', '_entries'],
    properties: {
      Pagina: { type: 'integer', minimum: 1 },
      Total: { type: 'integer', minimum: 0 },
      PerPagina: { type: 'integer' },
      _links: LinksSchema,
      _entries: { type: 'array', items: item },
    },
  } as const
}
