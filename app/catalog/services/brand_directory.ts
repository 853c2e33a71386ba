/*
 * Reads of brands and their models for the catalogue endpoints. Text filters
 * go through the trigram-indexed `search` column (accent/case-insensitive).
 */
import { poolQuery, SqlParams, whereOf } from '#core/database/pool_query'
import { likeLiteral } from './matcher.js'
import {
  BRAND_SQL,
  MODEL_SQL,
  brandRows,
  modelRows,
  type BrandRef,
  type ModelRef,
} from './vehicle_resolver.js'

export type BrandFilter = { q?: string; newMarketOnly?: boolean }
export type ModelFilter = BrandFilter & { brandId: number }

/** The conditions of a name search (`q`, folded, anywhere in the name) and the new-market filter. */
function searched(table: 'brands' | 'vehicle_models', filter: BrandFilter, params: SqlParams) {
  const conditions: string[] = []
  if (filter.q)
    conditions.push(
      `${table}.search like '%' || catalog_fold(${params.add(likeLiteral(filter.q))}) || '%'`
    )
  if (filter.newMarketOnly) conditions.push(`${table}.new_market = true`)
  return conditions
}

export default class BrandDirectory {
  async brands(filter: BrandFilter): Promise<BrandRef[]> {
    const params = new SqlParams()
    const conditions = searched('brands', filter, params)
    return poolQuery<BrandRef>(
      `${BRAND_SQL}${whereOf(conditions)} order by brands.name asc, brands.id asc`,
      params.values
    )
  }

  async brand(id: number): Promise<BrandRef | null> {
    const [brand] = await brandRows(id)
    return brand ?? null
  }

  async brandExists(id: number): Promise<boolean> {
    const rows = await poolQuery('select id from brands where id = $1 limit 1', [id])
    return rows.length > 0
  }

  async models(filter: ModelFilter): Promise<ModelRef[]> {
    const params = new SqlParams()
    const conditions = [
      `vehicle_models.brand_id = ${params.add(filter.brandId)}`,
      ...searched('vehicle_models', filter, params),
    ]
    return poolQuery<ModelRef>(
      `${MODEL_SQL}${whereOf(conditions)} order by vehicle_models.name asc, vehicle_models.id asc`,
      params.values
    )
  }

  async model(id: number): Promise<ModelRef | null> {
    const [model] = await modelRows(id)
    return model ?? null
  }
}
