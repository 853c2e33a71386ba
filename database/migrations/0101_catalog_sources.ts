import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `catalog_sources`: which bundled data set (and version) the catalogue was
 * loaded from, so `npm start` skips a loaded one. `catalog_state.revision`:
 * bumped by every import; catalogue ETags derive from it.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('catalog_sources', (table) => {
      table.string('name', 100).primary()
      table.string('version', 50).notNullable()
      table.jsonb('summary').notNullable().defaultTo('{}')
      table.timestamp('loaded_at', { useTz: true }).notNullable().defaultTo(this.now())
    })
    this.schema.createTable('catalog_state', (table) => {
      table.smallint('id').primary()
      table.bigint('revision').notNullable().defaultTo(1)
      table.timestamp('changed_at', { useTz: true }).notNullable().defaultTo(this.now())
    })
    this.schema.raw(
      'alter table catalog_state add constraint catalog_state_single_row check (id = 1)'
    )
    this.schema.raw('insert into catalog_state (id) values (1)')
  }

  async down() {
    this.schema.dropTable('catalog_state')
    this.schema.dropTable('catalog_sources')
  }
}
