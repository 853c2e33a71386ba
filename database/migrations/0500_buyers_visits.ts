import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Visits of the public listing pages: daily counts per listing, and the
 * cookie-free per-day visitor hashes that make a visitor count once a day.
 * No foreign keys into the listings or agencies tables: those belong to
 * other modules, and the counts are history that outlives any listing change.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('listing_visits', (table) => {
      table.integer('listing_id').notNullable()
      table.date('day').notNullable()
      table.integer('app_id').notNullable()
      table.integer('agency_id').notNullable()
      table.string('external_id', 255).notNullable()
      // Responsible operator when last counted; the report's `operador` filter.
      table.integer('operator_id').nullable()
      table.integer('visits').notNullable().defaultTo(0)
      table.primary(['listing_id', 'day'])
      // GET /v3/visitas/{adminmail}: app + agency + period, optionally one listing.
      table.index(['app_id', 'agency_id', 'day'], 'listing_visits_app_agency_day')
    })

    // Only today's (and yesterday's) rows are needed; a daily job prunes the rest.
    // The hash is keyed with a per-day secret, so it cannot be linked across days.
    this.schema.createTable('listing_visitors', (table) => {
      table.integer('listing_id').notNullable()
      table.date('day').notNullable()
      table.binary('visitor_hash').notNullable()
      table.primary(['listing_id', 'day', 'visitor_hash'])
      table.index(['day'], 'listing_visitors_day')
    })
  }

  async down() {
    this.schema.dropTable('listing_visitors')
    this.schema.dropTable('listing_visits')
  }
}
