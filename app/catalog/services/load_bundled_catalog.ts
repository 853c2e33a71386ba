/*
 * Loads the bundled reference data (app/catalog/data/sources.ts). Each part
 * is recorded in `catalog_sources` with its package version, so a boot with
 * the data already there costs one query; `force` re-runs the upserts.
 */
import { inject } from '@adonisjs/core'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import CatalogImportStore from '#catalog/stores/catalog_import_store'
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

@inject()
export default class LoadBundledCatalog {
  constructor(
    private importer: ImportCatalog,
    private store: CatalogImportStore
  ) {}

  /** `client`: another connection than the default one (a test's fresh database). */
  async execute(
    options: {
      force?: boolean
      progress?: (part: Part) => Progress
      client?: QueryClientContract
    } = {}
  ): Promise<LoadReport> {
    const current = await this.store.loadedSources(options.client)
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
      const summary = await this.importer.execute(await LOADERS[part](), options.progress?.(part), {
        client: options.client,
      })
      await this.store.recordSource(
        { name: source.name, version: source.version, summary },
        options.client
      )
      for (const key of Object.keys(summary) as (keyof ImportSummary)[])
        report.summary[key] += summary[key]
      report.loaded.push(part)
    }
    return report
  }
}
