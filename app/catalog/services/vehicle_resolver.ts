/*
 * Resolves what callers send as Marca / Modelo / Version (id, API URL or
 * path, name, part of a name, codename) to catalogue entries.
 */
import db from '@adonisjs/lucid/services/db'
import { fail, ok, type Result } from '#core/result'
import { fold } from '#core/value_sets'
import { BODY_TYPES, type BodyType } from '#catalog/body_types'
import { bestMatchId, parseReference, type MatchFailure } from './matcher.js'

export type BrandRef = {
  id: number
  name: string
  codename: string
  codenames: string[]
  newMarket: boolean
}
export type ModelRef = {
  id: number
  name: string
  codename: string
  bodyTypes: string[]
  newMarket: boolean
  brandId: number
  brandName: string
}
export type VersionRef = {
  id: number
  name: string
  codename: string
  year: number | null
  propulsion: string | null
  transmission: string | null
  power: number | null
  displacement: number | null
  bodyType: string | null
  segment: string | null
  newMarket: boolean
  brandId: number
  brandName: string
  modelId: number
  modelName: string
}

/** Versions within this many years of the one asked are "reasonably close" (docs/spec.md §4.7). */
export const YEAR_WINDOW = 2

export type VersionFilters = { propulsion?: string | null; transmission?: string | null }

export default class VehicleResolver {
  async brand(input: string): Promise<Result<BrandRef, MatchFailure>> {
    const found = await this.brandId(input)
    if (!found.ok) return found
    return ok(await brandRows().where('id', found.value).firstOrFail())
  }

  /** The id of the brand `input` names: what a model match needs, without reading the brand. */
  brandId(input: string): Promise<Result<number, MatchFailure>> {
    return bestMatchId(
      {
        table: 'brands',
        collection: '/v3/marcas',
        exactSql:
          'catalog_fold(brands.name) = catalog_fold(?) or catalog_fold(?) = any(brands.codenames)',
      },
      input
    )
  }

  /** A model of `brandId`; with `bodyType` (a canonical Carroceria name) only models built that way. */
  async model(
    input: string,
    brandId: number,
    bodyType?: string | null
  ): Promise<Result<ModelRef, MatchFailure>> {
    const found = await bestMatchId(
      {
        table: 'vehicle_models',
        collection: '/v3/modelos',
        exactSql:
          'catalog_fold(vehicle_models.name) = catalog_fold(?) or vehicle_models.codename = catalog_fold(?)',
        scope: (query) => {
          query.where('vehicle_models.brand_id', brandId)
          if (bodyType) query.whereRaw('? = any(vehicle_models.body_types)', [bodyType])
        },
      },
      input
    )
    if (!found.ok) return found
    return ok(await modelRows().where('vehicle_models.id', found.value).firstOrFail())
  }

  /**
   * A version of `modelId`. With `year`, only versions within ±YEAR_WINDOW
   * years, the closest first; without it, versions on the new-vehicle market
   * rank first. An empty `input` with filters picks the only version that fits.
   */
  async version(
    input: string,
    modelId: number,
    year?: number | null,
    filters: VersionFilters = {}
  ): Promise<Result<VersionRef, MatchFailure>> {
    const scope = (query: any) => {
      query.where('versions.model_id', modelId)
      if (year) query.whereBetween('versions.year', [year - YEAR_WINDOW, year + YEAR_WINDOW])
      if (filters.propulsion) query.where('versions.propulsion', filters.propulsion)
      if (filters.transmission) query.where('versions.transmission', filters.transmission)
    }
    const closest = year
      ? { orderSql: 'abs(versions.year - ?) asc, versions.year desc', orderBindings: [year] }
      : { orderSql: 'versions.new_market desc, versions.year desc nulls last' }

    if (input.trim().length === 0) {
      const query = db.from('versions').select('versions.id', 'versions.codename')
      scope(query)
      const rows = await query.orderByRaw(closest.orderSql, closest.orderBindings ?? []).limit(50)
      if (rows.length === 0) return fail('not_found')
      if (new Set(rows.map((row: any) => row.codename)).size > 1) return fail('ambiguous')
      return this.versionById(rows[0].id)
    }

    const found = await bestMatchId(
      {
        table: 'versions',
        collection: '/v3/versiones',
        exactSql:
          'catalog_fold(versions.name) = catalog_fold(?) or versions.codename = catalog_fold(?)',
        groupColumn: 'versions.codename',
        scope,
        ...closest,
      },
      input
    )
    return found.ok ? this.versionById(found.value) : found
  }

  async versionById(id: number): Promise<Result<VersionRef, 'not_found'>> {
    const version = await versionRows().where('versions.id', id).first()
    return version ? ok(version) : fail('not_found')
  }

  /** A Carroceria by id, href, name or codename. */
  bodyType(input: string): Result<BodyType, MatchFailure> {
    const text = input.trim()
    const reference = parseReference(text, '/v3/carrocerias')
    if (reference.kind === 'id' || reference.kind === 'digits') {
      const byId = BODY_TYPES.find((bodyType) => bodyType.id === reference.id)
      return byId ? ok(byId) : fail('not_found')
    }
    const key = fold(text)
    if (reference.kind === 'invalid' || key.length === 0) return fail('not_found')
    const exact = BODY_TYPES.find(
      (bodyType) => fold(bodyType.name) === key || bodyType.codename === key
    )
    if (exact) return ok(exact)
    const partial = BODY_TYPES.filter((bodyType) => fold(bodyType.name).includes(key))
    if (partial.length === 1) return ok(partial[0])
    return fail(partial.length === 0 ? 'not_found' : 'ambiguous')
  }
}

export function brandRows() {
  return db.from('brands').select('id', 'name', 'codename', 'codenames', 'new_market as newMarket')
}

export function modelRows() {
  return db
    .from('vehicle_models')
    .join('brands', 'brands.id', 'vehicle_models.brand_id')
    .select(
      'vehicle_models.id',
      'vehicle_models.name',
      'vehicle_models.codename',
      'vehicle_models.body_types as bodyTypes',
      'vehicle_models.new_market as newMarket',
      'vehicle_models.brand_id as brandId',
      'brands.name as brandName'
    )
}

export function versionRows() {
  return db
    .from('versions')
    .join('vehicle_models', 'vehicle_models.id', 'versions.model_id')
    .join('brands', 'brands.id', 'vehicle_models.brand_id')
    .select(
      'versions.id',
      'versions.name',
      'versions.codename',
      'versions.year',
      'versions.propulsion',
      'versions.transmission',
      'versions.power',
      'versions.displacement',
      'versions.body_type as bodyType',
      'versions.segment',
      'versions.new_market as newMarket',
      'vehicle_models.brand_id as brandId',
      'brands.name as brandName',
      'versions.model_id as modelId',
      'vehicle_models.name as modelName'
    )
}
