/*
 * `npm start` loads the bundled catalogue on first boot; later boots find it
 * recorded in `catalog_sources` and skip it.
 */
import type { ReferenceDataLoader } from '#core/bootstrap/reference_data'

export const loaders: ReferenceDataLoader[] = [
  {
    name: 'catalog',
    async load() {
      const { default: LoadBundledCatalog } = await import('#catalog/services/load_bundled_catalog')
      const { progressBar } = await import('#catalog/services/progress_bar')
      const { default: app } = await import('@adonisjs/core/services/app')
      const loader = await app.container.make(LoadBundledCatalog)
      const report = await loader.execute({ progress: progressBar })
      if (report.loaded.length === 0) return 'already loaded'
      const { summary } = report
      return `loaded ${report.loaded.join(', ')}: ${summary.regions} regions, ${summary.cities} cities, ${summary.currencies} currencies, ${summary.brands} brands, ${summary.models} models, ${summary.versions} versions`
    },
  },
]
