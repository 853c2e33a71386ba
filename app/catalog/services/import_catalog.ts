/*
 * Idempotent upsert of catalogue data in its normalised form (the JSON
 * format of `catalog:import`, docs/catalog_import.md). Natural keys decide
 * identity: region code; city (region, name); currency code; brand codename;
 * model (brand, codename); version (model, codename, year). Re-running the
 * same data changes nothing and creates no duplicates.
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

const CHUNK = 500

export default class ImportCatalog {
  async execute(data: CatalogData, progress: Progress = () => {}): Promise<ImportSummary> {
    const summary: ImportSummary = { regions: 0, cities: 0, currencies: 0, brands: 0, models: 0, versions: 0 }
    const total = (data.regions?.length ?? 0) + (data.currencies?.length ? 1 : 0) + (data.brands?.length ?? 0)
    let done = 0
    const step = () => progress(++done, total)

    for (const region of data.regions ?? []) {
      await db.transaction(async (trx) => this.region(trx, region, summary))
      step()
    }
    if (data.currencies?.length) {
      await db.transaction(async (trx) => this.currencies(trx, data.currencies!, summary))
      step()
    }
    for (const brand of data.brands ?? []) {
      await db.transaction(async (trx) => this.brand(trx, brand, summary))
      step()
    }
    // Catalogue ETags derive from this revision: any import invalidates them.
    await db.rawQuery('update catalog_state set revision = revision + 1, changed_at = now() where id = 1')
    // Fresh statistics so the planner sees the real table sizes right after a bulk load.
    await db.rawQuery('analyze regions, cities, currencies, brands, vehicle_models, versions')
    return summary
  }

  private async region(trx: TransactionClientContract, region: RegionInput, summary: ImportSummary) {
    const code = region.code.trim().toUpperCase()
    const [{ id }] = await trx
      .knexQuery()
      .table('regions')
      .insert({
        country_code: region.countryCode ?? code.slice(0, 2),
        code,
        name: region.name.trim(),
        search: trx.knexRawQuery(`catalog_fold(? || ' ' || ?)`, [region.name.trim(), code]),
      })
      .onConflict('code')
      .merge(['country_code', 'name', 'search'])
      .returning('id')
    summary.regions++
    const names = [...new Set((region.cities ?? []).map((name) => name.trim()).filter(Boolean))]
    for (let start = 0; start < names.length; start += CHUNK) {
      const rows = names.slice(start, start + CHUNK).map((name) => ({
        region_id: id,
        name,
        search: trx.knexRawQuery('catalog_fold(?)', [name]),
      }))
      await trx.knexQuery().table('cities').insert(rows).onConflict(['region_id', 'name']).merge(['search'])
      summary.cities += rows.length
    }
  }

  private async currencies(trx: TransactionClientContract, currencies: CurrencyInput[], summary: ImportSummary) {
    const rows = currencies.map((currency) => ({ code: currency.code.trim().toUpperCase(), name: currency.name.trim() }))
    await trx.knexQuery().table('currencies').insert(rows).onConflict('code').merge(['name'])
    summary.currencies += rows.length
  }

  private async brand(trx: TransactionClientContract, brand: BrandInput, summary: ImportSummary) {
    const name = brand.name.trim().slice(0, 100)
    const codename = slug(brand.codename ?? name).slice(0, 100)
    const codenames = [...new Set([codename, ...(brand.codenames ?? []).map(slug)].filter(Boolean))]
    const models = brand.models ?? []
    const newMarket = brand.newMarket ?? models.some((model) => isNewMarket(model))
    const [{ id: brandId }] = await trx
      .knexQuery()
      .table('brands')
      .insert({
        codename,
        name,
        codenames: codenames,
        new_market: newMarket,
        search: trx.knexRawQuery(`catalog_fold(? || ' ' || ?)`, [name, codenames.join(' ')]),
      })
      .onConflict('codename')
      .merge(['name', 'codenames', 'new_market', 'search'])
      .returning('id')
    summary.brands++

    for (const model of models) {
      const modelName = model.name.trim().slice(0, 100)
      const modelCodename = slug(model.codename ?? modelName).slice(0, 100)
      const versions = model.versions ?? []
      const bodyTypes = [
        ...new Set(
          [...(model.bodyTypes ?? []), ...versions.map((version) => version.bodyType)]
            .map((bodyType) => bodyTypeOf(bodyType))
            .filter((bodyType): bodyType is string => bodyType !== null)
        ),
      ]
      const [{ id: modelId }] = await trx
        .knexQuery()
        .table('vehicle_models')
        .insert({
          brand_id: brandId,
          codename: modelCodename,
          name: modelName,
          body_types: bodyTypes,
          new_market: isNewMarket(model),
          search: trx.knexRawQuery(`catalog_fold(? || ' ' || ?)`, [modelName, modelCodename]),
        })
        .onConflict(['brand_id', 'codename'])
        .merge(['name', 'body_types', 'new_market', 'search'])
        .returning('id')
      summary.models++

      // One row per (codename, year): the last occurrence in the input wins.
      const rows = new Map<string, Record<string, unknown>>()
      for (const version of versions) {
        const versionName = version.name.trim().slice(0, 150)
        const versionCodename = slug(version.codename ?? versionName).slice(0, 150)
        const year = version.year ?? null
        rows.set(`${versionCodename}|${year}`, {
          model_id: modelId,
          codename: versionCodename,
          name: versionName,
          year,
          propulsion: propulsionOf(version.propulsion),
          transmission: transmissionOf(version.transmission),
          power: positiveInt(version.power),
          displacement: positiveInt(version.displacement),
          body_type: bodyTypeOf(version.bodyType),
          segment: version.segment?.trim() || null,
          new_market: version.newMarket ?? false,
          search: trx.knexRawQuery(`catalog_fold(? || ' ' || ?)`, [versionName, versionCodename]),
        })
      }
      const all = [...rows.values()]
      for (let start = 0; start < all.length; start += CHUNK) {
        await trx
          .knexQuery()
          .table('versions')
          .insert(all.slice(start, start + CHUNK))
          .onConflict(['model_id', 'codename', 'year'])
          .merge([
            'name',
            'propulsion',
            'transmission',
            'power',
            'displacement',
            'body_type',
            'segment',
            'new_market',
            'search',
          ])
      }
      summary.versions += all.length
    }
  }
}

function isNewMarket(model: ModelInput): boolean {
  return model.newMarket ?? (model.versions ?? []).some((version) => version.newMarket === true)
}

function positiveInt(value: unknown): number | null {
  const number = Number(value)
  return Number.isFinite(number) && number > 0 ? Math.round(number) : null
}
