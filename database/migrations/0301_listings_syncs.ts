import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Stock syncs (docs/design.md §15). A sync keeps the rows as they were sent
 * (`payload`, the wire object) until the worker gives each its result; a row's
 * result is written in the transaction of the listing write it caused, so a
 * worker that dies resumes at the first row without one. Positions after the
 * sent rows hold the listings the sync archives (`kind = 'archive'`): the
 * Bajas, or — for a full sync, listed when it starts — the app's listings it
 * leaves out.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('listing_syncs', (table) => {
      table.bigIncrements('id')
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.integer('agency_id').notNullable()
      table.string('admin_email', 254).notNullable()
      table.string('mode', 8).notNullable() // 'full' | 'partial'
      table.boolean('simulated').notNullable()
      table.string('state', 10).notNullable().defaultTo('pending') // pending | running | done | failed
      table.integer('total').notNullable()
      // A full sync lists what it archives when it starts (its rows are then added to total).
      table.boolean('archives_pending').notNullable().defaultTo(false)
      table.integer('processed').notNullable().defaultTo(0)
      table.integer('created').notNullable().defaultTo(0)
      table.integer('updated').notNullable().defaultTo(0)
      table.integer('unchanged').notNullable().defaultTo(0)
      table.integer('archived').notNullable().defaultTo(0)
      table.integer('rejected').notNullable().defaultTo(0)
      table.timestamp('received_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('finished_at', { useTz: true }).nullable()
      // The worker running it holds it until then (renewed per batch); a dead worker's lapses.
      table.timestamp('lease_until', { useTz: true }).nullable()
      table.uuid('lease_holder').nullable()
      // The agency's list: newest first, last 30 days.
      table.index(['agency_id', 'app_id', 'received_at'], 'listing_syncs_agency_received')
    })
    // Syncs of one agency run in order of arrival: the oldest unfinished one goes first.
    this.schema.raw(
      `create index listing_syncs_unfinished on listing_syncs (agency_id, id) where state in ('pending', 'running')`
    )

    this.schema.createTable('listing_sync_rows', (table) => {
      table.bigInteger('sync_id').notNullable().references('listing_syncs.id').onDelete('CASCADE')
      table.integer('position').notNullable()
      table.string('kind', 7).notNullable() // 'upsert' | 'archive'
      table.string('external_id', 255).nullable()
      table.jsonb('payload').nullable()
      // Null until the worker gives the row its result; then 'created' | 'updated' | 'unchanged' | 'archived' | 'rejected'.
      table.string('outcome', 9).nullable()
      table.jsonb('errors').nullable()
      table.primary(['sync_id', 'position'])
    })
  }

  async down() {
    this.schema.dropTable('listing_sync_rows')
    this.schema.dropTable('listing_syncs')
  }
}
