/*
 * Loads the bundled reference data (app/catalog/data/sources.ts). Each part
 * is recorded in `catalog_sources` with its package version, so a boot with
 * the data already there costs one query; `force` re-runs the upserts.
 */
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { SOURCES, argentinaPlaces, carJsonBrands, iso4217Currencies } from '#catalog/data/sources'
import ImportCatalog, {
  type CatalogData,
  type ImportSummary,
  type Progress,
} from './import_catalog.js'

type Part = keyof typeof SOURCES

const LOADERS: Record<Part, () => Promise<CatalogData>> = {
  places: async () => ({ regions: await argentinaPlaces() }),
  currencies: async () => ({ currencies: iso4217Currencies() }),
  vehicles: async () => ({ brands: await carJsonBrands() }),
}

export type LoadReport = { loaded: Part[]; skipped: Part[]; summary: ImportSummary }

export default class LoadBundledCatalog {
  /** `client`: another connection than the default one (a test's fresh database). */
  constructor(private client: QueryClientContract = db.connection()) {}

  async execute(
    options: { force?: boolean; progress?: (part: Part) => Progress } = {}
  ): Promise<LoadReport> {
    const recorded = await this.client.from('catalog_sources').select('name', 'version')
    const current = new Map(recorded.map((row) => [row.name, row.version]))
    const report: LoadReport = {
      loaded: [],
      skipped: [],
      summary: { regions: 0, cities: 0, currencies: 0, brands: 0, models: 0, versions: 0 },
    }
    for (const part of Object.keys(SOURCES) as Part[]) {
      const source = SOURCES[part]
      if (!options.force && current.get(source.name) === source.version) {
        report.skipped.push(part)
        continue
      }
      const summary = await new ImportCatalog(this.client).execute(
        await LOADERS[part](),
        options.progress?.(part)
      )
      await this.client
        .knexQuery()
        .table('catalog_sources')
        .insert({
          name: source.name,
          version: source.version,
          summary: JSON.stringify(summary),
          loaded_at: new Date(),
        })
        .onConflict('name')
        .merge()
      for (const key of Object.keys(summary) as (keyof ImportSummary)[])
        report.summary[key] += summary[key]
      report.loaded.push(part)
    }
    return report
  }
}
