/*
 * Resolves what callers send as Marca / Modelo / Version (id, API URL or
 * path, name, part of a name, codename) to catalogue entries.
 */
import { errors } from '@adonisjs/lucid'
import { fail, ok, type Result } from '#core/result'
import { fold } from '#core/value_sets'
import { BODY_TYPES, type BodyType } from '#catalog/body_types'
import { poolQuery, SqlParams, whereOf } from '#core/database/pool_query'
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
    return ok(await firstOrFail(brandRows(found.value)))
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
        scope: (params) => [
          `vehicle_models.brand_id = ${params.add(brandId)}`,
          ...(bodyType ? [`${params.add(bodyType)} = any(vehicle_models.body_types)`] : []),
        ],
      },
      input
    )
    if (!found.ok) return found
    return ok(await firstOrFail(modelRows(found.value)))
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
    const scope = (params: SqlParams) => [
      `versions.model_id = ${params.add(modelId)}`,
      ...(year
        ? [
            `versions.year between ${params.add(year - YEAR_WINDOW)} and ${params.add(year + YEAR_WINDOW)}`,
          ]
        : []),
      ...(filters.propulsion ? [`versions.propulsion = ${params.add(filters.propulsion)}`] : []),
      ...(filters.transmission
        ? [`versions.transmission = ${params.add(filters.transmission)}`]
        : []),
    ]
    const order = (params: SqlParams) =>
      year
        ? `abs(versions.year - ${params.add(year)}) asc, versions.year desc`
        : 'versions.new_market desc, versions.year desc nulls last'

    if (input.trim().length === 0) {
      const params = new SqlParams()
      const conditions = scope(params)
      const rows = await poolQuery<{ id: number; codename: string }>(
        `select versions.id, versions.codename from versions${whereOf(conditions)} ` +
          `order by ${order(params)} limit 50`,
        params.values
      )
      if (rows.length === 0) return fail('not_found')
      if (new Set(rows.map((row) => row.codename)).size > 1) return fail('ambiguous')
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
        order,
      },
      input
    )
    return found.ok ? this.versionById(found.value) : found
  }

  async versionById(id: number): Promise<Result<VersionRef, 'not_found'>> {
    const [version] = await versionRows(id)
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

/** SQL of the Refs, written out (docs/decisions/performance.md): the select list and its joins. */
export const BRAND_SQL = `select brands.id, brands.name, brands.codename, brands.codenames,
  brands.new_market as "newMarket" from brands`
export const MODEL_SQL = `select vehicle_models.id, vehicle_models.name, vehicle_models.codename,
  vehicle_models.body_types as "bodyTypes", vehicle_models.new_market as "newMarket",
  vehicle_models.brand_id as "brandId", brands.name as "brandName"
  from vehicle_models join brands on brands.id = vehicle_models.brand_id`
export const VERSION_SQL = `select versions.id, versions.name, versions.codename, versions.year,
  versions.propulsion, versions.transmission, versions.power, versions.displacement,
  versions.body_type as "bodyType", versions.segment, versions.new_market as "newMarket",
  vehicle_models.brand_id as "brandId", brands.name as "brandName", versions.model_id as "modelId",
  vehicle_models.name as "modelName"
  from versions join vehicle_models on vehicle_models.id = versions.model_id
  join brands on brands.id = vehicle_models.brand_id`

export function brandRows(id: number) {
  return poolQuery<BrandRef>(`${BRAND_SQL} where brands.id = $1 limit 1`, [id])
}

export function modelRows(id: number) {
  return poolQuery<ModelRef>(`${MODEL_SQL} where vehicle_models.id = $1 limit 1`, [id])
}

export function versionRows(id: number) {
  return poolQuery<VersionRef>(`${VERSION_SQL} where versions.id = $1 limit 1`, [id])
}

/** The row a match just found (gone only if an import deleted it meanwhile: 404, as Lucid's `firstOrFail`). */
async function firstOrFail<T>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows
  if (!row) throw new errors.E_ROW_NOT_FOUND()
  return row
}
