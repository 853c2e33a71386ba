/*
 * OpenAPI fragment of the catalogue: brands, models, versions, best matches,
 * regions, cities, currencies, body types and the closed value sets.
 */
import {
  listOf,
  negotiated,
  pathParam,
  problems,
  queryParam,
  ref,
  type OpenApiFragment,
} from '#core/openapi/helpers'

const int32 = { type: 'integer', format: 'int32', minimum: 1 }
const id = (what: string) => pathParam('id', `Id ${what}`, int32)
const q = queryParam(
  'q',
  'Parte del nombre o del codename (sin distinguir mayúsculas ni acentos); hasta 100 caracteres',
  {
    type: 'string',
    maxLength: 100,
  }
)
const soloMercadoNuevos = queryParam(
  'soloMercadoNuevos',
  'Solo entradas a la venta como 0 km (por defecto false)',
  {
    type: 'boolean',
    default: false,
  }
)
const match = (name: string, description: string, required = true) =>
  queryParam(name, description, { type: 'string', minLength: 1, maxLength: 200 }, required)
const year = (description: string) =>
  queryParam('year', description, {
    type: 'integer',
    format: 'int32',
    minimum: 1908,
    maximum: 2050,
  })
const etag = { ETag: { schema: { type: 'string' } } }

/** A catalogue GET: negotiated 200 with ETag, 304, and the given problems. */
function read(
  tag: string,
  summary: string,
  parameters: unknown[],
  full: unknown,
  reference: unknown,
  errors: number[],
  description?: string
) {
  return {
    get: {
      tags: [tag],
      summary,
      ...(description ? { description } : {}),
      parameters,
      responses: {
        '200': { ...negotiated(summary, full, reference), headers: etag },
        '304': { description: 'Sin cambios respecto del ETag enviado' },
        ...problems(...errors, 406),
      },
    },
  }
}

const list = (name: string, refName = 'Reference') =>
  [listOf(ref(name)), listOf(ref(refName))] as const
const str = { type: 'string' }
const nullableStr = { type: ['string', 'null'] }
const named = {
  type: 'object',
  properties: { Nombre: str, Codename: str, _links: ref('Links') },
}

export const openapi: OpenApiFragment = {
  paths: {
    '/v3/marcas': read('Catálogo', 'Marcas', [q, soloMercadoNuevos], ...list('Marca'), [400]),
    '/v3/marcas/bestmatch': read(
      'Catálogo',
      'La marca que mejor coincide',
      [match('make', 'Id, URL de la API, ruta, nombre o codename')],
      ref('Marca'),
      ref('Reference'),
      [400],
      'Sin coincidencia o con más de una igual de buena: 400 con `Errors.make`.'
    ),
    '/v3/marcas/{id}': read(
      'Catálogo',
      'Una marca',
      [id('de la marca')],
      ref('Marca'),
      ref('Reference'),
      [400, 404]
    ),
    '/v3/modelos': read(
      'Catálogo',
      'Modelos de una marca',
      [queryParam('marca', 'Id de la marca', int32, true), q, soloMercadoNuevos],
      ...list('Modelo'),
      [400]
    ),
    '/v3/modelos/bestmatch': read(
      'Catálogo',
      'El modelo que mejor coincide',
      [
        match('make', 'Marca: id, URL de la API, ruta, nombre o codename'),
        match(
          'model',
          'Modelo: id, URL de la API, ruta, nombre completo, parte del nombre o codename'
        ),
        match('bodystyle', 'Carrocería: id, URL de la API, ruta, nombre o codename', false),
      ],
      ref('Modelo'),
      ref('Reference'),
      [400],
      'Sin coincidencia o ambigua: 400 con `Errors` bajo el parámetro que falló.'
    ),
    '/v3/modelos/{id}': read(
      'Catálogo',
      'Un modelo',
      [id('del modelo')],
      ref('Modelo'),
      ref('Reference'),
      [400, 404]
    ),
    '/v3/versiones': read(
      'Catálogo',
      'Versiones de un modelo',
      [
        queryParam('modelo', 'Id del modelo', int32, true),
        year('Año modelo: versiones de ±2 años; sin él, solo las que están a la venta como 0 km'),
        q,
      ],
      ...list('Version', 'VersionRef'),
      [400]
    ),
    '/v3/versiones/bestmatch': read(
      'Catálogo',
      'La versión que mejor coincide',
      [
        match('make', 'Marca: id, URL de la API, ruta, nombre o codename'),
        match('model', 'Modelo: id, URL de la API, ruta, nombre, parte del nombre o codename'),
        match(
          'version',
          'Versión: id, URL, nombre, parte del nombre o codename; sin ella, la única versión que cumple los demás filtros',
          false
        ),
        year('Año modelo (±2 años, el más cercano primero)'),
        match(
          'propulsion',
          'Propulsión (Nafta, Diésel, GNC, Híbrido, Híbrido enchufable, Eléctrico)',
          false
        ),
        match('transmission', 'Transmisión (Manual, Automática, Automatizada, CVT)', false),
      ],
      ref('Version'),
      ref('VersionRef'),
      [400]
    ),
    '/v3/versiones/{id}': read(
      'Catálogo',
      'Una versión',
      [id('de la versión')],
      ref('Version'),
      ref('VersionRef'),
      [400, 404]
    ),
    '/v3/regiones': read('Referencia', 'Regiones (provincias)', [], ...list('Region'), []),
    '/v3/regiones/{id}': read(
      'Referencia',
      'Una región',
      [id('de la región')],
      ref('Region'),
      ref('Reference'),
      [400, 404]
    ),
    '/v3/ciudades': read(
      'Referencia',
      'Ciudades',
      [
        match(
          'region',
          'Región: id, URL de la API, ruta, nombre o código ISO 3166-2 (AR-X)',
          false
        ),
        q,
      ],
      ...list('Ciudad'),
      [400]
    ),
    '/v3/ciudades/{id}': read(
      'Referencia',
      'Una ciudad',
      [id('de la ciudad')],
      ref('Ciudad'),
      ref('Reference'),
      [400, 404]
    ),
    '/v3/monedas': read('Referencia', 'Monedas aceptadas en Valor', [], ...list('Moneda'), []),
    '/v3/monedas/{codigo}': read(
      'Referencia',
      'Una moneda ISO 4217',
      [pathParam('codigo', 'Código ISO 4217', { type: 'string', pattern: '^[A-Za-z]{3}$' })],
      ref('Moneda'),
      ref('Reference'),
      [400, 404]
    ),
    '/v3/carrocerias': read('Referencia', 'Carrocerías', [], ...list('ValorNombrado'), []),
    '/v3/carrocerias/{id}': read(
      'Referencia',
      'Una carrocería',
      [pathParam('id', 'Id, codename o nombre de la carrocería')],
      ref('ValorNombrado'),
      ref('Reference'),
      [404]
    ),
    '/v3/propulsiones': read('Referencia', 'Propulsiones', [], ...list('ValorNombrado'), []),
    '/v3/propulsiones/{codename}': read(
      'Referencia',
      'Una propulsión',
      [pathParam('codename', 'Codename o nombre')],
      ref('ValorNombrado'),
      ref('Reference'),
      [404]
    ),
    '/v3/transmisiones': read('Referencia', 'Transmisiones', [], ...list('ValorNombrado'), []),
    '/v3/transmisiones/{codename}': read(
      'Referencia',
      'Una transmisión',
      [pathParam('codename', 'Codename o nombre')],
      ref('ValorNombrado'),
      ref('Reference'),
      [404]
    ),
  },
  schemas: {
    Marca: {
      type: 'object',
      properties: {
        Nombre: str,
        Codenames: { type: 'array', items: str },
        Modelos: ref('LinkGroup'),
        _links: ref('Links'),
      },
    },
    Modelo: {
      type: 'object',
      properties: {
        Marca: str,
        Nombre: str,
        Codename: str,
        Carrocerias: { type: 'array', items: str },
        Versiones: ref('LinkGroup'),
        _links: ref('Links'),
      },
    },
    Version: {
      type: 'object',
      properties: {
        VersionYear: { type: ['integer', 'null'] },
        Propulsion: nullableStr,
        Transmision: nullableStr,
        Potencia: { type: ['integer', 'null'], description: 'CV' },
        Cilindrada: { type: ['integer', 'null'], description: 'cm³' },
        Marca: str,
        Modelo: str,
        Nombre: str,
        Codename: str,
        Carroceria: nullableStr,
        Segmento: nullableStr,
        _links: ref('Links'),
      },
    },
    VersionRef: {
      type: 'object',
      required: ['href', 'title'],
      properties: {
        Marca: str,
        Modelo: str,
        Version: str,
        VersionYear: { type: ['integer', 'null'] },
        href: str,
        title: str,
      },
    },
    Region: {
      type: 'object',
      properties: {
        Nombre: str,
        Codigo: { type: 'string', examples: ['AR-X'] },
        Ciudades: ref('LinkGroup'),
        _links: ref('Links'),
      },
    },
    Ciudad: { type: 'object', properties: { Nombre: str, Region: str, _links: ref('Links') } },
    Moneda: {
      type: 'object',
      properties: {
        Codigo: { type: 'string', examples: ['ARS'] },
        Nombre: str,
        Aceptada: { type: 'boolean' },
        _links: ref('Links'),
      },
    },
    ValorNombrado: named,
  },
}
