/*
 * Brands, models and versions as the catalogue's Refs. Written-out SQL through
 * `poolQuery`: compiling knex queries and Lucid's runner cost more than
 * PostgreSQL's answer — web CPU per request marcas 0.94 → 0.55, versiones
 * 1.09 → 0.60 ms, statements of a versiones request 3 → 2 (docs/decisions/performance.md,
 * Performance, "Catalogue reads without the query builder"). Text filters go
 * through the trigram-indexed `search` column (accent/case-insensitive).
 * No `tx` argument: catalogue reads never run inside a write transaction (they
 * come before it: docs/decisions/core.md, Database & deploys).
 */
import { poolQuery, SqlParams, whereOf } from '#core/database/pool_query'
import { likeLiteral, YEAR_WINDOW } from './match_store.js'

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

export type BrandFilter = { q?: string; newMarketOnly?: boolean }
export type ModelFilter = BrandFilter & { brandId: number }
export type VersionFilter = { modelId: number; year?: number; q?: string }

/** The select list and joins of each Ref. */
const BRAND_SQL = `select brands.id, brands.name, brands.codename, brands.codenames,
  brands.new_market as "newMarket" from brands`
const MODEL_SQL = `select vehicle_models.id, vehicle_models.name, vehicle_models.codename,
  vehicle_models.body_types as "bodyTypes", vehicle_models.new_market as "newMarket",
  vehicle_models.brand_id as "brandId", brands.name as "brandName"
  from vehicle_models join brands on brands.id = vehicle_models.brand_id`
const VERSION_SQL = `select versions.id, versions.name, versions.codename, versions.year,
  versions.propulsion, versions.transmission, versions.power, versions.displacement,
  versions.body_type as "bodyType", versions.segment, versions.new_market as "newMarket",
  vehicle_models.brand_id as "brandId", brands.name as "brandName", versions.model_id as "modelId",
  vehicle_models.name as "modelName"
  from versions join vehicle_models on vehicle_models.id = versions.model_id
  join brands on brands.id = vehicle_models.brand_id`

type Table = 'brands' | 'vehicle_models' | 'versions'

/** The condition of a name search: `q`, folded, anywhere in the name. */
function nameLike(table: Table, q: string, params: SqlParams) {
  return `${table}.search like '%' || catalog_fold(${params.add(likeLiteral(q))}) || '%'`
}

/** The conditions of a name search and the new-market filter. */
function searched(table: 'brands' | 'vehicle_models', filter: BrandFilter, params: SqlParams) {
  const conditions: string[] = []
  if (filter.q) conditions.push(nameLike(table, filter.q, params))
  if (filter.newMarketOnly) conditions.push(`${table}.new_market = true`)
  return conditions
}

/** The rows of `select` that meet the conditions, by name (then id: a stable order). */
function byName<T>(select: string, table: Table, conditions: string[], params: SqlParams) {
  return poolQuery<T>(
    `${select}${whereOf(conditions)} order by ${table}.name asc, ${table}.id asc`,
    params.values
  )
}

async function idExists(table: 'brands' | 'vehicle_models', id: number) {
  const rows = await poolQuery(`select id from ${table} where id = $1 limit 1`, [id])
  return rows.length > 0
}

async function first<T>(rows: Promise<T[]>): Promise<T | null> {
  const [row] = await rows
  return row ?? null
}

export default class VehicleStore {
  brand(id: number): Promise<BrandRef | null> {
    return first(poolQuery<BrandRef>(`${BRAND_SQL} where brands.id = $1 limit 1`, [id]))
  }

  model(id: number): Promise<ModelRef | null> {
    return first(poolQuery<ModelRef>(`${MODEL_SQL} where vehicle_models.id = $1 limit 1`, [id]))
  }

  version(id: number): Promise<VersionRef | null> {
    return first(poolQuery<VersionRef>(`${VERSION_SQL} where versions.id = $1 limit 1`, [id]))
  }

  brands(filter: BrandFilter): Promise<BrandRef[]> {
    const params = new SqlParams()
    const conditions = searched('brands', filter, params)
    return byName<BrandRef>(BRAND_SQL, 'brands', conditions, params)
  }

  brandExists(id: number): Promise<boolean> {
    return idExists('brands', id)
  }

  models(filter: ModelFilter): Promise<ModelRef[]> {
    const params = new SqlParams()
    const conditions = [
      `vehicle_models.brand_id = ${params.add(filter.brandId)}`,
      ...searched('vehicle_models', filter, params),
    ]
    return byName<ModelRef>(MODEL_SQL, 'vehicle_models', conditions, params)
  }

  modelExists(id: number): Promise<boolean> {
    return idExists('vehicle_models', id)
  }

  /**
   * Versions of one model (docs/spec.md §4.7): without a year only those on the
   * new-vehicle market; with one, every version within ±YEAR_WINDOW model years
   * (the closest first), optionally filtered by part of the name.
   */
  versions(filter: VersionFilter): Promise<VersionRef[]> {
    const params = new SqlParams()
    const conditions = [`versions.model_id = ${params.add(filter.modelId)}`]
    let closest = ''
    if (filter.year) {
      conditions.push(
        `versions.year between ${params.add(filter.year - YEAR_WINDOW)} and ${params.add(filter.year + YEAR_WINDOW)}`
      )
      closest = `abs(versions.year - ${params.add(filter.year)}) asc, `
    } else {
      conditions.push('versions.new_market = true')
    }
    if (filter.q) conditions.push(nameLike('versions', filter.q, params))
    return poolQuery<VersionRef>(
      `${VERSION_SQL}${whereOf(conditions)} ` +
        `order by ${closest}versions.year desc, versions.name asc, versions.id asc`,
      params.values
    )
  }
}
