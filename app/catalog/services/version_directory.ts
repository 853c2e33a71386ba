/*
 * Versions of one model (docs/spec.md §4.7): without a year only those on the
 * new-vehicle market; with one, every version within ±YEAR_WINDOW model
 * years, optionally filtered by part of the name.
 */
import db from '@adonisjs/lucid/services/db'
import { likeLiteral } from './matcher.js'
import { YEAR_WINDOW, versionRows, type VersionRef } from './vehicle_resolver.js'

export type VersionFilter = { modelId: number; year?: number; q?: string }

export default class VersionDirectory {
  async versions(filter: VersionFilter): Promise<VersionRef[]> {
    const query = versionRows().where('versions.model_id', filter.modelId)
    if (filter.year) {
      query
        .whereBetween('versions.year', [filter.year - YEAR_WINDOW, filter.year + YEAR_WINDOW])
        .orderByRaw('abs(versions.year - ?) asc', [filter.year])
    } else {
      query.where('versions.new_market', true)
    }
    if (filter.q)
      query.whereRaw(`versions.search like '%' || catalog_fold(?) || '%'`, [likeLiteral(filter.q)])
    return query.orderBy('versions.year', 'desc').orderBy('versions.name').orderBy('versions.id')
  }

  async version(id: number): Promise<VersionRef | null> {
    return versionRows().where('versions.id', id).first()
  }

  async modelExists(id: number): Promise<boolean> {
    return (await db.from('vehicle_models').where('id', id).select('id').first()) !== null
  }
}
