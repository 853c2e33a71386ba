/*
 * Versions of one model (docs/spec.md §4.7): without a year only those on the
 * new-vehicle market; with one, every version within ±YEAR_WINDOW model
 * years, optionally filtered by part of the name.
 */
import { poolQuery, SqlParams, whereOf } from '#core/database/pool_query'
import { likeLiteral } from './matcher.js'
import { VERSION_SQL, YEAR_WINDOW, versionRows, type VersionRef } from './vehicle_resolver.js'

export type VersionFilter = { modelId: number; year?: number; q?: string }

export default class VersionDirectory {
  async versions(filter: VersionFilter): Promise<VersionRef[]> {
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
    if (filter.q)
      conditions.push(
        `versions.search like '%' || catalog_fold(${params.add(likeLiteral(filter.q))}) || '%'`
      )
    return poolQuery<VersionRef>(
      `${VERSION_SQL}${whereOf(conditions)} ` +
        `order by ${closest}versions.year desc, versions.name asc, versions.id asc`,
      params.values
    )
  }

  async version(id: number): Promise<VersionRef | null> {
    const [version] = await versionRows(id)
    return version ?? null
  }

  async modelExists(id: number): Promise<boolean> {
    const rows = await poolQuery('select id from vehicle_models where id = $1 limit 1', [id])
    return rows.length > 0
  }
}
