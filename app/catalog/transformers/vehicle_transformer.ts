/*
 * Wire shapes of Marca, Modelo and Version (docs/spec.md §2.13), full and reference.
 */
import { group, link, path } from '#core/http/links'
import { listEnvelope } from '#core/http/envelopes'
import type { Links } from '#core/http/links'
import type { BrandRef, ModelRef, NamedEntry, VersionRef } from '#catalog/services/vehicle_resolver'
import { UNCLASSIFIED } from '#catalog/services/segment'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinkGroupSchema, LinksSchema, type ReferenceSchema } from '#core/openapi/wire'

const str = { type: 'string' } as const
const nullableStr = { type: ['string', 'null'] } as const
const nullableInt = { type: ['integer', 'null'] } as const

export const MarcaSchema = named(
  'Marca',
  object({
    Nombre: str,
    Codenames: { type: 'array', items: str },
    Modelos: LinkGroupSchema,
    _links: LinksSchema,
  })
)

export const ModeloSchema = named(
  'Modelo',
  object({
    Marca: str,
    Nombre: str,
    Codename: str,
    Carrocerias: { type: 'array', items: str },
    Versiones: LinkGroupSchema,
    _links: LinksSchema,
  })
)

export const VersionSchema = named(
  'Version',
  object({
    VersionYear: nullableInt,
    Propulsion: nullableStr,
    Transmision: nullableStr,
    Potencia: { ...nullableInt, description: 'CV' },
    Cilindrada: { ...nullableInt, description: 'cm³' },
    Marca: str,
    Modelo: str,
    Nombre: str,
    Codename: str,
    Carroceria: nullableStr,
    Segmento: {
      ...str,
      description: 'Segmento de mercado; derivado al importar cuando la fuente no lo da',
    },
    _links: LinksSchema,
  })
)

export const VersionRefSchema = named(
  'VersionRef',
  object({
    Marca: str,
    Modelo: str,
    Version: str,
    VersionYear: nullableInt,
    href: str,
    title: str,
  })
)

type Reference = Wire<typeof ReferenceSchema>

export function brandFull(brand: BrandRef): Wire<typeof MarcaSchema> {
  return {
    Nombre: brand.name,
    Codenames: brand.codenames,
    Modelos: group({ self: link(`/v3/modelos?marca=${brand.id}`) }),
    _links: { self: link(path('marcas', brand.id)) },
  }
}

export const brandRef = (brand: BrandRef): Reference => ({
  href: path('marcas', brand.id),
  title: brand.name,
})

export function modelFull(model: ModelRef): Wire<typeof ModeloSchema> {
  return {
    Marca: model.brandName,
    Nombre: model.name,
    Codename: model.codename,
    Carrocerias: model.bodyTypes,
    Versiones: group({ self: link(`/v3/versiones?modelo=${model.id}`) }),
    _links: { self: link(path('modelos', model.id)), marca: link(path('marcas', model.brandId)) },
  }
}

export const modelRef = (model: ModelRef): Reference => ({
  href: path('modelos', model.id),
  title: `${model.brandName} ${model.name}`,
})

export function versionFull(version: VersionRef): Wire<typeof VersionSchema> {
  return {
    VersionYear: version.year,
    Propulsion: version.propulsion,
    Transmision: version.transmission,
    Potencia: version.power,
    Cilindrada: version.displacement,
    Marca: version.brandName,
    Modelo: version.modelName,
    Nombre: version.name,
    Codename: version.codename,
    Carroceria: version.bodyType,
    // Every imported version has one (docs/decisions/catalog.md); a row from before the derivation reads as unclassified.
    Segmento: version.segment ?? UNCLASSIFIED,
    _links: {
      self: link(path('versiones', version.id)),
      modelo: link(path('modelos', version.modelId)),
      marca: link(path('marcas', version.brandId)),
    },
  }
}

export function versionRef(version: VersionRef): Wire<typeof VersionRefSchema> {
  return {
    Marca: version.brandName,
    Modelo: version.modelName,
    Version: version.name,
    VersionYear: version.year,
    href: path('versiones', version.id),
    title: [version.brandName, version.modelName, version.name, version.year]
      .filter(Boolean)
      .join(' '),
  }
}

/** Full and reference shapes of one entry. */
/** A catalogue resource: its two representations and what a 404 calls a missing entry. */
export type CatalogKind<T> = {
  full: (entry: T) => unknown
  ref: (entry: T) => unknown
  /** "La marca", "El modelo"… */
  missing: string
}

export const BRAND: CatalogKind<BrandRef> = { full: brandFull, ref: brandRef, missing: 'La marca' }
export const MODEL: CatalogKind<ModelRef> = { full: modelFull, ref: modelRef, missing: 'El modelo' }
export const VERSION: CatalogKind<VersionRef> = {
  full: versionFull,
  ref: versionRef,
  missing: 'La versión',
}

export function shapes<T>(entry: T, full: (entry: T) => unknown, ref: (entry: T) => unknown) {
  return { full: () => full(entry), ref: () => ref(entry) }
}

/** Full and reference shapes of a list envelope. */
export function listShapes<T>(
  links: Links,
  entries: T[],
  full: (entry: T) => unknown,
  ref: (entry: T) => unknown
) {
  return {
    full: () => listEnvelope(links, entries.map(full)),
    ref: () => listEnvelope(links, entries.map(ref)),
  }
}

/** A catalogue entry a match could not choose, or one near an input that matched nothing. */
export const CandidatoSchema = named(
  'Candidato',
  object({
    href: str,
    Nombre: str,
    VersionYear: nullableInt,
    Carroceria: {
      ...nullableStr,
      description: 'La carrocería de una versión; las de un modelo, separadas por coma',
    },
    Puertas: {
      ...nullableInt,
      description: 'Cuando el nombre de la versión las dice (5P, 4 Ptas)',
    },
  })
)

const COLLECTION: Record<NamedEntry['table'], string> = {
  brands: 'marcas',
  vehicle_models: 'modelos',
  versions: 'versiones',
}

/** Doors as Argentine version names state them: `5P`, `3 Ptas`, `4 puertas`. */
const DOORS = /(?:^|[\s.-])([2-5])\s?(?:p|ptas?|puertas)(?=$|[\s.,)-])/i

export function candidato(entry: NamedEntry): Wire<typeof CandidatoSchema> {
  const doors = entry.table === 'versions' ? DOORS.exec(entry.name) : null
  return {
    href: path(COLLECTION[entry.table], entry.id),
    Nombre: entry.name,
    VersionYear: entry.year,
    Carroceria: entry.bodyTypes.length > 0 ? entry.bodyTypes.join(', ') : null,
    Puertas: doors ? Number(doors[1]) : null,
  }
}
