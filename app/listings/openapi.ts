/*
 * What the listing routes mean (docs/spec.md §4.1, docs/design.md §6), beside
 * routes.ts. Bodies and queries come from the validators, shapes from the
 * transformer.
 */
import {
  bodyOf,
  etagHeader,
  ifMatchParam,
  ifNoneMatchParam,
  jsonBody,
  locationHeader,
  negotiated,
  notModified,
  open,
  paramsOf,
  parametersOf,
  pathParam,
  type Operation,
  type OpenApiFragment,
} from '#core/openapi/helpers'
import { listOf, pagedOf, ReferenceSchema } from '#core/openapi/wire'
import {
  listingCreateValidator,
  listingEditValidator,
  listingParamsValidator,
  listingPartialValidator,
  listingQueryValidator,
} from '#listings/validators/listing'
import {
  FotoSchema,
  PublicacionRefSchema,
  PublicacionSchema,
} from '#listings/transformers/listing_transformer'
import { MAX_KM_PER_YEAR } from '#listings/services/listing_rules'
import { ARCHIVE_FLOOR, ARCHIVE_SHARE } from '#listings/services/start_sync'
import { CSV_COLUMNS, MAX_BYTES, MAX_ROWS, csvQueryValidator } from '#listings/validators/inventory'
import { syncParamsValidator, syncResultsQueryValidator } from '#listings/validators/sync'
import {
  ResultadoSincronizacionSchema,
  SincronizacionSchema,
} from '#listings/transformers/sync_transformer'

const listing = (description: string, headers = {}) =>
  negotiated(description, PublicacionSchema, PublicacionRefSchema, {
    ETag: etagHeader,
    ...headers,
  })

const write = (
  operationId: string,
  summary: string,
  description: string,
  extra: Partial<Operation> = {}
): Operation => ({
  operationId,
  tag: 'Publicaciones',
  summary,
  description,
  parameters: [ifMatchParam],
  responses: { '200': listing(summary) },
  problems: [400, 403, 406, 409, 412],
  ...extra,
})

/**
 * Fields whose rule depends on other fields (create_listing.ts, apply_edit.ts,
 * listing_rules.ts): the document says so beside each (docs/design.md §19), so
 * a client learns them before a 400 does.
 */
const CONDITIONS: Record<string, string> = {
  VersionYear:
    'Obligatorio cuando la versión no indica su año (una versión fuera del catálogo); si no, el de la versión.',
  Transmision:
    'Obligatorio cuando la versión no es del catálogo; si lo es, por omisión la transmisión de la versión.',
  Propulsion:
    'Obligatorio cuando la versión no es del catálogo; si lo es, por omisión la propulsión de la versión.',
  Kilometraje: `0 solo para un vehículo nuevo (modelo de este año o del anterior); un usado no supera ${MAX_KM_PER_YEAR} km por año de antigüedad.`,
  Fotos:
    'Obligatorias (al menos una) cuando Kilometraje es mayor que 0. Una lista del mismo largo que la actual se ignora (y la respuesta lo dice en Avisos).',
  ExternalId: 'sincronizaciones (en cualquier combinación de mayúsculas) no es un ExternalId.',
  AplicaCertificadoGarantiaUsado: 'Solo para vehículos usados (Kilometraje mayor que 0).',
  DatosTecnicosCustom:
    'Se guarda solo para versiones fuera del catálogo; las del catálogo muestran sus propios datos técnicos.',
  Telefono: 'Uno de los teléfonos del operador responsable; por omisión, el primero.',
  Locacion:
    'Al crear sin Locacion, la región, ciudad y dirección de la sucursal principal de la agencia; null: ninguna.',
}

/** A request body schema with each conditional field's rule in its description. */
function withConditions<S extends { properties?: Record<string, { description?: string }> }>(
  schema: S
): S {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const condition = CONDITIONS[name]
    if (condition) {
      property.description = property.description
        ? `${property.description} ${condition}`
        : condition
    }
  }
  return schema
}

const syncId = { id: paramsOf(syncParamsValidator, { id: 'Id de la sincronización' }).id }

const sync = (description: string, headers = {}) =>
  negotiated(description, SincronizacionSchema, ReferenceSchema, headers)

const createRow = withConditions(bodyOf('PublicacionCreate', listingCreateValidator))

const SYNC_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['Modo'],
  properties: {
    Modo: {
      type: 'string',
      enum: ['Completa', 'Parcial'],
      description:
        'Completa: además archiva las publicaciones de la aplicación en la agencia que no vienen. Parcial: solo las filas enviadas y las Bajas.',
    },
    Simular: {
      type: 'boolean',
      description: 'Calcula cada resultado sin escribir nada más que la sincronización.',
    },
    ConfirmarBajas: {
      type: 'boolean',
      description: `Necesario cuando una Completa archivaría más del ${ARCHIVE_SHARE * 100} % de las publicaciones vigentes y más de ${ARCHIVE_FLOOR}.`,
    },
    Publicaciones: {
      type: 'array',
      maxItems: MAX_ROWS,
      items: createRow,
      description:
        'Cada fila es el estado deseado completo de una publicación (el cuerpo de POST): nueva → se crea; existente → se edita como un PUT; igual → SinCambios sin escribir.',
    },
    Bajas: {
      type: 'array',
      maxItems: MAX_ROWS,
      items: { type: 'string', minLength: 2, maxLength: 255, pattern: '^[A-Za-z0-9._~-]+$' },
      description: 'ExternalIds a archivar (solo con Modo Parcial).',
    },
  },
}

export const openapi: OpenApiFragment = {
  tags: [
    {
      name: 'Publicaciones',
      description: 'Publicaciones de vehículos de cada agencia y sus fotos',
    },
  ],
  params: paramsOf(listingParamsValidator, {
    externalid: 'ExternalId de la publicación (sin distinguir mayúsculas)',
  }),
  operations: {
    'POST /v3/publicaciones/:adminmail': {
      operationId: 'createListing',
      tag: 'Publicaciones',
      summary: 'Crea una publicación',
      description:
        'Marca, modelo y versión se resuelven contra el catálogo; una versión desconocida conserva su nombre. Una Exposicion sin cupo se reemplaza por la mejor con cupo, y la respuesta lo dice en Avisos.',
      requestBody: jsonBody(createRow),
      responses: { '201': listing('Creada', { Location: locationHeader }) },
      problems: [400, 403, 406, 409, 413, 415],
    },
    'GET /v3/publicaciones/:adminmail': {
      operationId: 'listListings',
      tag: 'Publicaciones',
      summary: 'Publicaciones de la agencia',
      description: 'Paginadas de a 100; por omisión, todas menos las archivadas.',
      parameters: parametersOf(listingQueryValidator, 'query', {
        operador: 'Solo las de este colaborador',
        estado: 'Activa, Suspendida o Archivada (por omisión, todas menos las archivadas)',
        pagina: 'Página (1..99, 100 por página)',
      }),
      responses: {
        '200': negotiated(
          'Página de publicaciones',
          pagedOf(PublicacionSchema),
          pagedOf(PublicacionRefSchema)
        ),
      },
      problems: [400, 404, 406],
    },
    'POST /v3/publicaciones/:adminmail/sincronizaciones': {
      operationId: 'syncListings',
      tag: 'Publicaciones',
      summary: 'Sincroniza el stock de la agencia',
      description: `El inventario completo en una solicitud (hasta ${MAX_ROWS} filas y ${MAX_BYTES / 1024 / 1024} MiB), comparado con lo publicado; se procesa en segundo plano y cada fila tiene su resultado. JSON, o CSV (text/csv, UTF-8 o Windows-1252) con una fila de encabezados con estos nombres: ${CSV_COLUMNS.join(', ')}; Fotos y DatosTecnicosCustom separados por «|» (Nombre=Valor), y las opciones en la consulta. Acepta Idempotency-Key.`,
      // Required only with text/csv: a JSON body names its options itself (so none is
      // required in the document, or a typed JSON client would have to send ?modo).
      parameters: parametersOf(csvQueryValidator, 'query', {
        modo: 'Obligatorio con text/csv (sin uso con JSON): Completa o Parcial',
        simular: 'Solo con text/csv: true para simular',
        confirmarBajas: 'Solo con text/csv: true para confirmar las bajas',
      }).map((param) => ({ ...param, required: false })),
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: SYNC_BODY },
          'text/csv': { schema: { type: 'string' } },
        },
      },
      responses: {
        '202': sync('Recibida: el trabajo sigue en segundo plano', { Location: locationHeader }),
      },
      problems: [400, 403, 406, 408, 409, 413, 415],
    },
    'GET /v3/publicaciones/:adminmail/sincronizaciones': {
      operationId: 'listListingSyncs',
      tag: 'Publicaciones',
      summary: 'Sincronizaciones de la agencia',
      description: 'Las de la aplicación en los últimos 30 días, la más reciente primero.',
      responses: {
        '200': negotiated(
          'Sincronizaciones',
          listOf(SincronizacionSchema),
          listOf(ReferenceSchema)
        ),
      },
      problems: [400, 404, 406],
    },
    'GET /v3/publicaciones/:adminmail/sincronizaciones/:id': {
      operationId: 'getListingSync',
      tag: 'Publicaciones',
      summary: 'Una sincronización',
      description: 'Estado, avance y resumen.',
      params: syncId,
      responses: { '200': sync('Sincronización') },
      problems: [400, 404, 406],
    },
    'GET /v3/publicaciones/:adminmail/sincronizaciones/:id/resultados': {
      operationId: 'listListingSyncResults',
      tag: 'Publicaciones',
      summary: 'Resultados de una sincronización',
      description:
        'Uno por fila, en el orden de las filas (y después las bajas), paginados de a 100.',
      params: syncId,
      parameters: parametersOf(syncResultsQueryValidator, 'query', {
        resultado: 'Solo los de este resultado',
        pagina: 'Página (1..99, 100 por página)',
      }),
      responses: {
        '200': negotiated(
          'Página de resultados',
          pagedOf(ResultadoSincronizacionSchema),
          pagedOf(ResultadoSincronizacionSchema)
        ),
      },
      problems: [400, 404, 406],
    },
    'GET /v3/publicaciones/:adminmail/:externalid': {
      operationId: 'getListing',
      tag: 'Publicaciones',
      summary: 'Una publicación',
      description: 'Con ETag fuerte; un If-None-Match igual responde 304.',
      parameters: [ifNoneMatchParam],
      responses: { '200': listing('Publicación'), '304': notModified },
      problems: [400, 404, 406],
    },
    'PUT /v3/publicaciones/:adminmail/:externalid': write(
      'updateListing',
      'Edita una publicación',
      'PublicacionEdit: un campo ausente se conserva; null significa lo que dice la especificación. Lo que se fija al crear (ExternalId, Marca, Modelo, Version, Transmision, Propulsion) se acepta solo con el valor que tiene la publicación (como lo muestra GET, u otra forma del mismo elemento del catálogo): otro valor es 400 con Errors en ese campo. Un cambio que no se hace como se pidió se dice en Avisos [{Campo, Detalle}]: una lista de Fotos del mismo largo que la actual (la especificación la ignora; la lista que muestra GET no es un cambio, y GET → PUT conserva las fotos pendientes y rechazadas), DatosTecnicosCustom de una versión del catálogo (muestra los del catálogo), una Exposicion sin cupo (queda otra).',
      { requestBody: jsonBody(withConditions(bodyOf('PublicacionEdit', listingEditValidator))) }
    ),
    'PATCH /v3/publicaciones/:adminmail/:externalid': write(
      'updateListingPrices',
      'Cambia precios y, opcionalmente, el estado',
      'PublicacionPartialEdit: Precio, Adelanto, Cuota y Activa.',
      { requestBody: jsonBody(bodyOf('PublicacionPartialEdit', listingPartialValidator)) }
    ),
    'DELETE /v3/publicaciones/:adminmail/:externalid': write(
      'archiveListing',
      'Archiva una publicación',
      'Terminal: después todo cambio es 409.'
    ),
    'PATCH /v3/publicaciones/:adminmail/:externalid/suspender': write(
      'suspendListing',
      'Suspende una publicación',
      'Deja de mostrarse en la página pública.'
    ),
    'PATCH /v3/publicaciones/:adminmail/:externalid/activar': write(
      'activateListing',
      'Activa una publicación',
      '409 si el plan no tiene lugar o la agencia o el operador están suspendidos.'
    ),
    'GET /v3/publicaciones/:adminmail/:externalid/fotos': {
      operationId: 'listListingPhotos',
      tag: 'Publicaciones',
      summary: 'Fotos de la publicación',
      description: 'Cada foto con su estado de procesamiento.',
      responses: { '200': negotiated('Fotos', listOf(FotoSchema), listOf(ReferenceSchema)) },
      problems: [400, 404, 406],
    },
    'GET /fotos/:listing/:file': {
      operationId: 'getListingPhotoFile',
      tag: 'Publicaciones',
      summary: 'Archivo de una foto procesada',
      description: 'JPEG inmutable, sin credenciales: las páginas públicas lo incrustan.',
      security: open,
      params: {
        listing: pathParam('listing', 'Id interno de la publicación'),
        file: pathParam('file', 'Nombre del archivo'),
      },
      responses: {
        '200': {
          description: 'JPEG',
          headers: {
            'Cache-Control': {
              description: 'Inmutable',
              schema: { type: 'string', examples: ['public, max-age=31536000, immutable'] },
            },
          },
          content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
        },
      },
      problems: [404],
    },
  },
}
