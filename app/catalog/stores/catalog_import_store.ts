/*
 * The catalogue import's writes (ImportCatalog): set-based upserts of whole
 * tables from one JSON parameter each, ids reserved from the sequences as
 * row-by-row upserts would have taken them. Written-out SQL: `json_to_recordset`,
 * `generate_series` runs and sequence reservation have no query-builder form,
 * and the bulk load they make is what lets a first boot load 225 376 versions in
 * seconds (docs/decisions/catalog.md, Catalog, "Bulk writes, no new dependency").
 * Every method runs in the import's transaction (`tx`), but `analyze`.
 */
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Tx } from '#core/database/unit_of_work'

/** A planned row and its position among the table's proposals (its id is the reserved first + `at`). */
export type Numbered<Row> = Row & { at: number }

export type RegionRow = { code: string; country_code: string; name: string }
export type CityRow = { region_id: number | undefined; name: string }
export type CurrencyRow = { code: string; name: string }
export type BrandRow = { codename: string; name: string; codenames: string[]; new_market: boolean }
export type ModelRow = {
  brand_id: number | undefined
  codename: string
  name: string
  body_types: string[]
  new_market: boolean
}
/** `years` rows with consecutive ids and model years from `year`, otherwise equal. */
export type VersionRunRow = {
  years: number
  model_id: number
  codename: string
  name: string
  year: number | null
  propulsion: string | null
  transmission: string | null
  power: number | null
  displacement: number | null
  body_type: string | null
  segment: string | null
  new_market: boolean
}

export default class CatalogImportStore {
  /** Upserts regions by code; their ids by code. */
  async upsertRegions(proposals: number, rows: Numbered<RegionRow>[], tx: Tx) {
    const { rows: written } = await tx.rawQuery(
      `with reserved as materialized (${RESERVE('regions')})
       insert into regions (id, country_code, code, name, search)
       select reserved.first + t.at, t.country_code, t.code, t.name, catalog_fold(t.name || ' ' || t.code)
       from reserved, json_to_recordset(?::json) as t(at int, country_code text, code text, name text)
       on conflict (code) do update set country_code = excluded.country_code, name = excluded.name, search = excluded.search
       returning id, code`,
      [proposals, json(rows)]
    )
    return new Map<string, number>(
      written.map((row: { id: number; code: string }) => [row.code, row.id])
    )
  }

  /** Upserts cities by (region, name). */
  async upsertCities(proposals: number, rows: Numbered<CityRow>[], tx: Tx) {
    await tx.rawQuery(
      `with reserved as materialized (${RESERVE('cities')})
       insert into cities (id, region_id, name, search)
       select reserved.first + t.at, t.region_id, t.name, catalog_fold(t.name)
       from reserved, json_to_recordset(?::json) as t(at int, region_id int, name text)
       on conflict (region_id, name) do update set search = excluded.search`,
      [proposals, json(rows)]
    )
  }

  async upsertCurrencies(rows: CurrencyRow[], tx: Tx) {
    await tx.rawQuery(
      `insert into currencies (code, name)
       select code, name from json_to_recordset(?::json) as t(code text, name text)
       on conflict (code) do update set name = excluded.name`,
      [json(rows)]
    )
  }

  /** Upserts brands by codename; their ids by codename. */
  async upsertBrands(proposals: number, rows: Numbered<BrandRow>[], tx: Tx) {
    const { rows: written } = await tx.rawQuery(
      `with reserved as materialized (${RESERVE('brands')})
       insert into brands (id, codename, name, codenames, new_market, search)
       select reserved.first + t.at, t.codename, t.name, t.codenames, t.new_market,
         catalog_fold(t.name || ' ' || array_to_string(t.codenames, ' '))
       from reserved, json_to_recordset(?::json) as t(at int, codename text, name text, codenames text[], new_market boolean)
       on conflict (codename) do update
         set name = excluded.name, codenames = excluded.codenames, new_market = excluded.new_market, search = excluded.search
       returning id, codename`,
      [proposals, json(rows)]
    )
    return new Map<string, number>(
      written.map((row: { id: number; codename: string }) => [row.codename, row.id])
    )
  }

  /** Upserts models by (brand, codename); their rows. */
  async upsertModels(
    proposals: number,
    rows: Numbered<ModelRow>[],
    tx: Tx
  ): Promise<{ id: number; brand_id: number; codename: string }[]> {
    const { rows: written } = await tx.rawQuery(
      `with reserved as materialized (${RESERVE('vehicle_models')})
         insert into vehicle_models (id, brand_id, codename, name, body_types, new_market, search)
         select reserved.first + t.at, t.brand_id, t.codename, t.name, t.body_types, t.new_market,
           catalog_fold(t.name || ' ' || t.codename)
         from reserved, json_to_recordset(?::json) as t(at int, brand_id int, codename text, name text, body_types text[], new_market boolean)
         on conflict (brand_id, codename) do update
           set name = excluded.name, body_types = excluded.body_types, new_market = excluded.new_market, search = excluded.search
         returning id, brand_id, codename`,
      [proposals, json(rows)]
    )
    return written
  }

  /**
   * Locks `versions` against another import (readers and the listings' foreign-key
   * checks are not blocked) and tells whether it is empty.
   */
  async lockVersions(tx: Tx, options: { askEmpty: boolean }) {
    await tx.rawQuery('lock table versions in share row exclusive mode')
    if (!options.askEmpty) return { empty: false }
    const sample = await tx.rawQuery('select 1 from versions limit 1')
    return { empty: sample.rows.length === 0 }
  }

  /**
   * Writes version runs (PostgreSQL expands each into its model years). `first`: the
   * first statement of the import, which reserves the ids of all `proposals`; later
   * ones find them again. `plain`: plain inserts (an empty table, no conflict possible).
   */
  async insertVersionRuns(
    proposals: number,
    runs: Numbered<VersionRunRow>[],
    options: { first: boolean; plain: boolean },
    tx: Tx
  ) {
    const { first, plain } = options
    await tx.rawQuery(
      `with reserved as materialized (${first ? RESERVE('versions') : RESERVED('versions')}),
         runs as materialized (
           select reserved.first + t.at as id, t.*, catalog_fold(t.name || ' ' || t.codename) as search
           from reserved, json_to_recordset(?::json) as t(
             at int, years int, model_id int, codename text, name text, year int, propulsion text, transmission text,
             power int, displacement int, body_type text, segment text, new_market boolean)
         )
         insert into versions
           (id, model_id, codename, name, year, propulsion, transmission, power, displacement, body_type, segment, new_market, search)
         select r.id + g.i, r.model_id, r.codename, r.name, r.year + g.i, r.propulsion, r.transmission,
           r.power, r.displacement, r.body_type, r.segment, r.new_market, r.search
         from runs r cross join lateral generate_series(0, r.years - 1) as g(i)
         ${
           plain
             ? ''
             : `on conflict (model_id, codename, year) do update
           set name = excluded.name, propulsion = excluded.propulsion, transmission = excluded.transmission,
             power = excluded.power, displacement = excluded.displacement, body_type = excluded.body_type,
             segment = excluded.segment, new_market = excluded.new_market, search = excluded.search`
         }`,
      [proposals, json(runs)]
    )
  }

  /** Catalogue ETags derive from this revision: any import invalidates them. */
  async bumpRevision(tx: Tx) {
    await tx.rawQuery(
      'update catalog_state set revision = revision + 1, changed_at = now() where id = 1'
    )
  }

  /** `catalog_sources`: the version of each bundled source loaded, by name. */
  async loadedSources(client?: QueryClientContract): Promise<Map<string, string>> {
    const rows = await (client ?? db).from('catalog_sources').select('name', 'version')
    return new Map(rows.map((row) => [row.name, row.version]))
  }

  async recordSource(
    source: { name: string; version: string; summary: object },
    client?: QueryClientContract
  ) {
    await (client ?? db)
      .insertQuery()
      .table('catalog_sources')
      .insert({ ...source, summary: JSON.stringify(source.summary), loaded_at: new Date() })
      .onConflict('name')
      .merge()
  }

  /** Fresh planner statistics of `tables` after a bulk load (outside the transaction). */
  async analyze(tables: string[], client?: QueryClientContract) {
    await (client ?? db).rawQuery(`analyze ${tables.join(', ')}`)
  }
}

/**
 * A CTE taking `?` consecutive ids from the table's sequence, as that many
 * row-by-row inserts would (a proposal that turns into an update uses one up
 * too): `first` is the first of them.
 */
const RESERVE = (table: string) =>
  `select setval(s.seq, nextval(s.seq) + n.count - 1) - n.count + 1 as first
   from (select pg_get_serial_sequence('${table}', 'id') as seq) s, (select ?::int as count) n`

/** The same `first` in a later statement of the session, before anything else takes an id of the table. */
const RESERVED = (table: string) =>
  `select currval(pg_get_serial_sequence('${table}', 'id')) - ?::int + 1 as first`

/** The rows as one JSON parameter (json_to_recordset): one round trip per table. */
function json(rows: object[]) {
  return JSON.stringify(rows)
}
