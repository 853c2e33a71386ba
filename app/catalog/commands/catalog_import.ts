import { args } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'

/**
 * `catalog:import [FILE]`: idempotent upserts of catalogue data. Without FILE
 * the bundled data (Argentine regions and cities, ISO 4217, car-json-datasets);
 * with FILE a JSON or CSV file in the format of docs/catalog_import.md.
 */
export default class CatalogImport extends AppCommand {
  static commandName = 'catalog:import'
  static description =
    'Load the catalogue (bundled data, or a JSON/CSV FILE) with idempotent upserts'

  @args.string({
    description: 'JSON or CSV file (docs/catalog_import.md); omit for the bundled data',
    required: false,
  })
  declare file?: string

  async run() {
    const { migrate } = await import('#core/database/migrate')
    const { default: ReadCatalogFile } = await import('#catalog/services/read_catalog_file')
    const { progressBar } = await import('#catalog/services/progress_bar')

    const migrated = await migrate()
    if (migrated) this.logger.info(`Applied ${migrated} migration(s)`)

    let summary
    if (this.file) {
      const read = await new ReadCatalogFile().execute(this.file)
      if (!read.ok) {
        return this.fail(`Cannot import ${this.file}: ${read.message}`)
      }
      const importer = await this.make(() => import('#catalog/services/import_catalog'))
      summary = await importer.execute(read.value, progressBar('file'))
    } else {
      const loader = await this.make(() => import('#catalog/services/load_bundled_catalog'))
      const loaded = await loader.execute({ force: true, progress: progressBar })
      summary = loaded.summary
    }
    const line = Object.entries(summary)
      .map(([kind, count]) => `${count} ${kind}`)
      .join(', ')
    this.logger.success(`Catalogue upserted: ${line}`)
  }
}
