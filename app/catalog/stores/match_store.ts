/*
 * The candidates of a best match over one catalogue table (the Matcher of
 * app/catalog/services/matcher.ts decides among them). Written-out SQL through
 * `poolQuery`: compiling knex queries cost more than PostgreSQL's answer —
 * bestmatch web CPU 1.46 → 0.79 ms per request (docs/decisions/performance.md,
 * Performance, "Catalogue reads without the query builder"). Statements stay
 * unnamed: a generic plan of a trigram search would not see the searched text.
 *
 * Text goes through `catalog_fold` (unaccent + lower) on the database side and
 * is looked up in the table's trigram-indexed `search` column: containment
 * first, trigram word similarity for typos.
 * No `tx` argument: catalogue reads never run inside a write transaction (they
 * come before it: docs/decisions/core.md, Database & deploys).
 */
import { poolQuery, SqlParams, whereOf } from '#core/database/pool_query'

/** Versions within this many years of the one asked are "reasonably close" (docs/spec.md §4.7). */
export const YEAR_WINDOW = 2

/** What to match against: a table, narrowed (the models of one brand, the versions of one model…). */
export type MatchScope =
  | { table: 'brands' }
  | { table: 'vehicle_models'; brandId: number; bodyType?: string | null }
  | {
      table: 'versions'
      modelId: number
      year?: number | null
      propulsion?: string | null
      transmission?: string | null
    }
  | { table: 'regions' }
  | { table: 'cities'; regionId?: number | null }

export type Candidate = {
  id: number
  group: string | number
  exact: boolean
  prefix: boolean
  score: number
}

type Target = {
  table: string
  /** SQL boolean telling an exact hit, with `?` wherever the input goes. */
  exactSql: string
  /** Rows that count as one answer (e.g. a version across model years). Defaults to the id. */
  groupColumn?: string
  /** Restricts the candidates: SQL conditions on `params`. */
  scope?: (params: SqlParams) => string[]
  /** Extra ordering ahead of similarity inside a group (e.g. closest model year), on `params`. */
  order?: (params: SqlParams) => string
}

function targetOf(scope: MatchScope): Target {
  switch (scope.table) {
    case 'brands':
      return {
        table: 'brands',
        exactSql:
          'catalog_fold(brands.name) = catalog_fold(?) or catalog_fold(?) = any(brands.codenames)',
      }
    case 'vehicle_models':
      return {
        table: 'vehicle_models',
        exactSql:
          'catalog_fold(vehicle_models.name) = catalog_fold(?) or vehicle_models.codename = catalog_fold(?)',
        scope: (params) => [
          `vehicle_models.brand_id = ${params.add(scope.brandId)}`,
          ...(scope.bodyType
            ? [`${params.add(scope.bodyType)} = any(vehicle_models.body_types)`]
            : []),
        ],
      }
    case 'versions':
      return {
        table: 'versions',
        exactSql:
          'catalog_fold(versions.name) = catalog_fold(?) or versions.codename = catalog_fold(?)',
        groupColumn: 'versions.codename',
        scope: (params) => versionConditions(scope, params),
        order: (params) => versionOrder(scope, params),
      }
    case 'regions':
      return {
        table: 'regions',
        exactSql: 'catalog_fold(regions.name) = catalog_fold(?) or lower(regions.code) = lower(?)',
      }
    case 'cities':
      return {
        table: 'cities',
        exactSql: 'catalog_fold(cities.name) = catalog_fold(?)',
        scope: scope.regionId
          ? (params) => [`cities.region_id = ${params.add(scope.regionId)}`]
          : undefined,
      }
  }
}

type VersionScope = Extract<MatchScope, { table: 'versions' }>

/** With `year`, only versions within ±YEAR_WINDOW years; the propulsion and transmission asked. */
function versionConditions(scope: VersionScope, params: SqlParams) {
  const { modelId, year } = scope
  return [
    `versions.model_id = ${params.add(modelId)}`,
    ...(year
      ? [
          `versions.year between ${params.add(year - YEAR_WINDOW)} and ${params.add(year + YEAR_WINDOW)}`,
        ]
      : []),
    ...(scope.propulsion ? [`versions.propulsion = ${params.add(scope.propulsion)}`] : []),
    ...(scope.transmission ? [`versions.transmission = ${params.add(scope.transmission)}`] : []),
  ]
}

/** With `year` the closest first; without it, versions on the new-vehicle market first. */
function versionOrder({ year }: VersionScope, params: SqlParams) {
  return year
    ? `abs(versions.year - ${params.add(year)}) asc, versions.year desc`
    : 'versions.new_market desc, versions.year desc nulls last'
}

/** Escapes LIKE wildcards so user text matches literally. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`)
}

/** What an ambiguity or a suggestion names of an entry: enough to choose it (Extensions.Candidatos). */
export type NamedEntry = {
  table: 'brands' | 'vehicle_models' | 'versions'
  id: number
  name: string
  /** A model's body types, or a version's one. */
  bodyTypes: string[]
  year: number | null
}

type NamedTable = NamedEntry['table']

/** The select list of a NamedEntry per table. */
const NAMED_SQL: Record<NamedTable, string> = {
  brands: `select brands.id, brands.name, '{}'::text[] as "bodyTypes", null::int as year from brands`,
  vehicle_models: `select vehicle_models.id, vehicle_models.name, vehicle_models.body_types as "bodyTypes",
    null::int as year from vehicle_models`,
  versions: `select versions.id, versions.name,
    case when versions.body_type is null then '{}'::text[] else array[versions.body_type] end as "bodyTypes",
    versions.year from versions`,
}

/** At most this many names of a scope are compared to an input that matched nothing. */
export const MAX_NAMES = 500

export default class MatchStore {
  /** The entries `ids` of `table`, in the order of `ids`. */
  async named(table: NamedTable, ids: number[]): Promise<NamedEntry[]> {
    if (ids.length === 0) return []
    const params = new SqlParams()
    const rows = await poolQuery<Omit<NamedEntry, 'table'>>(
      `${NAMED_SQL[table]} where ${table}.id = any(${params.add(ids)}::int[])`,
      params.values
    )
    const byId = new Map(rows.map((row) => [row.id, { ...row, table }]))
    return ids.flatMap((id) => byId.get(id) ?? [])
  }

  /**
   * Up to MAX_NAMES entries of a brand's models or a model's versions (one per
   * codename, the newest): what an input that matched nothing is compared to.
   */
  async namesIn(
    scope: Extract<MatchScope, { table: 'vehicle_models' | 'versions' }>
  ): Promise<NamedEntry[]> {
    const target = targetOf(scope)
    const params = new SqlParams()
    const conditions = target.scope?.(params) ?? []
    const sql =
      scope.table === 'versions'
        ? NAMED_SQL.versions.replace(/^select /, 'select distinct on (versions.codename) ') +
          `${whereOf(conditions)} order by versions.codename, versions.year desc nulls last limit ${MAX_NAMES}`
        : `${NAMED_SQL.vehicle_models}${whereOf(conditions)} order by vehicle_models.id limit ${MAX_NAMES}`
    const rows = await poolQuery<Omit<NamedEntry, 'table'>>(sql, params.values)
    return rows.map((row) => ({ ...row, table: scope.table }))
  }

  /** Whether row `id` exists within the scope. */
  async exists(scope: MatchScope, id: number): Promise<boolean> {
    const target = targetOf(scope)
    const params = new SqlParams()
    const conditions = [`${target.table}.id = ${params.add(id)}`, ...(target.scope?.(params) ?? [])]
    const sql = `select ${target.table}.id from ${target.table}${whereOf(conditions)} limit 1`
    const rows = await poolQuery(sql, params.values)
    return rows.length > 0
  }

  /** Rows whose name contains the input, best first. */
  containing(scope: MatchScope, input: string): Promise<Candidate[]> {
    const target = targetOf(scope)
    return ranked(target, input, (text, literal) => ({
      score: `similarity(catalog_fold(${target.table}.name), catalog_fold(${text}))`,
      where: `${target.table}.search like '%' || catalog_fold(${literal}) || '%'`,
    }))
  }

  /** Rows whose name is like the input (trigram word similarity: typos), best first. */
  similar(scope: MatchScope, input: string): Promise<Candidate[]> {
    const target = targetOf(scope)
    return ranked(target, input, (text) => ({
      score: `word_similarity(catalog_fold(${text}), ${target.table}.search)`,
      where: `catalog_fold(${text}) <% ${target.table}.search`,
    }))
  }

  /** Up to 50 versions of the scope, in its order: an empty version input with filters. */
  versionsOf(scope: VersionScope): Promise<{ id: number; codename: string }[]> {
    const params = new SqlParams()
    const conditions = versionConditions(scope, params)
    return poolQuery<{ id: number; codename: string }>(
      `select versions.id, versions.codename from versions${whereOf(conditions)} ` +
        `order by ${versionOrder(scope, params)} limit 50`,
      params.values
    )
  }
}

/**
 * The candidates, best first: `filter` (on the input's placeholders) picks
 * them and `score` ranks those equally exact and prefixed.
 */
async function ranked(
  target: Target,
  input: string,
  filter: (folded: string, literal: string) => { score: string; where: string }
): Promise<Candidate[]> {
  const { table } = target
  const params = new SqlParams()
  const text = params.add(input)
  const literal = params.add(likeLiteral(input))
  const { score, where } = filter(text, literal)
  const conditions = [where, ...(target.scope?.(params) ?? [])]
  const order = target.order?.(params)
  const sql =
    `select ${table}.id, ${target.groupColumn ?? `${table}.id`} as "group", ` +
    `(${target.exactSql.replaceAll('?', text)}) as exact, ` +
    `catalog_fold(${table}.name) like catalog_fold(${literal}) || '%' as prefix, ${score} as score ` +
    `from ${table}${whereOf(conditions)} ` +
    `order by exact desc, prefix desc, score desc, ${order ? `${order}, ` : ''}${table}.id asc limit 50`
  const rows = await poolQuery<any>(sql, params.values)
  return rows.map((row) => ({
    id: row.id,
    group: row.group,
    exact: row.exact,
    prefix: row.prefix,
    score: Number(row.score),
  }))
}
