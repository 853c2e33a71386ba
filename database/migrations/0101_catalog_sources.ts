import { BaseSchema } from '@adonisjs/lucid/schema'

/** Which bundled data set (and version) the catalogue was loaded from: lets `npm start` skip a loaded one. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('catalog_sources', (table) => {
      table.string('name', 100).primary()
      table.string('version', 50).notNullable()
      table.jsonb('summary').notNullable().defaultTo('{}')
      table.timestamp('loaded_at', { useTz: true }).notNullable().defaultTo(this.now())
    })
  }

  async down() {
    this.schema.dropTable('catalog_sources')
  }
}
