/*
 * Reads of brands and their models for the catalogue endpoints. Text filters
 * go through the trigram-indexed `search` column (accent/case-insensitive).
 */
import db from '@adonisjs/lucid/services/db'
import { likeLiteral } from './matcher.js'
import { brandRows, modelRows, type BrandRef, type ModelRef } from './vehicle_resolver.js'

export type BrandFilter = { q?: string; newMarketOnly?: boolean }
export type ModelFilter = BrandFilter & { brandId: number }

export default class BrandDirectory {
  async brands(filter: BrandFilter): Promise<BrandRef[]> {
    const query = brandRows().orderBy('name').orderBy('id')
    if (filter.q)
      query.whereRaw(`brands.search like '%' || catalog_fold(?) || '%'`, [likeLiteral(filter.q)])
    if (filter.newMarketOnly) query.where('new_market', true)
    return query
  }

  async brand(id: number): Promise<BrandRef | null> {
    return brandRows().where('id', id).first()
  }

  async brandExists(id: number): Promise<boolean> {
    return (await db.from('brands').where('id', id).select('id').first()) !== null
  }

  async models(filter: ModelFilter): Promise<ModelRef[]> {
    const query = modelRows()
      .where('vehicle_models.brand_id', filter.brandId)
      .orderBy('vehicle_models.name')
      .orderBy('vehicle_models.id')
    if (filter.q)
      query.whereRaw(`vehicle_models.search like '%' || catalog_fold(?) || '%'`, [
        likeLiteral(filter.q),
      ])
    if (filter.newMarketOnly) query.where('vehicle_models.new_market', true)
    return query
  }

  async model(id: number): Promise<ModelRef | null> {
    return modelRows().where('vehicle_models.id', id).first()
  }
}
