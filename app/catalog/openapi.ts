/*
 * What the catalogue routes mean (docs/spec.md §4.7), beside routes.ts: brands,
 * models, versions, best matches, regions, cities, currencies and the closed
 * value sets. Queries come from the validators, shapes from the transformers.
 */
import {
  etagHeader,
  negotiated,
  notModified,
  paramsOf,
  parametersOf,
  pathParam,
  type Describable,
  type OpenApiFragment,
  type Operation,
} from '#core/openapi/helpers'
import { listOf, ProblemSchema, ReferenceSchema } from '#core/openapi/wire'
import { named } from '#core/openapi/schema'
import {
  brandMatchValidator,
  brandsQueryValidator,
  citiesQueryValidator,
  currencyCodeValidator,
  idValidator,
  modelMatchValidator,
  modelsQueryValidator,
  versionMatchValidator,
  versionsQueryValidator,
} from '#catalog/validators/catalog_validators'
import {
  CandidatoSchema,
  MarcaSchema,
  ModeloSchema,
  VersionRefSchema,
  VersionSchema,
} from '#catalog/transformers/vehicle_transformer'
import {
  CiudadSchema,
  MonedaSchema,
  RegionSchema,
  ValorNombradoSchema,
} from '#catalog/transformers/reference_transformer'

const QUERY: Record<string, string> = {
  q: 'Parte del nombre o del codename (sin distinguir mayúsculas ni acentos)',
  soloMercadoNuevos: 'Solo entradas a la venta como 0 km (por defecto false)',
  marca: 'Id de la marca',
  modelo: 'Id del modelo',
  year: 'Año modelo: versiones de ±2 años, la más cercana primero',
  make: 'Marca: id, URL de la API, ruta, nombre o codename',
  model: 'Modelo: id, URL de la API, ruta, nombre completo, parte del nombre o codename',
  bodystyle: 'Carrocería: id, URL de la API, ruta, nombre o codename',
  version:
    'Versión: id, URL, nombre, parte del nombre o codename; sin ella, la única versión que cumple los demás filtros',
  propulsion: 'Propulsión (Nafta, Diésel, GNC, Híbrido, Híbrido enchufable, Eléctrico)',
  transmission: 'Transmisión (Manual, Automática, Automatizada, CVT)',
  region: 'Región: id, URL de la API, ruta, nombre o código ISO 3166-2 (AR-X)',
}

/** A catalogue GET: negotiated 200 with ETag, 304 to a matching If-None-Match. */
function read(
  operationId: string,
  tag: 'Catálogo' | 'Referencia',
  summary: string,
  description: string,
  shapes: [full: unknown, reference: unknown],
  problems: number[],
  extra: { query?: Describable; params?: Operation['params']; noMatch?: true } = {}
): Operation {
  return {
    operationId,
    tag,
    summary,
    description,
    ...(extra.query ? { parameters: parametersOf(extra.query, 'query', QUERY) } : {}),
    ...(extra.params ? { params: extra.params } : {}),
    responses: {
      '200': negotiated(summary, shapes[0], shapes[1], { ETag: etagHeader }),
      '304': notModified,
      ...(extra.noMatch ? { '400': noMatchProblem } : {}),
    },
    problems: [...problems, 406],
  }
}

const list = (item: unknown, reference: unknown = ReferenceSchema): [unknown, unknown] => [
  listOf(item),
  listOf(reference),
]
const one = (item: unknown, reference: unknown = ReferenceSchema): [unknown, unknown] => [
  item,
  reference,
]
const byName = (name: string, what: string) => ({
  [name]: pathParam(name, `Id, codename o nombre ${what}`),
})
const NO_MATCH =
  'Sin coincidencia o con más de una igual de buena: 400 con `Errors` bajo el parámetro enviado que falló, ' +
  'las entradas entre las que no pudo elegir en `Extensions.Candidatos` y, si no encontró un modelo o una ' +
  'versión, los nombres más cercanos en `Extensions.Sugerencias`.'

const candidatos = { type: 'array', items: CandidatoSchema, maxItems: 10 }
const noMatchProblem = {
  description: 'Validación fallida, sin coincidencia o ambigua',
  content: {
    'application/problem+json': {
      schema: named('ProblemaDeCoincidencia', {
        ...ProblemSchema,
        properties: {
          ...ProblemSchema.properties,
          Extensions: {
            type: 'object',
            properties: {
              ...ProblemSchema.properties.Extensions.properties,
              Candidatos: {
                ...candidatos,
                description: 'Las entradas que coinciden igual de bien',
              },
              Sugerencias: {
                ...candidatos,
                maxItems: 3,
                description: 'Los nombres más cercanos al modelo o la versión no encontrados',
              },
            },
          },
        },
      }),
    },
  },
}

export const openapi: OpenApiFragment = {
  tags: [
    { name: 'Catálogo', description: 'Marcas, modelos y versiones de vehículos' },
    {
      name: 'Referencia',
      description: 'Regiones, ciudades, monedas, carrocerías y los conjuntos cerrados de valores',
    },
  ],
  params: {
    ...paramsOf(idValidator, { id: 'Id de la entrada' }),
    ...paramsOf(currencyCodeValidator, { codigo: 'Código ISO 4217' }),
  },
  operations: {
    'GET /v3/marcas': read(
      'listBrands',
      'Catálogo',
      'Marcas',
      'Marcas del catálogo, filtradas por nombre.',
      list(MarcaSchema),
      [400],
      { query: brandsQueryValidator }
    ),
    'GET /v3/marcas/bestmatch': read(
      'matchBrand',
      'Catálogo',
      'La marca que mejor coincide',
      NO_MATCH,
      one(MarcaSchema),
      [400],
      { query: brandMatchValidator, noMatch: true }
    ),
    'GET /v3/marcas/:id': read(
      'getBrand',
      'Catálogo',
      'Una marca',
      'La marca por id.',
      one(MarcaSchema),
      [400, 404]
    ),
    'GET /v3/modelos': read(
      'listModels',
      'Catálogo',
      'Modelos de una marca',
      'Modelos de la marca, filtrados por nombre.',
      list(ModeloSchema),
      [400],
      { query: modelsQueryValidator }
    ),
    'GET /v3/modelos/bestmatch': read(
      'matchModel',
      'Catálogo',
      'El modelo que mejor coincide',
      NO_MATCH,
      one(ModeloSchema),
      [400],
      { query: modelMatchValidator, noMatch: true }
    ),
    'GET /v3/modelos/:id': read(
      'getModel',
      'Catálogo',
      'Un modelo',
      'El modelo por id.',
      one(ModeloSchema),
      [400, 404]
    ),
    'GET /v3/versiones': read(
      'listVersions',
      'Catálogo',
      'Versiones de un modelo',
      'Con `year`, las de ±2 años; sin él, solo las que están a la venta como 0 km.',
      list(VersionSchema, VersionRefSchema),
      [400],
      { query: versionsQueryValidator }
    ),
    'GET /v3/versiones/bestmatch': read(
      'matchVersion',
      'Catálogo',
      'La versión que mejor coincide',
      NO_MATCH,
      one(VersionSchema, VersionRefSchema),
      [400],
      { query: versionMatchValidator, noMatch: true }
    ),
    'GET /v3/versiones/:id': read(
      'getVersion',
      'Catálogo',
      'Una versión',
      'La versión por id.',
      one(VersionSchema, VersionRefSchema),
      [400, 404]
    ),
    'GET /v3/regiones': read(
      'listRegions',
      'Referencia',
      'Regiones',
      'Regiones (provincias) con su código ISO 3166-2.',
      list(RegionSchema),
      []
    ),
    'GET /v3/regiones/:id': read(
      'getRegion',
      'Referencia',
      'Una región',
      'La región por id.',
      one(RegionSchema),
      [400, 404]
    ),
    'GET /v3/ciudades': read(
      'listCities',
      'Referencia',
      'Ciudades',
      'Ciudades, filtradas por región y nombre.',
      list(CiudadSchema),
      [400],
      { query: citiesQueryValidator }
    ),
    'GET /v3/ciudades/:id': read(
      'getCity',
      'Referencia',
      'Una ciudad',
      'La ciudad por id.',
      one(CiudadSchema),
      [400, 404]
    ),
    'GET /v3/monedas': read(
      'listCurrencies',
      'Referencia',
      'Monedas',
      'Monedas ISO 4217, con las aceptadas en Valor marcadas.',
      list(MonedaSchema),
      []
    ),
    'GET /v3/monedas/:codigo': read(
      'getCurrency',
      'Referencia',
      'Una moneda',
      'La moneda por código ISO 4217.',
      one(MonedaSchema),
      [400, 404]
    ),
    'GET /v3/carrocerias': read(
      'listBodyTypes',
      'Referencia',
      'Carrocerías',
      'Tipos de carrocería del catálogo.',
      list(ValorNombradoSchema),
      []
    ),
    'GET /v3/carrocerias/:id': read(
      'getBodyType',
      'Referencia',
      'Una carrocería',
      'La carrocería por id, codename o nombre.',
      one(ValorNombradoSchema),
      [404],
      { params: byName('id', 'de la carrocería') }
    ),
    'GET /v3/propulsiones': read(
      'listPropulsions',
      'Referencia',
      'Propulsiones',
      'El conjunto cerrado de propulsiones.',
      list(ValorNombradoSchema),
      []
    ),
    'GET /v3/propulsiones/:codename': read(
      'getPropulsion',
      'Referencia',
      'Una propulsión',
      'La propulsión por codename o nombre.',
      one(ValorNombradoSchema),
      [404],
      { params: byName('codename', 'de la propulsión') }
    ),
    'GET /v3/transmisiones': read(
      'listTransmissions',
      'Referencia',
      'Transmisiones',
      'El conjunto cerrado de transmisiones.',
      list(ValorNombradoSchema),
      []
    ),
    'GET /v3/transmisiones/:codename': read(
      'getTransmission',
      'Referencia',
      'Una transmisión',
      'La transmisión por codename o nombre.',
      one(ValorNombradoSchema),
      [404],
      { params: byName('codename', 'de la transmisión') }
    ),
  },
}
