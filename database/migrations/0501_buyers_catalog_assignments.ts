import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Catalogue inquiries from the model pages are shared out among the
 * agencies of the buyer's region that receive other leads: this table
 * remembers when each agency last got one (the least recent goes next).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('catalog_lead_assignments', (table) => {
      table.integer('agency_id').primary()
      table.integer('assigned').notNullable().defaultTo(0)
      table.timestamp('last_assigned_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    this.schema.dropTable('catalog_lead_assignments')
  }
}
