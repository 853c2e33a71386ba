/*
 * Idempotent upsert of catalogue data in its normalised form (the JSON
 * format of `catalog:import`, docs/catalog_import.md). Natural keys decide
 * identity: region code; city (region, name); currency code; brand codename;
 * model (brand, codename); version (model, codename, year). Re-running the
 * same data changes nothing and creates no duplicates.
 *
 * The rows are planned in memory first and written with one set-based
 * statement per table (versions in chunks), all in one transaction: the
 * bundled 225,000 versions load in seconds instead of a minute of row
 * batches. The result is the one row-by-row upserts in input order gave:
 * the last occurrence of a key sets its values, and every proposed row takes
 * the next id of its table's sequence (ids are reserved up front), so ids are
 * the same too.
 */
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { bodyTypeOf, propulsionOf, slug, transmissionOf } from './normalize.js'

export type VersionInput = {
  name: string
  codename?: string
  year?: number | null
  propulsion?: string | null
  transmission?: string | null
  power?: number | null
  displacement?: number | null
  bodyType?: string | null
  segment?: string | null
  newMarket?: boolean
}
export type ModelInput = {
  name: string
  codename?: string
  bodyTypes?: string[]
  newMarket?: boolean
  versions?: VersionInput[]
}
export type BrandInput = { name: string; codename?: string; codenames?: string[]; newMarket?: boolean; models?: ModelInput[] }
export type RegionInput = { code: string; name: string; countryCode?: string; cities?: string[] }
export type CurrencyInput = { code: string; name: string }
export type CatalogData = { regions?: RegionInput[]; currencies?: CurrencyInput[]; brands?: BrandInput[] }

export type ImportSummary = {
  regions: number
  cities: number
  currencies: number
  brands: number
  models: number
  versions: number
}

/** Called after each unit of work with (done, total). */
export type Progress = (done: number, total: number) => void

/** Version runs (consecutive model years) per statement. */
const CHUNK = 2000

type RegionRow = { code: string; country_code: string; name: string }
type CityRow = { region: string; name: string }
type CurrencyRow = { code: string; name: string }
type BrandRow = { codename: string; name: string; codenames: string[]; new_market: boolean }
type ModelRow = { brand: string; codename: string; name: string; body_types: string[]; new_market: boolean }
type VersionRow = {
  brand: string
  model: string
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

/**
 * The rows of one table by natural key, in first-occurrence order. Like a
 * row-by-row upsert, a repeated key keeps its first position (its id) and
 * takes the last values, and every proposal uses up one id.
 */
class Planned<Row> {
  readonly rows = new Map<string, { at: number; row: Row }>()
  proposals = 0

  add(key: string, row: Row) {
    const planned = this.rows.get(key)
    if (planned) planned.row = row
    else this.rows.set(key, { at: this.proposals, row })
    this.proposals++
  }
}

type Plan = {
  regions: Planned<RegionRow>
  cities: Planned<CityRow>
  currencies: Planned<CurrencyRow>
  brands: Planned<BrandRow>
  models: Planned<ModelRow>
  versions: Planned<VersionRow>
}

export default class ImportCatalog {
  async execute(data: CatalogData, progress: Progress = () => {}): Promise<ImportSummary> {
    const summary: ImportSummary = { regions: 0, cities: 0, currencies: 0, brands: 0, models: 0, versions: 0 }
    const plan = this.plan(data, summary)
    const runs = versionRuns(plan.versions)
    const chunks = Math.ceil(runs.length / CHUNK)
    const total = 5 + chunks
    let done = 0
    const step = () => progress(++done, total)

    await db.transaction(async (trx) => {
      const regionIds = await this.regions(trx, plan.regions)
      step()
      await this.cities(trx, plan.cities, regionIds)
      step()
      await this.currencies(trx, plan.currencies)
      step()
      const brandIds = await this.brands(trx, plan.brands)
      step()
      const modelIds = await this.models(trx, plan.models, brandIds)
      step()
      const first = await reserveIds(trx, 'versions', plan.versions.proposals)
      for (let start = 0; start < runs.length; start += CHUNK) {
        await this.versions(trx, runs.slice(start, start + CHUNK), first, modelIds)
        step()
      }
      // Catalogue ETags derive from this revision: any import invalidates them.
      await trx.rawQuery('update catalog_state set revision = revision + 1, changed_at = now() where id = 1')
    })
    // Fresh statistics so the planner sees the real table sizes right after a bulk load.
    await db.rawQuery('analyze regions, cities, currencies, brands, vehicle_models, versions')
    return summary
  }

  /** Normalises the input into rows by natural key, in input order. */
  private plan(data: CatalogData, summary: ImportSummary): Plan {
    const plan: Plan = {
      regions: new Planned(),
      cities: new Planned(),
      currencies: new Planned(),
      brands: new Planned(),
      models: new Planned(),
      versions: new Planned(),
    }
    // The bundled data repeats the same words ~225,000 times: normalise each once.
    const slugOf = memo(slug)
    const propulsion = memo(propulsionOf)
    const transmission = memo(transmissionOf)
    const bodyType = memo(bodyTypeOf)

    for (const region of data.regions ?? []) {
      const code = text(region.code).trim().toUpperCase()
      plan.regions.add(code, { code, country_code: region.countryCode ?? code.slice(0, 2), name: text(region.name).trim() })
      summary.regions++
      for (const name of new Set((region.cities ?? []).map((city) => text(city).trim()).filter(Boolean))) {
        plan.cities.add(`${code}\u0000${name}`, { region: code, name })
        summary.cities++
      }
    }

    for (const currency of data.currencies ?? []) {
      const code = text(currency.code).trim().toUpperCase()
      plan.currencies.add(code, { code, name: text(currency.name).trim() })
      summary.currencies++
    }

    for (const brand of data.brands ?? []) {
      const name = text(brand.name).trim().slice(0, 100)
      const codename = slugOf(text(brand.codename ?? name)).slice(0, 100)
      const models = brand.models ?? []
      plan.brands.add(codename, {
        codename,
        name,
        codenames: [...new Set([codename, ...(brand.codenames ?? []).map((alias) => slugOf(text(alias)))].filter(Boolean))],
        new_market: brand.newMarket ?? models.some((model) => isNewMarket(model)),
      })
      summary.brands++

      for (const model of models) {
        const modelName = text(model.name).trim().slice(0, 100)
        const modelCodename = slugOf(text(model.codename ?? modelName)).slice(0, 100)
        const versions = model.versions ?? []
        const bodyTypes = new Set<string>()
        for (const input of [...(model.bodyTypes ?? []), ...versions.map((version) => version.bodyType)]) {
          const found = bodyType(input)
          if (found !== null) bodyTypes.add(found)
        }
        const modelKey = `${codename}\u0000${modelCodename}`
        plan.models.add(modelKey, {
          brand: codename,
          codename: modelCodename,
          name: modelName,
          body_types: [...bodyTypes],
          new_market: isNewMarket(model),
        })
        summary.models++

        // One row per (codename, year) of this model: the last occurrence in the input wins.
        const rows = new Map<string, VersionRow>()
        for (const version of versions) {
          const versionName = text(version.name).trim().slice(0, 150)
          const versionCodename = slugOf(text(version.codename ?? versionName)).slice(0, 150)
          const year = version.year ?? null
          rows.set(`${versionCodename}|${year}`, {
            brand: codename,
            model: modelCodename,
            codename: versionCodename,
            name: versionName,
            year,
            propulsion: propulsion(version.propulsion),
            transmission: transmission(version.transmission),
            power: positiveInt(version.power),
            displacement: positiveInt(version.displacement),
            body_type: bodyType(version.bodyType),
            segment: (version.segment == null ? '' : text(version.segment)).trim() || null,
            new_market: version.newMarket ?? false,
          })
        }
        for (const [key, row] of rows) plan.versions.add(`${modelKey}\u0000${key}`, row)
        summary.versions += rows.size
      }
    }
    return plan
  }

  private async regions(trx: TransactionClientContract, planned: Planned<RegionRow>) {
    const ids = new Map<string, number>()
    if (planned.rows.size === 0) return ids
    const first = await reserveIds(trx, 'regions', planned.proposals)
    const { rows } = await trx.rawQuery(
      `insert into regions (id, country_code, code, name, search)
       select id, country_code, code, name, catalog_fold(name || ' ' || code)
       from json_to_recordset(?::json) as t(id int, country_code text, code text, name text)
       on conflict (code) do update set country_code = excluded.country_code, name = excluded.name, search = excluded.search
       returning id, code`,
      [json([...planned.rows.values()].map(({ at, row }) => ({ id: first + at, ...row })))]
    )
    for (const row of rows) ids.set(row.code, row.id)
    return ids
  }

  private async cities(trx: TransactionClientContract, planned: Planned<CityRow>, regionIds: Map<string, number>) {
    if (planned.rows.size === 0) return
    const first = await reserveIds(trx, 'cities', planned.proposals)
    await trx.rawQuery(
      `insert into cities (id, region_id, name, search)
       select id, region_id, name, catalog_fold(name)
       from json_to_recordset(?::json) as t(id int, region_id int, name text)
       on conflict (region_id, name) do update set search = excluded.search`,
      [json([...planned.rows.values()].map(({ at, row }) => ({ id: first + at, region_id: regionIds.get(row.region), name: row.name })))]
    )
  }

  private async currencies(trx: TransactionClientContract, planned: Planned<CurrencyRow>) {
    if (planned.rows.size === 0) return
    await trx.rawQuery(
      `insert into currencies (code, name)
       select code, name from json_to_recordset(?::json) as t(code text, name text)
       on conflict (code) do update set name = excluded.name`,
      [json([...planned.rows.values()].map(({ row }) => row))]
    )
  }

  private async brands(trx: TransactionClientContract, planned: Planned<BrandRow>) {
    const ids = new Map<string, number>()
    if (planned.rows.size === 0) return ids
    const first = await reserveIds(trx, 'brands', planned.proposals)
    const { rows } = await trx.rawQuery(
      `insert into brands (id, codename, name, codenames, new_market, search)
       select id, codename, name, codenames, new_market, catalog_fold(name || ' ' || array_to_string(codenames, ' '))
       from json_to_recordset(?::json) as t(id int, codename text, name text, codenames text[], new_market boolean)
       on conflict (codename) do update
         set name = excluded.name, codenames = excluded.codenames, new_market = excluded.new_market, search = excluded.search
       returning id, codename`,
      [json([...planned.rows.values()].map(({ at, row }) => ({ id: first + at, ...row })))]
    )
    for (const row of rows) ids.set(row.codename, row.id)
    return ids
  }

  private async models(trx: TransactionClientContract, planned: Planned<ModelRow>, brandIds: Map<string, number>) {
    const ids = new Map<string, number>()
    if (planned.rows.size === 0) return ids
    const first = await reserveIds(trx, 'vehicle_models', planned.proposals)
    const { rows } = await trx.rawQuery(
      `insert into vehicle_models (id, brand_id, codename, name, body_types, new_market, search)
       select id, brand_id, codename, name, body_types, new_market, catalog_fold(name || ' ' || codename)
       from json_to_recordset(?::json) as t(id int, brand_id int, codename text, name text, body_types text[], new_market boolean)
       on conflict (brand_id, codename) do update
         set name = excluded.name, body_types = excluded.body_types, new_market = excluded.new_market, search = excluded.search
       returning id, brand_id, codename`,
      [
        json(
          [...planned.rows.values()].map(({ at, row }) => ({
            id: first + at,
            brand_id: brandIds.get(row.brand),
            codename: row.codename,
            name: row.name,
            body_types: row.body_types,
            new_market: row.new_market,
          }))
        ),
      ]
    )
    const codenames = new Map([...brandIds].map(([codename, id]) => [id, codename]))
    for (const row of rows) ids.set(`${codenames.get(row.brand_id)}\u0000${row.codename}`, row.id)
    return ids
  }

  /**
   * A run stands for `years` rows with consecutive ids and model years that
   * agree on everything else: PostgreSQL expands it (the bundled data has
   * eight model years per engine on average), folding its text once.
   */
  private async versions(trx: TransactionClientContract, runs: VersionRun[], first: number, modelIds: Map<string, number>) {
    await trx.rawQuery(
      `with runs as materialized (
         select t.*, catalog_fold(t.name || ' ' || t.codename) as search
         from json_to_recordset(?::json) as t(
           id int, years int, model_id int, codename text, name text, year int, propulsion text, transmission text,
           power int, displacement int, body_type text, segment text, new_market boolean)
       )
       insert into versions
         (id, model_id, codename, name, year, propulsion, transmission, power, displacement, body_type, segment, new_market, search)
       select r.id + g.i, r.model_id, r.codename, r.name, r.year + g.i, r.propulsion, r.transmission,
         r.power, r.displacement, r.body_type, r.segment, r.new_market, r.search
       from runs r cross join lateral generate_series(0, r.years - 1) as g(i)
       on conflict (model_id, codename, year) do update
         set name = excluded.name, propulsion = excluded.propulsion, transmission = excluded.transmission,
           power = excluded.power, displacement = excluded.displacement, body_type = excluded.body_type,
           segment = excluded.segment, new_market = excluded.new_market, search = excluded.search`,
      [
        json(
          runs.map(({ at, years, row }) => ({
            id: first + at,
            years,
            model_id: modelIds.get(`${row.brand}\u0000${row.model}`),
            codename: row.codename,
            name: row.name,
            year: row.year,
            propulsion: row.propulsion,
            transmission: row.transmission,
            power: row.power,
            displacement: row.displacement,
            body_type: row.body_type,
            segment: row.segment,
            new_market: row.new_market,
          }))
        ),
      ]
    )
  }
}

type VersionRun = { at: number; years: number; row: VersionRow }

/** Planned versions as runs: next id, same model and fields, next model year. */
function versionRuns(planned: Planned<VersionRow>): VersionRun[] {
  const runs: VersionRun[] = []
  let last: VersionRun | null = null
  for (const { at, row } of planned.rows.values()) {
    const previous = last?.row
    if (
      last &&
      previous &&
      at === last.at + last.years &&
      row.year !== null &&
      previous.year !== null &&
      row.year === previous.year + last.years &&
      row.brand === previous.brand &&
      row.model === previous.model &&
      row.codename === previous.codename &&
      row.name === previous.name &&
      row.propulsion === previous.propulsion &&
      row.transmission === previous.transmission &&
      row.power === previous.power &&
      row.displacement === previous.displacement &&
      row.body_type === previous.body_type &&
      row.segment === previous.segment &&
      row.new_market === previous.new_market
    ) {
      last.years++
      continue
    }
    last = { at, years: 1, row }
    runs.push(last)
  }
  return runs
}

/**
 * Takes `count` consecutive ids from the table's sequence, as `count`
 * row-by-row inserts would (a proposal that turns into an update uses one up
 * too). Returns the first.
 */
async function reserveIds(trx: TransactionClientContract, table: string, count: number): Promise<number> {
  if (count === 0) return 0
  const { rows } = await trx.rawQuery(
    `select setval(pg_get_serial_sequence(?, 'id'), nextval(pg_get_serial_sequence(?, 'id')) + ? - 1) as last`,
    [table, table, count]
  )
  return Number(rows[0].last) - count + 1
}

/** The rows as one JSON parameter (json_to_recordset): one round trip per table. */
function json(rows: object[]) {
  return JSON.stringify(rows)
}

/**
 * Text as the driver would have sent it: a lone surrogate (possible in a
 * JSON file's escapes) becomes U+FFFD instead of failing the JSON parameter.
 */
function text(value: string): string {
  return String(value).toWellFormed()
}

function memo<T>(compute: (input: any) => T): (input: any) => T {
  const seen = new Map<unknown, T>()
  return (input) => {
    if (seen.has(input)) return seen.get(input)!
    const value = compute(input)
    seen.set(input, value)
    return value
  }
}

function isNewMarket(model: ModelInput): boolean {
  return model.newMarket ?? (model.versions ?? []).some((version) => version.newMarket === true)
}

function positiveInt(value: unknown): number | null {
  const number = Number(value)
  return Number.isFinite(number) && number > 0 ? Math.round(number) : null
}
