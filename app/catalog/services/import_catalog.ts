/*
 * Idempotent upsert of catalogue data in its normalised form (the JSON
 * format of `catalog:import`, docs/catalog_import.md). Natural keys decide
 * identity: region code; city (region, name); currency code; brand codename;
 * model (brand, codename); version (model, codename, year). Re-running the
 * same data changes nothing and creates no duplicates.
 *
 * The rows are planned in memory and written with set-based statements in
 * one transaction: regions, cities, currencies, brands and models one
 * statement each, versions one per brand (planned while the database writes
 * the previous brand's). The bundled 225,000 versions thus load in seconds
 * instead of a minute of row batches, and the result is the one row-by-row
 * upserts in input order gave: the last occurrence of a key sets its values,
 * and every proposed row takes the next id of its table's sequence, so ids
 * are the same too.
 */
import { inject } from '@adonisjs/core'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import UnitOfWork, { type Tx } from '#core/database/unit_of_work'
import CatalogImportStore, { type VersionRunRow } from '#catalog/stores/catalog_import_store'
import { bodyTypeOf, propulsionOf, slug, transmissionOf } from './normalize.js'
import { segmentsOf } from './segment.js'

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
export type BrandInput = {
  name: string
  codename?: string
  codenames?: string[]
  newMarket?: boolean
  models?: ModelInput[]
}
export type RegionInput = { code: string; name: string; countryCode?: string; cities?: string[] }
export type CurrencyInput = { code: string; name: string }
export type CatalogData = {
  regions?: RegionInput[]
  currencies?: CurrencyInput[]
  brands?: BrandInput[]
}

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

type RegionRow = { code: string; country_code: string; name: string }
type CityRow = { region: string; name: string }
type CurrencyRow = { code: string; name: string }
type BrandRow = { codename: string; name: string; codenames: string[]; new_market: boolean }
type ModelRow = {
  brand: string
  codename: string
  name: string
  body_types: string[]
  new_market: boolean
}
/** A version as planned: its model by codename (the store's rows name it by id, as runs of years). */
type VersionRow = Omit<VersionRunRow, 'years' | 'model_id'> & { model: string }

/**
 * The rows of one table by natural key, in first-occurrence order. Like a
 * row-by-row upsert, a repeated key keeps its first position (its id) and
 * takes the last values, and every proposal uses up one id. Keys are paths of
 * parts in nested maps: no key string is built per row.
 */
class Planned<Row> {
  readonly entries: { at: number; row: Row }[] = []
  private readonly index = new Map<unknown, any>()
  proposals = 0

  add(key: unknown[], row: Row) {
    let level = this.index
    for (const part of key.slice(0, -1)) {
      let next = level.get(part)
      if (!next) level.set(part, (next = new Map()))
      level = next
    }
    const entry = level.get(key.at(-1))
    this.proposals++
    if (entry) {
      entry.row = row
      return
    }
    const created = { at: this.proposals - 1, row }
    level.set(key.at(-1), created)
    this.entries.push(created)
  }
}

/** Version runs per statement (the bundled data's biggest brand has ~2 300). */
const CHUNK = 1000

/** The bundled data repeats the same words ~225,000 times: each is normalised once per import. */
type Normalisers = {
  [K in 'slug' | 'propulsion' | 'transmission' | 'bodyType']: (input: any) => any
}

export type ImportOptions = {
  /** Another connection than the default one (a test's fresh database). */
  client?: QueryClientContract
}

@inject()
export default class ImportCatalog {
  constructor(
    private store: CatalogImportStore,
    private unitOfWork: UnitOfWork
  ) {}

  async execute(
    data: CatalogData,
    progress: Progress = () => {},
    options: ImportOptions = {}
  ): Promise<ImportSummary> {
    const summary: ImportSummary = {
      regions: 0,
      cities: 0,
      currencies: 0,
      brands: 0,
      models: 0,
      versions: 0,
    }
    const normalise: Normalisers = {
      slug: memo(slug),
      propulsion: memo(propulsionOf),
      transmission: memo(transmissionOf),
      bodyType: memo(bodyTypeOf),
    }
    const brands = data.brands ?? []
    const total = (data.regions?.length ?? 0) + (data.currencies?.length ? 1 : 0) + brands.length
    let done = 0
    const step = (units = 1) => progress((done += units), total)

    await this.unitOfWork.run(async (trx) => {
      if (data.regions?.length) {
        await this.places(trx, data.regions, summary)
        step(data.regions.length)
      }
      if (data.currencies?.length) {
        await this.currencies(trx, data.currencies, summary)
        step()
      }
      if (brands.length > 0) {
        const { brandCodenames, modelIds, repeated } = await this.brandsAndModels(
          trx,
          brands,
          normalise,
          summary
        )
        // Into an empty table with no brand given twice no version can conflict: plain inserts
        // (a third faster than upserts). The lock keeps another import from writing meanwhile.
        const { empty: plain } = await this.store.lockVersions(trx, { askEmpty: !repeated })
        // Brand by brand: the next brand's versions are planned while the database writes these.
        let writing: Promise<unknown> = Promise.resolve()
        for (const [index, brand] of brands.entries()) {
          const planned = this.planVersions(brand, brandCodenames[index], normalise, summary)
          await writing
          writing = this.versions(trx, planned, modelIds, plain).then(() => step())
        }
        await writing
      }
      await this.store.bumpRevision(trx)
    }, options)
    // Fresh statistics so the planner sees the real table sizes right after a bulk load
    // (only of the tables written: analysing the 225,000 versions takes a second).
    const written = [
      ...(data.regions?.length ? ['regions', 'cities'] : []),
      ...(data.currencies?.length ? ['currencies'] : []),
      ...(brands.length ? ['brands', 'vehicle_models', 'versions'] : []),
    ]
    if (written.length > 0) await this.store.analyze(written, options.client)
    return summary
  }

  private async places(trx: Tx, regions: RegionInput[], summary: ImportSummary) {
    const planned = { regions: new Planned<RegionRow>(), cities: new Planned<CityRow>() }
    for (const region of regions) {
      const code = text(region.code).trim().toUpperCase()
      const countryCode =
        region.countryCode === null || region.countryCode === undefined
          ? code.slice(0, 2)
          : text(region.countryCode)
      planned.regions.add([code], {
        code,
        country_code: countryCode,
        name: text(region.name).trim(),
      })
      summary.regions++
      for (const name of new Set(
        (region.cities ?? []).map((city) => text(city).trim()).filter(Boolean)
      )) {
        planned.cities.add([code, name], { region: code, name })
        summary.cities++
      }
    }

    const regionIds = await this.store.upsertRegions(
      planned.regions.proposals,
      planned.regions.entries.map(({ at, row }) => ({ at, ...row })),
      trx
    )
    if (planned.cities.entries.length === 0) return
    await this.store.upsertCities(
      planned.cities.proposals,
      planned.cities.entries.map(({ at, row }) => ({
        at,
        region_id: regionIds.get(row.region),
        name: row.name,
      })),
      trx
    )
  }

  private async currencies(trx: Tx, currencies: CurrencyInput[], summary: ImportSummary) {
    const planned = new Planned<CurrencyRow>()
    for (const currency of currencies) {
      const code = text(currency.code).trim().toUpperCase()
      planned.add([code], { code, name: text(currency.name).trim() })
      summary.currencies++
    }
    await this.store.upsertCurrencies(
      planned.entries.map(({ row }) => row),
      trx
    )
  }

  /** All brands, then all models (one statement each); the ids of the models by brand and model codename. */
  private async brandsAndModels(
    trx: Tx,
    brands: BrandInput[],
    normalise: Normalisers,
    summary: ImportSummary
  ) {
    const planned = { brands: new Planned<BrandRow>(), models: new Planned<ModelRow>() }
    const brandCodenames: string[] = []
    for (const brand of brands) {
      const name = text(brand.name).trim().slice(0, 100)
      const codename = normalise.slug(text(brand.codename ?? name)).slice(0, 100)
      const models = brand.models ?? []
      brandCodenames.push(codename)
      planned.brands.add([codename], {
        codename,
        name,
        codenames: [
          ...new Set(
            [
              codename,
              ...(brand.codenames ?? []).map((alias) => normalise.slug(text(alias))),
            ].filter(Boolean)
          ),
        ],
        new_market: brand.newMarket ?? models.some((model) => isNewMarket(model)),
      })
      summary.brands++
      for (const model of models) {
        const modelName = text(model.name).trim().slice(0, 100)
        const modelCodename = normalise.slug(text(model.codename ?? modelName)).slice(0, 100)
        const bodyTypes = new Set<string>()
        for (const input of [
          ...(model.bodyTypes ?? []),
          ...(model.versions ?? []).map((version) => version.bodyType),
        ]) {
          const bodyType = normalise.bodyType(input)
          if (bodyType !== null) bodyTypes.add(bodyType)
        }
        planned.models.add([codename, modelCodename], {
          brand: codename,
          codename: modelCodename,
          name: modelName,
          body_types: [...bodyTypes],
          new_market: isNewMarket(model),
        })
        summary.models++
      }
    }

    const brandIds = await this.store.upsertBrands(
      planned.brands.proposals,
      planned.brands.entries.map(({ at, row }) => ({ at, ...row })),
      trx
    )
    const modelIds = new Map<number, Map<string, number>>()
    if (planned.models.entries.length > 0) {
      const rows = await this.store.upsertModels(
        planned.models.proposals,
        planned.models.entries.map(({ at, row: { brand, ...row } }) => ({
          at,
          ...row,
          brand_id: brandIds.get(brand),
        })),
        trx
      )
      for (const row of rows) {
        if (!modelIds.has(row.brand_id)) modelIds.set(row.brand_id, new Map())
        modelIds.get(row.brand_id)!.set(row.codename, row.id)
      }
    }
    const byCodename = new Map(
      [...brandIds].map(([codename, id]) => [
        codename,
        modelIds.get(id) ?? new Map<string, number>(),
      ])
    )
    return {
      brandCodenames,
      modelIds: (brand: string, model: string) => byCodename.get(brand)!.get(model)!,
      repeated: planned.brands.proposals > planned.brands.entries.length,
    }
  }

  /** One brand's versions, model by model as a row-by-row import proposed them. */
  private planVersions(
    brand: BrandInput,
    brandCodename: string,
    normalise: Normalisers,
    summary: ImportSummary
  ) {
    const planned = new Planned<VersionRow>()
    for (const model of brand.models ?? []) {
      const modelCodename = normalise
        .slug(text(model.codename ?? text(model.name).trim().slice(0, 100)))
        .slice(0, 100)
      // One row per (codename, year) of this model: the last occurrence in the input wins.
      const rows = new Planned<VersionRow>()
      for (const version of model.versions ?? []) {
        const name = text(version.name).trim().slice(0, 150)
        const codename = normalise.slug(text(version.codename ?? name)).slice(0, 150)
        const year = version.year ?? null
        rows.add([codename, year], {
          model: modelCodename,
          codename,
          name,
          year,
          propulsion: normalise.propulsion(version.propulsion),
          transmission: normalise.transmission(version.transmission),
          power: positiveInt(version.power),
          displacement: positiveInt(version.displacement),
          body_type: normalise.bodyType(version.bodyType),
          segment:
            (version.segment === null || version.segment === undefined
              ? ''
              : text(version.segment)
            ).trim() || null,
          new_market: version.newMarket ?? false,
        })
      }
      // Segments the data leaves out are derived (docs/spec.md §2.13): Segmento is never null.
      const segments = segmentsOf(
        rows.entries.map(({ row }) => ({
          bodyType: row.body_type,
          displacement: row.displacement,
          power: row.power,
          segment: row.segment,
        }))
      )
      rows.entries.forEach(({ row }, index) => (row.segment = segments[index]))
      // Models of one brand may share a codename: their versions then meet in one model.
      for (const { row } of rows.entries) planned.add([modelCodename, row.codename, row.year], row)
      summary.versions += rows.entries.length
    }
    return { brand: brandCodename, planned }
  }

  /**
   * A run stands for `years` rows with consecutive ids and model years that
   * agree on everything else: PostgreSQL expands it (the bundled data has
   * eight model years per engine on average), folding its text once.
   */
  private async versions(
    trx: Tx,
    { brand, planned }: { brand: string; planned: Planned<VersionRow> },
    modelIds: (brand: string, model: string) => number,
    plain: boolean
  ) {
    if (planned.entries.length === 0) return
    const runs = versionRuns(planned).map(({ at, years, row: { model, ...row } }) => ({
      at,
      years,
      ...row,
      model_id: modelIds(brand, model),
    }))
    // Big brands in several statements: the first reserves the ids of all, the others find them again.
    for (let start = 0; start < runs.length; start += CHUNK) {
      await this.store.insertVersionRuns(
        planned.proposals,
        runs.slice(start, start + CHUNK),
        { first: start === 0, plain },
        trx
      )
    }
  }
}

type VersionRun = { at: number; years: number; row: VersionRow }

/** Planned versions as runs: next id, same model and fields, next model year. */
function versionRuns(planned: Planned<VersionRow>): VersionRun[] {
  const runs: VersionRun[] = []
  let last: VersionRun | null = null
  for (const { at, row } of planned.entries) {
    const first = last?.row
    if (
      last &&
      first &&
      at === last.at + last.years &&
      row.year !== null &&
      first.year !== null &&
      row.year === first.year + last.years &&
      row.model === first.model &&
      row.codename === first.codename &&
      row.name === first.name &&
      row.propulsion === first.propulsion &&
      row.transmission === first.transmission &&
      row.power === first.power &&
      row.displacement === first.displacement &&
      row.body_type === first.body_type &&
      row.segment === first.segment &&
      row.new_market === first.new_market
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
